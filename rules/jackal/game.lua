-- Jackal («Шакал»): the game table of docs/lua-api.md for shared/specs/jackal.md.
--
-- Modules: board (geometry), core (state, alliances, forbidden cells, kill/hit/board…),
-- chain (the arrival procedure §4.2 and forced chains as a task stack), moves (actions §13),
-- turns (seating §10, turn end, game end §9), position (§14), render, picture (`show --svg`),
-- packs, arrows, native, switches (§11).
--
-- Seating: the teams in play are seated in turn order W, Y, B, R; team i of that order is
-- played by seat ((i-1) mod seats) + 1. Sides: "2v2"/"duo" = white+black vs yellow+red;
-- "ffa" = the teams one seat plays (so two players with four teams play white+black against
-- yellow+red, as §2 says). Three players take the first three teams of switch `teams`.
--
-- Every tile is a file tiles/<what it is>.lua declaring its §14 code (`code = "ic"` in
-- ice.lua; empty.lua is "."). The tile is known by its code: `tiles.ic`, the deck's items and
-- its hooks, reached as hook["<code>.<hook>"]; every hook is optional (hooks.toml documents
-- each):
--
--   on_reveal(G, cell, by)      the tile was just turned up (by = "move" | "lighthouse");
--                               chests put coins, one-shots seen by the lighthouse fire here
--   on_arrive(G, cell, ch)      rule 8 of §4.2, after flips and hits. Returns nil/"rest" (the
--                               move ends here), a motion { to, type, dx, dy [, step] } (the
--                               chain goes on; type step|knight|flight|cannon), "wait" (the
--                               tile pushed a decision with core.ask, or a draw of its own
--                               randomizer with core.draw) or "done" (the tile ended the
--                               move itself, e.g. a death); anything else is an error
--                               naming the tile's file
--   on_draw(G, cell, outcome, ch) the outcome of the tile's own randomizer (core.draw; the
--                               whirlpool's sea cell); returns what on_arrive may
--   choices(G, cell, kind, extra) / decide(G, cell, kind, extra, answer)
--                               a decision the tile asked for (plane_wait, cave_exit,
--                               cave_take, quake_first/second/turn, lighthouse_pick/place); a
--                               decision with one option is answered automatically, with none
--                               with nil. decide returns a motion (the chain goes on) or
--                               "rest" (the move ends here), as on_arrive; or nil, "wait" or
--                               "done" when the tile itself ended the move or asked again
--   prompt(G, cell, kind, extra) the question shown for such a decision (optional)
--   transit(G, cell)            how the tile sends whoever arrives on, nil when it does not:
--                               "arrow", "repeat" (ice), "back" (crocodile), "jump" (horse),
--                               "ship" (balloon), "shot" (cannon). Nobody may stop there (the
--                               game's may_stop); items never lie there. forced_coin_blocked's
--                               look-ahead follows "repeat", "back" and single arrows;
--                               plane_targets = "no_transit" keeps flights off "repeat",
--                               "back" and "jump"
--   accepts_items(G, cell)      false: no item may be brought in or lie here (fortresses, jungle)
--   fortress(G, cell)           enemies may not enter while someone is inside
--   may_enter(G, cell, ch)      false: ch may not enter the open tile (no such move is offered,
--                               and a chain that carries ch there ends as on a forbidden cell)
--   shelter(G, cell)            enemies may share the cell (jungle)
--   no_hits(G, cell, ch)        arriving here hits nobody (jungle; the cannibal eats first)
--   steps(G, cell)              number of spinner steps
--   rotations()                 distinct orientations (arrows, cannon): flips draw one
--   exits(G, cell)              direction indices 0..7 (N clockwise) of arrows and cannons
--   code(G, cell, rot)          the §14 token of the tile (a1N …); default: the name
--   glyph(G, cell)              what the board shows (turned arrows); default: the glyph field
--   first_moves(G, cell, ch)    "flight": a character standing here may only fly (unused plane)
--   revive(G, cell)             a pirate here may revive (respawn fortress)
--   gold(G, cell)               gold the tile brings when turned up (chests, galleon)
--   one_shot()                  the tile may be written spent ("pl-")
--   the cave's: cave_exits(G, ch, but) and emerge(G, ch, cell), used by the lost characters'
--   actions; the lighthouse's: seen(G, team, cell) records a peeked tile (positions' `seen`
--   lines), swap_seen(G, a, b) makes what teams have seen follow an earthquake's swap. The
--   rules call these of the tile that defines them (core.provider).
--
-- Where a character may go is three game hooks (core.lua), asked by every rule that decides
-- the question, so a house rule stacks on them: may_enter(G, V, ch, cell, step) (§4.3, the
-- tile's may_enter), may_stop(G, V, ch, cell) (not where the tile sends him on) and
-- may_carry(G, V, ch, cell, step) (an item may come along: accepts_items, spinner_coin_block,
-- no hit). V is a view (core.view). A house rule may stack on a tile's hook too
-- (hook["tr.on_arrive"], house/rum_frees_trapped.lua).
--
-- Decisions in the middle of a move are continuations on the kernel's pending stack (see
-- chain.lua); flips wait for the "deck" bag draw and the "orient" draw, so `roll cr`, `roll 2`
-- force them.

local B = require("jackal.board")
local C = require("jackal.core")
local H = require("jackal.chain")
local M = require("jackal.moves")
local T = require("jackal.turns")
local P = require("jackal.packs")
local X = require("jackal.position")
local R = require("jackal.render")
local PIC = require("jackal.picture")
local SW = require("jackal.switches")
local K = require("jackal.check")
local E = require("jackal.eval")
local Fe = require("jackal.features")

