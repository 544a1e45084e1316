-- Gunfire (spec §11–§13): who may fire at whom, salvos, the shot's spin, holes and sinking,
-- and the golden ship's capture and recapture instead of sinking.

local B = require("pirates.board")
local S = require("pirates.sail")
local Gd = require("pirates.golden")
local P = require("pirates.players")
local W = require("pirates.weather")
local O = require("pirates.options")

local K = {}

-- Whether ship s may fire now (§6, §11): at sea, not fired, not repairing, not frozen, and
-- within the fire_timing and shots_per_turn switches.
function K.may_fire(C, s, shots, timing, per_ship)
  if s.fired or s.rep or s.frozen or s.der or S.in_port(C, s) then return false end
  if not per_ship and shots > 0 then return false end
  if timing == "before_only" and s.moved then return false end
  if timing == "after_only" and not s.moved then return false end
  return true
end

-- The ships that ships of `side` may fire at (§11): the opposing ships at sea that are not
-- derelicts, as indexes into the view's ships (C.ps) in id order.
local function targets(C, side)
  local out, ps, packed, occ = {}, C.ps, C.packed, C.occ
  for j = 1, #packed do
    local v = packed[j]
    local t = B.side(v)
    -- at sea: on its sea cell in the context's occ (not S.port_cell)
    if t ~= side and t ~= "none" and not B.derelict(v) and occ[B.pos(v)] == ps[j] then out[#out + 1] = j end
  end
  return out
end

-- Appends the fire and salvo options of the player's shooters to `out`: a shot of each at
-- each target within the shooter's range in king's steps, and every set of two or more with
-- one target in range of them all. C is as S.context made it (no ship moved since).
function K.options(C, shooters, salvo, out)
  local ps, packed, w = C.ps, C.packed, C.w
  local in_range = {} -- per ship j, the shooters that may fire at it, as a bit mask of pieces
  for j = 1, #ps do in_range[j] = 0 end
  local by_side = {} -- the targets of each side among the shooters
  for i = 1, #shooters do
    local s = shooters[i]
    local c, r, range = s.pos % w, s.pos // w, B.RANGE[s.kind]
    by_side[s.side] = by_side[s.side] or targets(C, s.side)
    local list = by_side[s.side]
    for k = 1, #list do
      local j = list[k]
      local pos = B.pos(packed[j])
      local dc, dr = pos % w - c, pos // w - r
      if dc <= range and dc >= -range and dr <= range and dr >= -range then
        out[#out + 1] = O.fire(s.p, ps[j])
        in_range[j] = in_range[j] | (1 << (s.p - 1))
      end
    end
  end
  if not salvo or #shooters < 2 then return end
  for j = 1, #ps do
    local mask = in_range[j]
    if mask & (mask - 1) ~= 0 then
      -- every subset of mask with two or more ships
      local sub = mask
      while sub ~= 0 do
        if sub & (sub - 1) ~= 0 then out[#out + 1] = O.salvo(sub, ps[j]) end
        sub = (sub - 1) & mask
      end
    end
  end
end

-- Declares a shot: the shooters have fired, and its spin waits on the pending stack.
function K.declare(G, ships, target)
  for _, p in ipairs(ships) do B.update(G, p, "fired", true) end
  G:set("shots", (G:get("shots") or 0) + 1)
  K.ask(G, target, ships)
end

function K.ask(G, target, ships)
  G:push({ hook = "shot_spun", args = { target, table.unpack(ships) }, chance = "spin", weights = W.weights_of(G),
    why = "the shot at " .. B.ship(G, target).id })
end

-- The result of a shot's spin: "hit", "miss" or "respin" (§11).
function K.outcome(G, o)
  if o == "N" or o == "E" or o == "S" or o == "W" then return "hit" end
  if W.DIR[o] then return "miss" end
  return G:get("sw_shot_wedge") == "respin" and "respin" or "miss"
end

-- Applies a hit of `holes` holes by `shooters` (piece ids) on target t (§12, §13).
function K.hit(G, t, shooters, holes)
  local s = B.ship(G, t)
  local by = B.ship(G, shooters[1])
  local gold = Gd.id(G) == t
  local sink = B.SINK[s.kind]
  if gold and G:get("sw_recapture") == "one_hit" and s.side ~= G:get("gold_side") and by.side == G:get("gold_side") then
    B.hand_over(G, t, by.seat, by.side)
    B.update(G, t, "frozen", true, "moved", false, "fired", false, "rep", false)
    G:log(string.format("%s hit: recaptured by %s, %d holes", s.id, P.name(G, by.seat), s.holes))
    Gd.reveal(G, "recaptured")
  elseif s.holes + holes >= sink and gold then
    B.hand_over(G, t, by.seat, by.side)
    B.update(G, t, "holes", sink - 1, "frozen", true, "moved", false, "fired", false, "rep", false)
    G:log(string.format("%s hit: captured by %s, %d holes", s.id, P.name(G, by.seat), sink - 1))
    Gd.reveal(G, "captured")
    if by.side == "pirate" and G:get("sw_pirate_goal") == "nearest_base" then K.set_goal(G, s.pos) end
  elseif s.holes + holes >= sink then
    G:log(string.format("%s hit: sunk", s.id))
    B.remove(G, t)
    Gd.narrow(G)
  else
    B.update(G, t, "holes", s.holes + holes)
    G:log(string.format("%s hit: %d holes", s.id, s.holes + holes))
  end
  Gd.check_early_end(G)
end

-- pirate_goal=nearest_base: the pirate base nearest by sea to cell pos (8-neighbour steps
-- under the corner rule; the first found in breadth-first order on a tie).
function K.set_goal(G, pos)
  local C = S.read(G) -- the map only: ships do not block the way
  local seen, queue, head = { [pos] = true }, { pos }, 1
  while queue[head] do
    local a = queue[head]
    head = head + 1
    for d = 0, 7 do
      local b = S.step(C, a, d)
      if b and not seen[b] and not S.cuts_corner(C, a, d) then
        local t = S.terrain(C, b)
        if t:match("^[1-6]$") then
          G:set("goal_base", b)
          return
        end
        seen[b] = true
        if t == "." then queue[#queue + 1] = b end
      end
    end
  end
end

-- Continuation: the shot's spin, at target by the shooters (piece ids).
function K.shot_spun(G, outcome, target, ...)
  local o, shooters = outcome[1], { ... }
  local r = K.outcome(G, o)
  G:set("last_shot", string.format("%s at %s: spin %s, %s", B.ship(G, shooters[1]).id,
    B.ship(G, target).id, o, r == "respin" and "spin again" or r))
  if r == "respin" then
    G:log("shot spin " .. o .. ": spin again")
    K.ask(G, target, shooters)
    return
  end
  if not G:exists(target) then return end
  if r == "miss" then
    G:log(string.format("shot at %s: %s, a miss", B.ship(G, target).id, o))
    return
  end
  local holes = G:get("sw_salvo_hits") == "one" and 1 or #shooters
  K.hit(G, target, shooters, holes)
end

return K
