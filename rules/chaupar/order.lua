-- Seats and turn order (spec §4, §15 seats, turn_order, turn_unit): four players play one
-- colour each; two players play two opposite colours each (A: S and N, B: E and W), each colour
-- still taking its own turn. The prop "start" keeps the colour that started the game.

local B = require("chaupar.board")

local O = {}

-- The seat that plays colour c.
function O.seat_of(G, c)
  if G:seats() == 2 then return (c - 1) % 2 + 1 end
  return c
end

-- The colour a seat starts with: its first in S, E, N, W.
function O.first_colour(_, seat) return seat end

function O.seat_label(G, seat)
  if G:seats() == 2 then return seat == 1 and "A" or "B" end
  return B.COLOURS[seat]
end

function O.team_label(G, team)
  if G:seats() == 2 then return team == 1 and "A (S+N)" or "B (E+W)" end
  return team == 1 and "S+N" or "E+W"
end

local function step(sw, c)
  if sw.turn_order == "cw" then return (c - 2) % 4 + 1 end
  return c % 4 + 1
end

-- The order of turns: with turn_unit=team, partners play back to back and the next team
-- starts with the seat after the last one to play, so a game started by S goes S, N, W, E, S
-- (§4, §15); else each colour in turn. `start` is the colour that started the game.
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

-- The colour whose turn follows colour c's; colours for which skip(c) holds are passed over.
function O.next_colour(sw, c, start, skip)
  local order = cycle(sw, start)
  local k = 1
  for i = 1, 4 do if order[i] == c then k = i end end
  for d = 1, 4 do
    local n = order[(k - 1 + d) % 4 + 1]
    if not skip(n) then return n end
  end
  return order[k % 4 + 1]
end

return O
