-- Seats and turn order (spec §4, §15 seats, turn_order, turn_unit): four players play one
-- colour each; two players play two opposite colours each (A: S and N, B: E and W), each colour
-- still taking its own turn. Every colour is a kernel turn unit, named by its colour, played by
-- its seat, in its team; the units are declared in the order of play from the colour that
-- starts, so that G:advance passes the turn and unit 1 is the colour that started. With
-- two_player_throw=shared a turn is a player's, for both colours: the units are the two
-- players, each named by its first colour (S for A, E for B).

local B = require("chaupar.board")

local O = {}

-- The seat that plays colour c.
function O.seat_of(G, c)
  if G:seats() == 2 then return (c - 1) % 2 + 1 end
  return c
end

-- The colour a seat starts with: its first in S, E, N, W.
function O.first_colour(_, seat) return seat end

function O.seat_label(G, seat) return G:seat_name(seat) end

function O.team_label(G, team)
  if G:seats() == 2 then return team == 1 and "A (S+N)" or "B (E+W)" end
  return team == 1 and "S+N" or "E+W"
end

local function step(sw, c)
  if sw.turn_order == "cw" then return (c - 2) % 4 + 1 end
  return c % 4 + 1
end

-- The order of turns from colour `start`: with turn_unit=team, partners play back to back and
-- the next team starts with the seat after the last one to play, so a game started by S goes
-- S, N, W, E, S (§4, §15); else each colour in turn.
local function cycle(sw, start)
  if sw.turn_unit ~= "team" then
    local out = { start }
    for k = 2, 4 do out[k] = step(sw, out[k - 1]) end
    return out
  end
  local p = B.PARTNER[start]
  local n = step(sw, p)
  return { start, p, n, B.PARTNER[n] }
end

-- Whether a turn is a player's, for both of its colours.
local function shared(G, sw) return sw.two_player_throw == "shared" and G:seats() == 2 end

-- The colour that names colour c's turn unit: c, or its player's first colour.
local function unit_colour(G, sw, c)
  if shared(G, sw) then return O.first_colour(G, O.seat_of(G, c)) end
  return c
end

-- Declares the turn units in the order of play from colour `start`, which plays.
function O.declare(G, sw, start)
  local order = cycle(sw, start)
  if shared(G, sw) then
    start = unit_colour(G, sw, start)
    order = { start, 3 - start }
  end
  local units = {}
  for k, c in ipairs(order) do
    units[k] = { name = B.COLOURS[c], seat = O.seat_of(G, c), team = B.TEAM[c] }
  end
  G:set_units(units)
  -- a seat's team is its colours' partnership (the simulation lab reports wins per team)
  for c = 1, 4 do G:set_team(O.seat_of(G, c), B.TEAM[c]) end
end

-- The colour whose turn it is, and the colour that started.
function O.turn(G) return B.COLOUR[G:unit_name(G:unit())] end
function O.start(G) return B.COLOUR[G:unit_name(1)] end

-- Makes it colour c's turn.
function O.set_turn(G, sw, c) G:set_unit(B.COLOURS[unit_colour(G, sw, c)]) end

-- Passes the turn to the next colour in the order of play, passing over the colours for which
-- skip(c) holds (skip may be nil).
function O.pass(G, skip)
  local u = skip and G:advance(function(u) return skip(B.COLOUR[G:unit_name(u)]) end)
  if not u then G:advance() end
end

return O
