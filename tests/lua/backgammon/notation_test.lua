-- Spec §9: canonical output rules and the input parser (B04, B17, B32): explicit steps,
-- chains, merged paths, (k), optional "*", bar/off in any case, 25/0; same move, ambiguous
-- and illegal inputs; every canonical label plays back to its own position.

local S = require("bg_support")
local notation = require("backgammon.notation")
local movegen = require("backgammon.movegen")

local code = movegen.code

-- Output examples of §9.
local function fmt(steps)
  local codes = {}
  for i, s in ipairs(steps) do codes[i] = code(s[1], s[2], s[3]) end
  return notation.format(codes, #codes)
end
assert(fmt({ { 24, 18 }, { 13, 11 } }) == "24/18 13/11", "24/18 13/11")
assert(fmt({ { 25, 22, true } }) == "bar/22*", "bar/22*")
assert(fmt({ { 6, 0 } }) == "6/off", "6/off")
assert(fmt({ { 13, 7 }, { 13, 7 } }) == "13/7(2)", "13/7(2)")
assert(fmt({ { 18, 13 }, { 24, 18, true } }) == "24/18*/13", "24/18*/13")
assert(fmt({ { 24, 18 }, { 18, 13 } }) == "24/13", "24/13")
assert(fmt({ { 1, 0 }, { 2, 0 }, { 1, 0 } }) == "2/off 1/off(2)", "2/off 1/off(2)")
assert(fmt({ { 2, 1 }, { 1, 0 } }) == "2/off", "2/off hides the dice")
assert(fmt({ { 13, 7, true }, { 8, 7 } }) == "13/7* 8/7", "the * goes to the first path landing there")
assert(fmt({}) == "", "no step: empty string")

local START = S.START
local function resolve(points, bar, d1, d2, text)
  return notation.resolve(S.board(points, bar), d1, d2, 0, text)
end

-- B32: the same move typed three ways.
local a = resolve(START, nil, 2, 2, "13/11 11/9 6/4(2)")
local b = resolve(START, nil, 2, 2, "13/9 6/4(2)")
local c = resolve(START, nil, 2, 2, "6/4 13/11/9 6/4")
assert(a.key == b.key and b.key == c.key, "B32: same move")
assert(a.label == "13/9 6/4(2)", "B32 label " .. a.label)

-- B32: ambiguous, resolved by "*" or an intermediate point.
local B32 = { [24] = 2, [13] = 5, [8] = 3, [6] = 5, [1] = -2, [12] = -5, [17] = -3, [19] = -3, [21] = -1, [23] = -1 }
assert(#S.labels(S.board(B32), 3, 1) == 17, "B32: 17 moves")
local err = S.raises(function() resolve(B32, nil, 3, 1, "24/20") end, "ambiguous", "B32 24/20")
assert(err:find("24/21*/20", 1, true) and err:find("24/23*/20", 1, true), "B32 names both: " .. err)
assert(resolve(B32, nil, 3, 1, "24/21*/20").label == "24/21*/20", "B32 24/21*/20")
assert(resolve(B32, nil, 3, 1, "24/23/20").label == "24/23*/20", "B32 24/23/20")
assert(resolve(B32, nil, 3, 1, "24/23*/20").label == "24/23*/20", "B32 24/23*/20")

-- B04: the start, 3-1.
S.raises(function() resolve(START, nil, 3, 1, "8/5") end, "illegal move \"8/5\" with 3-1: every legal move here plays 2 dice", "B04 8/5")
assert(resolve(START, nil, 3, 1, "8/5 6/5").label == "8/5 6/5", "B04 8/5 6/5")
-- An illegal move is explained by the rule it breaks.
S.raises(function() resolve(START, nil, 3, 1, "24/18 13/11") end, "24/18 is 6 pips: no die or dice of 3-1 make 6",
  "a distance no die makes")
S.raises(function() resolve(START, nil, 3, 1, "13/9 6/2") end, "it moves 8 pips and 3-1 gives 4", "too many pips")
S.raises(function() resolve(START, nil, 3, 1, "8/4 7/3") end, "7/3: you have no checker on 7", "no checker there")
S.raises(function() resolve(START, nil, 6, 5, "13/7 6/1") end, "6/1: your opponent holds 1 (2 checkers)", "a held point")
S.raises(function() resolve(START, nil, 3, 1, "6/off") end, "you bear off only when all your checkers are home",
  "bearing off early")
assert(resolve(START, nil, 3, 1, "6/5 8/5").label == "8/5 6/5", "any order")
assert(resolve(START, nil, 3, 1, "8/7/4").label == "8/4", "a chain")

-- B17: 2/1/off and 2/off are the same move; bar/off in any case, 25 and 0.
local B17 = { [2] = 1, [24] = -15 }
assert(resolve(B17, nil, 6, 1, "2/1/off").label == "2/off", "B17 2/1/off")
assert(resolve(B17, nil, 6, 1, "2/OFF").label == "2/off", "B17 OFF")
assert(resolve(B17, nil, 6, 1, "2/0").label == "2/off", "B17 0")
local B11 = { [6] = 5, [8] = 3, [13] = 5, [1] = -1, [12] = -5, [17] = -3, [19] = -5, [22] = -1 }
assert(resolve(B11, { 1, 0 }, 5, 3, "Bar/22 6/1").label == "bar/22* 6/1*", "optional stars")
assert(resolve(B11, { 1, 0 }, 5, 3, "25/20 13/10").label == "bar/20 13/10", "25 for bar")

-- A canonical string plays back to its own position even when a shorter reading is possible.
local near = { [24] = 2, [13] = 5, [8] = 3, [6] = 5, [1] = -2, [12] = -5, [17] = -3, [19] = -4, [21] = -1 }
assert(resolve(near, nil, 3, 1, "24/20").label == "24/20", "24/20 without hit")
assert(resolve(near, nil, 3, 1, "24/21*/20").label == "24/21*/20", "24/21*/20 with hit")

-- Every canonical label of every opening roll plays back to itself.
for d1 = 1, 6 do
  for d2 = d1, 6 do
    local bd = S.board(START)
    for _, e in ipairs(notation.entries(bd, d1, d2, 0)) do
      local r = notation.resolve(bd, d1, d2, 0, e.label)
      assert(r.key == e.key, string.format("%d-%d: %q plays back to %q", d2, d1, e.label, r.label))
    end
  end
end

-- A dash reads as a slash.
---@param text string
---@return string[]
local function segments(text)
  local out = {}
  for _, seg in ipairs(notation.parse(text)) do
    out[#out + 1] = string.format("%d/%d%s", seg.from, seg.to, seg.hit and "*" or "")
  end
  return out
end
S.same(segments("13-9 24-23*"), segments("13/9 24/23*"), "dash")

-- Syntax errors.
S.raises(function() notation.parse("13+9") end, "cannot read", "plus")
S.raises(function() notation.parse("9/13") end, "from higher to lower", "backwards")
S.raises(function() notation.parse("13/off/3") end, "off must be the last point", "off inside")
S.raises(function() notation.parse("13/bar") end, "the bar can only be a starting point", "bar as end")
S.raises(function() notation.parse("13*/9") end, "cannot hit where it starts", "star at start")
S.raises(function() notation.parse("13/9(5)") end, "1 to 4", "count")
S.raises(function() notation.parse("   ") end, "empty move", "empty")
S.raises(function() notation.parse("30/24") end, "bad point", "point 30")
S.raises(function() resolve(S.START, nil, 6, 5, "24/18*") end, "illegal move", "star where nothing is hit")
