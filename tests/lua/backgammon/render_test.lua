-- Spec §1 terms on the text board: B01 (start, pips 167-167), B08 (shutout), B33 (prime with
-- a checker behind it, blot), cube / score / dice lines, and the O viewer's numbering.

local F = require("flow_support")
local S = require("bg_support")
local position = require("backgammon.position")

local function board_json(points, bar, extra)
  local pos = S.position(points, bar)
  return position.board_json(pos.me, pos.opp):sub(1, -2) .. (extra or "") .. "}"
end

-- The board without its colour tags, as the REPL prints it under NO_COLOR.
local render = hook.render
hook = setmetatable({ render = function(...) return (render(...):gsub("{/?%a*}", "")) end }, { __index = hook })

local function has(text, needle, what)
  assert(text:find(needle, 1, true), string.format("%s: %q missing in\n%s", what, needle, text))
end

-- B01.
local G = F.new()
local text = hook.render(G, 0)
-- X's checkers and name in yellow, O's in cyan, for the REPL to paint
has(render(G, 0), "| {yellow}{bold}X{/}  ", "X in colour")
has(render(G, 0), "{cyan}{bold}O{/}: 167 pips", "O in colour")
has(text, "X: 167 pips", "B01")
has(text, "O: 167 pips", "B01")
has(text, "Cube: 1, centred", "B01")
has(text, "Money game", "B01")
has(text, "Opening roll", "B01")
assert(not text:find("Blots"), "B01: no blots at the start")
local lines = {}
for l in text:gmatch("[^\n]+") do lines[#lines + 1] = l end
assert(lines[3] == "   13 14 15 16 17 18      19 20 21 22 23 24", "top numbers: " .. lines[3])
has(text, "\n  | X           O    |   | O              X |\n", "start first row")
has(text, "\n   12 11 10  9  8  7       6  5  4  3  2  1\n", "bottom numbers")

-- B08: O's closed board, X on the bar.
hook.import(G, board_json({ [6] = 5, [8] = 3, [13] = 5, [18] = -3, [19] = -2, [20] = -2, [21] = -2, [22] = -2,
  [23] = -2, [24] = -2 }, { 1, 0 }))
text = hook.render(G, 1)
has(text, "Shutout: O's home board is closed with 1 X checker on the bar", "B08")
has(text, "X: 144 pips, bar 1, off 1", "B08 pips")
has(text, "Prime: O holds 18-24 with 1 X checker behind it", "B08 prime")

-- B33: X's prime 4-9 with an O checker behind it, and the O blot on 2.
hook.import(G, board_json({ [4] = 2, [5] = 2, [6] = 2, [7] = 2, [8] = 2, [9] = 2, [13] = 3, [2] = -1, [19] = -14 }))
text = hook.render(G, 0)
has(text, "Prime: X holds 4-9 with 1 O checker behind it", "B33 prime")
has(text, "Blots: O on 2", "B33 blot")
-- Seen by O, the same prime is on O's points 16-21.
text = hook.render(G, 2)
has(text, "Prime: X holds 16-21 with 1 O checker behind it", "B33 from O's side")
has(text, "Blots: O on 23", "B33 blot from O's side")
-- O on roll: the spectator's board (viewer 0) is drawn for O, in O's numbering.
hook.import(G, board_json({ [4] = 2, [5] = 2, [6] = 2, [7] = 2, [8] = 2, [9] = 2, [13] = 3, [2] = -1, [19] = -14 },
  nil, ',"on_roll":"o"'))
assert(hook.render(G, 0) == hook.render(G, 2), "viewer 0 sees the board of the side on roll")
-- No checker behind: no prime reported.
hook.import(G, board_json({ [4] = 2, [5] = 2, [6] = 2, [7] = 2, [8] = 2, [9] = 2, [13] = 3, [19] = -15 }))
assert(not hook.render(G, 0):find("Prime"), "a prime needs a checker behind it")

-- Dice, cube and match lines; tall stacks show their count.
hook.import(G, '{"board":[0,0,0,0,0,14,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15],"bar":[1,0],"off":[0,0],"dice":[3,1],' ..
  '"on_roll":"x","cube":{"value":4,"owner":"opp"},"match":{"length":7,"score":[2,5],"crawford":false}}')
text = hook.render(G, 0)
has(text, "X on roll: 3-1 to play", "dice line")
has(text, "Cube: 4, owned by O", "cube line")
has(text, "Game 1 of a 7-point match: X 2 - O 5", "match line")
has(text, "|   |14                |", "tall stack count")
has(text, "|               15 |", "tall stack count of O")
