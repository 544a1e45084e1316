-- Jackal's inputs for the learned evaluation (`tortuga train`, the `learned` bot), seen from
-- `seat`: what decides the race for gold (§9) in a few numbers, so that a network learns in
-- minutes what the kernel's generic encoding would take days to find. Each is about 0 to 1:
-- gold banked by the seat's side and by the best other side, as shares of all the gold; gold
-- carried by each and how far on average it still has to go to a ship of its side; loose gold
-- on open tiles and how near each side's nearest character is; the gold no one has seen yet;
-- the face-down tiles left, the seat's characters on the island and how near they stand to
-- one; the living characters of each side; the round; whose turn it is; and the greedy bot's
-- own measure (eval.lua). Everything is read in the seat's view: the faces of closed tiles
-- are never read, only how many there are and the gold the game started with.

local B = require("jackal.board")
local C = require("jackal.core")
local E = require("jackal.eval")

local F = {}

-- What the learned evaluation estimates for a seat: that it wins, and its gold against the best
-- other side's (§9), as a share from 0 (lost all the gold there was) through ½ (level) to 1.
-- Gold moves with every coin banked, where a win is known only at the end, so the second
-- estimate learns from a game what the first learns from many.
F.OUTCOMES = { "win", "gold" }

-- The gold outcome once the game is over (`win`, left out, is the seat's reward).
---@param G G
---@param seat Seat
---@return table<string, number>
function F.outcome(G, seat)
  local _, own, best = E.side_gold(G, seat)
  local total = math.max(1, G:get("gold_total") or 1)
  return { gold = 0.5 + 0.5 * (own - best) / total }
end

-- What a seat plays for: the chance of winning, and as much again for the gold it leads by,
-- which tells apart moves that keep the same chance of winning but bank or carry more.
---@param G G
---@param seat Seat
---@param e table<string, number>
---@return number
function F.equity(G, seat, e)
  return e.win + e.gold
end

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
  local bank, sides, ships = G:get("bank"), G:get("sides"), G:get("ships")
  local mine, own, best = E.side_gold(G, seat)
  -- all the gold banked; each team's ship, as the seat's side's or another's
  local banked = 0
  local my_ships, their_ships = {}, {}
  for t = 1, 4 do
    if sides[t] ~= 0 then
      banked = banked + bank[t]
      if ships[t] and ships[t] ~= 0 then
        local list = sides[t] == mine and my_ships or their_ships
        list[#list + 1] = ships[t]
      end
    end
  end
  -- living characters, by side, and where the seat's side's stand on the island
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
  -- the face-down tiles, and how near the seat's characters on the island are to one
  local closed_cells = {}
  for _, l in ipairs(B.LAND) do
    if not C.open_tile(G, l) then closed_cells[#closed_cells + 1] = l end
  end
  local to_closed = 0
  for i = 1, #my_land do
    to_closed = to_closed + nearest(my_land[i], closed_cells)
  end
  local total = math.max(1, G:get("gold_total") or 1)
  -- the gold no one has seen yet: neither banked, nor lying or carried, nor lost
  local hidden = total - banked - loose - carried - their_carried - (G:get("lost") or 0)
  ---@param sum number
  ---@param weight number
  local function mean_distance(sum, weight)
    return weight > 0 and sum / weight / B.SIZE or 0
  end
  local e = E.eval(G, seat, V)
  return {
    own / total,
    best / total,
    carried / total,
    mean_distance(carried_way, carried),
    their_carried / total,
    mean_distance(their_way, their_carried),
    loose / total,
    mean_distance(loose_mine, loose),
    mean_distance(loose_theirs, loose),
    hidden / total,
    #closed_cells / #B.LAND,
    #my_land / 6,
    #my_land > 0 and to_closed / #my_land / B.SIZE or 0,
    my_chars / 6,
    their_chars / 6,
    math.min(1, (G:get("round") or 0) / 300),
    G:current() == seat and 1 or 0,
    e / (1 + math.abs(e)),
    e / 10,
  }
end

return F
