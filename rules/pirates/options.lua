-- The options of an `act` decision are integers, so that a simulation builds no table per
-- option (docs/lua-api.md: numbers are labelled on demand): the action in the low 4 bits,
-- then a ship's piece id, a direction and a distance — or for a salvo the target and the
-- set of shooters as a bit mask of piece ids.

local O = {}

O.MOVE, O.ROW, O.FIRE, O.SALVO, O.REPAIR, O.SPIN, O.DRIFT, O.END = 1, 2, 3, 4, 5, 6, 7, 8

-- A ship's action: ship p (a piece id below 256), direction d, distance n; a move generator
-- adds each distance to O.ship(a, p, d) as `| n << O.DISTANCE`.
O.DISTANCE = 16

function O.ship(a, p, d, n) return a | (p << 4) | ((d or 0) << 12) | ((n or 0) << O.DISTANCE) end

function O.fire(p, t) return O.FIRE | (p << 4) | (t << 12) end

function O.salvo(mask, t) return O.SALVO | (t << 4) | (mask << 12) end

function O.action(o) return o & 15 end

-- Ship, direction and distance of a ship's action; shooter and target of a shot.
function O.args(o) return (o >> 4) & 255, (o >> 12) & 15, (o >> 16) & 15 end

function O.shot(o) return (o >> 4) & 255, (o >> 12) & 255 end

-- Target and shooters (piece ids, ascending) of a salvo.
function O.salvo_args(o)
  local t, mask, ships = (o >> 4) & 255, o >> 12, {}
  local p = 1
  while mask ~= 0 do
    if mask & 1 == 1 then ships[#ships + 1] = p end
    mask, p = mask >> 1, p + 1
  end
  return t, ships
end

return O
