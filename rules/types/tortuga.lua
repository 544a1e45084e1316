---@meta
-- The Tortuga API for rule files, for the Lua Language Server (.luarc.json loads it).
-- Generated from src/script/ruleset/reference.toml and rules/<game>/hooks.toml: do not edit
-- (`TORTUGA_BLESS=1 cargo test --release --test suite reference` writes it again).

---@alias Loc integer
---@alias Option string|number|table
---@alias Piece integer
---@alias Seat integer
---@alias Status {chance?: string, actor?: Seat, options?: Option[], prompt?: string, seen_by?: Seat[], over?: boolean, scores?: number[], result?: string}
---@alias Unit integer
---@alias Value nil|boolean|integer|number|string|table

---The game state handle every hook receives: each method is one kernel operation.
---@class G
local G = {}

-- Places and topology

---A named location (a point, a zone such as `bar.X`); the same name gives the same location.
---@param name string
---@return Loc
function G:place(name) end

---The location of that name, or nil.
---@param name string
---@return Loc?
function G:loc(name) end

---The name of a location.
---@param loc Loc
---@return string
function G:loc_name(loc) end

---w×h cells named `<prefix>x,y` (x 1..w left to right, y 1..h top to bottom); with `"letters"`, chess-style `<prefix>A1` names with row 1 at the bottom.
---@param prefix string
---@param w integer
---@param h integer
---@param names? "coordinates"|"letters"
function G:grid(prefix, w, h, names) end

---A grid cell, nil off the grid.
---@param prefix string
---@param x integer
---@param y integer
---@return Loc?
function G:cell(prefix, x, y) end

---The grid coordinates of a cell (nil, nil if it is not a grid cell).
---@param loc Loc
---@return integer?
---@return integer?
function G:xy(loc) end

---n (default 1) cells towards `N NE E SE S SW W NW` (N = up); nil off the grid.
---@param loc Loc
---@param dir string
---@param n? integer
---@return Loc?
function G:step(loc, dir, n) end

---Defines a path (a route); a route may pass a location more than once.
---@param name string
---@param locs Loc[]
function G:track(name, locs) end

---The location at position i of a track.
---@param name string
---@param i integer
---@return Loc?
function G:track_loc(name, i) end

---How many positions a track has.
---@param name string
---@return integer
function G:track_len(name) end

---The first index (1-based) of loc on the track.
---@param name string
---@param loc Loc
---@return integer?
function G:track_pos(name, loc) end

---Every index where the track passes loc, in order.
---@param name string
---@param loc Loc
---@return integer[]
function G:track_positions(name, loc) end

---An explicit link of `kind` (caves) both ways.
---@param a Loc
---@param b Loc
---@param kind string
function G:link(a, b, kind) end

---A link one way (a current from a to b): b is among a's links, not a among b's.
---@param a Loc
---@param b Loc
---@param kind string
function G:link_to(a, b, kind) end

---Where the links of `kind` lead from loc, in the order they were made.
---@param loc Loc
---@param kind string
---@return Loc[]
function G:links(loc, kind) end

---The cells next to a grid cell in the order N NE E SE S SW W NW, cells off the grid left out: the eight around it (chebyshev, the default) or the four N E S W (manhattan).
---@param loc Loc
---@param metric? "chebyshev"|"manhattan"
---@return Loc[]
function G:neighbours(loc, metric) end

---Steps between two cells of one grid: max(|dx|, |dy|) (default) or |dx| + |dy|; nil on different grids; an error if either is not a grid cell.
---@param a Loc
---@param b Loc
---@param metric? "chebyshev"|"manhattan"
---@return integer?
function G:distance(a, b, metric) end

-- Pieces

---A new piece (owner 0 = nobody; loc 0 = off the board) on top of loc.
---@param kind string
---@param owner Seat
---@param loc Loc
---@return Piece
function G:add(kind, owner, loc) end

---Puts p on top of loc (0: off every location).
---@param p Piece
---@param loc Loc
function G:move(p, loc) end

---Moves the top piece of `from` to `to`; nil, and nothing moves, when `from` is empty.
---@param from Loc
---@param to Loc
---@return Piece?
function G:move_top(from, to) end

---Several `move_top`s in order in one call, `{from, to, from, to, …}`; an empty `from` is an error.
---@param moves Loc[]
function G:move_tops(moves) end

