-- Spec §3-5 scenarios B05-B19 and B12: forced play (use both dice, else the larger; doubles as
-- often as possible), entering from the bar, hitting and bearing off.

local S = require("bg_support")

local function check(name, points, bar, d1, d2, want)
  local b = S.board(points, bar)
  S.same(S.labels(b, d1, d2), want, name)
  assert(S.count(b, d1, d2) == #want, name .. ": fast generator disagrees")
end

check("B05 larger die", { [13] = 1, [1] = 4, [3] = 5, [4] = 5, [2] = -2, [19] = -13 }, nil, 6, 5, { "13/7" })
check("B06 only the smaller", { [13] = 1, [1] = 4, [3] = 5, [4] = 5, [2] = -2, [7] = -2, [19] = -11 }, nil, 6, 5,
  { "13/8" })
check("B07 closed entry", { [6] = 5, [8] = 3, [13] = 5, [24] = 1, [1] = -2, [12] = -5, [17] = -4, [19] = -2, [20] = -2 },
  { 1, 0 }, 6, 5, {})

local b08 = { [6] = 5, [8] = 3, [13] = 5, [18] = -3, [19] = -2, [20] = -2, [21] = -2, [22] = -2, [23] = -2, [24] = -2 }
for a = 1, 6 do
  for b = a, 6 do check("B08 shutout " .. b .. a, b08, { 1, 0 }, a, b, {}) end
end

local b09 = { [6] = 5, [8] = 3, [13] = 5, [1] = -2, [12] = -5, [17] = -3, [19] = -5 }
check("B09 two enter", b09, { 2, 0 }, 4, 3, { "bar/22 bar/21" })
local b10 = { [6] = 5, [8] = 3, [13] = 5, [1] = -2, [12] = -5, [17] = -3, [19] = -3, [21] = -2 }
check("B10 one enters", b10, { 2, 0 }, 4, 3, { "bar/22" })

check("B11 enter and hit", { [6] = 5, [8] = 3, [13] = 5, [1] = -1, [12] = -5, [17] = -3, [19] = -5, [22] = -1 },
  { 1, 0 }, 5, 3,
  { "bar/20 13/10", "bar/20 6/3", "bar/20 8/5", "bar/22* 13/8", "bar/22* 6/1*", "bar/22* 8/3" })

local b12 = S.labels(S.board({ [24] = 2, [13] = 5, [8] = 3, [6] = 5, [18] = -1, [1] = -2, [12] = -5, [17] = -2, [19] = -5 }),
  6, 5)
assert(#b12 == 7, "B12: " .. #b12 .. " moves, want 7")
local has = {}
for _, l in ipairs(b12) do has[l] = true end
for _, l in ipairs({ "24/18*/13", "24/18* 13/8", "24/18* 8/3" }) do assert(has[l], "B12 lacks " .. l) end

check("B13 one of four", { [13] = 1, [1] = 5, [2] = 5, [3] = 4, [5] = -2, [19] = -13 }, nil, 4, 4, { "13/9" })
check("B14 two of four", { [13] = 1, [2] = 7, [3] = 7, [1] = -2, [19] = -13 }, nil, 4, 4, { "13/5" })
check("B15 bear off highest", { [3] = 1, [2] = 1, [24] = -15 }, nil, 6, 5, { "3/off 2/off" })
check("B16 6/2 first", { [6] = 1, [2] = 1, [24] = -15 }, nil, 4, 4, { "6/off 2/off" })
check("B17 both dice", { [2] = 1, [24] = -15 }, nil, 6, 1, { "2/off" })
check("B18 home then off", { [7] = 1, [1] = 2, [24] = -15 }, nil, 6, 1, { "7/off" })
check("B19 bar first", { [1] = 3, [2] = 3, [3] = 3, [4] = 2, [5] = 2, [6] = 1, [19] = -13, [24] = -2 }, { 1, 0 },
  6, 2, { "bar/17" })

