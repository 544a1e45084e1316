-- Issue 16, item 1: the moves built from the rules' hooks (moves.lua) and the fast generator
-- (movegen.lua, which the game uses while no move hook is overridden) give the same moves in
-- the same order: the same resulting position at every index, on at least 10,000 positions
-- (turn starts of random games, both sides, and random contact, bear-off and bar boards),
-- with the roll played there and another.

local K = require("test_kernel")
local game = require("backgammon.game")
local moves = require("backgammon.moves")
local movegen = require("backgammon.movegen")
local rules = require("backgammon.rules")
local S = require("bg_support")

local rnd = S.random(4242)
local G = K.new(game)
assert(rules.fast_moves(G, 6, 5, true), "the base rules must use the fast generator")

local function board_text(b)
  local t = {}
  for p = 0, 25 do t[#t + 1] = b[p] end
  return table.concat(t, ",")
end

local function after(b, pack)
  local t = movegen.copy(b)
  local codes, n = movegen.unpack(pack)
  movegen.apply(t, codes, n)
  return board_text(t)
end

local compared = 0
local function compare(b, d1, d2)
  local fast, readable = movegen.packs(b, d1, d2, 0), moves.moves(G, b, d1, d2)
  local ok = #fast == #readable
  for i = 1, #fast do ok = ok and after(b, fast[i]) == after(b, readable[i]) end
  if not ok then
    local f, r = {}, {}
    for i, p in ipairs(fast) do f[i] = after(b, p) end
    for i, p in ipairs(readable) do r[i] = after(b, p) end
    error(string.format("roll %d-%d on %s:\n fast     %s\n readable %s", d1, d2, board_text(b),
      table.concat(f, " | "), table.concat(r, " | ")))
  end
  compared = compared + 1
end

-- Random boards, every roll.
for round = 1, 60 do
  local b = S.random_board(rnd, round % 3 + 1)
  for d1 = 1, 6 do
    for d2 = d1, 6 do compare(b, d1, d2) end
  end
end

-- Turn starts of random games: the roll played and one more.
while compared < 10000 do
  local b, opp_off, opp_bar = movegen.copy(S.board(S.START)), 0, 0
  while b[0] < 15 do
    local d1, d2 = rnd(6), rnd(6)
    compare(b, d1, d2)
    compare(b, rnd(6), rnd(6))
    local list = movegen.packs(b, d1, d2, 0)
    if #list > 0 then
      local codes, n = movegen.unpack(list[rnd(#list)])
      opp_bar = opp_bar + movegen.apply(b, codes, n)
    end
    if b[0] == 15 then break end
    b, opp_off, opp_bar = S.flipped(b, opp_off, opp_bar), b[0], b[25]
  end
end
assert(compared >= 10000, "compared only " .. compared)