---The pieces at loc, bottom to top.
---@param loc Loc
---@return Piece[]
function G:at(loc) end

---The top piece of loc.
---@param loc Loc
---@return Piece?
function G:top(loc) end

---How many pieces (of that owner, of that kind) are at loc.
---@param loc Loc
---@param owner? Seat
---@param kind? string
---@return integer
function G:count(loc, owner, kind) end

---Puts p on top of the location at position i of `track` and records (track, i) for it: on a route that passes a location twice, `tally` and `mask` count p at that index.
---@param p Piece
---@param track string
---@param i integer
function G:track_put(p, track, i) end

---Where `track_put` put p (index, track); nil once p moved any other way or its track was redefined.
---@param p Piece
---@return integer?
---@return string?
function G:track_index(p) end

---Counts of owner's pieces (0 = nobody's) along a whole track, one call; with `other`, owner's count minus other's.
---@param track string
---@param owner Seat
---@param other? Seat
---@return integer[]
function G:tally(track, owner, other) end

---Per (seat, min, max) triple (at most 8), an integer with bit i set when that seat has min..max pieces at track position i (tracks of at most 62 positions).
---@param track string
---@param seat Seat
---@param min integer
---@param max integer
---@param ... integer
---@return integer
---@return integer ...
function G:mask(track, seat, min, max, ...) end

---A piece's kind.
---@param p Piece
---@return string
function G:kind(p) end

---A piece's owner (0 = nobody).
---@param p Piece
---@return Seat
function G:owner(p) end

---A piece's location (0 = off every location).
---@param p Piece
---@return Loc
function G:where(p) end

---Changes a piece's kind.
---@param p Piece
---@param kind string
function G:set_kind(p, kind) end

---Changes a piece's owner.
---@param p Piece
---@param owner Seat
function G:set_owner(p, owner) end

---The pieces (of that owner, of that kind) in id order, removed pieces left out.
---@param owner? Seat
---@param kind? string
---@return Piece[]
function G:pieces(owner, kind) end

---Takes p out of the game: its id is never given again, and every later call naming it is an error.
---@param p Piece
function G:remove(p) end

---Whether p is a piece in the game (added and not removed).
---@param p Piece
---@return boolean
function G:exists(p) end

-- Properties

---The game's properties.
---@param k string
---@param ... string
---@return Value
---@return Value ...
function G:get(k, ...) end

---Sets the game's properties (`G:set(k, v, k2, v2)`); nil removes one.
---@param k string
---@param v Value
---@param ... any
function G:set(k, v, ...) end

---A location's properties.
---@param loc Loc
---@param k string
---@param ... string
---@return Value
---@return Value ...
function G:cell_get(loc, k, ...) end

---Sets a location's properties.
---@param loc Loc
---@param k string
---@param v Value
---@param ... any
function G:cell_set(loc, k, v, ...) end

---A piece's properties.
---@param p Piece
---@param k string
---@param ... string
---@return Value
---@return Value ...
function G:piece_get(p, k, ...) end

---Sets a piece's properties.
---@param p Piece
---@param k string
---@param v Value
---@param ... any
function G:piece_set(p, k, v, ...) end

---A seat's properties.
---@param s Seat
---@param k string
---@param ... string
---@return Value
---@return Value ...
function G:player_get(s, k, ...) end

---Sets a seat's properties.
---@param s Seat
---@param k string
---@param v Value
---@param ... any
function G:player_set(s, k, v, ...) end

---Many pieces' properties in one call: one array per key, entry i that of the i-th piece (nil where it has none, so index it, do not take `#`).
---@param ps Piece[]
---@param k string
---@param ... string
---@return Value[]
---@return Value[] ...
function G:pieces_get(ps, k, ...) end

---Many locations' properties in one call, as `pieces_get`.
---@param locs Loc[]
---@param k string
---@param ... string
---@return Value[]
---@return Value[] ...
function G:cells_get(locs, k, ...) end

-- Turn order

---The number of seats.
---@return integer
function G:seats() end

---A seat's name as players see it: its declared name or, where the game's seats are shown by units, the units it plays, joined by '+' ("white+black").
---@param s Seat
---@return string
function G:seat_name(s) end

---Declares the units in order of play, each with its controller seat and optional team; unit 1 is to play. At most 64 units, names distinct.
---@param units {name: string, seat: Seat, team?: integer}[]
function G:set_units(units) end

