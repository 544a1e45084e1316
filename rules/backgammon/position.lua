-- Backgammon position formats (spec §7): the JSON form oriented to the player on roll
-- (§7.1), its X-oriented oracle form with a `turn` field, and GNU Backgammon's Position ID,
-- alone or with its Match ID as "PositionID:MatchID" (§7.2). Decoding validates everything
-- and names what is wrong and where.
--
-- A decoded position is
--   { me = side, opp = side, on_roll = "x" | "o", dice = { d1, d2 } or nil,
--     cube = { value = v, owner = "center" | "me" | "opp" },
--     match = { length = n, score = { me, opp }, crawford = bool },
--     phase = nil or "opening" | "doubled" | "beavered" (from a Match ID),
--     jacoby = nil or whether a money game plays the Jacoby rule (from a Match ID) }
-- where a side is an array in that player's own numbering: [1..24] points, [25] bar, [0] off.
-- The player on roll's point i is the opponent's point 25 - i.

local base64 = require("backgammon.base64")
local match_id = require("backgammon.match_id")

local P = {}

local RELATIVE_FIELDS = { "board", "bar", "off", "dice", "on_roll", "cube", "match" }
local ABSOLUTE_FIELDS = { "board", "bar", "off", "dice", "turn", "cube", "match" }

local function fail(fmt, ...) error(string.format(fmt, ...), 0) end

local function describe(v)
  local t = type(v)
  if t == "string" then return string.format("%q", v) end
  if t == "table" then return next(v) == nil and "an empty array/object" or (v[1] ~= nil and "an array" or "an object") end
  if t == "number" or t == "boolean" then return tostring(v) end
  return "null"
end

local function integer(v, where)
  local i = type(v) == "number" and math.tointeger(v)
  if not i then fail("%s: expected an integer, got %s", where, describe(v)) end
  return i
end

local function keys_of(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks, function(a, b) return tostring(a) < tostring(b) end)
  return ks
end

-- An array of exactly n integers in lo..hi (0-based indices in messages, as in JSON).
local function int_array(v, n, lo, hi, where)
  if type(v) ~= "table" or (next(v) ~= nil and v[1] == nil) then
    fail("%s: expected an array of %d integers, got %s", where, n, describe(v))
  end
  local count = #keys_of(v)
  if count ~= n or #v ~= n then fail("%s: expected %d entries, got %d", where, n, count) end
  local out = {}
  for i = 1, n do
    local x = integer(v[i], string.format("%s[%d]", where, i - 1))
    if x < lo or x > hi then fail("%s[%d]: %d is out of range %d..%d", where, i - 1, x, lo, hi) end
    out[i] = x
  end
  return out
end

local function object(v, where, allowed)
  if type(v) ~= "table" or v[1] ~= nil then fail("%s: expected a JSON object, got %s", where, describe(v)) end
  for _, k in ipairs(keys_of(v)) do
    local ok = false
    for _, a in ipairs(allowed) do ok = ok or a == k end
    if not ok then
      fail("%s: unknown field %q (allowed: %s)", where, tostring(k), table.concat(allowed, ", "))
    end
  end
  return v
end

-- The two forms name the side on roll differently; a record of the other form is refused
-- with a hint instead of being read in the wrong orientation.
local function reject_other_form(t, absolute)
  if not absolute and t.turn ~= nil then
    fail("field \"turn\" belongs to the X-oriented oracle form; this form is oriented to the " ..
      "player on roll and names him with \"on_roll\": \"x\" or \"o\" (or use --absolute for the oracle form)")
  end
  if absolute and t.on_roll ~= nil then
    fail("field \"on_roll\" belongs to the on-roll form; the X-oriented oracle form names the side on roll with \"turn\"")
  end
end

local function colour(v, where)
  if type(v) ~= "string" or (v:lower() ~= "x" and v:lower() ~= "o") then
    fail("%s: expected \"x\" or \"o\", got %s", where, describe(v))
  end
  return v:lower()
end

local function empty_side()
  local s = {}
  for p = 0, 25 do s[p] = 0 end
  return s
end

