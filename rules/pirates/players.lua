-- Players and turn order (spec §1, §16 turn_order): seats 1..s are Spain's players S1…Ss,
-- seats s+1..n the pirates P1…Pp. A round is the list of seats in prop "order"; prop "ti"
-- is the place of the player to act in it.

local P = {}

function P.spain(G) return G:get("nspain") end

function P.side(G, seat)
  return seat <= G:get("nspain") and "spain" or "pirate"
end

function P.name(G, seat)
  local s = G:get("nspain")
  return seat <= s and "S" .. seat or "P" .. (seat - s)
end

-- The seat a player id names ("S1", "p2"), or nil.
function P.seat(G, id)
  local side, k = id:upper():match("^([SP])(%d+)$")
  if not side then return nil end
  k = tonumber(k)
  local s = G:get("nspain")
  if side == "S" and k >= 1 and k <= s then return k end
  if side == "P" and k >= 1 and k <= G:seats() - s then return s + k end
  return nil
end

function P.spanish_seats(G)
  local out = {}
  for i = 1, G:get("nspain") do out[i] = i end
  return out
end

-- The order of one round: S1…Ss, P1…Pp, or the two sides alternating, each rotating.
function P.order(G, turn_order)
  local s, n = G:get("nspain"), G:seats()
  local p, out = n - s, {}
  if turn_order == "alternate" then
    for i = 0, math.max(s, p) - 1 do
      out[#out + 1] = i % s + 1
      out[#out + 1] = s + i % p + 1
    end
  else
    for i = 1, n do out[i] = i end
  end
  return out
end

-- Sets the order, the round and the player to act.
function P.start(G, seat, round)
  local order = P.order(G, G:get("sw_turn_order"))
  local ti = 1
  for i, x in ipairs(order) do if x == seat then ti = i break end end
  G:set("order", order, "ti", ti, "round", round or 1)
  G:set_current(seat)
end

-- The player to act: order[ti], which every change of "ti" makes the kernel's current seat.
function P.current(G) return G:current() end

-- The next player in turn order after `seat` on the other side.
function P.next_opponent(G, seat)
  local order, ti = G:get("order", "ti")
  local side = P.side(G, seat)
  for k = 1, #order do
    local x = order[(ti - 1 + k) % #order + 1]
    if P.side(G, x) ~= side then return x end
  end
  return seat
end

return P