---How many units.
---@return integer
function G:units() end

---The unit to play.
---@return Unit
function G:unit() end

---Makes a unit (by number or name) the one to play.
---@param u Unit|string
function G:set_unit(u) end

---A unit's name.
---@param u Unit
---@return string
function G:unit_name(u) end

---The seat that controls a unit.
---@param u Unit
---@return Seat
function G:unit_seat(u) end

---A unit's team.
---@param u Unit
---@return integer
function G:unit_team(u) end

---The unit of that name.
---@param name string
---@return Unit?
function G:find_unit(name) end

---The controller of the unit to play.
---@return Seat
function G:current() end

---Makes seat s play: the current unit if s controls it, else the first unit s controls.
---@param s Seat
function G:set_current(s) end

---Passes the turn and returns the unit to play: a pending extra turn keeps the unit, else the next unit in the direction of play whose skip counter is zero. With `skip`, the units it returns true for are passed over; when it returns true for every unit, nil and nothing changes.
---@param skip? fun(u: Unit): boolean
---@return Unit?
function G:advance(skip) end

---The unit plays again after this turn.
---@param u Unit
function G:extra_turn(u) end

---The unit's next n (default 1) turns are skipped.
---@param u Unit
---@param n? integer
function G:skip(u, n) end

---The direction of play, 1 or -1.
---@return integer
function G:direction() end

---Sets the direction of play (1 or -1).
---@param d integer
function G:set_direction(d) end

---A seat's team.
---@param s Seat
---@return integer
function G:team(s) end

---Puts a seat in a team.
---@param s Seat
---@param t integer
function G:set_team(s, t) end

---The seats of s's team.
---@param s Seat
---@return Seat[]
function G:teammates(s) end

-- Secrets and views

---A secret only `seats` (and the referee) may see; `domain` (a bag name or a list of values) says what a seat that may not see it knows of it, so that a bot can determinize. nil removes it.
---@param k string
---@param v Value
---@param seats? Seat[]
---@param domain? string|Value[]
function G:secret_set(k, v, seats, domain) end

---A secret's value; an error in a view that may not see it.
---@param k string
---@return Value
function G:secret_get(k) end

---Shows a secret to one seat, or to everyone.
---@param k string
---@param s? Seat
function G:secret_reveal(k, s) end

---Whether the current view (or seat s, never more than the current view) may see a secret.
---@param k string
---@param s? Seat
---@return boolean
function G:can_see(k, s) end

---The seat the rule runs for: 0 for a spectator, nil for the referee (who sees everything).
---@return Seat?
function G:viewer() end

-- Bags

---Fills a bag; with `seats` (`{}`: nobody) its contents are hidden from the other seats.
---@param name string
---@param items string[]
---@param seats? Seat[]
function G:bag(name, items, seats) end

---Puts an item back into a bag.
---@param name string
---@param item string
function G:bag_add(name, item) end

---How many items a bag holds (always public).
---@param name string
---@return integer
function G:bag_count(name) end

---A bag's items, sorted; an error in a view the bag is hidden from.
---@param name string
---@return string[]
function G:bag_items(name) end

-- Pending decisions

