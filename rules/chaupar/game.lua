-- Chaupar («Чаупар»): the game table of docs/lua-api.md for shared/specs/chaupar.md, the
-- cross-board race of four colours in two partnerships, with long dice or cowries.
--
-- Modules: board (geometry, routes, castles §2–§3), throws (implements §5), rules (switch
-- values §15), pieces (route positions), moves (§7–§13 and the plan search of §8), order
-- (seats and turn order §4), turns (throw-off, turns, cowrie graces, winning §4, §6, §9, §14),
-- position (the text format §17), notation (labels and typed moves §16), render (the board),
-- picture (the board as shapes for `show --svg`),
-- eval (the greedy bot's measure).

local B = require("chaupar.board")
local R = require("chaupar.rules")
local P = require("chaupar.pieces")
local U = require("chaupar.turns")
local M = require("chaupar.moves")
local X = require("chaupar.position")
local N = require("chaupar.notation")
local D = require("chaupar.render")
local PIC = require("chaupar.picture")
local K = require("chaupar.check")
local O = require("chaupar.order")
local E = require("chaupar.eval")

-- Ain-i-Akbari start (§15 start): each colour on X.m6, X.m7, X.r8 and X.r7 (indices 6, 7, 9, 10).
local AIN_AKBARI = { 6, 7, 9, 10 }

local function setup(G)
  if G:switch("seats") ~= 4 and G:switch("seats") ~= G:seats() then
    error(string.format("switch seats = %d but the game has %d players (use --players %d)",
      G:switch("seats"), G:seats(), G:switch("seats")), 0)
  end
  if G:switch("two_player_throw") == "shared" and G:seats() ~= 2 then
    error("two_player_throw=shared is for two players (use --players 2)", 0)
  end
  B.create(G)
  R.init(G)
  O.declare(G, R.read(G), 1)
  local dir, at = G:switch("direction"), {}
  for c = 1, 4 do
    for k = 1, 4 do
      local p = G:add(B.COLOURS[c], O.seat_of(G, c), B.WAIT[c])
      assert(p == 4 * (c - 1) + k, "pieces must be numbered by colour")
      at[p] = G:switch("start") == "ain_akbari" and AIN_AKBARI[k] or 0
      P.move(G, p, c, at[p], dir)
    end
  end
  P.save(G, at)
  G:set("killed", { false, false, false, false })
  local contenders = {}
  for s = 1, G:seats() do contenders[s] = s end
  U.begin_throwoff(G, U.read_view(G), contenders)
end

local IMPLEMENTS = {
  dice3 = { kind = "dice", faces = { 1, 2, 5, 6 }, count = 3, stream = "throws" },
  dice2 = { kind = "dice", faces = { 1, 3, 4, 6 }, count = 2, stream = "throws" },
  -- The shells' bias and schedule are switches cowrie_p and cowrie_schedule (§5, §15), read
  -- once at load; a custom schedule gives the value of 0..6 shells up in cowrie_values.
  cowries = function(sw)
    local values = { [0] = 25, 10, 2, 3, 4, 5, 6 }
    local custom = sw.cowrie_values
    if sw.cowrie_schedule == "custom" then
      if #custom ~= 7 then error("cowrie_values: 7 values (0..6 shells up), not " .. #custom, 0) end
      for m = 1, 7 do
        local v = custom[m]
        if v < 1 or v > B.LAST then error("cowrie_values: " .. v .. " is not a move of 1.." .. B.LAST, 0) end
        values[m - 1] = v
      end
    end
    return { kind = "cowries", count = 6, p = sw.cowrie_p, values = values, stream = "throws" }
  end,
}

return {
  name = "chaupar",
  title = "Chaupar (Чаупар)",
  -- Seats are named by colour; two players are A (S and N) and B (E and W), §4.
  seats = {
    min = 2, max = 4, default = 4, counts = { 2, 4 },
    names = function(n) return n == 2 and { "A", "B" } or table.move({ "S", "E", "N", "W" }, 1, n, 1, {}) end,
  },
  switches = require("chaupar.switches"),
  -- what the counters `sim` reports count (G:stat)
  counters = {
    captures = "pieces captured",
    forfeits = "throws and values that could not be played",
  },
  randomizers = IMPLEMENTS,
  hooks = {
    setup = setup,
    status = U.status,
    apply = U.apply,
    chance = U.chance,
    label = U.label,
    parse = N.parse,
    render = D.render,
    picture = PIC.draw,
    export = X.export,
    import = X.import,
    -- "" when the invariants hold, else one problem a line: `invariant` is what `tortuga
    -- check` runs after every step, `check` the same for the tests and fuzzing.
    check = K.check,
    invariant = K.check,
    -- eval(G, seat) -> number: how good the state is for seat (the greedy bot's measure).
    eval = E.eval,
    -- The rules' own hooks, on which house rules (house/) stack: see hooks.toml.
    safe = M.safe,
  },
}
