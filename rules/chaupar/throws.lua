-- Throwing implements (spec §5, §7): the long dice and their groups (the non-empty sub-multisets
-- of the unused dice, identified by value, §8), entry groups, and the cowrie schedule (§5, §15
-- `cowrie_schedule`).
--
-- The unused dice of a throw are one integer: their values as decimal digits, largest first
-- (6 6 2 → 662; 0 = none). GROUPS[key] lists the groups that can be spent from it.

local T = {}

T.IMPLEMENTS = {
  dice3 = { faces = { 1, 2, 5, 6 }, count = 3, entry = 6 },
  dice2 = { faces = { 1, 3, 4, 6 }, count = 2, entry = 4 },
  cowries = { count = 6, entry = 1 },
}

-- Key of a list of dice values (sorted by insertion: the sandbox's table.sort is metered, and
-- costs more than the few dice of a throw).
function T.key(values)
  local v = {}
  for i = 1, #values do
    local x, k = values[i], i
    while k > 1 and v[k - 1] < x do
      v[k] = v[k - 1]
      k = k - 1
    end
    v[k] = x
  end
  local k = 0
  for i = 1, #v do k = k * 10 + v[i] end
  return k
end

-- Dice values of a key, largest first.
function T.values(key)
  local v = {}
  while key > 0 do
    table.insert(v, 1, key % 10)
    key = key // 10
  end
  table.sort(v, function(a, b) return a > b end)
  return v
end

-- GROUPS[key] = { { key, sum, rest, size, label }… } in a fixed order (sum, then key); built
-- for every multiset of up to three dice values 1..6.
T.GROUPS = {}
local function build(key)
  if T.GROUPS[key] then return end
  local v = T.values(key)
  local n, seen, list = #v, {}, {}
  for mask = 1, (1 << n) - 1 do
    local g, r = {}, {}
    for i = 1, n do
      if mask & (1 << (i - 1)) ~= 0 then g[#g + 1] = v[i] else r[#r + 1] = v[i] end
    end
    local gk = T.key(g)
    if not seen[gk] then
      seen[gk] = true
      local sum, parts = 0, {}
      for i = #g, 1, -1 do
        sum = sum + g[i]
        parts[#parts + 1] = tostring(g[i])
      end
      list[#list + 1] = { key = gk, sum = sum, rest = T.key(r), size = #g, label = table.concat(parts, "+") }
    end
  end
  table.sort(list, function(a, b)
    if a.sum ~= b.sum then return a.sum < b.sum end
    return a.key < b.key
  end)
  T.GROUPS[key] = list
  for _, g in ipairs(list) do build(g.rest) end
end
for a = 1, 6 do
  for b = 0, a do
    for c = 0, b do
      if b == 0 then build(a) elseif c == 0 then build(a * 10 + b) else build(a * 100 + b * 10 + c) end
    end
  end
end
T.GROUPS[0] = {}

-- The most disjoint groups summing to `entry` that the dice of `key` hold.
local function entry_groups(key, entry)
  local best = 0
  for _, g in ipairs(T.GROUPS[key]) do
    if g.sum == entry then
      local n = 1 + entry_groups(g.rest, entry)
      if n > best then best = n end
    end
  end
  return best
end

-- ORDERS[key]: the distinct orders of the dice of key (sum_touches_intermediate, §8).
T.ORDERS = {}
local function orders(v)
  if #v <= 1 then return { v } end
  local out, seen = {}, {}
  for i = 1, #v do
    if not seen[v[i]] then
      seen[v[i]] = true
      local rest = {}
      for k = 1, #v do if k ~= i then rest[#rest + 1] = v[k] end end
      for _, tail in ipairs(orders(rest)) do
        local o = { v[i] }
        for _, x in ipairs(tail) do o[#o + 1] = x end
        out[#out + 1] = o
      end
    end
  end
  return out
end
for key in pairs(T.GROUPS) do
  local v = T.values(key)
  table.sort(v)
  T.ORDERS[key] = orders(v)
end

-- SIZE[key]: how many dice; DICE[key]: their values; ENTRIES[entry][key]: entry_groups, for
-- the entry values 4 and 6.
T.SIZE, T.DICE, T.ENTRIES = {}, {}, { [4] = {}, [6] = {} }
for key in pairs(T.GROUPS) do
  T.DICE[key] = T.values(key)
  T.SIZE[key] = #T.DICE[key]
  for e, t in pairs(T.ENTRIES) do t[key] = entry_groups(key, e) end
end

-- Bell's schedule (§5): values for 0..6 shells mouth-up, and the graces.
local BELL_VALUES, BELL_GRACES = { 25, 10, 2, 3, 4, 5, 6 }, { [25] = true, [10] = true, [6] = true }

-- The cowrie schedule: values[m + 1] for m shells mouth-up, and the set of graces.
function T.schedule(sw)
  if sw.cowrie_schedule == "custom" then
    local graces = {}
    for w in tostring(sw.cowrie_graces):gmatch("[^,]+") do graces[tonumber(w)] = true end
    local values = {}
    for w in tostring(sw.cowrie_values):gmatch("[^,]+") do values[#values + 1] = tonumber(w) end
    return values, graces
  end
  return BELL_VALUES, BELL_GRACES
end

-- Every distance one move can cover with the switches' implement: each sum of one to all of
-- its dice (twice a die too, with triple_stack_bonus), or each cowrie value (and the 1 of
-- cowrie_last_square=bonus_one).
function T.lengths(sw)
  local seen, out = {}, {}
  local function add(v)
    if not seen[v] then seen[v], out[#out + 1] = true, v end
  end
  if sw.implement == "cowries" then
    for _, v in ipairs((T.schedule(sw))) do add(v) end
    if sw.cowrie_last_square == "bonus_one" then add(1) end
    return out
  end
  local imp, sums = T.IMPLEMENTS[sw.implement], { 0 }
  for _ = 1, imp.count do
    local longer = {}
    for _, s in ipairs(sums) do
      for _, f in ipairs(imp.faces) do
        add(s + f)
        longer[#longer + 1] = s + f
      end
    end
    sums = longer
  end
  if sw.triple_stack_bonus == "on" then
    for _, f in ipairs(imp.faces) do add(2 * f) end
  end
  return out
end

-- "6 6 2" for a key.
T.TEXT = {}
for key in pairs(T.GROUPS) do
  local v = T.values(key)
  for i = 1, #v do v[i] = tostring(v[i]) end
  T.TEXT[key] = table.concat(v, " ")
end
function T.text(key) return T.TEXT[key] end

return T
