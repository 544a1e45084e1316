-- Backgammon («тюльбар»): the game table of docs/lua-api.md for the rules of
-- shared/specs/backgammon.md. Seats X and O (§1), the switches of §8, the opening roll and the
-- turn's dice on stream "dice" (§2), and the hooks; the rules live in the modules required
-- below.

local layout = require("backgammon.layout")
local movegen = require("backgammon.movegen")
local turn = require("backgammon.turn")
local cube = require("backgammon.cube")
local cube_theory = require("backgammon.cube_theory")
local notation = require("backgammon.notation")
local position = require("backgammon.position")
local render = require("backgammon.render")
local picture = require("backgammon.picture")
local machine = require("backgammon.machine")
local rules = require("backgammon.rules")
local moves = require("backgammon.moves")
local eval = require("backgammon.eval")
local features = require("backgammon.features")

local function power_of_two(v) return v >= 1 and v & (v - 1) == 0 end

local function setup(G)
  local limit = switches.cube_limit
  if limit ~= 0 and not power_of_two(limit) then
    error(string.format("cube_limit: %d is not 0 or a power of two", limit), 0)
  end
  layout.create(G)
  layout.add_side(G, 1, hook.starting_layout(G, 1))
  layout.add_side(G, 2, hook.starting_layout(G, 2))
  G:set("checkers", rules.checkers(G))
  G:set("cube", 1)
  G:set("cube_owner", 0)
  G:set("score", { 0, 0 })
  G:set("match_length", switches.match_length)
  G:set("crawford", false)
  G:set("crawford_used", false)
  G:set("turns", 0)
  G:set("game", 1)
  G:set("phase", "opening")
end

-- The position of the game state, oriented to the player on roll (§7.1).
local function current_position(G)
  local seat = G:current()
  local value, owner = cube.state(G)
  local score = G:get("score") or { 0, 0 }
  return {
    me = layout.side(G, seat), opp = layout.side(G, 3 - seat), on_roll = seat == 1 and "x" or "o",
    dice = turn.dice(G),
    cube = { value = value, owner = owner == 0 and "center" or (owner == seat and "me" or "opp") },
    match = { length = G:get("match_length") or 0, score = { score[seat], score[3 - seat] },
      crawford = G:get("crawford") or false },
    phase = G:get("phase"), dropped = G:get("dropped"), jacoby = G:switch("jacoby"),
  }
end

-- The position as §7.1 JSON, or as gnubg's PositionID:MatchID (§7.2) when fmt is "id".
local function export(G, fmt)
  local pos = current_position(G)
  if fmt == "id" then return position.to_id(pos) .. ":" .. position.match_id(pos) end
  return position.to_json(pos)
end

-- The phase a decoded position starts in (a Match ID may say the game has not begun or a
-- double waits for its answer): with dice, the move (or the pass they force).
local function start_phase(G, pos)
  if pos.dice then
    turn.begin_move(G, pos.dice[1], pos.dice[2])
  else
    G:set("phase", pos.phase or "start")
  end
end

local function import(G, text)
  local n = rules.checkers(G)
  local pos = position.decode(text, { checkers = n })
  if pos.me[0] == n or pos.opp[0] == n then
    error("this position is over: a side has borne off all its checkers", 0)
  end
  local me = pos.on_roll == "x" and 1 or 2
  layout.place_side(G, me, pos.me)
  layout.place_side(G, 3 - me, pos.opp)
  G:set_current(me)
  local owner = pos.cube.owner
  G:set("cube", pos.cube.value)
  G:set("cube_owner", owner == "center" and 0 or (owner == "me" and me or 3 - me))
  local m = pos.match
  local score = me == 1 and { m.score[1], m.score[2] } or { m.score[2], m.score[1] }
  G:set("match_length", m.length)
  G:set("score", score)
  G:set("crawford", m.crawford)
  G:set("crawford_used", m.crawford or (m.length > 0 and (score[1] == m.length - 1 or score[2] == m.length - 1)))
  G:set("turns", 0)
  G:set("final", nil)
  G:set("result", nil)
  G:set("dropped", nil)
  start_phase(G, pos)
  if m.length == 0 and pos.jacoby ~= nil and pos.jacoby ~= G:switch("jacoby") then
    local on = pos.jacoby and "on" or "off"
    G:log(string.format("note: the Match ID plays money with the Jacoby rule %s; this game has it %s (--set jacoby=%s to follow it)",
      on, pos.jacoby and "off" or "on", tostring(pos.jacoby)))
  end