---Pushes a continuation: a step (`hook` alone), a chance event (`chance` = a randomizer, with this event's parameters) or a decision (`actor` and `options`, or `ask` = a hook that lists them when it reaches the top); `none` runs when a decision has no option, `auto` takes a single option without asking.
---@param c {hook: string, args?: Value[], why?: string, seen_by?: Seat[], chance?: string, actor?: Seat, options?: string[], prompt?: string, ask?: string, auto?: boolean, none?: string}
function G:push(c) end

---The stack, top last (in a view, no `args` for an entry the viewer may not see).
---@return {hook: string, args?: Value[], why: string, waits: "step"|"chance"|"decision"}[]
function G:pending() end

-- Output and switches

---The value of a switch (defaults, then the variant, then `--set`); an unknown name is an error.
---@param k string
---@return Value
function G:switch(k) end

---A line of the game's log, read only by `seats` (and the referee) when given.
---@param text string
---@param seats? Seat[]
function G:log(text, seats) end

---Adds n (default 1) to a counter that `sim` reports.
---@param name string
---@param n? integer
function G:stat(name, n) end

---Restarts every random stream from `seed` (for a position format's own seed line; replays still agree).
---@param seed integer
function G:reseed(seed) end

-- Kept values

---Keeps `value` under `name` (1 to 64 bytes) for the state as it is now; nil forgets it. Keep after the hook's last write. With `props` (at most 16 game property names), the value was built from those properties alone and stays kept while they hold what they hold now. Refused in queries and `lua`.
---@param name string
---@param value any
---@param props? string[]
function G:keep(name, value, props) end

---The value kept under `name` for this very state: nil after any change by rules (a value kept with `props`: after a change of one of them), in a copy (undo, a rolled-back step, `lua`, the next game of a `sim`), in a seat's view, in a query (status, render, export, …), and after an invocation failed part-way.
---@param name string
---@return any
function G:kept(name) end

-- Globals

---The composed hooks of the ruleset (the game's, the tiles' as `<tile>.<hook>`, with house rules stacked on them): call hooks through it (`hook.may_hit(G, b, to)`), never directly, so that house rules apply.
---@class hook
---@field [string] function
hook = {}

---The tiles' metadata by name (games with `tiles/`); `code` is the tile's short code in the position format (its name when it declares none).
---@type table<string, {name: string, code: string, count: integer, glyph: string, help: string}>
tiles = {}

---The tiles' names, sorted.
---@type string[]
tile_names = {}

---The switches of the loaded rules (defaults, the variant's, `--set`), read-only; the same values as `G:switch`, which they are fixed for, at a fraction of its cost (`switches.cube`). Reading an unknown switch is an error.
---@type table<string, Value>
switches = {}

---The keys of t in a stable order (numbers first, then strings): iterate with it, not `pairs`, where the order matters.
---@param t table
---@return any[]
function sorted_keys(t) end

---JSON for positions and the machine interface.
---@class json
json = {}

---v as JSON, object keys sorted; bounded (at most 65536 values, 64 levels).
---@param v any
---@return string
function json.encode(v) end

---A JSON text as a Lua value (`null` becomes nil).
---@param text string
---@return any
function json.decode(text) end

---The text files of the game's own folder (maps, tables), read through the kernel.
---@class data
data = {}

---The file `rules/<game>/<path>`: a regular file inside the game folder, at most 1 MiB of UTF-8, read once per ruleset and hashed into its identity.
---@param path string
---@return string
function data.read(path) end

---The same file, split into lines.
---@param path string
---@return string[]
function data.lines(path) end

---Raises the error `rules/<game>/<path>:line:column: message`, shown without a traceback.
---@param path string
---@param line integer
---@param column? integer
---@param message any
function data.fail(path, line, column, message) end

---The frozen environment: reading a global through it works, assigning one is an error (rules keep no state between calls).
---@type table
_G = {}

---Runs `f` once every rule file has loaded and `hook`, `tiles`, `tile_names` and `switches` are published, before any game: where a file fills its caches (its locals), since no rule may assign them later. Only while the rules load.
---@param f fun()
function when_loaded(f) end

---A module of the rules folder: `require("lib.m")`, `require("<game>.m")` (names of letters, digits, `_` and `-` joined by dots); its table is sealed once loaded.
---@param name string
---@return any
function require(name) end

-- Hooks (entries of the game table's `hooks`, called through `hook`)

---Builds the start position (switches: `G:switch(k)`).
---@param G G
function hook.setup(G) end

---What the game waits for now: `{chance = name}`, `{actor =, options =, prompt =}` or `{over = true, scores =, result =}`. A pure function of the state (read-only).
---@param G G
---@return Status
function hook.status(G) end

---Applies one option `status` returned (the very value); may return the status that follows.
---@param G G
---@param option Option
---@return Status?
function hook.apply(G, option) end

---Applies a chance outcome of randomizer `name`; may return the status that follows.
---@param G G
---@param name string
---@param outcome any[]
---@return Status?
function hook.chance(G, name, outcome) end

---Optional: the label of an option without one (read-only).
---@param G G
---@param option Option
---@return string
function hook.label(G, option) end

---The board as text for seat `viewer` (0 = spectator), in that seat's view (read-only).
---@param G G
---@param viewer Seat
---@return string
function hook.render(G, viewer) end

---Optional: what the board's symbols mean (`show --legend`).
---@param G G
---@return string
function hook.legend(G) end

---Optional: the board as a list of shapes (rect, circle, line, polygon, text, group) for `show --svg`, in the viewer's view (read-only); the kernel checks every shape and writes the SVG (docs/lua-api.md, Pictures).
---@param G G
---@param viewer Seat
---@return table[]
function hook.picture(G, viewer) end

---Optional: how many seats a position text needs, so that `setup` takes the count from the position (read-only).
---@param G G
---@param text string
---@return integer?
function hook.position_seats(G, text) end

---The position in the game's text format, or in one of its `formats` (read-only).
---@param G G
---@param format? string
---@return string
function hook.export(G, format) end

---Sets the position from text; `error(msg)` if malformed.
---@param G G
---@param text string
function hook.import(G, text) end

---Optional: `tortuga moves <game> …`, on a fresh state after setup.
---@param G G
---@param args {position: string, dice?: string, absolute: boolean}
---@return string
function hook.machine_moves(G, args) end

---Optional: the index of the option typed text means; `error(msg, 0)` says why none.
---@param G G
---@param text string
---@param options Option[]
---@return integer
function hook.parse(G, text, options) end

---Optional: how good the state is for `seat`, higher better (the greedy bot); `named` is nil, or the evaluation `greedy:NAME` asks for, one of the game table's `evaluations`.
---@param G G
---@param seat Seat
---@param named? string
---@return number
function hook.eval(G, seat, named) end

---Optional: the inputs of the learned evaluation for `seat`, always as many (`tortuga train`, the `learned` bot).
---@param G G
---@param seat Seat
---@return number[]
function hook.features(G, seat) end

---Optional (required with `outcomes` beyond `win`): in a finished game, the value for `seat` of each of the game table's `outcomes`, what the learned evaluation learns to estimate (backgammon: whether it won, and gammons and backgammons won and lost).
---@param G G
---@param seat Seat
---@return table<string, number>
function hook.outcome(G, seat) end

---Optional: what the state is worth to `seat`, higher better, given the learned evaluation's `estimate` of each of the game's `outcomes` (`estimate.win` at least; backgammon: points or match-winning chances with the cube where it is). Without it the `learned` bot maximizes `estimate.win`.
---@param G G
---@param seat Seat
---@param estimate table<string, number>
---@return number
function hook.equity(G, seat, estimate) end

---Optional: whether the current decision of `seat` is one every evaluating bot takes by the game's own `eval` of each option's result: `mcts` instead of searching (in its tree and rollouts alike), `greedy:NAME` instead of its named evaluation (backgammon: the cube's, which random rollouts and cubeless evaluations cannot judge).
---@param G G
---@param seat Seat
---@return boolean
function hook.eval_decides(G, seat) end

---Optional: nil or "" when the state is sound, else what is broken (`tortuga check`, `replay`).
---@param G G
---@return string?
function hook.invariant(G) end

---§1 (switch `start`): the side `seat` starts with, [point] = checkers ([0] off, [25] bar). (backgammon)
---@param G G
---@param seat Seat
---@return table<integer, integer>
function hook.starting_layout(G, seat) end

---§3: the dice a roll of d1, d2 lets the mover play: each once, a double four times. (backgammon)
---@param G G
---@param d1 integer
---@param d2 integer
---@return integer[]
function hook.dice_to_play(G, d1, d2) end

---§3: the point die `die` takes a checker to from `from` (25 = the bar), 0 for off, nil when the step is not allowed. (backgammon)
---@param G G
---@param b table<integer, integer>
---@param from integer
---@param die integer
---@return integer?
function hook.step(G, b, from, die) end

---§3 (switch `max_per_point`): whether a checker may land on point `to`; on a blot, as may_hit answered on the board before the move (`b.safe`, rules.lua). (backgammon)
---@param G G
---@param b table<integer, integer>
---@param to integer
---@return boolean
function hook.may_land(G, b, to) end

---§3: whether the mover may hit the lone opposing checker on `to`, judged on the board `b` before the move: the answer holds for every step of the move (rules.lua). (backgammon)
---@param G G
---@param b table<integer, integer>
---@param to integer
---@return boolean
function hook.may_hit(G, b, to) end

---§5: whether die `die` may bear off the checker on point `from`. (backgammon)
---@param G G
---@param b table<integer, integer>
---@param from integer
---@param die integer
---@return boolean
function hook.may_bear_off(G, b, from, die) end

---§4: which of every sequence of steps are legal: those that play the most dice (the larger die when only one can be played). (backgammon)
---@param G G
---@param moves integer[]
---@param dice integer[]
---@return integer[]
function hook.forced_play(G, moves, dice) end

---§6: the kind of a win over side `loser`: 1 single, 2 gammon, 3 backgammon. (backgammon)
---@param G G
---@param loser integer
---@return integer
function hook.win_kind(G, loser) end

---§6 (switches `scoring`, `jacoby`): the points a win of `kind` scores with the cube at `cube`, and the kind that counted. (backgammon)
---@param G G
---@param kind integer
---@param cube integer
---@return integer
---@return integer
function hook.points(G, kind, cube) end

---§7: whether `seat` may offer the cube now. (backgammon)
---@param G G
---@param seat Seat
---@return boolean
function hook.may_double(G, seat) end

---§10–§12 (switches `castle_set`, `castle_function`): whether a unit of k pieces of colour o (1–4: S, E, N, W) on square q (board.lua) is safe from capture, so that no opponent may land on it (with castle_function=shared one may, capturing nothing); `sw` holds the switches in play. The rules' own answer: q is a castle. The move search trusts an answer for a whole throw, so an override may read only its arguments (moves.lua). (chaupar)
---@param sw table<string, any>
---@param o integer
---@param q integer
---@param k integer
---@return boolean
function hook.safe(sw, o, q, k) end

---The invariants, for the tests and fuzzing: "" when sound, else the broken ones (the same as `invariant`). (chaupar)
---@param G G
---@return string
function hook.check(G) end

---The invariants of §9, for fuzzing: "" when sound, else one problem a line ("light": without the deck and pack counts). (jackal)
---@param G G
---@param mode? "light"
---@return string
function hook.check(G, mode) end

---Ends a move once everything it started is resolved: pushed under the first wait of a move that waits; a move that never waits ends in the call that started it. (jackal)
---@param G G
---@return Status?
hook["chain.done"] = function(G) end

---§4.2: the mover arrives at `mv_at` with the motion `mv_type`/`mv_dx`/`mv_dy`. (jackal)
---@param G G
hook["chain.arrive"] = function(G) end

---After the flip: place the mover, hit (rule 7), then the effect. (jackal)
---@param G G
hook["chain.land"] = function(G) end

---The tile effect (rule 8): the tile's `on_arrive` hook. (jackal)
---@param G G
hook["chain.effect"] = function(G) end

---A tile's own chance event at cell (core.draw): the tile's `on_draw`. (jackal)
---@param G G
---@param outcome any[]
---@param tile string
---@param cell Loc
hook["chain.tile_draw"] = function(G, outcome, tile, cell) end

---Turns cell face up. (jackal)
---@param G G
---@param cell Loc
---@param by "move"|"lighthouse"|"peek"
hook["chain.flip"] = function(G, cell, by) end

---After the deck's chance event: the tile drawn for cell. (jackal)
---@param G G
---@param outcome string[]
---@param cell Loc
---@param by string
hook["chain.drawn"] = function(G, outcome, cell, by) end

---After the orientation's chance event. (jackal)
---@param G G
---@param outcome integer[]
---@param cell Loc
---@param by string
hook["chain.oriented"] = function(G, outcome, cell, by) end

---The tile at cell is now known: open it, call its `on_reveal`. (jackal)
---@param G G
---@param cell Loc
---@param by string
hook["chain.reveal"] = function(G, cell, by) end

---A decision's answer (core.ask); owner "move" (arrow_exit, knight_target, plane_target) or a tile whose `choices`/`decide` handle it. (jackal)
---@param G G
---@param answer string?
---@param owner string
---@param kind string
---@param cell Loc
---@param extra? Value
hook["chain.answer"] = function(G, answer, owner, kind, cell, extra) end

---A decision with no option: `chain.answer` with nil. (jackal)
---@param G G
---@param owner string
---@param kind string
---@param cell Loc
---@param extra? Value
hook["chain.no_option"] = function(G, owner, kind, cell, extra) end

---The options and prompt of a decision when it reaches the top of the stack. (jackal)
---@param G G
---@param owner string
---@param kind string
---@param cell Loc
---@param extra? Value
---@return Status
hook["chain.ask"] = function(G, owner, kind, cell, extra) end

---Whether ch may enter cell (any cell; `step`: the spinner step, 0 for none), V a view (core.view): not a forbidden land cell (§4.3 and the tile's `may_enter`). Asked for the moves offered, a motion decision's cells, every cell a chain reaches (no: he dies, his item goes back) and the caves he may come out at. (jackal)
---@param G G
---@param V table
---@param ch table
---@param cell Loc
---@param step integer
---@return boolean
function hook.may_enter(G, V, ch, cell, step) end

---Whether ch may end a move at cell: not on a tile that sends him on (`transit`). A move that would end there is not offered, a chain that ends there on the tile's effect kills him as a forbidden cell, and nobody may stand there (positions, `check`). It does not stop a tile's effect. (jackal)
---@param G G
---@param V table
---@param ch table
---@param cell Loc
---@return boolean
function hook.may_stop(G, V, ch, cell) end

---Whether ch may bring an item onto land cell (`step`: the spinner step, 0 for none): an open tile that `accepts_items`, no enemy on a spinner step (`spinner_coin_block`), nobody hit there (§4.1, §4.2 rule 5). Asked for the moves offered with an item, at every cell a chain reaches (no: the item stays where the move started) and by `forced_coin_blocked`'s look-ahead. Ships bank the item whatever it says. (jackal)
---@param G G
---@param V table
---@param ch table
---@param cell Loc
---@param step integer
---@return boolean
function hook.may_carry(G, V, ch, cell, step) end

---The house rules switched on, by name (each stacks its own name on this hook), for the position format's `house` line. (pirates)
---@param G G
---@return string[]
function hook.house_rules(G) end

---§7: whether a move may stop short of its full distance (printed rules: only in a port it may enter). (pirates)
---@param G G
---@return boolean
function hook.stop_short(G) end

---§8: the directions a ship of `kind` may row in weather `wx` (in a calm a brigantine rows any way, galleons never). (pirates)
---@param G G
---@param kind string
---@param wx integer
---@return integer[]
function hook.row_dirs(G, kind, wx) end

---§6.3: whether every ship at sea with a legal sailing move must sail in a wind turn. (pirates)
---@param G G
---@return boolean
function hook.must_sail(G) end

---§9 case 2: ship p is driven ashore (printed rules: it is wrecked). (pirates)
---@param G G
---@param p Piece
function hook.drive_ashore(G, p) end

---§13: ship p is wrecked and removed; the golden galleon's wreck ends the game in a draw. (pirates)
---@param G G
---@param p Piece
function hook.shipwreck(G, p) end

---Ship p ended a manoeuvre, a carry or its turn (the trophy claim stacks here). (pirates)
---@param G G
---@param p Piece
function hook.settled(G, p) end

---A hurricane blows from d for `what` ("weather", or a house rule's own), for ship p or the turn (p = 0). (pirates)
---@param G G
---@param what string
---@param d integer
---@param p Piece|0
function hook.hurricane_dir(G, what, d, p) end

---Continuation: the hurricane's direction drawn (chance `hdir`). (pirates)
---@param G G
---@param outcome string[]
---@param what string
---@param p Piece|0
function hook.hurricane_drawn(G, outcome, what, p) end

---Continuation: the hurricane's direction chosen by an opponent. (pirates)
---@param G G
---@param label string
---@param what string
---@param p Piece|0
function hook.hurricane_chosen(G, label, what, p) end

---Continuation: the weather spin (§5, §6.1) of the turn (p = 0) or of ship p. (pirates)
---@param G G
---@param outcome string[]
---@param p Piece|0
function hook.weather_spun(G, outcome, p) end

---Continuation: the spin of a shot (§11) at `target` by the shooters. (pirates)
---@param G G
---@param outcome string[]
---@param target Piece
---@param ... Piece
function hook.shot_spun(G, outcome, target, ...) end

---Continuation: the first of the ships driven ashore meets its fate, then the next. (pirates)
---@param G G
---@param p Piece
---@param ... Piece
function hook.next_wreck(G, p, ...) end

---Continuation: after the drift and its wrecks, wins, currents and claims, lowest id first. (pirates)
---@param G G
---@param ... Piece
function hook.drift_done(G, ...) end

---Continuation of the house rule `shipwreck_respin`: the re-spin that decides a wreck's fate (an error without it). (pirates)
---@param G G
---@param outcome string[]
---@param p Piece
function hook.wreck_spun(G, outcome, p) end

---The hooks a jackal tile file may define.
---@class jackal.tile_hooks
---The tile was just turned up: chests put coins, one-shots seen by the lighthouse fire here.
---@field on_reveal? fun(G: G, cell: Loc, by: "move"|"lighthouse")
---Rule 8 of §4.2, after flips and hits: nil or "rest" (the move ends here), a motion `{to, type, dx, dy [, step]}` (the chain goes on), "wait" (the tile pushed a decision or a draw) or "done" (the tile ended the move itself); any other value is an error naming the tile's file.
---@field on_arrive? fun(G: G, cell: Loc, ch: table): table|string?
---The outcome of the tile's own randomizer (core.draw); returns what `on_arrive` may.
---@field on_draw? fun(G: G, cell: Loc, outcome: any[], ch: table): table|string?
---The options of a decision the tile asked for (one is taken at once, none answers nil).
---@field choices? fun(G: G, cell: Loc, kind: string, extra?: Value): string[]
---Applies the answer to a decision the tile asked for; returns a motion `{to, type, dx, dy}` (the chain goes on) or "rest" (the move ends here), as on_arrive does, or nil, "wait" or "done" when the tile ended the move itself or asked again.
---@field decide? fun(G: G, cell: Loc, kind: string, extra: Value, answer: string?): table|string?
---The question shown for such a decision.
---@field prompt? fun(G: G, cell: Loc, kind: string, extra?: Value): string
---How the tile sends whoever arrives on, nil when it does not: "arrow", "repeat" (ice), "back" (crocodile), "jump" (horse), "ship" (balloon), "shot" (cannon). Nobody may stop there (the game's `may_stop`); items never lie there. `forced_coin_blocked`'s look-ahead follows "repeat", "back" and single arrows; `plane_targets = "no_transit"` keeps flights off "repeat", "back" and "jump".
---@field transit? fun(G: G, cell: Loc): string?
---false: no item may be brought in or lie here (fortresses, jungle).
---@field accepts_items? fun(G: G, cell: Loc): boolean
---Enemies may not enter while someone is inside.
---@field fortress? fun(G: G, cell: Loc): boolean
---false: ch may not enter the open tile (a chain that carries ch there ends as on a forbidden cell).
---@field may_enter? fun(G: G, cell: Loc, ch: table): boolean
---Enemies may share the cell (jungle).
---@field shelter? fun(G: G, cell: Loc): boolean
---Arriving here hits nobody (jungle; the cannibal eats first).
---@field no_hits? fun(G: G, cell: Loc, ch: table): boolean
---The number of spinner steps.
---@field steps? fun(G: G, cell: Loc): integer
---Distinct orientations (arrows, cannon): flips draw one.
---@field rotations? fun(): integer
---Direction indices 0..7 (N clockwise) of arrows and cannons.
---@field exits? fun(G: G, cell: Loc): integer[]
---The §14 token of the tile (a1N …); default: its code.
---@field code? fun(G: G, cell: Loc, rot: integer): string
---What the board shows (turned arrows); default: the glyph field.
---@field glyph? fun(G: G, cell: Loc): string
---"flight": a character standing here may only fly (an unused plane).
---@field first_moves? fun(G: G, cell: Loc, ch: table): string?
---A pirate here may revive a dead one (respawn fortress).
---@field revive? fun(G: G, cell: Loc): boolean
---The gold the tile brings when turned up (chests, galleon).
---@field gold? fun(G: G, cell: Loc): integer
---The tile may be written spent ("pl-").
---@field one_shot? fun(): boolean
---Caves only: the open cave cells a lost character may come out at.
---@field cave_exits? fun(G: G, ch: table, but?: Loc): Loc[]
---Caves only: a lost character comes out at cell.
---@field emerge? fun(G: G, ch: table, cell: Loc)
---Lighthouse only: records a peeked tile (positions' `seen` lines).
---@field seen? fun(G: G, team: integer, cell: Loc)
---The seats that see the options and the choice of a decision of `kind` the tile asked for (nil: everyone; the lighthouse's placing is seen by the peeking side only).
---@field seen_by? fun(G: G, kind: string): Seat[]?
---Lighthouse only: the seats that know the identity of the closed cell (every side that has seen it).
---@field seers? fun(G: G, cell: Loc): Seat[]
---Lighthouse only: the seats of team's side, sorted (who see what it peeks).
---@field side_seats? fun(G: G, team: integer): Seat[]
---Lighthouse only: what teams have seen follows an earthquake's swap of a and b.
---@field swap_seen? fun(G: G, a: Loc, b: Loc)
