-- The switch values a game plays with (spec §15). Copied into props at setup so that a
-- position's `set` lines (§17) can override them, and read back with the board when an event
-- finds no view kept from the last one: every switch with a list of values is one small field
-- of the integer prop "sw" (its value's place in the list), so one kernel call reads them all;
-- the few others (numbers and lists) sit in props "sw_<name>".

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
local VALUES = {} -- VALUES[k][x]: the value in place x (from 0) of packed switch k
for k, f in ipairs(FIELDS) do VALUES[k] = table.move(f.values, 1, #f.values, 0, {}) end

local function place(values, v)
  for i, x in ipairs(values) do if x == v then return i - 1 end end
  return nil
end

-- List-valued switches are kept as text (props hold arrays of scalars only).
local function stored(v) return type(v) == "table" and table.concat(v, ",") or v end

-- The switches kept apart, in name order.
local OTHER_NAMES = {}
for _, name in ipairs(R.NAMES) do
  if OTHER[name] then OTHER_NAMES[#OTHER_NAMES + 1] = name end
end

-- The effective switch values, as a table by name: field k of "sw" is the place of its value
-- in VALUES[k], BITS bits from bit BITS·(k − 1). Read when an event finds no kept view
-- (turns.lua), so it decodes every switch at once.
function R.read(G)
  local packed, sw = G:get("sw"), {}
  for k = 1, #FIELDS do sw[FIELDS[k].name] = VALUES[k][packed >> BITS * (k - 1) & 3] end
  for _, name in ipairs(OTHER_NAMES) do sw[name] = G:get(OTHER[name]) end
  return sw
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