local function setup(G)
  G:grid("", 13, 13, "letters")
  assert(G:loc("A1") == 1 and G:loc("M13") == 169, "the board must be the first grid")
  assert(G:place("dead") == B.DEAD and G:place("gone") == B.GONE and G:place("underground") == B.UNDER)
  local teams = T.default_teams(G)
  T.seat_teams(G, teams)
  local ships = { 0, 0, 0, 0 }
  for _, t in ipairs(teams) do
    ships[t] = B.SIDES[t].start
    for k = 1, 3 do
      C.new_char(G, B.LETTER[t] .. k, t, ships[t], 0)
    end
  end
  G:set("ships", ships)
  local deck = P.deck(G)
  if #deck ~= #B.LAND then
    error("the " .. C.sw(G, "pack") .. " pack has " .. #deck .. " tiles; the island needs " .. #B.LAND, 0)
  end
  G:bag("deck", deck, {}) -- what is left in the deck is no seat's to see
  G:set("bank", { 0, 0, 0, 0 })
  G:set("bottles", { 0, 0, 0, 0 })
  G:set("lost", 0)
  G:set("round", 1)
  G:set("grass", 0)
  G:set("stall", 0)
  G:set("act", false)
  G:set("turn", T.first_team(G))
  G:set("gold_total", K.gold_total(G))
  G:set("pack_check", true)
  T.begin(G)
end

-- Each hook that changes the state returns the status that follows when it knows it (the
-- kernel then needs no second call, see docs/lua-api.md).
local function status(G)
  if G:get("phase") == "over" then
    return { over = true, scores = G:get("scores"), result = G:get("result") }
  end
  return T.decision(G)
end

-- An action (decisions in the middle of a move go to their continuations, see chain.lua).
local function apply(G, opt)
  opt = M.option(opt)
  if opt.a == "end" then return T.end_turn(G, C.view(G)) end
  local r, status = M.apply(G, opt, hook.apply == apply)
  if r == "chain" then
    return status -- nil: chain.done, under what waits, returns the status
  elseif r == "free" then
    return T.free_done(G)
  end
  return T.action_done(G, status) -- the view, when known
end

local game = {
  name = "jackal",
  title = "Jackal (Шакал)",
  -- a seat is shown by the teams it plays ("yellow", "white+black"); P1…P4 are taken as input
  seats = { min = 2, max = 4, default = 4, names = { "P1", "P2", "P3", "P4" }, shown = "units" },
  switches = SW,
  -- what the counters `sim` reports count (G:stat)
  counters = {
    flips = "tiles turned up",
    sails = "ship moves",
    hits = "pirates sent back to their ship",
    deaths = "pirates killed",
  },
  -- What the learned evaluation estimates (features.lua), and how `tortuga train` learns it:
  -- games of a thousand decisions need a long trace and a small step, and hand-made inputs a
  -- linear part (docs/bots.md).
  outcomes = Fe.OUTCOMES,
  training = { alpha = 0.01, lambda = 0.97, linear = true, max_steps = 3000 },
  formats = {
    public = "what every player may know: tiles not seen by all are closed, no deck",
    current = "the position as it stands, also in the middle of a move (which setup does not take)",
  },
  -- The hooks a tile file may define (see the header); any other name is an error at load.
  tile_hooks = {
    "accepts_items", "cave_exits", "choices", "code", "decide", "emerge", "exits",
    "first_moves", "fortress", "glyph", "gold", "may_enter", "no_hits", "on_arrive", "on_draw",
    "on_reveal", "one_shot", "prompt", "revive", "rotations", "seen", "seen_by", "seers", "shelter",
    "side_seats", "steps", "swap_seen", "transit",
  },
  randomizers = {
    -- secret: the printed seed must not foretell the tiles
    deck = { kind = "bag", bag = "deck", secret = true },
    orient = { kind = "orientation", count = 4, stream = "deck", secret = true },
  },
  hooks = {
    setup = setup,
    status = status,
    apply = apply,
    label = function(G, opt) return M.label(G, opt) end,
    parse = function(G, text, options) return M.parse(G, text, options) end,
    legend = function(G) return R.legend(G) end,
    render = function(G, viewer) return R.render(G, viewer) end,
    picture = function(G, viewer) return PIC.draw(G, viewer) end,
    export = function(G, format) return X.export(G, format) end,
    position_seats = function(_, text) return X.seats(text) end,
    import = function(G, text)
      X.import(G, text)
      G:set("gold_total", K.gold_total(G))
      G:set("pack_check", nil)
    end,
    -- The invariants of §9, for fuzzing: "" when sound, else one problem a line ("light":
    -- without the deck and pack counts).
    check = function(G, mode) return table.concat(K.problems(G, mode == "light"), "\n") end,
    -- invariant(G) -> "" or the broken invariants (`tortuga check`; the light checks).
    invariant = function(G) return table.concat(K.problems(G, true), "\n") end,
    -- eval(G, seat) -> number: how good the state is for seat (the greedy bot's measure).
    eval = E.eval,
    -- features(G, seat) -> numbers: the learned evaluation's inputs (features.lua).
    features = Fe.features,
    -- outcome(G, seat) -> the values of `outcomes` at the end; equity(G, seat, estimates) ->
    -- what the learned bot plays for (features.lua).
    outcome = Fe.outcome,
    equity = Fe.equity,
    -- Where a character may go (core.lua): asked by every rule that decides it.
    may_enter = C.may_enter,
    may_stop = C.may_stop,
    may_carry = C.may_carry,
  },
}
for name, f in pairs(H.hooks) do game.hooks[name] = f end
return game
