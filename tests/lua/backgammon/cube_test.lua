-- Spec §6 cube, results and matches: B21-B30 and B02 on the rule flow (fake kernel).

local F = require("flow_support")
local K = require("test_kernel")
local S = require("bg_support")

local function json_of(points, bar, extra)
  local pos = S.position(points, bar)
  local position = require("backgammon.position")
  return position.board_json(pos.me, pos.opp):sub(1, -2) .. (extra or "") .. "}"
end

-- B02: forced opening 5-3: X plays 5-3 (9 options); a tie rolls again.
local G = F.new()
F.roll(G, 4, 4)
assert(F.status(G).chance == "opening", "B02: a tie rolls again")
F.roll(G, 5, 3)
local opts, st = F.options(G)
assert(st.actor == 1 and #opts == 9, "B02: X plays 5-3 with 9 options, got " .. tostring(opts and #opts))
assert(st.prompt == "X to play 5-3", "prompt " .. tostring(st.prompt))

-- B02 with O winning the opening: O moves with X's die and his own.
G = F.new()
F.roll(G, 1, 6)
opts, st = F.options(G)
assert(st.actor == 2 and #opts == 10, "O opens 6-1: 10 options")

-- starter_rerolls: the winner rolls both dice anew, doubles possible.
G = F.new({ opening_roll = "starter_rerolls" })
F.roll(G, 2, 5)
assert(F.status(G).chance == "dice", "starter_rerolls: dice next")
F.roll(G, 6, 6)
opts, st = F.options(G)
assert(st.actor == 2 and #opts == 11, "starter_rerolls: O plays 6-6")

-- B21 / B22: results.
local function finish(points, bar, switches, extra)
  local g = F.new(switches)
  hook.import(g, json_of(points, bar, (extra or "") .. ',"dice":[2,1]'))
  F.play(g, "1/off")
  return F.status(g), g
end
local r = finish({ [1] = 1, [18] = -15 })
assert(r.over and r.scores[1] == 2 and r.scores[2] == 0, "B21 gammon: X +2")
assert(r.result == "X wins a gammon: 2 points; X 2 - O 0", "B21 result text " .. r.result)
r = finish({ [1] = 1, [18] = -14, [5] = -1 })
assert(r.scores[1] == 3, "B22 backgammon (in X's home): X +3")
r = finish({ [1] = 1, [18] = -14, [6] = -1 })
assert(r.scores[1] == 3, "B22 backgammon (on X's 6-point): X +3")
r = finish({ [1] = 1, [18] = -14, [7] = -1 })
assert(r.scores[1] == 2, "O on X's 7-point: only a gammon")
r = finish({ [1] = 1, [18] = -14 }, { 0, 1 })
assert(r.scores[1] == 3, "B22 backgammon (on the bar): X +3")
r = finish({ [1] = 1, [18] = -14 })
assert(r.scores[1] == 1, "B22 single (O has one off): X +1")
r = finish({ [1] = 1, [18] = -14, [5] = -1 }, nil, { scoring = "gammons" })
assert(r.scores[1] == 2, "scoring=gammons: backgammon counts 2")
r = finish({ [1] = 1, [18] = -15 }, nil, { scoring = "single" })
assert(r.scores[1] == 1, "scoring=single")

-- What the learned evaluation learns from a finished game (features.lua's outcome): the win
-- and the kind of win on the board, for each side, whatever the scoring counted.
local features = require("backgammon.features")
local function outcomes(g, seat)
  local o = features.outcome(g, seat)
  return string.format("%g %g %g %g %g", o.win, o.win_gammon, o.win_backgammon, o.lose_gammon,
    o.lose_backgammon)
end
local _, og = finish({ [1] = 1, [18] = -14, [5] = -1 }, nil, { scoring = "single" })
assert(outcomes(og, 1) == "1 1 1 0 0", "X's backgammon: " .. outcomes(og, 1))
assert(outcomes(og, 2) == "0 0 0 1 1", "O's loss of a backgammon: " .. outcomes(og, 2))
_, og = finish({ [1] = 1, [18] = -14 })
assert(outcomes(og, 1) == "1 0 0 0 0", "a single game: " .. outcomes(og, 1))

-- B26: Jacoby.
r = finish({ [1] = 1, [18] = -15 }, nil, { jacoby = true })
assert(r.scores[1] == 1, "B26 Jacoby, centred cube: X +1")
r = finish({ [1] = 1, [18] = -15 }, nil, { jacoby = true }, ',"cube":{"value":2,"owner":"opp"}')
assert(r.scores[1] == 4, "B26 Jacoby, cube 2: X +4")
local _, jg = finish({ [1] = 1, [18] = -15 }, nil, { jacoby = true, match_length = 5 },
  ',"match":{"length":5,"score":[0,0],"crawford":false}')
assert(jg:get("score")[1] == 2, "Jacoby never applies in a match")

-- B23: money game, cube centred.
G = F.new()
F.roll(G, 3, 1)
F.play(G, "8/5 6/5")
S.same(F.options(G), { "roll", "double" }, "B23 O at turn start")
F.play(G, "double")
opts, st = F.options(G)
S.same(opts, { "take", "drop" }, "B23 answers")
assert(st.actor == 1, "B23: X answers O's double")
F.play(G, "take")
assert(G:get("cube") == 2 and G:get("cube_owner") == 1, "B23: cube 2 owned by X")
assert(F.status(G).chance == "dice", "B23: O rolls after the take")
F.roll(G, 2, 1)
F.play(G, "24/21")
S.same(F.options(G), { "roll", "double" }, "B23: X owns the cube and may redouble")
F.play(G, "roll")
assert(F.status(G).chance == "dice", "roll → dice")
F.roll(G, 6, 5)
-- B24: after rolling, double is not possible.
S.raises(function() F.play(G, "double") end, "is not possible now", "B24 double after rolling")
S.raises(function() hook.apply(G, "double") end, "is not possible now", "B24 apply double after rolling")
F.play(G, "13/8 13/7")
assert(F.status(G).chance == "dice", "O does not own the cube: no decision before rolling")

-- B25: drop → single at the pre-offer value; redouble from 2 to 4 dropped → +2.
G = F.new()
hook.import(G, json_of(S.START, nil, ""))
F.play(G, "double")
F.play(G, "drop")
r = F.status(G)
assert(r.over and r.scores[1] == 1 and r.scores[2] == 0, "B25 X +1")
G = F.new()
hook.import(G, json_of(S.START, nil, ',"on_roll":"o","cube":{"value":2,"owner":"me"}'))
S.same(F.options(G), { "roll", "double" }, "B25 O owns the cube")
F.play(G, "double")
F.play(G, "drop")
r = F.status(G)
assert(r.over and r.scores[2] == 2 and r.scores[1] == 0, "B25 O +2")

-- B27: beavers.
G = F.new({ beavers = true })
hook.import(G, json_of(S.START, nil, ""))
F.play(G, "double")
S.same(F.options(G), { "take", "drop", "beaver" }, "B27 answers with beavers")
F.play(G, "beaver")
opts, st = F.options(G)
S.same(opts, { "take", "drop" }, "B27 X answers the beaver")
assert(st.actor == 1, "B27: X answers")
F.play(G, "take")
assert(G:get("cube") == 4 and G:get("cube_owner") == 2, "B27 take: cube 4 owned by O")
assert(F.status(G).chance == "dice", "B27: X rolls")
G = F.new({ beavers = true })
hook.import(G, json_of(S.START, nil, ""))
F.play(G, "double")
F.play(G, "beaver")
F.play(G, "drop")
r = F.status(G)
assert(r.over and r.scores[2] == 2, "B27 drop: O +2")
assert(r.result == "O wins as X drops: 2 points; X 0 - O 2", "B27 result text " .. r.result)
G = F.new({ beavers = true, match_length = 5 })
hook.import(G, json_of(S.START, nil, ',"match":{"length":5,"score":[0,0],"crawford":false}'))
F.play(G, "double")
S.same(F.options(G), { "take", "drop" }, "no beavers in a match")

-- B28: match to 5, X 3 - O 2, X wins a single → 4-2, Crawford game, then the cube again.
local function match_game(switches, score, gammon)
  local g = F.new(switches)
  local pts = gammon and { [1] = 1, [18] = -15 } or { [1] = 1, [18] = -14 }
  hook.import(g, json_of(pts, nil, ',"dice":[2,1],"match":{"length":5,"score":' .. score .. ',"crawford":false}'))
  F.play(g, "1/off")
  return g
end
G = match_game({ match_length = 5 }, "[3,2]")
assert(F.status(G).chance == "opening", "B28: next game starts with an opening roll")
local score = G:get("score")
assert(score[1] == 4 and score[2] == 2, "B28: 4-2")
assert(G:get("crawford") == true, "B28: Crawford game")
F.roll(G, 3, 1)
F.play(G, "8/5 6/5")
assert(F.status(G).chance == "dice", "B28: no double in the Crawford game (O)")
-- The Crawford game ends (O wins by a drop is impossible: play it out by import).
hook.import(G, json_of({ [1] = 1, [7] = -14 }, nil,
  ',"on_roll":"o","dice":[2,1],"match":{"length":5,"score":[2,4],"crawford":true}'))
F.play(G, "1/off")
score = G:get("score")
assert(score[1] == 4 and score[2] == 3, "B28: O wins the Crawford game: 4-3, got " .. score[1] .. "-" .. score[2])
assert(G:get("crawford") == false, "B28: post-Crawford")
F.roll(G, 3, 1)
F.play(G, "8/5 6/5")
S.same(F.options(G), { "roll", "double" }, "B28: doubling again after the Crawford game")
G = match_game({ match_length = 5, crawford = false }, "[3,2]")
F.roll(G, 3, 1)
F.play(G, "8/5 6/5")
S.same(F.options(G), { "roll", "double" }, "B28 crawford=false: doubling allowed")

-- B29: X 3 - O 2, X wins a gammon → 5-2, match over.
G = match_game({ match_length = 5 }, "[3,2]", true)
r = F.status(G)
assert(r.over and r.scores[1] == 5 and r.scores[2] == 2, "B29: 5-2 match over")
assert(r.result == "X wins a gammon: 2 points; X 5 - O 2; X wins the 5-point match", "B29 result: " .. r.result)

-- B30: cube_limit 64, cube 64 owned by X → no double.
G = F.new({ cube_limit = 64 })
hook.import(G, json_of(S.START, nil, ',"cube":{"value":64,"owner":"me"}'))
assert(F.status(G).chance == "dice", "B30: no double at the limit")
G = F.new({ cube_limit = 64 })
hook.import(G, json_of(S.START, nil, ',"cube":{"value":32,"owner":"me"}'))
S.same(F.options(G), { "roll", "double" }, "B30: 32 may still double")
G = F.new({ cube = false })
hook.import(G, json_of(S.START, nil, ""))
assert(F.status(G).chance == "dice", "cube=false: no double")

-- turn_cap: the game is drawn.
G = F.new({ turn_cap = 2 })
F.roll(G, 3, 1)
F.play(G, "8/5 6/5")
F.play(G, "roll")
F.roll(G, 2, 1)
F.play(G, "13/11 6/5")
r = F.status(G)
assert(r.over and r.scores[1] == 0 and r.scores[2] == 0 and r.result:find("drawn"), "turn cap draw")

-- A pass is logged and skipped (B07): O is to roll next.
G = F.new()
hook.import(G, json_of({ [6] = 5, [8] = 3, [13] = 5, [24] = 1, [1] = -2, [12] = -5, [17] = -4, [19] = -2, [20] = -2 },
  { 1, 0 }, ',"dice":[6,5]'))
assert(G:current() == 2, "B07: the turn passed to O")
local logs = K.logs(G)
assert(logs[#logs]:find("X rolls 6-5 and cannot move", 1, true), "B07 log: " .. tostring(logs[#logs]))

-- Export after import, both formats.
G = F.new()
assert(hook.export(G, "id") == "4HPwATDgc/ABMA:cAgAAAAAAAAE", "B01: start exports as 4HPwATDgc/ABMA:cAgAAAAAAAAE (the Jacoby rule off)")
local text = '{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0],"dice":[3,1],' ..
  '"on_roll":"o","cube":{"value":2,"owner":"opp"},"match":{"length":7,"score":[1,5],"crawford":false}}'
hook.import(G, text)
assert(hook.export(G) == text, "export after import: " .. hook.export(G))
S.raises(function() hook.import(G, '{"board":[0],"bar":[0,0],"off":[0,0]}') end, "board: expected 24 entries", "import error")
