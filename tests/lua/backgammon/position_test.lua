-- Spec §7 and B31: Position IDs decode to their JSON and encode back; key bytes; the O-on-roll
-- JSON converts to the oracle form and back unchanged; validation names what is wrong and where.

local position = require("backgammon.position")
local S = require("bg_support")

local IDS = {
  { "4HPwATDgc/ABMA", "e0 73 f0 01 30 e0 73 f0 01 30",
    '{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0]}' },
  { "mGfwATDgc/ABMA", "98 67 f0 01 30 e0 73 f0 01 30",
    '{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-2,0,-4,0,-2,0,0,2],"bar":[0,0],"off":[0,0]}' },
  { "/38AAADg/wcAQA", "ff 7f 00 00 00 e0 ff 07 00 40",
    '{"board":[0,0,0,0,0,14,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15],"bar":[1,0],"off":[0,0]}' },
  { "zGbiIYCYD3gALA", "cc 66 e2 21 80 98 0f 78 00 2c",
    '{"board":[1,0,0,2,0,5,0,-1,0,0,0,-4,4,0,-1,0,-2,0,-2,-2,0,-2,0,2],"bar":[1,0],"off":[0,1]}' },
}

local function base64_bytes(id)
  local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  local acc, nbits, out = 0, 0, {}
  for i = 1, #id do
    acc, nbits = (acc << 6) | (alphabet:find(id:sub(i, i), 1, true) - 1), nbits + 6
    if nbits >= 8 then
      nbits = nbits - 8
      out[#out + 1] = string.format("%02x", (acc >> nbits) & 0xFF)
    end
  end
  return table.concat(out, " ")
end

for _, case in ipairs(IDS) do
  local id, hex = case[1], case[2]
  assert(base64_bytes(id) == hex, id .. ": key bytes " .. base64_bytes(id))
  local pos = position.decode(id)
  local json_text = position.board_json(pos.me, pos.opp)
  local from_json = position.decode(json_text)
  assert(position.to_id(from_json) == id, id .. ": JSON encodes back to " .. position.to_id(from_json))
  assert(position.to_id(pos) == id, id .. ": re-encodes to " .. position.to_id(pos))
  assert(json_text == case[3], id .. " decodes to " .. json_text)
  local again = position.decode(case[3])
  assert(position.board_json(again.me, again.opp) == case[3], id .. ": JSON round trip")
end

-- The O-on-roll JSON of §11.2: to the oracle form and back.
local o_text = '{"board":[2,1,0,0,0,-2,0,0,0,-1,0,0,0,0,-1,-2,0,0,0,0,-1,-6,-2,0],"bar":[0,0],"off":[12,0],"on_roll":"o"}'
local o = position.decode(o_text)
assert(o.on_roll == "o" and o.me[1] == 2 and o.me[2] == 1 and o.me[0] == 12, "O on roll decoded")
local oracle = position.absolute_json(o.opp, o.me, "o")
assert(oracle == '{"board":[0,2,6,1,0,0,0,0,2,1,0,0,0,0,1,0,0,0,2,0,0,0,-1,-2],"bar":[0,0],"off":[0,12],"turn":"o"}',
  "oracle form: " .. oracle)
local back = position.decode(oracle, { absolute = true })
assert(position.board_json(back.me, back.opp) == o_text:gsub(',"on_roll":"o"', ""), "back from the oracle form")
assert(back.on_roll == "o", "oracle turn o")

-- Full export JSON.
local full = position.to_json(o)
assert(full == '{"board":[2,1,0,0,0,-2,0,0,0,-1,0,0,0,0,-1,-2,0,0,0,0,-1,-6,-2,0],"bar":[0,0],"off":[12,0],' ..
  '"on_roll":"o","cube":{"value":1,"owner":"center"},"match":{"length":0,"score":[0,0],"crawford":false}}', full)
local again = position.decode(full)
assert(position.to_json(again) == full, "full JSON round trip")
local rich = '{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0],"dice":[3,1],' ..
  '"on_roll":"x","cube":{"value":4,"owner":"opp"},"match":{"length":7,"score":[6,3],"crawford":true}}'
assert(position.to_json(position.decode(rich)) == rich, "dice, cube and match round trip")

-- Validation.
local START = '{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0]'
local function bad(text, needle, what) S.raises(function() position.decode(text) end, needle, what) end
bad(START .. ',"turn":"x"}', 'field "turn"', "turn field")
bad(START .. ',"colour":"x"}', 'unknown field "colour"', "unknown field")
bad(START .. ',"dice":[7,1]}', "dice[0]: 7 is out of range 1..6", "die 7")
bad(START .. ',"dice":[3]}', "dice: expected 2 entries, got 1", "one die")
bad(START .. ',"on_roll":"white"}', 'on_roll: expected "x" or "o"', "on_roll")
bad(START .. ',"cube":{"value":3,"owner":"me"}}', "cube.value: 3 is not a power of two", "cube 3")
bad(START .. ',"cube":{"value":2,"owner":"them"}}', "cube.owner", "cube owner")
bad(START .. ',"cube":{"value":2,"owner":"center"}}', "a turned cube", "centred cube at 2")
bad(START .. ',"match":{"length":5,"score":[5,0]}}', "match.score[0]: 5 already wins", "score")
bad(START .. ',"match":{"length":5,"score":[2,0],"crawford":true}}', "match.crawford", "crawford")
bad(START .. ',"match":{"size":5}}', 'match: unknown field "size"', "match field")
bad('{"board":[-2,0,0,0,0,5,0,3.5,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0]}',
  "board[7]: expected an integer, got 3.5", "fractional count")
bad('{"board":[-2,0,0,0,0,5,0,4,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0]}',
  "the player on roll (x) has 16 checkers", "16 checkers")
bad('{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0]}', 'missing field "off"', "no off")
bad('{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,-1],"off":[0,0]}',
  "bar[1]: -1 is out of range", "negative bar")
bad("[1,2]", "got a JSON array", "array")
bad("{bad json", "invalid JSON", "malformed JSON")
bad("4HPwATDgc/ABM", "a Position ID has 14 characters", "short ID")
bad("4HPwATDgc/AB!A", "is not Base64", "bad character")
bad("/////////////w", "more than 15 checkers", "too many checkers")

-- All zero bits: every checker off on both sides (a finished game, but a valid ID).
local empty = position.decode("AAAAAAAAAAAAAA")
assert(empty.me[0] == 15 and empty.opp[0] == 15, "all-zero ID: all off")
-- Both colours on one point.
local clash = S.position({ [1] = 1, [24] = -15 })
clash.opp[24] = 1
clash.opp[0] = 0
clash.opp[23] = 14
clash.opp[1] = 0
bad(position.to_id(clash), "point 1 of the player on roll holds checkers of both sides", "clash")

-- Hypergammon (switch start = "hyper"): 3 checkers a side.
local hyper = S.position({ [24] = 1, [23] = 1, [22] = 1, [1] = -1, [2] = -1, [3] = -1 }, nil, 3)
local hyper_id = position.to_id(hyper)
local back3 = position.decode(hyper_id, { checkers = 3 })
assert(back3.me[0] == 0 and back3.me[24] == 1 and back3.opp[22] == 1, "hyper ID decodes with 3 a side")
S.raises(function() position.decode("4HPwATDgc/ABMA", { checkers = 3 }) end, "more than 3 checkers", "standard ID as hyper")
S.raises(function() position.decode(position.board_json(hyper.me, hyper.opp)) end,
  "has 3 checkers", "hyper JSON where 15 are needed")

-- The oracle form with O on roll: score and cube owner are turned to the side on roll too.
local abs = position.decode('{"board":[0,2,6,1,0,0,0,0,2,1,0,0,0,0,1,0,0,0,2,0,0,0,-1,-2],"bar":[0,0],' ..
  '"off":[0,12],"turn":"o","cube":{"value":2,"owner":"o"},"match":{"length":5,"score":[1,3],"crawford":false}}',
  { absolute = true })
assert(abs.on_roll == "o" and abs.cube.owner == "me", "absolute cube owner o → me")
assert(abs.match.score[1] == 3 and abs.match.score[2] == 1, "absolute score [x, o] → [me, opp]")
assert(abs.me[0] == 12 and abs.me[1] == 2, "absolute board turned to O")
