-- Chaupar board geometry (spec §2, §3): the 96 squares of the cross, their arm-relative names
-- and grid cells, each colour's route in both directions (§15 `direction`) and the castle sets
-- (§3, §15 `castle_set`). Pure data built once at load; nothing here touches the state.

local B = {}

-- Colours in counter-clockwise order; colour numbers index every per-colour table.
B.COLOURS = { "S", "E", "N", "W" }
B.COLOUR = { S = 1, E = 2, N = 3, W = 4 }
B.TEAM = { 1, 2, 1, 2 } -- S+N, E+W
B.PARTNER = { 3, 4, 1, 2 }
B.DISPLAY = { "yellow", "red", "black", "green" }

local COLS = { "m", "l", "r" }
local COL = { m = 1, l = 2, r = 3 }

-- Square number of arm a (colour number), column name and depth 1..8: 1..96.
local function square(a, col, d) return (a - 1) * 24 + (COL[col] - 1) * 8 + d end
B.square = square

B.NAME = {} -- square → "S.m3"
B.BY_NAME = {} -- "S.m3" → square
B.ARM, B.COLNAME, B.DEPTH = {}, {}, {}
B.RC = {} -- square → { row, col } on the 19×19 grid (row 0 = south edge)

-- §2 table: grid cell of each arm-relative square.
local CELL = {
  S = { m = function(d) return 8 - d, 9 end, l = function(d) return 8 - d, 8 end, r = function(d) return 8 - d, 10 end },
  N = { m = function(d) return 10 + d, 9 end, l = function(d) return 10 + d, 10 end, r = function(d) return 10 + d, 8 end },
  E = { m = function(d) return 9, 10 + d end, l = function(d) return 8, 10 + d end, r = function(d) return 10, 10 + d end },
  W = { m = function(d) return 9, 8 - d end, l = function(d) return 10, 8 - d end, r = function(d) return 8, 8 - d end },
}

for a = 1, 4 do
  local arm = B.COLOURS[a]
  for _, col in ipairs(COLS) do
    for d = 1, 8 do
      local q = square(a, col, d)
      local name = arm .. "." .. col .. d
      B.NAME[q], B.BY_NAME[name] = name, q
      B.ARM[q], B.COLNAME[q], B.DEPTH[q] = a, col, d
      local r, c = CELL[arm][col](d)
      B.RC[q] = { r, c }
    end
  end
end
B.SQUARES = 96

B.LAST = 83 -- the last square of a route (X.m1')
B.HOME = 84 -- route index of home

-- Route of colour c (list of 83 squares): ccw per §3, cw per §15 `direction`.
local function route(c, dir)
  local r = {}
  local function add(a, col, from, to)
    local step = from <= to and 1 or -1
    for d = from, to, step do r[#r + 1] = square(a, col, d) end
  end
  local out, back = "r", "l" -- ccw: out along r, back along l
  local turn = 1
  if dir == "cw" then out, back, turn = "l", "r", -1 end
  add(c, "m", 1, 8)
  add(c, out, 8, 1)
  for k = 1, 3 do
    local a = (c - 1 + turn * k) % 4 + 1
    add(a, back, 1, 8)
    add(a, "m", 8, 8)
    add(a, out, 8, 1)
  end
  add(c, back, 1, 8)
  add(c, "m", 8, 1)
  assert(#r == B.LAST)
  return r
end

-- ROUTE[dir][c][i] = square at route index i (1..83); AT[dir][c][q] = { i… } indices where
-- the route passes square q (two on the own middle column, one elsewhere, none on foreign
-- middle columns below depth 8).
B.ROUTE, B.AT = {}, {}
for _, dir in ipairs({ "ccw", "cw" }) do
  B.ROUTE[dir], B.AT[dir] = {}, {}
  for c = 1, 4 do
    local r = route(c, dir)
    local at = {}
    for i, q in ipairs(r) do
      at[q] = at[q] or {}
      at[q][#at[q] + 1] = i
    end
    B.ROUTE[dir][c], B.AT[dir][c] = r, at
  end
end

-- Name of route index i of colour c: the square's name, with a prime on the homeward visit of
-- the own middle column (76…83), "home" at 84.
function B.index_name(dir, c, i)
  if i == B.HOME then return "home" end
  local name = B.NAME[B.ROUTE[dir][c][i]]
  if i > 75 then return name .. "'" end
  return name
end

-- Route index of a typed square name for colour c ("S.m3'", "s.m3", "@12"), or nil and why:
-- where the colour's track passes that square (the kernel's G:track_positions).
function B.parse_index(G, dir, c, text)
  local at = text:match("^@(%d+)$")
  if at then
    local i = tonumber(at)
    if i < 1 or i > B.LAST then return nil, "@" .. at .. " is not a route index 1–83" end
    return i
  end
  local base, prime = text:match("^(%a%.%a%d)('?)$")
  if not base then return nil, "'" .. text .. "' is not a square (like S.m3 or E.l5)" end
  base = base:sub(1, 1):upper() .. "." .. base:sub(3, 3):lower() .. base:sub(4)
  local q = B.BY_NAME[base]
  if not q then return nil, "no square " .. base end
  local list = G:track_positions(B.track(dir, c), q)
  if #list == 0 then
    return nil, base .. " is not on " .. B.COLOURS[c] .. "'s path"
  end
  if #list == 1 then
    if prime == "'" then return nil, base .. "' : only the own middle column is visited twice" end
    return list[1]
  end
  return prime == "'" and list[2] or list[1]
end

-- Castle squares of each set (§3, §15): column and depth in every arm.
local CASTLES = {
  classic12 = { { "m", 8 }, { "l", 5 }, { "r", 5 } },
  ludii_pachisi = { { "m", 6 }, { "l", 5 }, { "r", 5 } },
  pachih8 = { { "l", 6 }, { "r", 6 } },
  none = {},
}
B.CASTLE_SETS = { "classic12", "ludii_pachisi", "pachih8", "none" }

-- CASTLE[set][q] = true for the castles of that set.
B.CASTLE = {}
for set, list in pairs(CASTLES) do
  local t = {}
  for a = 1, 4 do
    for _, cd in ipairs(list) do t[square(a, cd[1], cd[2])] = true end
  end
  B.CASTLE[set] = t
end

-- The Charkoni's zones of colour c: its waiting pieces and its pieces home (kernel places).
B.WAIT, B.HOME_ZONE = {}, {}
for c = 1, 4 do B.WAIT[c], B.HOME_ZONE[c] = B.SQUARES + 2 * c - 1, B.SQUARES + 2 * c end

-- Kernel places: squares 1..96 in square order, then the Charkoni's zones.
function B.create(G)
  for q = 1, B.SQUARES do
    assert(G:place(B.NAME[q]) == q, "the squares must be the first places")
  end
  for c = 1, 4 do
    assert(G:place("wait." .. B.COLOURS[c]) == B.WAIT[c] and G:place("home." .. B.COLOURS[c]) == B.HOME_ZONE[c])
  end
  for _, dir in ipairs({ "ccw", "cw" }) do
    for c = 1, 4 do
      local locs = {}
      for i = 1, B.LAST do locs[i] = B.ROUTE[dir][c][i] end
      locs[B.HOME] = B.HOME_ZONE[c]
      G:track(B.track(dir, c), locs)
    end
  end
end

function B.track(dir, c) return dir == "ccw" and B.COLOURS[c] or B.COLOURS[c] .. ".cw" end

return B
