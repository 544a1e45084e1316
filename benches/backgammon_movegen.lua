-- The backgammon move generator alone, outside the kernel: microseconds per roll on the
-- positions of random games, by kind of roll (the generator's fast paths and its search).
-- Run with a stock Lua 5.4 from the project root:
--   lua5.4 benches/backgammon_movegen.lua [games]
-- `tortuga bench backgammon` measures whole playouts; this one tells which kind of roll the
-- generator spends its time on.

package.path = "rules/?.lua;" .. package.path
local movegen = require("backgammon.movegen")

math.randomseed(42)
local games = tonumber(arg[1]) or 200

-- The start position, X to play; boards are always oriented to the side on roll.
local function start()
  local b = {}
  for p = 0, 25 do b[p] = 0 end
  b[24], b[13], b[8], b[6] = 2, 5, 3, 5
  b[1], b[12], b[17], b[19] = -2, -5, -3, -5
  return b
end

-- The same position from the other side: `off` and `bar` are that side's.
local function flipped(b, off, bar)
  local t = { [0] = off, [25] = bar }
  for p = 1, 24 do t[p] = -b[25 - p] end
  return t
end

local function kind(b, d1, d2)
  local outside = b[25]
  for p = 7, 24 do
    if b[p] > 0 then outside = outside + b[p] end
  end
  if d1 == d2 then return outside >= 4 and "double" or "double, other" end
  if b[25] > 0 then return "bar" end
  return outside >= 2 and "plain" or "bearing off"
end

-- Positions of random games, each with its roll.
local rolls = {}
for _ = 1, games do
  local b, opp_off, opp_bar = start(), 0, 0
  while b[0] < 15 do
    local d1, d2 = math.random(6), math.random(6)
    rolls[#rolls + 1] = { movegen.copy(b), d1, d2 }
    local moves = movegen.moves(b, d1, d2, 0)
    if #moves > 0 then
      local m = moves[math.random(#moves)]
      opp_bar = opp_bar + movegen.apply(b, m, #m)
    end
    if b[0] == 15 then break end
    b, opp_off, opp_bar = flipped(b, opp_off, opp_bar), b[0], b[25]
  end
end

local REPEAT = 20
local stats, total = {}, 0
for _, r in ipairs(rolls) do
  local b, d1, d2 = r[1], r[2], r[3]
  local t0, n = os.clock(), 0
  for _ = 1, REPEAT do n = #movegen.packs(b, d1, d2, 0) end
  local dt = (os.clock() - t0) / REPEAT
  local k = kind(b, d1, d2)
  local s = stats[k] or { rolls = 0, time = 0, moves = 0 }
  stats[k] = s
  s.rolls, s.time, s.moves = s.rolls + 1, s.time + dt, s.moves + n
  total = total + dt
end

local kinds = {}
for k in pairs(stats) do kinds[#kinds + 1] = k end
table.sort(kinds)
print(string.format("%d rolls of %d random games", #rolls, games))
for _, k in ipairs(kinds) do
  local s = stats[k]
  print(string.format("%-14s %5.1f%% of rolls  %6.2f us per roll  %5.1f moves  %4.1f%% of the time",
    k, 100 * s.rolls / #rolls, 1e6 * s.time / s.rolls, s.moves / s.rolls, 100 * s.time / total))
end
print(string.format("all            %6.2f us per roll", 1e6 * total / #rolls))