end

-- A move option is an integer packing its steps (movegen.lua); cube options are words.
local function label(G, option)
  if type(option) == "string" then return option end
  local dice, b = turn.dice(G), layout.board(G, G:current())
  local steps = movegen.unpack(option)
  return notation.label(b, dice[1], dice[2], switches.max_per_point, steps,
    moves.all(G, b, dice[1], dice[2]))
end

local CUBE_WORDS = { roll = true, double = true, take = true, drop = true, beaver = true }

-- Index of the pending option that typed text denotes (§9 input for moves); `options` is
-- the pending decision's list (default: hook.status(G).options). A cube word the rules
-- forbid now says why (the kernel hands one typed at a chance event with no options).
local function parse(G, text, options)
  local typed = text:lower():match("^%s*(.-)%s*$")
  local why = CUBE_WORDS[typed] and cube.why_not(G, typed)
  options = options or hook.status(G).options
  if not options then
    -- a word typed while the game waits for chance: say why it is not open, if the cube knows
    if why then error(why, 0) end
    return nil
  end
  for i, o in ipairs(options) do
    if o == typed then return i end
  end
  if why then error(string.format("%q is not possible: %s", text, why), 0) end
  if G:get("phase") ~= "move" or CUBE_WORDS[typed] then
    local names = {}
    for i, o in ipairs(options) do names[i] = type(o) == "string" and o or label(G, o) end
    error(string.format("%q is not possible now (options: %s)", text, table.concat(names, ", ")), 0)
  end
  local dice, b = turn.dice(G), layout.board(G, G:current())
  local e = notation.resolve(b, dice[1], dice[2], switches.max_per_point, text,
    moves.all(G, b, dice[1], dice[2]))
  for i, o in ipairs(options) do
    if notation.key_after(b, movegen.unpack(o)) == e.key then return i end
  end
  error("backgammon: move " .. e.label .. " is not among the options")
end

-- What the board shows seat `viewer`, in its own point numbers; the referee's and a
-- spectator's (viewer 0) is drawn for the side on roll, so what it types matches what it sees.
local function board_view(G, viewer)
  if viewer == 0 and G:get("phase") ~= "opening" then viewer = G:current() end
  local value, owner = cube.state(G)
  return {
    x = layout.side(G, 1), o = layout.side(G, 2), viewer = viewer, current = G:current(),
    phase = G:get("phase"), dice = turn.dice(G), cube = value, cube_owner = owner,
    cube_on = switches.cube, score = G:get("score"), match_length = G:get("match_length"),
    crawford = G:get("crawford"), game = G:get("game"), result = G:get("result"),
  }
end

local function render_board(G, viewer) return render.text(board_view(G, viewer)) end
local function picture_board(G, viewer) return picture.draw(board_view(G, viewer)) end

-- Invariants for fuzzing: each side keeps its checkers; no point holds both colours.
local function invariant(G)
  local n, x, o = rules.checkers(G), layout.side(G, 1), layout.side(G, 2)
  local tx, to = 0, 0
  for p = 0, 25 do tx, to = tx + x[p], to + o[p] end
  if tx ~= n or to ~= n then return string.format("checkers: X %d, O %d, want %d each", tx, to, n) end
  for p = 1, 24 do
    if x[p] > 0 and o[25 - p] > 0 then return "point " .. p .. " (X's numbering) holds both colours" end
  end
  return nil
end

local function machine_moves(G, args)
  return machine.moves(args, { checkers = rules.checkers(G), max_per_point = switches.max_per_point,
    search = function(b, d1, d2) return moves.all(G, b, d1, d2) end })
end

