-- Backgammon turn sequence (spec §2): the opening roll (switch `opening_roll`), the cube
-- decision before rolling, the dice, the move (a pass is logged and skipped: no option is
-- ever a non-move), the end of the turn (switch `turn_cap`) and the end of the game.
--
-- Phases (prop "phase"): opening (chance "opening"), start (the player on roll may double,
-- else chance "dice"), roll (chance "dice"), move (the dice in props die1, die2, which keep
-- the last roll afterwards: only this phase reads them), doubled, beavered, over. The
-- player on roll is G:current() throughout his turn, also while the opponent answers a
-- double. `chance` and `apply` return the status that follows (docs/lua-api.md), so a
-- simulation generates the moves once per roll: when the dice fall.

local movegen = require("backgammon.movegen")
local moves = require("backgammon.moves")
local rules = require("backgammon.rules")
local layout = require("backgammon.layout")
local cube = require("backgammon.cube")
local match = require("backgammon.match")

local T = {}

local NAMES, LOCS = layout.NAMES, layout.LOCS
-- Read on every move: a local is one instruction, a library field two lookups through the
-- read-only globals.
local math_type = math.type

local function dice_text(a, b)
  if b > a then a, b = b, a end
  return a .. "-" .. b
end

-- PROMPTS[seat][a * 8 + b]: "X to play 6-5" for dice a, b.
local PROMPTS = { {}, {} }
for seat = 1, 2 do
  for a = 1, 6 do
    for b = 1, 6 do PROMPTS[seat][a * 8 + b] = NAMES[seat] .. " to play " .. dice_text(a, b) end
  end
end

local ANY = math.maxinteger

-- The legal moves of `seat` for dice a, b, as packs (movegen.lua): from the fast generator
-- when it gives the rules' moves for this roll (rules.fast_dice), which takes the board as
-- bit sets (his places, those with one checker, the opponent's with two or more and with
-- one; a blot he may not hit counts as held, rules.shield): a non-double from those alone,
-- a double with the whole board too; else from the rules' hooks (moves.lua).
function T.moves(G, seat, a, b)
  local track, opp = layout.TRACKS[seat], 3 - seat
  local held, ones, blocked, blots = G:mask(track, seat, 1, ANY, seat, 1, 1, opp, 2, ANY, opp, 1, 1)
  local n = rules.fast_dice(G, a, b)
  if not n then return moves.moves(G, layout.board(G, seat), a, b) end
  -- Only an overridden may_hit may shield a blot: else no board is needed here.
  if blots ~= 0 and not rules.unchanged("may_hit", rules.may_hit) then
    local shield = rules.shield(G, layout.board(G, seat), blots)
    blocked, blots = blocked | shield, blots & ~shield
  end
  if n == 4 or a ~= b then
    return movegen.quick(a, b, held, ones, blocked, blots)
      or movegen.packs(layout.board(G, seat), a, b, 0, held, ones, blocked, blots)
  end
  return movegen.few(layout.board(G, seat), a, n, held, ones, blocked, blots)
end

local function move_status(seat, a, b, moves)
  return { actor = seat, options = moves, prompt = PROMPTS[seat][a * 8 + b] }
end

local function answer_status(G, seat, options, value)
  return { actor = seat, options = options,
    prompt = string.format("%s: take or drop at %d", NAMES[seat], value) }
end

local CHANCE_DICE = { chance = "dice" }

-- The start of `seat`'s turn: double or roll, or straight to the dice.
local function start_status(G, seat)
  if not hook.may_double(G, seat) then return CHANCE_DICE end
  return { actor = seat, options = { "roll", "double" },
    prompt = NAMES[seat] .. ": roll or double" }
end

-- What the game waits for now.
function T.status(G)
  local phase = G:get("phase")
  local seat = G:current()
  if phase == "move" then
    local a, b = G:get("die1", "die2")
    return move_status(seat, a, b, T.moves(G, seat, a, b))
  end
  if phase == "start" then
    return start_status(G, seat)
  elseif phase == "roll" then
    return CHANCE_DICE
  elseif phase == "opening" then
    return { chance = "opening" }
  elseif phase == "doubled" then
    return answer_status(G, 3 - seat, cube.answers(G), cube.state(G) * 2)
  elseif phase == "beavered" then
    return answer_status(G, seat, { "take", "drop" }, cube.state(G) * 4)
  elseif phase == "over" then
    return { over = true, scores = G:get("final"), result = G:get("result") }
  end
  error("backgammon: unknown phase " .. tostring(phase))
