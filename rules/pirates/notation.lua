-- Typed moves (spec §17), parsed forgivingly: case, spaces and commas do not matter, "sail"
-- means move, "at"/"to" may be written ("fire B1 at G1"), the verb of a move may be left out
-- ("G1 S 3"), a direction may be spelt out ("north-east"), a salvo's ships come in any order,
-- and the end of an action may be left off where only one action starts so ("B1 NE" when B1
-- may sail only one distance north-east).

local N = {}

local WORDS = {
  SAIL = "MOVE", AT = "", TO = "", ON = "",
  NORTH = "N", SOUTH = "S", EAST = "E", WEST = "W",
  NORTHEAST = "NE", NORTHWEST = "NW", SOUTHEAST = "SE", SOUTHWEST = "SW",
}

local function key(text)
  local words = {}
  for w in text:upper():gsub("[%-]", ""):gmatch("[^%s,]+") do
    local m = WORDS[w]
    if m == nil then m = w end
    if m ~= "" then words[#words + 1] = m end
  end
  if words[1] == "SALVO" and #words > 3 then
    local ships = { table.unpack(words, 2, #words - 1) }
    table.sort(ships)
    words = { "SALVO", table.concat(ships, " "), words[#words] }
  end
  return table.concat(words, " ")
end

-- Whether `label` (a key) is `want` (a key) or starts with it, with or without a move's verb.
local function starts(label, want)
  local bare = label:gsub("^MOVE ", "")
  return label:sub(1, #want + 1) == want .. " " or bare:sub(1, #want + 1) == want .. " "
end

function N.parse(G, text, options)
  local want = key(text)
  local exact, loose, keys = {}, {}, {}
  for i, o in ipairs(options) do
    local label = type(o) == "string" and o or hook.label(G, o)
    local k = key(label)
    keys[i] = k
    if k == want then exact[#exact + 1] = i end
    if k:gsub(" ", "") == want:gsub(" ", "") or k:gsub("^MOVE ", ""):gsub(" ", "") == want:gsub(" ", "") then
      loose[#loose + 1] = i
    end
  end
  local found = #exact > 0 and exact or loose
  if #found == 0 then
    for i, k in ipairs(keys) do
      if starts(k, want) then found[#found + 1] = i end
    end
  end
  if #found == 1 then return found[1] end
  if #found > 1 then error("'" .. text .. "' is ambiguous", 0) end
  error("'" .. text .. "' is not a legal action now (type moves)", 0)
end

return N