-- Sides from a board, bar and off given from the point of view of `me` (first entries).
local function sides(board, bar, off)
  local me, opp = empty_side(), empty_side()
  for i = 1, 24 do
    local v = board[i]
    if v > 0 then me[i] = v elseif v < 0 then opp[25 - i] = -v end
  end
  me[25], opp[25], me[0], opp[0] = bar[1], bar[2], off[1], off[2]
  return me, opp
end

local function total(side)
  local n = 0
  for p = 0, 25 do n = n + side[p] end
  return n
end

local function check_count(side, who, n)
  local t = total(side)
  if t ~= n then
    local on = t - side[0] - side[25]
    fail("%s has %d checkers (%d on points, %d on the bar, %d off); each side needs %d",
      who, t, on, side[25], side[0], n)
  end
end

local function power_of_two(v) return v >= 1 and v & (v - 1) == 0 end

local function parse_cube(v, absolute)
  local cube = { value = 1, owner = "center" }
  if v == nil then return cube end
  object(v, "cube", { "owner", "value" })
  if v.value ~= nil then
    cube.value = integer(v.value, "cube.value")
    if not power_of_two(cube.value) then fail("cube.value: %d is not a power of two", cube.value) end
  end
  if v.owner ~= nil then
    local o = type(v.owner) == "string" and v.owner:lower()
    local ok = o == "center" or o == "me" or o == "opp" or (absolute and (o == "x" or o == "o"))
    if not ok then
      fail("cube.owner: expected %s, got %s",
        absolute and "\"center\", \"x\" or \"o\"" or "\"center\", \"me\" or \"opp\"", describe(v.owner))
    end
    cube.owner = o
  end
  if cube.value == 1 and cube.owner ~= "center" then fail("cube.owner: a cube at 1 is centred") end
  if cube.value > 1 and cube.owner == "center" then fail("cube.owner: a turned cube (value %d) has an owner", cube.value) end
  return cube
end

local function parse_match(v)
  local m = { length = 0, score = { 0, 0 }, crawford = false }
  if v == nil then return m end
  object(v, "match", { "crawford", "length", "score" })
  if v.length ~= nil then m.length = integer(v.length, "match.length") end
  if m.length < 0 then fail("match.length: %d is negative", m.length) end
  if v.score ~= nil then m.score = int_array(v.score, 2, 0, math.maxinteger, "match.score") end
  if v.crawford ~= nil then
    if type(v.crawford) ~= "boolean" then fail("match.crawford: expected true or false, got %s", describe(v.crawford)) end
    m.crawford = v.crawford
  end
  local n = m.length
  if n > 0 then
    for i = 1, 2 do
      if m.score[i] >= n then fail("match.score[%d]: %d already wins a %d-point match", i - 1, m.score[i], n) end
    end
  end
  if m.crawford and not (n > 0 and (m.score[1] == n - 1 or m.score[2] == n - 1)) then
    fail("match.crawford: the Crawford game needs a match with a player at %s", n > 0 and (n - 1) or "length - 1")
  end
  return m
end

-- Turns an X-oriented oracle record to the side on roll: with O on roll the board is
-- mirrored, bar, off and score swap; a cube owner "x" / "o" becomes "me" / "opp".
local function orient_absolute(pos, board, bar, off)
  local side = pos.on_roll
  local o = pos.cube.owner
  if o == "x" or o == "o" then pos.cube.owner = o == side and "me" or "opp" end
  if side == "x" then return board, bar, off end
  local b = {}
  for j = 1, 24 do b[j] = -board[25 - j] end
  pos.match.score = { pos.match.score[2], pos.match.score[1] }
  return b, { bar[2], bar[1] }, { off[2], off[1] }
end

