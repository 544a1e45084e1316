-- The switch values a game plays with (spec §15): copied into the prop "sw" (an array, in the
-- order of R.NAMES) at setup so that a position's `set` lines (§17) can override them, and
-- read back in one kernel call.

local SWITCHES = require("chaupar.switches")

local R = {}

R.NAMES = {}
for name in pairs(SWITCHES) do R.NAMES[#R.NAMES + 1] = name end
table.sort(R.NAMES)
local INDEX = {}
for i, name in ipairs(R.NAMES) do INDEX[name] = i end
-- List-valued switches are kept as text (props hold arrays of scalars only).
local function stored(v) return type(v) == "table" and table.concat(v, ",") or v end

-- Copies every switch into the prop (setup).
function R.init(G)
  local v = {}
  for i, name in ipairs(R.NAMES) do v[i] = stored(G:switch(name)) end
  G:set("sw", v)
end

-- The switch values of array v (in R.NAMES order) by name, in one constructor: the rules read
-- them once per event.
local function by_name(v)
  return {
    block_form_by = v[1],
    block_model = v[2],
    block_passing = v[3],
    blocks_split = v[4],
    capture_extra_throw = v[5],
    castle_function = v[6],
    castle_set = v[7],
    cowrie_followup = v[8],
    cowrie_graces = v[9],
    cowrie_last_square = v[10],
    cowrie_max_throws = v[11],
    cowrie_p = v[12],
    cowrie_schedule = v[13],
    cowrie_values = v[14],
    direction = v[15],
    entry_compulsory = v[16],
    exact_finish = v[17],
    finished_plays_partner = v[18],
    forced_play = v[19],
    implement = v[20],
    kill_before_home = v[21],
    multi_entry = v[22],
    seats = v[23],
    start = v[24],
    sum_touches_intermediate = v[25],
    triple_stack_bonus = v[26],
    turn_order = v[27],
    turn_unit = v[28],
    two_player_throw = v[29],
  }
end
do
  local probe = by_name(R.NAMES)
  for _, name in ipairs(R.NAMES) do assert(probe[name] == name, "by_name misses " .. name) end
end

-- The effective switch values, as a table by name.
function R.read(G) return by_name(G:get("sw")) end


-- Sets one switch from text (a position's `set k=v`); returns nil or what is wrong.
function R.set(G, name, text)
  local def = SWITCHES[name]
  if not def then return "unknown switch '" .. name .. "'" end
  local d, v = def.default, nil
  if type(d) == "boolean" then
    if text == "true" or text == "on" then v = true elseif text == "false" or text == "off" then v = false end
    if v == nil then return "switch " .. name .. " takes true or false, not '" .. text .. "'" end
  elseif type(d) == "number" then
    v = tonumber(text)
    if not v then return "switch " .. name .. " takes a number, not '" .. text .. "'" end
    if math.type(d) == "integer" then
      if math.type(v) ~= "integer" then return "switch " .. name .. " takes a whole number, not '" .. text .. "'" end
    else
      v = v + 0.0
    end
    if (def.min and v < def.min) or (def.max and v > def.max) then
      return "switch " .. name .. " = " .. text .. " is out of range"
    end
  elseif type(d) == "table" then
    v = {}
    for w in text:gmatch("[^,%s%[%]]+") do
      local n = tonumber(w)
      if not n or math.type(n) ~= "integer" then return "switch " .. name .. ": '" .. w .. "' is not a whole number" end
      v[#v + 1] = n
    end
  else
    v = text
  end
  if def.values then
    local ok = false
    for _, a in ipairs(def.values) do if a == v then ok = true end end
    if not ok then
      local names = {}
      for i, a in ipairs(def.values) do names[i] = tostring(a) end
      return "switch " .. name .. " cannot be '" .. text .. "' (allowed: " .. table.concat(names, ", ") .. ")"
    end
  end
  local all = G:get("sw")
  all[INDEX[name]] = stored(v)
  G:set("sw", all)
  return nil
end

return R
