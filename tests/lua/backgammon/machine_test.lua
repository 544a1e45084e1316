-- Spec §10: the machine interface's exact output (example, pass, game over, orientation,
-- sorting, dice override) and its errors on invalid input; B03 through the interface.

local machine = require("backgammon.machine")
local S = require("bg_support")

local function moves(position, dice, absolute)
  return machine.moves({ position = position, dice = dice, absolute = absolute })
end

-- The example of §10.
local got = moves('{"board":[0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15],"bar":[0,0],"off":[14,0]}', "61")
assert(got == '[{"move":"2/off","position":{"board":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15],' ..
  '"bar":[0,0],"off":[15,0]}}]', "§10 example: " .. got)

-- No playable die: one entry with the empty move and the input position.
local b07 = '{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-4,0,-2,-2,0,0,0,1],"bar":[1,0],"off":[0,0]}'
got = moves(b07, "65")
assert(got == '[{"move":"","position":{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-4,0,-2,-2,0,0,0,1],' ..
  '"bar":[1,0],"off":[0,0]}}]', "pass: " .. got)

-- Game over: the empty list.
assert(moves('{"board":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15],"bar":[0,0],"off":[15,0]}', "61") == "[]",
  "game over")

-- Opening through the interface (B03): counts and order, with a Position ID and with JSON.
local START = '{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0]}'
local total = 0
for a = 1, 6 do
  for b = a, 6 do
    local line = moves("4HPwATDgc/ABMA", b .. a)
    assert(line == moves(START, a .. b), "ID and JSON differ for " .. b .. a)
    local labels = {}
    for m in line:gmatch('"move":"([^"]*)"') do labels[#labels + 1] = m end
    local sorted = { table.unpack(labels) }
    table.sort(sorted)
    S.same(labels, sorted, "sorted output " .. b .. a)
    total = total + #labels
  end
end
assert(total == 447, "opening total via the interface: " .. total)

-- 3-1 opening, first entries exactly; dice in the JSON are used unless --dice overrides.
local with_dice = START:sub(1, -2) .. ',"dice":[1,3]}'
local line = moves(with_dice, nil)
assert(line == moves(START, "31"), "dice from the JSON")
assert(line:sub(1, 120) == '[{"move":"13/10 6/5","position":{"board":[-2,0,0,0,1,4,0,3,0,1,0,-5,4,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0]}}',
  "3-1 first entry: " .. line:sub(1, 120))
assert(moves(with_dice, "66") == moves(START, "66"), "--dice overrides the JSON")

-- O on roll keeps its orientation; a hit goes to the opponent's bar.
local o_roll = '{"board":[0,0,0,-1,0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"bar":[0,0],"off":[13,14],"on_roll":"o"}'
line = moves(o_roll, "21")
assert(line:find('{"move":"6/4*/3","position":{"board":[0,0,1,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"bar":[0,1],"off":[13,14]}}', 1, true),
  "O on roll with a hit: " .. line)

-- --absolute: X-oriented input and output; O on roll.
local abs = '{"board":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-2,0,1,0,0,0],"bar":[0,0],"off":[14,13],"turn":"o"}'
line = moves(abs, "21", true)
assert(line:find('{"move":"6/4*/3","position":{"board":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,-1,0,0],"bar":[1,0],"off":[14,13],"turn":"x"}}', 1, true),
  "absolute: " .. line)

-- Errors: nothing printed, a clear message.
S.raises(function() moves(START, nil) end, "dice: none given", "missing dice")
S.raises(function() moves(START, "71") end, "dice: expected two digits 1-6", "bad dice")
S.raises(function() moves(START, "3") end, "dice: expected two digits", "short dice")
S.raises(function() moves('{"board":[],"bar":[0,0],"off":[0,0]}', "31") end, "board: expected 24 entries, got 0", "short board")
S.raises(function() moves(abs, "21", false) end, 'field "turn"', "oracle record without --absolute")
S.raises(function() moves(o_roll, "21", true) end, 'field "on_roll"', "on-roll record with --absolute")
S.raises(function() moves("not an id", "21") end, "a Position ID has 14 characters", "garbage")
