-- Jackal in words: what a tile is, as the log tells a player ("a cave", "an arrow pointing
-- NE", "a chest of 3 coins"), never as its code. House tiles are named from their help
-- ("Whirlpool: …" is "a whirlpool").

local A = require("jackal.arrows")
local B = require("jackal.board")
local C = require("jackal.core")

local W = {}

local NAMED = {
  ["empty"] = "an empty tile", bg = "Ben Gunn", fr = "Friday", ms = "the missionary",
  rf = "a fortress with the native woman", ca = "Caramba", rb = "a rum barrel",
}

local function plural(n, one, many) return n .. " " .. (n == 1 and one or many) end

local function article(noun)
  return (noun:match("^[aeiou]") and "an " or "a ") .. noun
end

-- The directions of exits (indices 0..7), in words: "N", "NE and SW".
local function directions(exits)
  local names = {}
  for i, d in ipairs(exits) do names[i] = B.DIRS[d][3] end
  if #names == 1 then return names[1] end
  return table.concat(names, ", ", 1, #names - 1) .. " and " .. names[#names]
end

-- The tile named `t`, lying with `r` quarter turns (nil: not yet known), in words.
function W.tile(t, r)
  if NAMED[t] then return NAMED[t] end
  local n = tonumber(t:match("^[crs](%d)$"))
  if n and t:sub(1, 1) == "c" then return "a chest of " .. plural(n, "coin", "coins") end
  if n and t:sub(1, 1) == "r" then return plural(n, "bottle", "bottles") .. " of rum" end
  if n and t:sub(1, 1) == "s" then return "a spinner of " .. n .. " steps" end
  if A.BASE[t] then
    if A.ROT[t] == 1 then r = r or 0 end
    local what = t == "gu" and "a cannon aimed" or (#A.BASE[t] == 1 and "an arrow pointing" or "arrows pointing")
    if r == nil then return (t == "gu" and "a cannon" or what:gsub(" pointing$", "")) end
    return what .. " " .. directions(A.exits(t, r))
  end
  local help = tiles[t] and tiles[t].help or ""
  local noun = help:match("^([%w ]+):")
  if noun and #noun <= 20 then return article(noun:lower()) end
  return "the tile " .. t
end

-- The line the log gets when tile t, lying r (nil: not known yet), is turned up at l `by` a
-- move or the lighthouse.
function W.turned_up(G, l, by, t, r)
  local who = "the lighthouse"
  local mover = by == "move" and G:get("mv_ch")
  if mover then who = C.cread(G, mover) end
  return who .. " turns up " .. W.tile(t, r) .. " at " .. B.name(l)
end

return W
