-- Arrow and cannon geometry (§7.1): exit sets at rotation 0, quarter turns clockwise, the
-- placed labels (a1N … a5SW, guN …) and glyphs. Directions are indices 0..7 clockwise from N.

local B = require("jackal.board")
local C = require("jackal.core")

local A = {}

A.BASE = { a1 = { 0 }, a2 = { 1 }, a3 = { 1, 5 }, a4 = { 2, 6 }, a5 = { 2, 4, 7 },
           a6 = { 0, 2, 4, 6 }, a7 = { 1, 3, 5, 7 }, gu = { 0 } }
-- Distinct orientations of each kind.
A.ROT = { a1 = 4, a2 = 4, a3 = 2, a4 = 2, a5 = 4, a6 = 1, a7 = 1, gu = 4 }

local function lower(a, b) return a < b end

-- Exits of `kind` turned r quarter turns clockwise, sorted.
function A.exits(kind, r)
  local out = {}
  local base = A.BASE[kind]
  for i = 1, #base do out[i] = (base[i] + 2 * (r or 0)) % 8 end
  return C.sort_few(out, lower)
end

-- The placed label: a1N, a3NW, a5SE, a6, guW …
function A.code(kind, r)
  if r == nil then return kind end
  r = r % A.ROT[kind]
  local d = B.DIRS
  if kind == "a1" or kind == "gu" then return kind .. d[(2 * r) % 8][3] end
  if kind == "a2" then return kind .. d[(1 + 2 * r) % 8][3] end
  if kind == "a3" then return kind .. (r == 0 and "NE" or "NW") end
  if kind == "a4" then return kind .. (r == 0 and "E" or "N") end
  if kind == "a5" then return kind .. d[(7 + 2 * r) % 8][3] end
  return kind
end

-- "a5NE" → "a5", 1; "a6" → "a6", 0; "a1" → "a1", nil (orientation not given); nil if unknown.
function A.parse(token)
  local kind, suffix = string.match(token, "^(a%d)(%u*)$")
  if not kind then kind, suffix = string.match(token, "^(gu)(%u*)$") end
  if not kind or not A.BASE[kind] then return nil end
  if suffix == "" then
    if A.ROT[kind] == 1 then return kind, 0 end
    return kind, nil
  end
  for r = 0, A.ROT[kind] - 1 do
    if A.code(kind, r) == token then return kind, r end
  end
  return nil
end

-- Each kind's glyph per quarter turn (the legend lists them all).
local GLYPHS = {
  a1 = { "↑", "→", "↓", "←" }, a2 = { "↗", "↘", "↙", "↖" }, a3 = { "⤢", "⤡" },
  a4 = { "↔", "↕" }, a5 = { "⇖", "⇗", "⇘", "⇙" }, a6 = { "✛" }, a7 = { "✕" },
  gu = { "⇑", "⇒", "⇓", "⇐" },
}

A.GLYPHS = GLYPHS

function A.glyph(kind, r)
  local g = GLYPHS[kind]
  return g[(r or 0) % #g + 1]
end

-- The hooks shared by the seven arrow tiles.
function A.hooks(kind)
  return {
    transit = function() return "arrow" end,
    rotations = function() return A.ROT[kind] end,
    exits = function(G, l) return A.exits(kind, C.rot(G, l)) end,
    code = function(_, _, r) return A.code(kind, r) end,
    glyph = function(G, l) return A.glyph(kind, C.rot(G, l)) end,
    on_arrive = function(G, l)
      local ex = A.exits(kind, C.rot(G, l))
      if #ex == 1 then
        local d = B.DIRS[ex[1]]
        return { to = B.add(l, d[1], d[2]), type = "step", dx = d[1], dy = d[2] }
      end
      return C.ask(G, "move", "arrow_exit", l)
    end,
  }
end

return A
