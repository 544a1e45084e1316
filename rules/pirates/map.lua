-- The map file format of spec §2: a grid of terrain characters, then `port:` and `current:`
-- lines. `parse` reads the lines of a file (or of a position's `map inline` block) and refuses
-- a malformed map through `fail(line, column, reason)`, which raises; the map it returns is
-- plain data: the grid, the ports and the current hops, in the order the file gives them.

local M = {}

-- Directions N=0 … NW=7 as (dcol, drow) steps, north up (spec §2).
M.DCOL = { [0] = 0, 1, 1, 1, 0, -1, -1, -1 }
M.DROW = { [0] = -1, -1, 0, 1, 1, 1, 0, -1 }
M.DIRS = { [0] = "N", "NE", "E", "SE", "S", "SW", "W", "NW" }
M.DIRS_LIST = { "N", "NE", "E", "SE", "S", "SW", "W", "NW" }

-- Terrain characters and what they are.
M.KIND = {
  ["."] = "sea", ["#"] = "land",
  V = "spanish", C = "spanish", H = "spanish",
  ["1"] = "base", ["2"] = "base", ["3"] = "base", ["4"] = "base", ["5"] = "base", ["6"] = "base",
  E = "neutral", F = "neutral",
}

local function trim(s)
  return (s:gsub("\r$", ""):gsub("%s+$", ""))
end

-- The cell character at (col, row), or nil off the grid.
function M.at(map, col, row)
  if col < 0 or row < 0 or col >= map.w or row >= map.h then return nil end
  return map.rows[row + 1]:sub(col + 1, col + 1)
end

-- Whether a diagonal step from (c, r) by (dc, dr) cuts between two land cells.
local function cuts_corner(map, c, r, dc, dr)
  return dc ~= 0 and dr ~= 0 and M.at(map, c + dc, r) == "#" and M.at(map, c, r + dr) == "#"
end

local function read_grid(lines, fail)
  local i, rows, first = 1, {}, nil
  while lines[i] and (lines[i]:sub(1, 1) == ";" or trim(lines[i]) == "") do i = i + 1 end
  first = i
  while lines[i] do
    local line = trim(lines[i])
    if line:sub(1, 1) ~= ";" then
      if line == "" or line:match("^%a+:") then break end
      for col = 1, #line do
        local ch = line:sub(col, col)
        if not M.KIND[ch] then fail(i, col, "unknown terrain character '" .. ch .. "'") end
      end
      if #rows > 0 and #line ~= #rows[1].text then
        fail(i, math.min(#line, #rows[1].text) + 1, string.format(
          "ragged row: %d cells where the first row has %d", #line, #rows[1].text))
      end
      rows[#rows + 1] = { text = line, line = i }
    end
    i = i + 1
  end
  if #rows == 0 then fail(first, 1, "no grid") end
  if #rows * #rows[1].text > 4096 then fail(first, 1, "a map has at most 4096 cells") end
  return rows, i
end

local PORT = "^port:%s*%(%s*(%d+)%s*,%s*(%d+)%s*%)%s+(%S)%s+(.-)%s*$"
local CURRENT = "^current:%s*from%s*%(%s*(%d+)%s*,%s*(%d+)%s*%)%s*to%s*%(%s*(%d+)%s*,%s*(%d+)%s*%)%s*$"

local function read_lines(map, lines, from, fail)
  local port_at = {}
  for i = from, #lines do
    local line = trim(lines[i])
    if line ~= "" and line:sub(1, 1) ~= ";" then
      local c, r, ch, name = line:match(PORT)
      local fc, fr, tc, tr = line:match(CURRENT)
      if c then
        c, r = tonumber(c), tonumber(r)
        local cell = M.at(map, c, r)
        if not cell then fail(i, line:find("%(") , string.format("port (%d,%d) is off the map", c, r)) end
        if cell ~= ch or not M.KIND[ch] or M.KIND[ch] == "sea" or M.KIND[ch] == "land" then
          fail(i, line:find("%)") + 2, string.format("port (%d,%d) is '%s' on the grid, not a port '%s'", c, r, cell, ch))
        end
        if name == "" then fail(i, #line + 1, "port without a name") end
        local key = r * map.w + c
        if port_at[key] then fail(i, 1, string.format("port (%d,%d) is named twice", c, r)) end
        port_at[key] = true
        map.ports[#map.ports + 1] = { col = c, row = r, ch = ch, name = name, line = i }
      elseif fc then
        local hop = { fc = tonumber(fc), fr = tonumber(fr), tc = tonumber(tc), tr = tonumber(tr), line = i }
        hop.col_to = line:find("to") + 3
        map.hops[#map.hops + 1] = hop
      else
        fail(i, 1, "expected 'port: (c,r) X Name' or 'current: from (c,r) to (c,r)'")
      end
    end
  end
  for r, row in ipairs(map.grid_lines) do
    for col = 1, #row.text do
      local ch = row.text:sub(col, col)
      local kind = M.KIND[ch]
      if kind ~= "sea" and kind ~= "land" and not port_at[(r - 1) * map.w + col - 1] then
        fail(row.line, col, string.format("port '%s' at (%d,%d) has no 'port:' line", ch, col - 1, r - 1))
      end
    end
  end
end

local function check_hops(map, fail)
  local tail = {}
  for _, h in ipairs(map.hops) do
    local dc, dr = h.tc - h.fc, h.tr - h.fr
    local from, to = M.at(map, h.fc, h.fr), M.at(map, h.tc, h.tr)
    if from ~= "." then
      fail(h.line, 1, string.format("current from (%d,%d): the tail is %s, not open sea",
        h.fc, h.fr, from and "'" .. from .. "'" or "off the map"))
    end
    if to ~= "." then
      fail(h.line, h.col_to, string.format("current to (%d,%d): the tip is %s, not open sea",
        h.tc, h.tr, to and "'" .. to .. "'" or "off the map"))
    end
    if math.max(math.abs(dc), math.abs(dr)) ~= 1 then
      fail(h.line, h.col_to, "a current hop joins two adjacent cells")
    end
    if cuts_corner(map, h.fc, h.fr, dc, dr) then
      fail(h.line, h.col_to, "the current cuts diagonally between two land cells")
    end
    local key = h.fr * map.w + h.fc
    if tail[key] then
      fail(h.line, 1, string.format("(%d,%d) is already the tail of the hop on line %d", h.fc, h.fr, tail[key]))
    end
    tail[key] = h.line
  end
end

-- Open sea reachable from (c, r) by 8-neighbour steps under the corner rule.
function M.sea_from(map, c, r)
  local seen, queue = {}, { { c, r } }
  local head = 1
  while queue[head] do
    local cc, rr = queue[head][1], queue[head][2]
    head = head + 1
    for d = 0, 7 do
      local nc, nr = cc + M.DCOL[d], rr + M.DROW[d]
      local key = nr * map.w + nc
      if M.at(map, nc, nr) == "." and not seen[key] and not cuts_corner(map, cc, rr, M.DCOL[d], M.DROW[d]) then
        seen[key] = true
        queue[#queue + 1] = { nc, nr }
      end
    end
  end
  return seen
end

local function check_ports(map, fail)
  local reach
  for _, p in ipairs(map.ports) do
    local open = false
    for _, d in ipairs({ 0, 2, 4, 6 }) do
      open = open or M.at(map, p.col + M.DCOL[d], p.row + M.DROW[d]) == "."
    end
    if not open then
      fail(p.line, 1, string.format("port %s (%d,%d) touches no open sea orthogonally", p.name, p.col, p.row))
    end
    if not reach then
      reach = M.sea_from(map, p.col, p.row)
    else
      local ok = false
      for d = 0, 7 do
        local nc, nr = p.col + M.DCOL[d], p.row + M.DROW[d]
        ok = ok or (reach[nr * map.w + nc] and not cuts_corner(map, p.col, p.row, M.DCOL[d], M.DROW[d]))
      end
      if not ok then
        fail(p.line, 1, string.format("port %s (%d,%d) cannot be reached through open sea from %s",
          p.name, p.col, p.row, map.ports[1].name))
      end
    end
  end
end

-- Reads a map from its lines; `fail(line, column, reason)` must raise.
function M.parse(lines, fail)
  local rows, rest = read_grid(lines, fail)
  local map = { w = #rows[1].text, h = #rows, rows = {}, grid_lines = rows, ports = {}, hops = {} }
  for i, row in ipairs(rows) do map.rows[i] = row.text end
  read_lines(map, lines, rest, fail)
  check_hops(map, fail)
  check_ports(map, fail)
  return map
end

-- A map for a full game (spec §2): exactly one V, one C and each pirate base 1–6.
function M.check_full(map, fail)
  local count = {}
  for _, p in ipairs(map.ports) do count[p.ch] = (count[p.ch] or 0) + 1 end
  for _, ch in ipairs({ "V", "C", "1", "2", "3", "4", "5", "6" }) do
    if count[ch] ~= 1 then
      fail(map.grid_lines[1].line, 1, string.format("a full game needs exactly one port '%s', the map has %d",
        ch, count[ch] or 0))
    end
  end
end

-- Reads rules/pirates/maps/<name>.map; errors name the file, line and column.
-- Where a user's own map goes, for the errors that name one the rules cannot read.
local OWN_MAP = "a map is a file NAME.map in the maps folder of the pirates rules, named without "
  .. ".map (letters, digits, _ and -): put yours there, or in a copy of the rules folder that "
  .. "tortuga --rules DIR reads"

function M.load(name)
  if not name:match("^[%w_%-]+$") then error("map '" .. name .. "': " .. OWN_MAP, 0) end
  local path = "maps/" .. name .. ".map"
  local ok, lines = pcall(data.lines, path)
  if not ok and name:match("^pirates%-") then
    path = "maps/" .. name:gsub("^pirates%-", "") .. ".map"
    ok, lines = pcall(data.lines, path)
  end
  if not ok then
    -- The kernel's error as pcall caught it: its first line, without mlua's "runtime error: ".
    local reason = tostring(lines):match("^[^\n]*"):gsub("^runtime error: ", "")
    error(reason .. " (" .. OWN_MAP .. ")", 0)
  end
  local function fail(line, col, reason) data.fail(path, line, col, reason) end
  return M.parse(lines, fail), fail
end

return M
