-- The backgammon board as a picture (`show --svg`, docs/lua-api.md "Pictures"): the 24 points
-- in the bottom player's numbering (spec §1 terms), checkers by side, the bar, the borne-off
-- trays, the cube where it lies (centred on the bar, or on its owner's side), the dice, and a
-- key of which colour is which side with their pip counts.
--
-- picture.draw(view) takes the table render.text takes and returns the shapes. A point is a
-- group with data point/side/count, holding one circle per checker up to five; the fifth of a
-- taller stack carries the count.

local render = require("backgammon.render")

local P = {}

local NAMES = { "X", "O" }
local FILL = { "#fbf8ef", "#3a2a22" }
local INK = { "#3a2a22", "#fbf8ef" }
local W, LEFT, BAR, TOP, BOTTOM, DEPTH = 36, 20, 40, 40, 400, 150
local R, SHOWN = 16, 5
local TRAY = LEFT + 12 * W + BAR + 10
local HEIGHT = 500

-- The column (0..11, left to right) of point p (1..24) in the bottom player's numbering.
local function column(p)
  if p <= 12 then return 12 - p end
  return p - 13
end

local function left(col) return LEFT + col * W + (col >= 6 and BAR or 0) end

-- Centre of the k-th checker of a stack that grows from y0 in direction dir (1 down, -1 up).
local function stack_y(y0, dir, k) return y0 + dir * (R + 2 * R * (k - 1)) end

local function checkers(items, x, y0, dir, n, seat)
  for k = 1, math.min(n, SHOWN) do
    local y = stack_y(y0, dir, k)
    items[#items + 1] = { "circle", x = x, y = y, r = R - 1, fill = FILL[seat], stroke = "#000", width = 1,
      class = "checker", data = { side = NAMES[seat] } }
    if k == SHOWN and n > SHOWN then
      items[#items + 1] = { "text", x = x, y = y, text = n, anchor = "middle", bold = true, fill = INK[seat] }
    end
  end
end

-- A group for `n` checkers of `seat` at `where`, drawn by `fill` into its items.
local function stack(where, seat, n, fill)
  local g = { "g", class = "stack", data = { where = where, side = NAMES[seat], count = n }, items = {} }
  fill(g.items)
  return g
end

local function point(v, p, items)
  local col = column(p)
  local x0, top = left(col), p >= 13
  local y0, dir = top and TOP or BOTTOM, top and 1 or -1
  items[#items + 1] = { "polygon", points = { x0, y0, x0 + W, y0, x0 + W / 2, y0 + dir * DEPTH },
    fill = col % 2 == 0 and "#b5651d" or "#e8d3a9", class = "point", data = { point = p } }
  items[#items + 1] = { "text", x = x0 + W / 2, y = top and TOP - 8 or BOTTOM + 10, text = p, anchor = "middle",
    size = 10, fill = "#555" }
  local n, seat = v.bottom[p], v.bseat
  if n == 0 then n, seat = v.top[25 - p], 3 - v.bseat end
  if n > 0 then
    items[#items + 1] = stack("point " .. p, seat, n, function(into)
      checkers(into, x0 + W / 2, y0, dir, n, seat)
    end)
  end
end

local function bar(v, items)
  local x, mid = left(6) - BAR / 2, (TOP + BOTTOM) / 2
  items[#items + 1] = { "rect", x = x - BAR / 2, y = TOP, w = BAR, h = BOTTOM - TOP, fill = "#6b4226", class = "bar" }
  for _, s in ipairs({ { v.top, 3 - v.bseat, mid - 20, -1 }, { v.bottom, v.bseat, mid + 20, 1 } }) do
    local side, seat, y0, dir = table.unpack(s)
    if side[25] > 0 then
      items[#items + 1] = stack("bar", seat, side[25], function(into) checkers(into, x, y0, dir, side[25], seat) end)
    end
  end
end

local function off(v, items)
  items[#items + 1] = { "rect", x = TRAY, y = TOP, w = 50, h = BOTTOM - TOP, fill = "#6b4226", class = "tray" }
  for _, s in ipairs({ { v.top, 3 - v.bseat, TOP, 1 }, { v.bottom, v.bseat, BOTTOM, -1 } }) do
    local side, seat, y0, dir = table.unpack(s)
    if side[0] > 0 then
      items[#items + 1] = stack("off", seat, side[0], function(into)
        for k = 1, side[0] do
          into[#into + 1] = { "rect", x = TRAY + 5, y = y0 + dir * 10 * k - (dir > 0 and 10 or 0), w = 40, h = 9,
            fill = FILL[seat], stroke = "#000", width = 1, class = "checker", data = { side = NAMES[seat] } }
        end
      end)
    end
  end
end

local function cube(v, items)
  if not v.cube_on then return end
  local y = (TOP + BOTTOM) / 2 - 14
  if v.cube_owner ~= 0 then y = v.cube_owner == v.bseat and BOTTOM - 32 or TOP + 4 end
  local x = left(6) - BAR / 2 - 14
  items[#items + 1] = { "g", class = "cube", data = { value = v.cube, owner = NAMES[v.cube_owner] or "centre" },
    title = render.cube_line(v), items = {
      { "rect", x = x, y = y, w = 28, h = 28, rx = 4, fill = "#fff", stroke = "#000" },
      { "text", x = x + 14, y = y + 14, text = v.cube == 1 and 64 or v.cube, anchor = "middle", bold = true },
    } }
end

local function dice(v, items)
  if v.phase ~= "move" or not v.dice then return end
  local seat = v.current or 1
  for i, d in ipairs(v.dice) do
    local x, y = left(8) + (i - 1) * 40, (TOP + BOTTOM) / 2 - 14
    items[#items + 1] = { "g", class = "die", data = { value = d, side = NAMES[seat] }, items = {
      { "rect", x = x, y = y, w = 28, h = 28, rx = 5, fill = FILL[seat], stroke = "#000" },
      { "text", x = x + 14, y = y + 14, text = d, anchor = "middle", bold = true, size = 16, fill = INK[seat] },
    } }
  end
end

-- The key: each side's colour, its name and its pip count, the bottom player first.
local function key(v, items)
  for i, seat in ipairs({ v.bseat, 3 - v.bseat }) do
    local x, side = LEFT + (i - 1) * 170, seat == v.bseat and v.bottom or v.top
    items[#items + 1] = { "g", class = "key", data = { side = NAMES[seat], pips = render.pips(side) }, items = {
      { "circle", x = x + 8, y = 482, r = 8, fill = FILL[seat], stroke = "#000", width = 1 },
      { "text", x = x + 22, y = 482, text = string.format("%s: %d pips", NAMES[seat], render.pips(side)) },
    } }
  end
end

function P.draw(view)
  local bseat = view.viewer == 2 and 2 or 1
  local v = setmetatable({ bseat = bseat, bottom = bseat == 1 and view.x or view.o,
    top = bseat == 1 and view.o or view.x }, { __index = view })
  local items = {
    { "rect", x = 0, y = 0, w = TRAY + 70, h = HEIGHT, fill = "#fff" },
    { "rect", x = LEFT, y = TOP, w = 12 * W + BAR, h = BOTTOM - TOP, fill = "#f3e9d2", stroke = "#6b4226", width = 3 },
    { "text", x = LEFT, y = 14, text = render.score_line(v) },
  }
  for p = 1, 24 do point(v, p, items) end
  bar(v, items)
  off(v, items)
  cube(v, items)
  dice(v, items)
  items[#items + 1] = { "text", x = LEFT, y = 436, text = render.turn_line(v), class = "caption" }
  items[#items + 1] = { "text", x = LEFT, y = 456, text = render.cube_line(v), class = "caption" }
  key(v, items)
  return { width = TRAY + 70, height = HEIGHT, title = "Backgammon: " .. render.turn_line(v), items = items }
end

return P
