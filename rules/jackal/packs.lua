-- Tile packs (§2, §7): how many tiles of each kind the deck holds, and tile codes.
-- Tiles are known by the codes their files declare (`tile_names`, `tiles[code]`), the §7
-- codes, except the empty tile (file empty.lua, known as "empty", code "." in positions).
-- Codes that take an orientation: a1–a7 and gu.

local C = require("jackal.core")

local P = {}

P.TREASURE_ISLAND = {
  empty = 18, a1 = 3, a2 = 3, a3 = 3, a4 = 3, a5 = 3, a6 = 3, a7 = 3, hs = 2,
  s2 = 5, s3 = 4, s4 = 2, s5 = 1, ic = 6, tr = 3, cr = 4, cn = 1, ft = 2, rf = 1,
  c1 = 5, c2 = 5, c3 = 3, c4 = 2, c5 = 1, pl = 1, bl = 2, gu = 2, rb = 4,
  gl = 1, ca = 1, lh = 1, bg = 1, ms = 1, fr = 1, r1 = 3, r2 = 2, r3 = 1, cv = 4, eq = 1,
  jg = 3, gr = 2,
}

P.CLASSIC = {
  empty = 40, a1 = 3, a2 = 3, a3 = 3, a4 = 3, a5 = 3, a6 = 3, a7 = 3, hs = 2,
  s2 = 5, s3 = 4, s4 = 2, s5 = 1, ic = 6, tr = 3, cr = 4, cn = 1, ft = 2, rf = 1,
  c1 = 5, c2 = 5, c3 = 3, c4 = 2, c5 = 1, pl = 1, bl = 2, gu = 2, rb = 4,
}

function P.code(name) return name == "empty" and "." or name end
function P.name(code) return code == "." and "empty" or code end

-- Tile counts of the pack in play, by tile name (a custom pack takes the variant's counts).
function P.counts(G)
  local pack = C.sw(G, "pack")
  local out = {}
  for i = 1, #tile_names do
    local n = tile_names[i]
    if pack == "classic" then
      out[n] = P.CLASSIC[n] or 0
    elseif pack == "custom" then
      out[n] = tiles[n].count
    else
      out[n] = P.TREASURE_ISLAND[n] or 0
    end
  end
  return out
end

-- The deck of the pack: a sorted list of tile names with repeats.
function P.deck(G)
  local counts = P.counts(G)
  local out = {}
  for i = 1, #tile_names do
    local n = tile_names[i]
    for _ = 1, counts[n] do out[#out + 1] = n end
  end
  return out
end

return P
