-- Backgammon text board (spec §1 terms, scenarios B08 and B33): both sides, bar, off, pip
-- counts, cube, score, dice and who is on roll, with the board annotated for blots, primes
-- with checkers behind them, and shutouts (closed boards).
--
-- render.text(view) is a pure function of
--   { x = side, o = side,          -- own numbering: [1..24] points, [25] bar, [0] off
--     viewer = 0 | 1 | 2,          -- the bottom player (0 = spectator: X)
--     current = seat, phase = "opening" | "start" | "roll" | "move" | "doubled" | "beavered" | "over",
--     dice = { a, b } or nil, cube = v, cube_owner = 0 | seat, cube_on = bool,
--     score = { x, o }, match_length = n, crawford = bool, game = n, result = text or nil }

local R = {}

local NAMES = { "X", "O" }
-- Colour tags (the REPL paints them, or drops them under NO_COLOR): X's checkers are light and
-- O's dark in the picture, yellow and cyan on a terminal.
local COLOUR = { "{yellow}{bold}", "{cyan}{bold}" }
local HEIGHT = 5

-- `text` in `seat`'s colour.
local function coloured(seat, text) return COLOUR[seat] .. text .. "{/}" end

-- A side's pip count: what its checkers have to travel to bear off.
function R.pips(side)
  local n = side[25] * 25
  for p = 1, 24 do n = n + side[p] * p end
  return n
end

-- Checkers on a point in the bottom player's numbering: count, seat (0 = empty).
local function at(bottom, top, bseat, p)
  if bottom[p] > 0 then return bottom[p], bseat end
  if top[25 - p] > 0 then return top[25 - p], 3 - bseat end
  return 0, 0
end

-- One cell: the letter if the stack reaches `level`, the count on the last level of a tall stack.
local function cell(count, seat, level)
  if count < level then return "   " end
  if level == HEIGHT and count > HEIGHT then return coloured(seat, string.format("%2d", count)) .. " " end
  return " " .. coloured(seat, NAMES[seat]) .. " "
end

local function half_row(v, points, level)
  local parts = {}
  for i, p in ipairs(points) do
    local n, s = at(v.bottom, v.top, v.bseat, p)
    parts[i] = cell(n, s, level)
  end
  return table.concat(parts)
end

local function numbers(points)
  local parts = {}
  for i, p in ipairs(points) do parts[i] = p < 10 and string.format(" %d ", p) or string.format("%d ", p) end
  return table.concat(parts)
end

local function number_line(left, right)
  return ("   " .. numbers(left) .. "     " .. numbers(right)):gsub("%s+$", "")
end

local TOP_L, TOP_R = { 13, 14, 15, 16, 17, 18 }, { 19, 20, 21, 22, 23, 24 }
local BOT_L, BOT_R = { 12, 11, 10, 9, 8, 7 }, { 6, 5, 4, 3, 2, 1 }