end

-- The dice of the move being played, as { a, b }, or nil outside the move phase.
function T.dice(G)
  local phase, a, b = G:get("phase", "die1", "die2")
  if phase == "move" then return { a, b } end
  return nil
end

-- Ends the turn: count it when there is a turn cap (and draw at the cap), else pass the dice
-- on. Returns the seat whose turn starts, or nil when the game ended.
function T.end_turn(G)
  local cap = switches.turn_cap
  if cap > 0 then
    local turns = (G:get("turns") or 0) + 1
    G:set("turns", turns)
    if turns >= cap then
      match.draw(G, turns)
      return nil
    end
  end
  G:set("phase", "start")
  return G:advance()
end

-- The dice a, b fall for the player on roll: the legal moves, or a skipped turn when no die
-- can be played. Returns the move decision's status (nil after a pass).
function T.begin_move(G, a, b)
  local seat = G:current()
  local moves = T.moves(G, seat, a, b)
  if #moves == 0 then
    G:log(string.format("%s rolls %s and cannot move", NAMES[seat], dice_text(a, b)))
    T.end_turn(G)
    return nil
  end
  G:set("die1", a, "die2", b, "phase", "move")
  return move_status(seat, a, b, moves)
end

-- Opening roll: X's die a, O's die b; a tie rolls again.
local function opening(G, a, b)
  if a == b then
    G:log(string.format("Opening roll: both roll %d; roll again", a))
    return
  end
  local seat = a > b and 1 or 2
  G:set_current(seat)
  G:log(string.format("Opening roll: X %d, O %d; %s moves first", a, b, NAMES[seat]))
  if switches.opening_roll == "starter_rerolls" then
    G:set("phase", "roll")
  else
    T.begin_move(G, a, b)
  end
end

-- The kernel resolves only the chance event that status asked for: "opening" in the opening
-- phase, "dice" at the start of a turn.
function T.chance(G, name, outcome)
  local a, b = outcome[1], outcome[2]
  if name == "opening" then
    opening(G, a, b)
  else
    local status = T.begin_move(G, a, b)
    -- The decision just built is the status, unless a house rule stacks on `status`.
    if status and rules.unchanged("status", T.status) then return status end
  end
  return hook.status(G)
end

-- Plays a move option (a pack, see movegen.lua) for the player on roll; hits go to the
-- opponent's bar. All checker moves go to the kernel in one call. The kernel passes only
-- options of the current decision, and integers are offered only in the move phase.
local function play(G, pack)
  local seat = G:current()
  local mine, bar = LOCS[seat], LOCS[3 - seat][25]
  -- Room for four steps that each hit (Lua 5.4 has no table.create).
  local moves = { nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil }
  local n, bore_off = 0, false
  for i = 0, 11 * (pack >> 48) - 11, 11 do
    local c = pack >> i & 2047
    local dst = c >> 1 & 31
    local to = mine[dst]
    if c & 1 == 1 then
      moves[n + 1], moves[n + 2], n = to, bar, n + 2
    end
    moves[n + 1], moves[n + 2], n = mine[c >> 6], to, n + 2
    bore_off = bore_off or dst == 0
  end
  G:move_tops(moves)
  if bore_off and G:count(mine[0], seat) == G:get("checkers") then
    match.win(G, seat)
  else
    local next_seat = T.end_turn(G)
    if next_seat and rules.unchanged("status", T.status) then return start_status(G, next_seat) end
  end
  return hook.status(G)
end

local CUBE_ACTIONS = {
  start = {
    roll = function(G) G:set("phase", "roll") end,
    double = function(G, seat) cube.double(G, seat) end,
  },
  doubled = {
    take = function(G, seat) cube.take(G, seat) end,
    drop = function(G, seat) match.drop(G, seat, cube.state(G)) end,
    beaver = function(G, seat) cube.beaver(G, seat) end,
  },
  beavered = {
    take = function(G, seat) cube.take_beaver(G, seat) end,
    drop = function(G, seat) match.drop(G, 3 - seat, cube.state(G) * 2) end,
  },
}

-- Applies one option of T.status.
function T.apply(G, option)
  if math_type(option) == "integer" then return play(G, option) end
  local st = hook.status(G)
  for _, o in ipairs(st.options or {}) do
    if o == option then
      CUBE_ACTIONS[G:get("phase")][option](G, G:current())
      return hook.status(G)
    end
  end
  error(string.format("%q is not possible now", tostring(option)), 0)
end

return T
