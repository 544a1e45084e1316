-- cube_theory.lua (spec §6; issue: the doubling cube as players use it): money decisions by
-- Janowski's model, match decisions by the match equity table with Crawford, post-Crawford
-- and dead cubes. Each case compares what a bot compares: the worth of each option's result.

local F = require("flow_support")
local CT = require("backgammon.cube_theory")

local function near(got, want, what)
  assert(math.abs(got - want) < 1e-6, string.format("%s: %.6f, expected %.6f", what, got, want))
end

-- A game at X's turn before rolling, the cube at `value` owned by `owner` (0 centred).
local function at(switches, value, owner, props)
  local G = F.new(switches)
  G:set_current(1)
  G:set("phase", "start", "cube", value, "cube_owner", owner)
  for k, v in pairs(props or {}) do G:set(k, v) end
  return G
end

-- What `seat` answers to a double now pending ("take" / "drop"), given its estimate.
local function answer(G, seat, e)
  local value, owner, phase = G:get("cube"), G:get("cube_owner"), G:get("phase")
  G:set("phase", "roll", "cube", value * 2, "cube_owner", seat)
  local take = CT.equity(G, seat, e)
  G:set("phase", phase, "cube", value, "cube_owner", owner)
  local drop
  local length = G:get("match_length") or 0
  if length == 0 then
    drop = -value
  else
    local score = G:get("score")
    drop = CT.met(length - score[seat], length - score[3 - seat] - value, G:get("crawford_used") or false)
  end
  return take > drop and "take" or "drop"
end

-- Whether X, on roll with estimate `e`, doubles: the doubled state against rolling.
local function doubles(G, e)
  G:set("phase", "roll")
  local roll = CT.equity(G, 1, e)
  G:set("phase", "doubled")
  local double = CT.equity(G, 1, e)
  G:set("phase", "start")
  return double > roll
end

-- Money play, no gammons: X doubles from about two chances in three; O takes a double down
-- to about 21.5% (20% with a fully live cube, 25% with a dead one) and drops below.
local money = { match_length = 0 }
assert(not doubles(at(money, 1, 0), { win = 0.6 }), "money: no double at 60%")
assert(doubles(at(money, 1, 0), { win = 0.75 }), "money: double at 75%")
assert(doubles(at(money, 1, 0), { win = 0.85 }), "money: double at 85%")
local G = at(money, 1, 0)
G:set("phase", "doubled")
assert(answer(G, 2, { win = 0.25 }) == "take", "money: take at 25%")
assert(answer(G, 2, { win = 0.18 }) == "drop", "money: drop at 18%")
-- The doubled state is worth to the doubler what the taker's best answer leaves him.
near(CT.equity(G, 1, { win = 0.85 }), 1, "money: a double O must drop is worth the cube")

-- Too good to double: with many gammons X plays on; under Jacoby's rule (gammons count only
-- once the cube is turned) the same position is a double.
local gammonish = { win = 0.9, win_gammon = 0.6 }
assert(not doubles(at(money, 1, 0), gammonish), "money: too good to double")
assert(doubles(at({ match_length = 0, jacoby = true }, 1, 0), gammonish), "Jacoby: cash it")

-- An owned cube is worth more than a centred one, and the centred one more than the
-- opponent's: the cube's access has value (Janowski).
local owned = CT.equity(at(money, 2, 1), 1, { win = 0.6 })
local centred = CT.equity(at(money, 2, 0), 1, { win = 0.6 })
local theirs = CT.equity(at(money, 2, 2), 1, { win = 0.6 })
assert(owned > centred and centred > theirs, "money: owned > centred > opponent's")
-- With the cube off, the worth is the cubeless equity.
near(CT.equity(at({ match_length = 0, cube = false }, 1, 0), 1, { win = 0.6 }), 0.2, "cube off")

-- The match equity table: Kazaross XG2, as shipped.
near(CT.met(5, 5, false), 0.5, "MET 5-away all")
near(CT.met(1, 2, false), 0.67736, "MET Crawford game, 1-away against 2-away")
near(CT.met(2, 1, true), 0.48803, "MET post-Crawford, 2-away against 1-away")
near(CT.met(1, 3, true), 1 - 0.32264, "MET post-Crawford leader")
near(CT.met(0, 3, false), 1, "a side that needs nothing has won")

-- Match play, 5 points.
local five = { match_length = 5 }
-- 3-3 (both 2 away) with X owning the cube at 2: a double would pass what either needs.
G = at(five, 2, 1, { score = { 3, 3 } })
assert(not doubles(G, { win = 0.99 }), "2-away 2-away: no double past the match")
-- Post-Crawford, X leads 4-2: the leader's cube is dead, whatever his chances.
local post = { score = { 4, 2 }, crawford_used = true }
assert(not doubles(at(five, 1, 0, post), { win = 0.95 }), "post-Crawford: the leader never doubles")
-- Post-Crawford, O trails 2-4 and doubles at once: X, one away, loses nothing more at 2.
G = at(five, 1, 0, { score = { 2, 4 }, crawford_used = true })
assert(doubles(G, { win = 0.45 }), "post-Crawford: the trailer doubles")
G:set("phase", "doubled")
assert(answer(G, 2, { win = 0.55 }) == "take", "post-Crawford: the leader takes")
-- A double worth nothing to the doubler is worth a hair less than rolling, never a tie.
G = at(five, 4, 1, { score = { 2, 0 } })
G:set("phase", "roll")
local roll = CT.equity(G, 1, { win = 0.7 })
G:set("phase", "doubled")
assert(CT.equity(G, 1, { win = 0.7 }) < roll, "cube 4 with 3 to go: no double")
-- The equity of a match game is a chance of winning the match.
local e = CT.equity(at(five, 1, 0, { score = { 0, 0 } }), 1, { win = 0.5 })
assert(e > 0.45 and e < 0.55, "an even game at 0-0 is near 50% of the match: " .. e)
