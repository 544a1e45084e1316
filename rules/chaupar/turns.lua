-- Chaupar turns (spec §4, §6, §9, §14): the throw-off, whose turn it is, a long-dice throw
-- played action by action, cowrie values with graces, bound values and extra throws, the end
-- of a turn and of the game. Single options are played at once (§16), so every decision the
-- game waits for has two options or more.
--
-- Whose turn it is and who started are the kernel's turn units (order.lua). Props: phase
-- (throwoff | throw | act | value | bonus | over); mover (the colour whose pieces the turn
-- plays, §14); throw-off: contenders, tscores, tnext;
-- long dice: dice (unused dice, throws.lua), entries, used, triple, captures; cowries: value,
-- grace, extra (throws owed), throws (this turn), bound (the piece the value is bound to, 0 =
-- free); killed (per colour: has it captured, for kill_before_home).
--
-- Every event reads the turn's props: they are read with the board into the view (V.turn, kept
-- from one event to the next like the board) and written with `put`, which sets both.

local B = require("chaupar.board")
local T = require("chaupar.throws")
local M = require("chaupar.moves")
local R = require("chaupar.rules")
local O = require("chaupar.order")

local U = {}

local COLOURS = B.COLOURS

function U.implement(sw) return T.IMPLEMENTS[sw.implement] end

-- The turn's props, as read from the state.
local function read_turn(G)
  local phase, mover, dice, entries, used, triple, captures, value, grace, bound, throws, extra =
    G:get("phase", "mover", "dice", "entries", "used", "triple", "captures", "value", "grace", "bound",
      "throws", "extra")
  return {
    phase = phase, mover = mover, dice = dice, entries = entries, used = used, triple = triple,
    captures = captures, value = value, grace = grace, bound = bound, throws = throws, extra = extra,
  }
end

-- Sets turn props (name, value pairs; no value nil) on the state and in the view's copy of them.
local function put(G, V, ...)
  G:set(...)
  local turn, args = V.turn, { ... }
  for k = 1, #args, 2 do turn[args[k]] = args[k + 1] end
end

------------------------------------------------------------------------------------------
-- The throw-off (§4)

function U.begin_throwoff(G, V, contenders)
  put(G, V, "phase", "throwoff")
  G:set("contenders", contenders, "tscores", {}, "tnext", 1)
end

local function throw_score(sw, outcome)
  if sw.implement == "cowries" then return outcome[1] end
  local n = 0
  for i = 1, #outcome do n = n + outcome[i] end
  return n
end

-- What a throw shows: the dice thrown, or the cowries' value and how many fell mouth up.
local function thrown(sw, outcome)
  if sw.implement == "cowries" then return string.format("%d (%d up)", outcome[1], outcome[2]) end
  return table.concat(outcome, " ")
end

local function throwoff(G, sw, V, outcome)
  local contenders, scores, n = G:get("contenders", "tscores", "tnext")
  scores[n] = throw_score(sw, outcome)
  local sum = sw.implement == "cowries" and "" or " = " .. scores[n]
  G:log("throw-off: " .. O.seat_label(G, contenders[n]) .. " throws " .. thrown(sw, outcome) .. sum)
  if n < #contenders then
    G:set("tscores", scores, "tnext", n + 1)
    return
  end
  local top, leaders = -1, {}
  for k = 1, #contenders do if scores[k] > top then top = scores[k] end end
  for k = 1, #contenders do if scores[k] == top then leaders[#leaders + 1] = contenders[k] end end
  if #leaders > 1 then
    U.begin_throwoff(G, V, leaders)
    return
  end
  G:set("contenders", nil, "tscores", nil, "tnext", nil)
  G:log(O.seat_label(G, leaders[1]) .. " starts")
  U.start(G, sw, V, O.first_colour(G, leaders[1]))
end

------------------------------------------------------------------------------------------
-- Turns

-- Whether a turn plays both colours of its player (§15 two_player_throw=shared).
local function shared(sw) return sw.two_player_throw == "shared" end

-- The colour whose pieces colour c's turn plays (§14 finished_plays_partner).
local function mover_of(sw, V, c)
  if V.home[c] == 4 and not shared(sw) then return B.PARTNER[c] end
  return c
end

-- The colours a turn of `mover` plays: that colour, or both colours of its player.
local ONE, BOTH = {}, {}
for c = 1, 4 do ONE[c], BOTH[c] = { c }, { c, B.PARTNER[c] } end
local function colours(sw, mover)
  if shared(sw) then return BOTH[mover] end
  return ONE[mover]
end

-- The colour to play (the current unit) begins its turn.
local function begin_turn(G, V)
  put(G, V, "phase", "throw", "throws", 0, "extra", 0, "bound", 0, "captures", 0)
end

-- Whether colour c's turns are skipped (§14 finished_plays_partner=off).
local function skipped(sw, V, c)
  return sw.finished_plays_partner == "off" and V.home[c] == 4 and not shared(sw)
end

-- Passes the turn on (§4, §14, §15 turn_order, turn_unit, finished_plays_partner).
local function next_turn(G, sw, V)
  local skip = sw.finished_plays_partner == "off" and function(x) return skipped(sw, V, x) end or nil
  O.pass(G, skip)
  begin_turn(G, V)