local function parse_table(t, opts)
  local absolute, n = opts.absolute, opts.checkers or 15
  if type(t) == "table" then reject_other_form(t, absolute) end
  object(t, "position", absolute and ABSOLUTE_FIELDS or RELATIVE_FIELDS)
  for _, k in ipairs({ "board", "bar", "off" }) do
    if t[k] == nil then fail("missing field %q", k) end
  end
  local board = int_array(t.board, 24, -n, n, "board")
  local bar, off = int_array(t.bar, 2, 0, n, "bar"), int_array(t.off, 2, 0, n, "off")
  local side_field = absolute and "turn" or "on_roll"
  local side = colour(t[side_field] or "x", side_field)
  local pos = { on_roll = side, cube = parse_cube(t.cube, absolute), match = parse_match(t.match) }
  if t.dice ~= nil then pos.dice = int_array(t.dice, 2, 1, 6, "dice") end
  if absolute then board, bar, off = orient_absolute(pos, board, bar, off) end
  pos.me, pos.opp = sides(board, bar, off)
  local who = absolute and { side:upper(), side == "x" and "O" or "X" } or
    { "the player on roll (" .. side .. ")", "the opponent" }
  check_count(pos.me, who[1], n)
  check_count(pos.opp, who[2], n)
  return pos
end

local function decode_json(text)
  if type(json) ~= "table" or type(json.decode) ~= "function" then error("json.decode is not available") end
  local ok, t = pcall(json.decode, text)
  if not ok then
    local msg = tostring(t)
    fail("position: %s", msg:find("invalid JSON", 1, true) and msg or "invalid JSON: " .. msg)
  end
  return t
end

-- Position ID (§7.2) ---------------------------------------------------------------------

-- Reads one player's 25 runs (points 1..24, bar) from bit position k; returns side, next k.
-- Checkers not on points or bar are off: n in all.
local function read_side(bytes, k, id, who, n)
  local side = empty_side()
  local count = 0
  for p = 1, 25 do
    while true do
      if k >= 80 then fail("Position ID %q: the key ends early (%s)", id, who) end
      local bit = (bytes[(k >> 3) + 1] >> (k & 7)) & 1
      k = k + 1
      if bit == 0 then break end
      side[p], count = side[p] + 1, count + 1
      if count > n then fail("Position ID %q: %s has more than %d checkers", id, who, n) end
    end
  end
  side[0] = n - count
  return side, k
end

-- Decodes a Position ID: the player on roll (named "x") and his opponent, n checkers each
-- (default 15).
function P.from_id(id, n)
  n = n or 15
  local bytes = base64.decode(id, 14, "Position ID")
  local opp, k = read_side(bytes, 0, id, "the player not on roll", n)
  local me
  me, k = read_side(bytes, k, id, "the player on roll", n)
  for j = k, 79 do
    if (bytes[(j >> 3) + 1] >> (j & 7)) & 1 == 1 then fail("Position ID %q: bits after the key must be zero", id) end
  end
  for i = 1, 24 do
    if me[i] > 0 and opp[25 - i] > 0 then
      fail("Position ID %q: point %d of the player on roll holds checkers of both sides", id, i)
    end
  end
  return { me = me, opp = opp, on_roll = "x", cube = { value = 1, owner = "center" },
    match = { length = 0, score = { 0, 0 }, crawford = false } }
end