local function board_lines(v)
  local lines = { number_line(TOP_L, TOP_R),
    "  +------------------+---+------------------+" }
  for level = 1, HEIGHT do
    local bar = cell(v.top[25], 3 - v.bseat, level)
    lines[#lines + 1] = "  |" .. half_row(v, TOP_L, level) .. "|" .. bar .. "|" .. half_row(v, TOP_R, level) .. "|"
  end
  lines[#lines + 1] = "  |                  |BAR|                  |"
  for level = HEIGHT, 1, -1 do
    local bar = cell(v.bottom[25], v.bseat, level)
    lines[#lines + 1] = "  |" .. half_row(v, BOT_L, level) .. "|" .. bar .. "|" .. half_row(v, BOT_R, level) .. "|"
  end
  lines[#lines + 1] = "  +------------------+---+------------------+"
  lines[#lines + 1] = number_line(BOT_L, BOT_R)
  return lines
end

local function side_line(seat, side)
  return string.format("%s: %d pips, bar %d, off %d", coloured(seat, NAMES[seat]), R.pips(side), side[25], side[0])
end

function R.cube_line(v)
  if not v.cube_on then return "Cube: not in use" end
  if v.crawford then return string.format("Cube: %d, dead (Crawford game)", v.cube) end
  if v.cube_owner == 0 then return string.format("Cube: %d, centred", v.cube) end
  return string.format("Cube: %d, owned by %s", v.cube, NAMES[v.cube_owner])
end

function R.score_line(v)
  local s = v.score or { 0, 0 }
  if (v.match_length or 0) == 0 then
    return string.format("Money game %d: X %d, O %d", v.game or 1, s[1], s[2])
  end
  return string.format("Game %d of a %d-point match: X %d - O %d%s", v.game or 1, v.match_length, s[1], s[2],
    v.crawford and " (Crawford game)" or "")
end

local function dice_text(d)
  local a, b = d[1], d[2]
  if b > a then a, b = b, a end
  return a .. "-" .. b
end

function R.turn_line(v)
  local who = NAMES[v.current or 1]
  local phase = v.phase
  if phase == "over" then return "Game over: " .. (v.result or "") end
  if phase == "opening" then return "Opening roll: each player rolls one die" end
  if phase == "move" and v.dice then return string.format("%s on roll: %s to play", who, dice_text(v.dice)) end
  if phase == "doubled" then
    return string.format("%s doubles to %d; %s to answer", who, v.cube * 2, NAMES[3 - (v.current or 1)])
  end
  if phase == "beavered" then return string.format("beaver: %s to answer at %d", who, v.cube * 4) end
  return who .. " to roll"
end

-- Blots of one seat, in the bottom player's numbering.
local function blots(side, seat, bseat)
  local list = {}
  for p = 1, 24 do
    if side[p] == 1 then list[#list + 1] = seat == bseat and p or 25 - p end
  end
  table.sort(list)
  return list
end

-- Primes of `side` (six or more consecutive blocked points) with the opponent's checkers
-- behind them (on lower points of the owner, or on the bar). Returns { from, to, behind }.
function R.primes(side, opp)
  local found, run = {}, 0
  for p = 1, 25 do
    if p <= 24 and side[p] >= 2 then
      run = run + 1
    else
      if run >= 6 then
        local from, behind = p - run, opp[25]
        for q = 1, from - 1 do behind = behind + opp[25 - q] end
        if behind > 0 then found[#found + 1] = { from, p - 1, behind } end
      end
      run = 0
    end
  end
  return found
end

-- True when all six home points of `side` are blocked while `opp` has a checker on the bar.
function R.shutout(side, opp)
  if opp[25] == 0 then return false end
  for p = 1, 6 do
    if side[p] < 2 then return false end
  end
  return true
end

local function in_view(p, seat, bseat) return seat == bseat and p or 25 - p end

local function annotations(v)
  local out, sides = {}, { v.x, v.o }
  local parts = {}
  for seat = 1, 2 do
    local list = blots(sides[seat], seat, v.bseat)
    if #list > 0 then parts[#parts + 1] = NAMES[seat] .. " on " .. table.concat(list, ", ") end
  end
  if #parts > 0 then out[#out + 1] = "Blots: " .. table.concat(parts, "; ") end
  for seat = 1, 2 do
    for _, pr in ipairs(R.primes(sides[seat], sides[3 - seat])) do
      local a, b = in_view(pr[1], seat, v.bseat), in_view(pr[2], seat, v.bseat)
      if a > b then a, b = b, a end
      out[#out + 1] = string.format("Prime: %s holds %d-%d with %d %s checker%s behind it", NAMES[seat], a, b,
        pr[3], NAMES[3 - seat], pr[3] == 1 and "" or "s")
    end
    if R.shutout(sides[seat], sides[3 - seat]) then
      local n = sides[3 - seat][25]
      out[#out + 1] = string.format("Shutout: %s's home board is closed with %d %s checker%s on the bar",
        NAMES[seat], n, NAMES[3 - seat], n == 1 and "" or "s")
    end
  end
  return out
end

-- The text board.
function R.text(view)
  local bseat = view.viewer == 2 and 2 or 1
  local v = setmetatable({ bseat = bseat, bottom = bseat == 1 and view.x or view.o,
    top = bseat == 1 and view.o or view.x }, { __index = view })
  local lines = { R.score_line(v), side_line(3 - bseat, v.top) }
  for _, l in ipairs(board_lines(v)) do lines[#lines + 1] = l end
  lines[#lines + 1] = side_line(bseat, v.bottom)
  lines[#lines + 1] = R.cube_line(v)
  lines[#lines + 1] = R.turn_line(v)
  for _, l in ipairs(annotations(v)) do lines[#lines + 1] = l end
  return table.concat(lines, "\n")
end

return R