end

-- Colour `start` started the game and it is colour c's turn (after the throw-off, or in an
-- imported position).
function U.start(G, sw, V, c, start)
  O.declare(G, sw, start or c)
  if start and start ~= c then O.set_turn(G, sw, c) end
  if skipped(sw, V, c) then
    next_turn(G, sw, V)
  else
    begin_turn(G, V)
  end
end

-- Ends the game: team `team` wins (1 for each of its seats), or with no team a draw.
local function finish(G, V, team, result)
  local scores = {}
  for s = 1, G:seats() do scores[s] = 0 end
  for u = 1, G:units() do
    if G:unit_team(u) == team then scores[G:unit_seat(u)] = 1 end
  end
  put(G, V, "phase", "over")
  G:set("scores", scores, "result", result)
  G:log("game over: " .. result)
end

-- Ends the game when colour c's team has all 8 pieces home (§14).
local function check_win(G, V, c)
  local p = B.PARTNER[c]
  if V.home[c] + V.home[p] < 8 then return false end
  finish(G, V, B.TEAM[c], O.team_label(G, B.TEAM[c]) .. " win")
  return true
end

------------------------------------------------------------------------------------------
-- What the game waits for

local function prompt(G, sw, c, mover, what)
  if shared(sw) then return O.team_label(G, B.TEAM[c]) .. " to play " .. what end
  local who = COLOURS[c]
  if G:seats() == 2 then who = who .. " (" .. O.seat_label(G, O.seat_of(G, c)) .. ")" end
  if mover ~= c then who = who .. " with " .. COLOURS[mover] .. "'s pieces" end
  return who .. " to play " .. what
end

-- The options of the decision the view's turn waits for (phase act, value or bonus).
function U.options(sw, V)
  local t = V.turn
  if t.phase == "act" then
    local key, entries, entry = t.dice, t.entries, U.implement(sw).entry
    local cs = colours(sw, t.mover)
    local list = M.offered(V, cs, key, entries, t.used, entry, t.triple)
    if sw.forced_play == "free" and #list > 0 and not M.entry_owed(V, cs, key, entries, entry) then
      list[#list + 1] = "stop"
    end
    return list
  end
  local b = t.phase == "value" and t.bound ~= 0 and t.bound or nil
  return M.cowrie_actions(V, colours(sw, t.mover), t.value, t.grace, b)
end

-- The status of the decision the view's turn waits for, with these options (made only for a
-- decision the game waits for: its prompt is text).
local function decision(G, sw, V, list)
  local t = V.turn
  local what
  if t.phase == "act" then
    what = T.text(t.dice)
  else
    what = tostring(t.value) .. (t.phase == "value" and t.bound ~= 0 and " (bound)" or "")
  end
  return { actor = G:current(), options = list, prompt = prompt(G, sw, O.turn(G), t.mover, what) }
end

-- The view of the board (moves.lua) with the switches in V.sw and the turn's props in V.turn,
-- read afresh (sw: the switches, if already read).
function U.read_view(G, sw)
  local V = M.view(G, sw or R.read(G))
  V.turn = read_turn(G)
  return V
end

-- The view the last event kept, if the kernel says the state has not changed since, else read
-- afresh.
function U.view(G)
  return G:kept("view") or U.read_view(G)
end

-- The status of a game over.
local function over(G)
  return { over = true, scores = G:get("scores"), result = G:get("result") }
end

function U.status(G)
  local V = U.view(G)
  local sw, phase = V.sw, V.turn.phase
  if phase == "over" then return over(G) end
  if phase == "throwoff" or phase == "throw" then return { chance = sw.implement } end
  return decision(G, sw, V, U.options(sw, V))
end

------------------------------------------------------------------------------------------
-- Playing

-- A long-dice throw is over: an extra throw for a capture (§15 capture_extra_throw), or the
-- next turn.
local function throw_done(G, sw, V)
  if sw.capture_extra_throw == "on" and V.turn.captures > 0 then
    put(G, V, "phase", "throw", "captures", 0)
    return
  end
  next_turn(G, sw, V)
end

-- A cowrie value is played or forfeited (§9): the bonus step, an extra throw, or the next turn.
local function value_done(G, sw, V, entered, captured)
  local t = V.turn
  local phase, v, extra, throws = t.phase, t.value, t.extra, t.throws
  if captured > 0 and sw.capture_extra_throw == "on" then extra = extra + 1 end
  local bound = 0
  if entered and sw.cowrie_followup == "entered_piece" then bound = entered end
  if phase == "value" and v == 25 and sw.cowrie_last_square == "bonus_one" then
    put(G, V, "bound", bound, "extra", extra, "phase", "bonus", "value", 1, "grace", false)
    return
  end
  if extra > 0 and (sw.cowrie_max_throws == 0 or throws < sw.cowrie_max_throws) then
    put(G, V, "bound", bound, "phase", "throw", "extra", extra - 1)
    return
  end
  next_turn(G, sw, V) -- a new turn starts with no bound value and no throws owed