local function append_side(bits, side)
  for p = 1, 25 do
    for _ = 1, side[p] do bits[#bits + 1] = 1 end
    bits[#bits + 1] = 0
  end
end

-- The Position ID of a position (checkers only).
function P.to_id(pos)
  local bits = {}
  append_side(bits, pos.opp)
  append_side(bits, pos.me)
  local bytes = {}
  for i = 1, 10 do bytes[i] = 0 end
  for k = 0, 79 do
    if bits[k + 1] == 1 then bytes[(k >> 3) + 1] = bytes[(k >> 3) + 1] | (1 << (k & 7)) end
  end
  return base64.encode(bytes)
end

-- Match ID (§7.2) ------------------------------------------------------------------------

-- gnubg's player number of a colour: O is player 0, X player 1.
local function player(colour) return colour == "x" and 1 or 0 end

-- The Match ID of a position: pos.phase (the game's, default "move" with dice and "start"
-- without) says whether the game has begun, is over (pos.dropped: by a dropped double) or
-- waits for an answer to a double; during a beaver gnubg counts the cube already redoubled,
-- owned by the beaverer. As gnubg writes them, the larger die comes first and the Jacoby bit
-- is set off but in a money game played with it (pos.jacoby).
function P.match_id(pos)
  local me = player(pos.on_roll)
  local phase = pos.phase or (pos.dice and "move" or "start")
  local c, m = pos.cube, pos.match
  local value, owner = c.value, c.owner == "center" and 3 or (c.owner == "me" and me or 1 - me)
  if phase == "beavered" then value, owner = value * 2, 1 - me end
  local state = match_id.PLAYING
  if phase == "opening" then
    state = match_id.NONE
  elseif phase == "over" then
    state = pos.dropped and match_id.DROPPED or match_id.OVER
  end
  if value > 1 << 15 then fail("a Match ID holds a cube of at most 32768; this one is at %d", value) end
  local log = 0
  while 1 << log < value do log = log + 1 end
  local asked = phase == "doubled" or phase == "beavered"
  local dice = pos.dice or { 0, 0 }
  dice = { math.max(dice[1], dice[2]), math.min(dice[1], dice[2]) }
  local score = me == 1 and { m.score[2], m.score[1] } or m.score
  return match_id.encode({
    cube_log = log, cube_owner = owner, on_roll = me,
    crawford = m.crawford and 1 or 0, state = state, turn = phase == "doubled" and 1 - me or me,
    doubled = asked and 1 or 0, resigned = 0, die1 = dice[1], die2 = dice[2], length = m.length,
    score0 = score[1], score1 = score[2], no_jacoby = (m.length == 0 and pos.jacoby) and 0 or 1,
  })
end

local STATE_WORDS = { [match_id.OVER] = "is over", [match_id.RESIGNED] = "was resigned",
  [match_id.DROPPED] = "ended with a dropped double" }

-- The game state of Match ID fields: the phase, or an error saying why setup cannot take it.
local function phase_of(f, id)
  if f.resigned ~= 0 then fail("Match ID %q: a resignation is offered; these rules have no resignations", id) end
  if STATE_WORDS[f.state] then
    fail("Match ID %q: the game %s; setup takes a game in play or before its opening roll", id, STATE_WORDS[f.state])
  end
  if f.state > match_id.DROPPED then fail("Match ID %q: game state %d is not one gnubg defines", id, f.state) end
  local rolled = f.die1 ~= 0 or f.die2 ~= 0
  if rolled and (f.die1 < 1 or f.die1 > 6 or f.die2 < 1 or f.die2 > 6) then
    fail("Match ID %q: dice %d-%d are not two dice of 1..6", id, f.die1, f.die2)
  end
  if f.doubled == 1 then
    if rolled or f.state == match_id.NONE then fail("Match ID %q: a double is offered after the roll or before the game", id) end
    return f.turn == f.on_roll and "beavered" or "doubled"
  end
  if f.turn ~= f.on_roll then
    fail("Match ID %q: player %d is to decide, but player %d is on roll and no double is offered", id, f.turn, f.on_roll)
  end
  if f.state == match_id.NONE then
    if rolled then fail("Match ID %q: dice are rolled before the game started", id) end
    return "opening"
  end
  return rolled and "move" or "start"
end

-- Sets what a Match ID says on a position decoded from its Position ID (whose player on roll
-- is the Match ID's).
local function read_match_id(pos, id)
  local f = match_id.decode(id)
  local phase = phase_of(f, id)
  if f.cube_owner == 2 then fail("Match ID %q: cube owner 2 is no player (0, 1, or 3 for the centre)", id) end
  local me = f.on_roll
  local value, owner = 1 << f.cube_log, f.cube_owner
  if phase == "beavered" then
    if value == 1 then fail("Match ID %q: a beavered cube is at least 2", id) end
    value = value >> 1
    owner = value == 1 and 3 or me
  end
  local cube = { value = value, owner = owner == 3 and "center" or (owner == me and "me" or "opp") }
  local score = me == 1 and { f.score1, f.score0 } or { f.score0, f.score1 }
  local match = { length = f.length, score = score, crawford = f.crawford == 1 }
  local ok, e = pcall(function()
    pos.cube, pos.match = parse_cube(cube), parse_match(match)
  end)
  if not ok then fail("Match ID %q: %s", id, e) end
  pos.on_roll, pos.phase = me == 1 and "x" or "o", phase
  if phase == "move" then pos.dice = { f.die1, f.die2 } end
  -- gnubg sets the bit in every match; in money play a clear bit says the Jacoby rule is on
  if f.length == 0 then pos.jacoby = f.no_jacoby == 0 end
end

-- Decoding --------------------------------------------------------------------------------

-- A position from JSON text (§7.1, or the oracle form when opts.absolute), a Position ID, or
-- PositionID:MatchID.
-- opts.checkers: checkers per side (default 15).
function P.decode(text, opts)
  opts = opts or {}
  if type(text) ~= "string" then fail("position: expected text, got %s", describe(text)) end
  local s = text:match("^%s*(.-)%s*$")
  if s:sub(1, 1) == "{" then return parse_table(decode_json(s), opts) end
  if s:sub(1, 1) == "[" then fail("position: expected a JSON object or a Position ID, got a JSON array") end
  if s == "" then
    fail("position: empty text (give a JSON object, a Position ID, or PositionID:MatchID as gnubg shows them)")
  end
  local pid, mid = s:match("^([^:]*):(.*)$")
  local pos = P.from_id(pid or s, opts.checkers)
  if mid then read_match_id(pos, mid) end
  return pos
end

-- Encoding --------------------------------------------------------------------------------

local function ints(t, n) 
  local parts = {}
  for i = 1, n do parts[i] = tostring(t[i]) end
  return "[" .. table.concat(parts, ",") .. "]"
end

-- The signed board (1..24) of `me` against `opp`, from me's point of view.
local function signed_board(me, opp)
  local b = {}
  for i = 1, 24 do b[i] = me[i] - opp[25 - i] end
  return b
end

-- {"board":…,"bar":…,"off":…} of two sides, from `me`'s point of view.
function P.board_json(me, opp)
  return string.format('{"board":%s,"bar":[%d,%d],"off":[%d,%d]', ints(signed_board(me, opp), 24),
    me[25], opp[25], me[0], opp[0]) .. "}"
end

-- The same X-oriented, with the oracle's `turn` field naming the side on roll.
function P.absolute_json(x, o, turn)
  return string.format('{"board":%s,"bar":[%d,%d],"off":[%d,%d],"turn":"%s"}',
    ints(signed_board(x, o), 24), x[25], o[25], x[0], o[0], turn)
end

-- The full §7.1 JSON of a position: board, bar, off, dice (when rolled), on_roll, cube, match.
function P.to_json(pos)
  local parts = { P.board_json(pos.me, pos.opp):sub(1, -2) }
  if pos.dice then parts[#parts + 1] = string.format(',"dice":[%d,%d]', pos.dice[1], pos.dice[2]) end
  parts[#parts + 1] = string.format(',"on_roll":"%s"', pos.on_roll)
  local c, m = pos.cube, pos.match
  parts[#parts + 1] = string.format(',"cube":{"value":%d,"owner":"%s"}', c.value, c.owner)
  parts[#parts + 1] = string.format(',"match":{"length":%d,"score":[%d,%d],"crawford":%s}}',
    m.length, m.score[1], m.score[2], tostring(m.crawford))
  return table.concat(parts)
end

-- Mover-oriented board (see movegen.lua) of a position.
function P.mover_board(pos)
  local b = signed_board(pos.me, pos.opp)
  b[0], b[25] = pos.me[0], pos.me[25]
  return b
end

-- Sides after a move: me from the mover board `b`, opp with `hits` more on the bar.
function P.sides_after(pos, b, hits)
  local me, opp = empty_side(), empty_side()
  for i = 1, 24 do
    local v = b[i]
    if v > 0 then me[i] = v elseif v < 0 then opp[25 - i] = -v end
  end
  me[0], me[25] = b[0], b[25]
  opp[0], opp[25] = pos.opp[0], pos.opp[25] + hits
  return me, opp
end

P.empty_side = empty_side

return P
