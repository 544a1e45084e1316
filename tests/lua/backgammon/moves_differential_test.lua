-- Issue 16, item 1: the moves built from the rules' hooks (moves.lua) and the fast generator
-- (movegen.lua, which the game uses while no move hook is overridden; house rules:
-- house_moves_check.lua) give the same moves in
-- the same order: the same resulting position at every index, on at least 10,000 positions at
-- the full soak size (K.soak)
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
assert(rules.fast_dice(G, 6, 5) == 2 and rules.shield(G, nil, 2) == 0,
  "the base rules must use the fast generator")

local NAMES = { "fast", "readable" }
local compared = 0
local function compare(b, d1, d2)
  S.same_moves(b, d1, d2, movegen.packs(b, d1, d2, 0), moves.moves(G, b, d1, d2), NAMES)
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
local POSITIONS = K.soak(10000)
while compared < POSITIONS do
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
assert(compared >= POSITIONS, "compared only " .. compared)