end

-- The kernel logs decisions; the rules log what they play themselves (a single option).
local function log_auto(G, V, a, what)
  G:log(COLOURS[M.colour(a)] .. ": " .. M.label(V, a, what) .. " (only option)")
end

-- Plays option `a` of the current decision (`auto`: the rules play it, being the only one).
local function play(G, sw, V, a, auto)
  local t = V.turn
  local entry = U.implement(sw).entry
  if t.phase == "act" then
    local key = t.dice
    if a == "stop" then
      G:log(COLOURS[t.mover] .. " stops")
      return throw_done(G, sw, V)
    end
    local g = T.GROUPS[key][a & 7]
    if auto then log_auto(G, V, a, g.label) end
    local c = M.colour(a)
    local _, n = M.play(G, V, a, entry)
    if n > 0 then U.killed(G, V, c, n) end
    if check_win(G, V, c) then return end
    put(G, V, "dice", g.rest, "entries", (a >> 6) & 127 == 0 and t.entries + 1 or t.entries,
      "used", t.used + g.size, "captures", t.captures + n)
    if g.rest == 0 then throw_done(G, sw, V) end
    return
  end
  if auto then log_auto(G, V, a, tostring(t.value)) end
  local c, entered = M.colour(a), (a >> 6) & 127 == 0
  local moved, n = M.play(G, V, a, entry)
  if n > 0 then U.killed(G, V, c, n) end
  if check_win(G, V, c) then return end
  value_done(G, sw, V, entered and moved[1] or nil, n)
end

-- Colour c has captured n pieces (for kill_before_home; `sim` counts them as "captures").
function U.killed(G, V, c, n)
  G:stat("captures", n)
  local killed = V.killed or G:get("killed")
  killed[c] = true
  G:set("killed", killed)
end

-- Plays single options and forfeits unusable throws until the game waits for a chance event
-- or a real decision; returns the status there. V, the view, follows every piece that moves.
function U.settle(G, sw, V)
  V = V or U.read_view(G, sw)
  local t = V.turn
  for _ = 1, 1000 do
    local phase = t.phase
    if phase == "over" then return over(G) end
    if phase ~= "act" and phase ~= "value" and phase ~= "bonus" then return { chance = sw.implement } end
    local list = U.options(sw, V)
    if #list == 0 then
      if V.killed and not V.round and M.dead_end(V) then
        finish(G, V, nil, "a draw: no piece can ever move again (kill_before_home)")
        return over(G)
      end
      local c = t.mover
      if phase == "act" then
        G:log(COLOURS[c] .. ": " .. T.text(t.dice) .. " cannot be played")
        G:stat("forfeits")
        throw_done(G, sw, V)
      else
        G:log(COLOURS[c] .. ": " .. t.value .. " is forfeited")
        G:stat("forfeits")
        value_done(G, sw, V, nil, 0)
      end
    elseif #list == 1 and list[1] ~= "stop" then
      play(G, sw, V, list[1], true)
    else
      return decision(G, sw, V, list)
    end
  end
  error("chaupar: a turn did not settle")
end

-- The status that follows a change: the one settle found, unless a house rule stacks on status.
-- The view, which followed every piece that moved, is kept for the next event.
local function next_status(G, sw, V)
  local st = U.settle(G, sw, V)
  G:keep("view", V)
  if hook.status == U.status then return st end
  return hook.status(G)
end

function U.apply(G, option)
  local V = U.view(G)
  play(G, V.sw, V, option)
  return next_status(G, V.sw, V)
end

-- The throw falls: a long-dice throw to play action by action, or a cowrie value (§6, §9).
function U.begin_throw(G, sw, outcome, V)
  local c = O.turn(G)
  local mover = mover_of(sw, V, c)
  if sw.implement == "cowries" then
    local _, graces = T.schedule(sw)
    local v = outcome[1]
    local grace = graces[v] or false
    put(G, V, "phase", "value", "value", v, "grace", grace, "throws", V.turn.throws + 1,
      "extra", V.turn.extra + (grace and 1 or 0), "mover", mover)
  else
    local key = T.key(outcome)
    local triple = #outcome == 3 and outcome[1] == outcome[2] and outcome[2] == outcome[3]
    put(G, V, "phase", "act", "dice", key, "entries", 0, "used", 0, "triple", triple, "mover", mover,
      "captures", 0)
  end
end

function U.chance(G, name, outcome)
  local V = U.view(G)
  local sw = V.sw
  if V.turn.phase == "throwoff" then
    throwoff(G, sw, V, outcome)
  else
    G:log(COLOURS[O.turn(G)] .. " throws " .. thrown(sw, outcome))
    U.begin_throw(G, sw, outcome, V)
  end
  return next_status(G, sw, V)
end

-- The label of an option of the current decision.
function U.label(G, option)
  if type(option) == "string" then return option end
  local V = U.view(G)
  local named, t = shared(V.sw), V.turn
  if t.phase == "act" then
    local g = T.GROUPS[t.dice][option & 7]
    return M.label(V, option, g.label, named)
  end
  return M.label(V, option, tostring(t.value), named)
end

return U
