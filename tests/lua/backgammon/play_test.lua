-- Moves through the rule flow (fake kernel): typed input reaches the right option, hits go to
-- the opponent's bar (B11), bearing off the last checker ends the game (B17), B04 and B32
-- through the parse hook, and export reflects each move.

local F = require("flow_support")
local S = require("bg_support")
local position = require("backgammon.position")

local function setup(points, bar, dice, extra)
  local G = F.new()
  local pos = S.position(points, bar)
  hook.import(G, position.board_json(pos.me, pos.opp):sub(1, -2) ..
    string.format(',"dice":[%d,%d]', dice[1], dice[2]) .. (extra or "") .. "}")
  return G
end

-- B11: bar/22* 13/8 puts O's blot on his bar; then O is to act.
local G = setup({ [6] = 5, [8] = 3, [13] = 5, [1] = -1, [12] = -5, [17] = -3, [19] = -5, [22] = -1 }, { 1, 0 }, { 5, 3 })
local opts = F.options(G)
table.sort(opts)
S.same(opts, { "bar/20 13/10", "bar/20 6/3", "bar/20 8/5", "bar/22* 13/8", "bar/22* 6/1*", "bar/22* 8/3" }, "B11 options")
F.play(G, "bar/22* 13/8")
assert(G:count(G:loc("bar.O"), 2) == 1, "B11: O's checker is on the bar")
assert(G:count(G:loc("bar.X"), 1) == 0, "B11: X entered")
assert(G:count(G:loc("p22"), 1) == 1 and G:count(G:loc("p22"), 2) == 0, "B11: X holds 22")
assert(G:current() == 2, "B11: O's turn")
local exported = hook.export(G)
assert(exported:find('"bar":[1,0]', 1, true) and exported:find('"on_roll":"o"', 1, true), "B11 export: " .. exported)

-- B17: the last checker bears off with both dice; X wins.
G = setup({ [2] = 1, [24] = -15 }, nil, { 6, 1 })
S.same(F.options(G), { "2/off" }, "B17 options")
F.play(G, "2/1/off")
local st = F.status(G)
assert(st.over and st.scores[1] == 2, "B17: X wins (a gammon: O has none off)")

-- B04 and B32 through the parse hook.
G = setup(S.START, nil, { 3, 1 })
S.raises(function() F.play(G, "8/5") end, "illegal move", "B04")
F.play(G, "8/5 6/5")
assert(G:count(G:loc("p5"), 1) == 2, "B04: X made the 5-point")
G = setup({ [24] = 2, [13] = 5, [8] = 3, [6] = 5, [1] = -2, [12] = -5, [17] = -3, [19] = -3, [21] = -1, [23] = -1 },
  nil, { 3, 1 })
assert(#F.options(G) == 17, "B32: 17 moves")
S.raises(function() F.play(G, "24/20") end, "ambiguous", "B32 24/20")
F.play(G, "24/21*/20")
assert(G:count(G:loc("bar.O"), 2) == 1 and G:count(G:loc("p21"), 2) == 0 and G:count(G:loc("p23"), 2) == 1,
  "B32: 24/21*/20 hit on 21 only")
G = setup(S.START, nil, { 2, 2 })
local a = hook.parse(G, "13/11 11/9 6/4(2)")
assert(a == hook.parse(G, "13/9 6/4(2)"), "B32: the same option")
assert(hook.label(G, hook.status(G).options[a]) == "13/9 6/4(2)", "B32 label")

-- Wrong words are refused with the options named.
S.raises(function() F.play(G, "take") end, "is not possible now", "take during a move")
G = F.new()
-- While chance is awaited the kernel hands parse a declared word with no options: nothing to
-- say about `roll`, the reason a cube action is closed.
assert(hook.parse(G, "roll") == nil, "parse while chance is awaited: nothing to say")
G:set("crawford", true)
S.raises(function() hook.parse(G, "double") end, "no doubling in the Crawford game", "double in the Crawford game")