return {
  name = "backgammon",
  title = "Backgammon",
  seats = { min = 2, max = 2, default = 2, names = { "X", "O" } },
  switches = {
    opening_roll = { default = "one_die_each", values = { "one_die_each", "starter_rerolls" },
      help = "First player: one die each (the winner plays both), or the winner rolls anew" },
    scoring = { default = "full", values = { "full", "gammons", "single" },
      help = "full = 1/2/3, gammons = backgammon counts 2, single = every win counts 1" },
    cube = { default = true, help = "Play with the doubling cube" },
    cube_limit = { default = 0, min = 0, help = "Highest cube value (a power of two); 0 = no limit" },
    jacoby = { default = false, help = "Money play: gammons count single unless the cube was turned" },
    beavers = { default = false, help = "Money play: a doubled player may take and redouble at once" },
    match_length = { default = 0, min = 0, help = "Match to N points; 0 = money play" },
    crawford = { default = true, help = "No cube in the game after a player first reaches N-1" },
    max_per_point = { default = 0, values = { 0, 5 }, help = "Checkers allowed on one point; 0 = no limit" },
    start = { default = "standard", values = { "standard", "hyper" },
      help = "standard = 15 checkers; hyper = 3 each on the opponent's points 1, 2, 3" },
    turn_cap = { default = 0, min = 0, help = "Game drawn after N turns; 0 = no cap" },
  },
  -- `tortuga bench backgammon` plays without the cube, like the reference implementations it
  -- is compared with (a uniform random player doubles and drops half the time otherwise).
  bench = { cube = false },
  -- The learned evaluation estimates cubeless chances (win, gammon, backgammon); the cube, the
  -- match and the scoring switches change only what they are worth, which the `equity` hook
  -- works out. So every ruleset differing only in these plays by the one evaluation trained
  -- without the cube, as gnubg's one network serves money and match play.
  learns = { cube = false, cube_limit = 0, jacoby = false, beavers = false, match_length = 0, crawford = true,
    scoring = "full" },
  formats = { id = "GNU Backgammon PositionID:MatchID: the board, the cube, the score, the side on roll, its dice" },
  -- The cube's words, typed alone at the prompt: each plays its option, or the parse hook
  -- says why it cannot now.
  -- What the uniform-random bot of `auto` takes when offered (unless `auto --any`): it rolls
  -- rather than doubles and takes rather than drops, so a money game is not doubled and
  -- dropped away in a few steps.
  auto_prefers = { "roll", "take" },
  -- Evaluations the greedy bot may be given besides eval.lua's own (`greedy:pubeval`).
  -- What the learned evaluation estimates, each the `outcome` hook's value at the end.
  outcomes = features.OUTCOMES,
  evaluations = {
    pubeval = "Tesauro's public benchmark evaluation (1993): linear, cubeless (pubeval.lua)",
  },
  commands = {
    double = "offer the cube at twice its value (before rolling)",
    take = "accept a double and own the cube",
    drop = "refuse a double and concede the game at the current stakes",
    beaver = "take a double and redouble at once, keeping the cube (switch beavers)",
  },
  randomizers = {
    opening = { kind = "dice", faces = { 1, 2, 3, 4, 5, 6 }, count = 2, stream = "dice" },
    dice = { kind = "dice", faces = { 1, 2, 3, 4, 5, 6 }, count = 2, stream = "dice" },
  },
  hooks = {
    setup = setup,
    status = turn.status,
    apply = turn.apply,
    chance = turn.chance,
    label = label,
    render = render_board,
    picture = picture_board,
    export = export,
    import = import,
    machine_moves = machine_moves,
    -- invariant(G) -> nil or what is broken (for `check`); may_double(G, seat), called through
    -- `hook` so that house rules can change the cube.
    parse = parse,
    invariant = invariant,
    may_double = cube.may_double,
    -- The rules of §1 and §3-§6 as named hooks (rules.lua), for house rules to stack on.
    starting_layout = rules.starting_layout,
    dice_to_play = rules.dice_to_play,
    step = rules.step,
    may_land = rules.may_land,
    may_hit = rules.may_hit,
    may_bear_off = rules.may_bear_off,
    forced_play = rules.forced_play,
    win_kind = rules.win_kind,
    points = rules.points,
    -- eval(G, seat) -> number: how good the state is for seat (the greedy bot's measure).
    eval = eval.eval,
    -- features(G, seat) -> numbers: the learned evaluation's inputs (features.lua).
    features = features.features,
    outcome = features.outcome,
    -- The cube for every bot (cube_theory.lua): the learned bot's worth of its estimate, and
    -- the cube's decisions, which `mcts` takes by `eval` rather than by random rollouts.
    equity = cube_theory.equity,
    eval_decides = function(G) return G:get("phase") ~= "move" end,
  },
}
