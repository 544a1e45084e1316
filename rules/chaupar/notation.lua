-- Typed moves (spec §16): `play` takes an option's label or number; anything else comes here.
-- Forgiving: case and spaces do not matter, "move" may be left out, and any part that names
-- one option is enough: "enter", "E.l4 6", "e.l4 x2", "E.l4 to E.r8", "E.l4 E.r8", "1+5",
-- "S.m3' home", "E.l1 2,1" (stepped in that order); where a turn plays two colours
-- (two_player_throw=shared), "N:" or "N" names the colour. A text that fits several options
-- is refused with their labels.

local B = require("chaupar.board")
local T = require("chaupar.throws")
local M = require("chaupar.moves")
local R = require("chaupar.rules")

local N = {}

-- What the typed text says, its squares read on colour c's route: { enter, from, to, j,
-- values, order, colour } (nil fields are unsaid), or nil, why.
local function read(G, dir, c, text)
  local want = {}
  local s = text:lower():gsub("^%s*move%s+", " ")
  for tok in s:gmatch("%S+") do
    local j = tok:match("^x(%d)$")
    if tok == "enter" then
      want.enter = true
    elseif tok == "to" or tok == "->" or tok == "-" then
      want.arrow = true
    elseif tok == "home" or tok == "off" then
      want.to = B.HOME
    elseif j then
      want.j = tonumber(j)
    elseif tok:match("^[senw]:?$") then
      want.colour = B.COLOUR[tok:sub(1, 1):upper()]
    elseif tok:match("^[%d+,]+$") then
      local v = {}
      for d in tok:gmatch("%d+") do v[#v + 1] = tonumber(d) end
      if tok:find(",") then want.order = table.concat(v, ",") end
      want.values = want.values or {}
      for _, x in ipairs(v) do want.values[#want.values + 1] = x end
    else
      local from, to = tok:match("^(.-)%->(.+)$")
      for _, sq in ipairs(from and { from, to } or { tok }) do
        local i, why = B.parse_index(G, dir, c, sq)
        if not i then return nil, why end
        if want.from == nil then want.from = i elseif want.to == nil then want.to = i else
          return nil, "too many squares"
        end
      end
    end
  end
  return want
end

-- The index of the pending option that `text` means (docs/lua-api.md parse).
function N.parse(G, text, options)
  options = options or hook.status(G).options
  if not options then error("no decision is pending", 0) end
  local typed = text:lower():match("^%s*(.-)%s*$")
  for i, o in ipairs(options) do
    if o == typed then return i end
  end
  local sw = R.read(G)
  local phase = G:get("phase")
  -- the typed text read on the route of each colour the options play
  local wants, why, read_one = {}, nil, false
  local function want_for(c)
    if wants[c] == nil then
      local w, e = read(G, sw.direction, c, text)
      wants[c], why, read_one = w or false, why or e, read_one or w ~= nil
    end
    return wants[c]
  end
  local key = phase == "act" and G:get("dice")
  local hits, labels = {}, {}
  for n, o in ipairs(options) do
    local want = type(o) == "number" and want_for(M.colour(o))
    if want then
      local g, j, i, t = M.decode(o)
      local gkey = key and T.GROUPS[key][g].key or G:get("value")
      local ok = not want.colour or want.colour == M.colour(o)
      if want.enter and i ~= 0 then ok = false end
      if want.from and i ~= want.from then ok = false end
      if want.to and t ~= want.to then ok = false end
      if want.j and (i == 0 or j ~= want.j) then ok = false end
      if want.values then
        local k = #want.values == 1 and want.values[1] or T.key(want.values)
        if k ~= gkey then ok = false end
      end
      if want.order then
        local steps = M.steps_of(o)
        if not steps or table.concat(steps, ",") ~= want.order then ok = false end
      end
      if ok then
        hits[#hits + 1] = n
        labels[#labels + 1] = hook.label(G, o)
      end
    end
  end
  if #hits == 1 then return hits[1] end
  if not read_one and why then error(string.format("%q: %s", text, why), 0) end
  if #hits == 0 then
    local all = {}
    for n, o in ipairs(options) do all[n] = type(o) == "string" and o or hook.label(G, o) end
    error(string.format("%q is not possible now (options: %s)", text, table.concat(all, "; ")), 0)
  end
  error(string.format("%q could be: %s", text, table.concat(labels, "; ")), 0)
end

return N
