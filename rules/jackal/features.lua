-- Jackal's inputs for the learned evaluation (`tortuga train`, the `learned` bot), seen from
-- `seat`: what decides the race for gold (§9) in a few numbers, so that a network learns in
-- minutes what the kernel's generic encoding would take days to find. Gold banked by the
-- seat's side and by the best other side; gold carried by each and how far it still has to go
-- to a ship of its side; loose gold on open tiles and how near each side's nearest character
-- is; the face-down tiles left; the living characters of each; the round; whose turn it is;
-- and the greedy bot's own measure (eval.lua). Everything is read in the seat's view: the
-- faces of closed tiles are never read, only how many there are.

local B = require("jackal.board")
local C = require("jackal.core")
local E = require("jackal.eval")

local F = {}

-- Chebyshev distance between cells a and b (a character's steps on an open board).
---@param a integer
---@param b integer
---@return integer
local function distance(a, b)
  local ax, ay = B.xy(a)
  local bx, by = B.xy(b)
  return math.max(math.abs(ax - bx), math.abs(ay - by))
end

-- The nearest of `cells` to l (13 when there is none).
---@param l integer
---@param cells integer[]
---@return integer
local function nearest(l, cells)
  local best = B.SIZE
  for i = 1, #cells do
    local d = distance(l, cells[i])
    if d < best then best = d end
  end
  return best
end

---@param G G
---@param seat Seat
---@return number[]
function F.features(G, seat)
  local bank, ctrl, sides, ships = G:get("bank"), G:get("ctrl"), G:get("sides"), G:get("ships")
  local mine = nil
  for t = 1, 4 do
    if ctrl[t] == seat then mine = sides[t] end
  end
  -- per side: the gold it banked; each team's ship, as the seat's side's or another's
  local gold, best = {}, 0
  local my_ships, their_ships = {}, {}
  for t = 1, 4 do
    if sides[t] ~= 0 then
      gold[sides[t]] = (gold[sides[t]] or 0) + bank[t]
      if ships[t] and ships[t] ~= 0 then
        local list = sides[t] == mine and my_ships or their_ships
        list[#list + 1] = ships[t]
      end
    end
  end
  for s, g in pairs(gold) do
    if s ~= mine and g > best then best = g end
  end
  -- living characters on the island, by side
  local V = C.view(G)
  local where = {} -- cell -> "mine" / "theirs"
  local my_chars, their_chars, my_land, their_land = 0, 0, {}, {}
  for i = 1, #V.chars do
    local c = V.chars[i]
    if c.team ~= 0 and C.alive(c) then
      local own = sides[c.team] == mine
      if own then my_chars = my_chars + 1 else their_chars = their_chars + 1 end
      if B.is_land(c.loc) then
        where[c.loc] = own and "mine" or "theirs"
        local list = own and my_land or their_land
        list[#list + 1] = c.loc
      end
    end
  end
  -- gold on the island: carried (a character of a side stands on it) or loose
  local carried, carried_way, their_carried, their_way = 0, 0, 0, 0
  local loose, loose_mine, loose_theirs = 0, 0, 0
  for _, it in ipairs(C.all_items(G)) do
    local l, v = it.loc, C.VALUE[it.kind]
    if B.is_land(l) then
      if where[l] == "mine" then
        carried, carried_way = carried + v, carried_way + v * nearest(l, my_ships)
      elseif where[l] == "theirs" then
        their_carried, their_way = their_carried + v, their_way + v * nearest(l, their_ships)
      else
        loose = loose + v
        loose_mine = loose_mine + v * nearest(l, my_land)
        loose_theirs = loose_theirs + v * nearest(l, their_land)
      end
    end
  end
  local closed = 0
  for _, l in ipairs(B.LAND) do
    if not C.open_tile(G, l) then closed = closed + 1 end
  end
  local e = E.eval(G, seat)
  return {
    (gold[mine] or 0) / 10,
    best / 10,
    carried / 5,
    carried_way / 30,
    their_carried / 5,
    their_way / 30,
    loose / 10,
    loose_mine / 60,
    loose_theirs / 60,
    closed / #B.LAND,
    my_chars / 6,
    their_chars / 6,
    (G:get("round") or 0) / 200,
    G:current() == seat and 1 or 0,
    e / (1 + math.abs(e)),
    e / 10,
  }
end

return F
