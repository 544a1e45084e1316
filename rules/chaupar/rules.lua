-- The switch values a game plays with (spec §15). Copied into props at setup so that a
-- position's `set` lines (§17) can override them, and read back once per event: every switch
-- with a list of values is one small field of the integer prop "sw" (its value's place in the
-- list), so one kernel call reads them all; the few others (numbers and lists) sit in props
-- "sw_<name>", read when a rule asks for them.

local SWITCHES = require("chaupar.switches")

local R = {}

R.NAMES = {}
for name in pairs(SWITCHES) do R.NAMES[#R.NAMES + 1] = name end
table.sort(R.NAMES)

local FIELDS, BITS = {}, 2 -- the switches packed in "sw", each in BITS bits
local OTHER = {} -- name → prop of the switches kept apart
for _, name in ipairs(R.NAMES) do
  local def = SWITCHES[name]
  if type(def.default) == "boolean" then def = { values = { false, true } } end
  if def.values then
    assert(#def.values <= 1 << BITS, name .. " has too many values to pack")
    FIELDS[#FIELDS + 1] = { name = name, values = def.values }
  else
    OTHER[name] = "sw_" .. name
  end
end
assert(#FIELDS * BITS <= 62, "the packed switches need more than 62 bits")
assert(BITS == 2, "R.read unpacks fields of two bits")
local VALUES = {} -- VALUES[k][x]: the value in place x (from 0) of packed switch k
for k, f in ipairs(FIELDS) do VALUES[k] = table.move(f.values, 1, #f.values, 0, {}) end

local function place(values, v)
  for i, x in ipairs(values) do if x == v then return i - 1 end end
  return nil
end

-- List-valued switches are kept as text (props hold arrays of scalars only).
local function stored(v) return type(v) == "table" and table.concat(v, ",") or v end

local PLACE = {} -- name → k, the field of "sw" that holds the switch
for k, f in ipairs(FIELDS) do PLACE[f.name] = k end

-- Reads on first use a switch that R.read leaves out: one kept apart, or one of the packed
-- switches that only setup, a position or a rare rule reads.
local LAZY = {
  __index = function(sw, name)
    local k, v = PLACE[name], nil
    if k then
      v = VALUES[k][sw[0]:get("sw") >> BITS * (k - 1) & 3]
    elseif OTHER[name] then
      v = sw[0]:get(OTHER[name])
    else
      return nil
    end
    rawset(sw, name, v)
    return v
  end,
}

-- The effective switch values, as a table by name (one constructor, so the table is built at
-- its full size at once; field k of "sw" is the place of its value in VALUES[k], BITS bits
-- from bit BITS·(k − 1)). The switches read in most events are decoded here; the others
-- (seats, start, turn_order, turn_unit, triple_stack_bonus and the cowrie follow-up and last
-- square) by LAZY when asked for.
function R.read(G)
  local packed, F = G:get("sw"), VALUES
  return setmetatable({
    [0] = G,
    block_form_by = F[1][packed & 3],
    block_model = F[2][packed >> 2 & 3],
    block_passing = F[3][packed >> 4 & 3],
    blocks_split = F[4][packed >> 6 & 3],
    capture_extra_throw = F[5][packed >> 8 & 3],
    castle_function = F[6][packed >> 10 & 3],
    castle_set = F[7][packed >> 12 & 3],
    cowrie_schedule = F[10][packed >> 18 & 3],
    direction = F[11][packed >> 20 & 3],
    entry_compulsory = F[12][packed >> 22 & 3],
    exact_finish = F[13][packed >> 24 & 3],
    finished_plays_partner = F[14][packed >> 26 & 3],
    forced_play = F[15][packed >> 28 & 3],
    implement = F[16][packed >> 30 & 3],
    kill_before_home = F[17][packed >> 32 & 3],
    multi_entry = F[18][packed >> 34 & 3],
    sum_touches_intermediate = F[21][packed >> 40 & 3],
    two_player_throw = F[25][packed >> 48 & 3],
  }, LAZY)
end
do
  -- the packed switches in the order of FIELDS, false for those R.read leaves to LAZY
  local names = { "block_form_by", "block_model", "block_passing", "blocks_split", "capture_extra_throw", "castle_function", "castle_set", false, false, "cowrie_schedule", "direction", "entry_compulsory", "exact_finish", "finished_plays_partner", "forced_play", "implement", "kill_before_home", "multi_entry", false, false, "sum_touches_intermediate", false, false, false, "two_player_throw" }
  for k, f in ipairs(FIELDS) do
    assert(names[k] == f.name or names[k] == false, "R.read lists " .. f.name .. " in its place")
  end
  assert(#names == #FIELDS, "R.read accounts for every packed switch")
end

local function write(G, name, v)
  if OTHER[name] then
    G:set(OTHER[name], stored(v))
    return
  end
  local packed = G:get("sw") or 0
  for k = 1, #FIELDS do
    local f = FIELDS[k]
    if f.name == name then
      local shift = BITS * (k - 1)
      packed = (packed & ~(3 << shift)) | (place(f.values, v) << shift)
    end
  end
  G:set("sw", packed)
end

-- Copies every switch into the props (setup).
function R.init(G)
  G:set("sw", 0)
  for _, name in ipairs(R.NAMES) do write(G, name, G:switch(name)) end
end

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
  if def.values and not place(def.values, v) then
    local names = {}
    for i, a in ipairs(def.values) do names[i] = tostring(a) end
    return "switch " .. name .. " cannot be '" .. text .. "' (allowed: " .. table.concat(names, ", ") .. ")"
  end
  write(G, name, v)
  return nil
end

return R
