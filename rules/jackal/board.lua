-- Jackal board geometry (spec §1): a 13×13 letter grid, columns A–M west→east, rows 1–13
-- south→north. The grid is the first thing setup creates, so cell (x, y) is location
-- (y-1)*13 + x; three zones follow it. Everything here is static: tables are built once when
-- the module loads and only read afterwards.

local B = {}

B.SIZE = 13
B.COLS = "ABCDEFGHIJKLM"
B.DEAD = 170   -- zone "dead"
B.GONE = 171   -- zone "gone" (left the game)
B.UNDER = 172  -- zone "underground" (lost in a cave, with held items)

function B.loc(x, y)
  if x < 1 or y < 1 or x > 13 or y > 13 then return nil end
  return (y - 1) * 13 + x
end

function B.xy(l)
  local i = l - 1
  return i % 13 + 1, i // 13 + 1
end

function B.name(l)
  local x, y = B.xy(l)
  return string.sub(B.COLS, x, x) .. y
end

-- "E5" → location, or nil.
function B.parse(s)
  local c, r = string.match(s or "", "^([A-Ma-m])(%d%d?)$")
  if not c then return nil end
  local x = string.find(B.COLS, string.upper(c), 1, true)
  return B.loc(x, tonumber(r))
end

local function corner(x, y) return (x == 2 or x == 12) and (y == 2 or y == 12) end

local LAND, SEA, IS_LAND, ALL = {}, {}, {}, {}
for y = 13, 1, -1 do
  for x = 1, 13 do
    local l = B.loc(x, y)
    ALL[#ALL + 1] = l
    if x >= 2 and x <= 12 and y >= 2 and y <= 12 and not corner(x, y) then
      LAND[#LAND + 1] = l
      IS_LAND[l] = true
    else
      SEA[#SEA + 1] = l
    end
  end
end
B.LAND = LAND  -- the 117 land cells in reading order (row 13 to 1, A to M)
B.ALL = ALL    -- all 169 cells in reading order
B.SEA = SEA
-- true at the land cells, nil elsewhere: what B.is_land says, read as a table where a move
-- search asks it for every cell it looks at.
B.IS_LAND = IS_LAND

function B.is_land(l) return IS_LAND[l] == true end
function B.is_sea(l) return l >= 1 and l <= 169 and not IS_LAND[l] end
function B.is_cell(l) return l >= 1 and l <= 169 end

-- Reading-order key: sort cells by it (row 13 first, then A to M).
function B.order(l)
  local x, y = B.xy(l)
  return (13 - y) * 16 + x
end

-- Whether cell a comes before cell b in reading order.
function B.before(a, b) return B.order(a) < B.order(b) end

function B.sort(locs)
  table.sort(locs, B.before)
  return locs
end

-- Directions, index 0..7 clockwise from north (the exit-mask bit order of §7.1).
B.DIRS = {
  [0] = { 0, 1, "N" }, { 1, 1, "NE" }, { 1, 0, "E" }, { 1, -1, "SE" },
  { 0, -1, "S" }, { -1, -1, "SW" }, { -1, 0, "W" }, { -1, 1, "NW" },
}
B.DIR_INDEX = {}
for i = 0, 7 do B.DIR_INDEX[B.DIRS[i][3]] = i end

-- The cell one vector (dx, dy) away, or nil off the grid.
function B.add(l, dx, dy)
  local x, y = B.xy(l)
  return B.loc(x + dx, y + dy)
end

-- Neighbours of every cell: arrays of locations inside the grid.
local NEIGH, ORTHO = {}, {}
for l = 1, 169 do
  local n, o = {}, {}
  for i = 0, 7 do
    local t = B.add(l, B.DIRS[i][1], B.DIRS[i][2])
    if t then
      n[#n + 1] = t
      if i % 2 == 0 then o[#o + 1] = t end
    end
  end
  table.sort(n, B.before)
  table.sort(o, B.before)
  NEIGH[l], ORTHO[l] = n, o
end
-- Neighbours in reading order (static tables: never change them).
function B.neighbours(l) return NEIGH[l] end
-- true at the land cells whose every neighbour is land.
B.INLAND = {}
for _, l in ipairs(LAND) do
  local all = true
  for _, t in ipairs(NEIGH[l]) do all = all and IS_LAND[t] == true end
  B.INLAND[l] = all or nil
end
function B.orthogonal(l) return ORTHO[l] end

function B.adjacent(a, b)
  local ax, ay = B.xy(a)
  local bx, by = B.xy(b)
  local dx, dy = math.abs(ax - bx), math.abs(ay - by)
  return dx <= 1 and dy <= 1 and (dx + dy) > 0
end

B.KNIGHT = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 }, { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } }

-- Teams (§0): index 1..4 = white, yellow, black, red, seated clockwise.
B.TEAMS = { "white", "yellow", "black", "red" }
B.LETTER = { "W", "Y", "B", "R" }
B.TEAM_OF = { white = 1, yellow = 2, black = 3, red = 4, W = 1, Y = 2, B = 3, R = 4 }

-- Sides of the sea: start cell, inward vector (to the front cell), and the lane cells.
local function lane(fixed_x, fixed_y, from, to)
  local out = {}
  for i = from, to do
    out[#out + 1] = fixed_x and B.loc(fixed_x, i) or B.loc(i, fixed_y)
  end
  return out
end
B.SIDES = {
  { start = B.loc(7, 1), dx = 0, dy = 1, nine = lane(nil, 1, 3, 11), full = lane(nil, 1, 2, 12) },
  { start = B.loc(1, 7), dx = 1, dy = 0, nine = lane(1, nil, 3, 11), full = lane(1, nil, 2, 12) },
  { start = B.loc(7, 13), dx = 0, dy = -1, nine = lane(nil, 13, 3, 11), full = lane(nil, 13, 2, 12) },
  { start = B.loc(13, 7), dx = -1, dy = 0, nine = lane(13, nil, 3, 11), full = lane(13, nil, 2, 12) },
}

-- Whether l lies on side s's lane ("nine" or "full_side").
function B.on_lane(s, l, range)
  local cells = range == "full_side" and B.SIDES[s].full or B.SIDES[s].nine
  for i = 1, #cells do if cells[i] == l then return i, cells end end
  return nil, cells
end

-- The land cell in front of a ship at l on side s (nil if that is sea).
function B.front(s, l)
  local t = B.add(l, B.SIDES[s].dx, B.SIDES[s].dy)
  if t and IS_LAND[t] then return t end
  return nil
end

return B
