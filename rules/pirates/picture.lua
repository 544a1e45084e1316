-- The Pirates map as a picture (`show --svg`, docs/lua-api.md "Pictures"; shared/specs/
-- pirates.md §2 the map, §3 the ships, §5 the weather): the sea, land and ports by their letter
-- (Spanish ports red), a current's arrow along its hop, the ships by side (Spain red, pirates
-- purple, a derelict grey; class "ship", data side/id/holes), several in one cell side by
-- side, each hole a black dot on the hull, and the wind's arrow where it blows. Rulers give
-- the (col,row) that positions and options use; a key below names every port by kind, with
-- its place. The golden galleon is marked (data golden, a gold outline) only in a view that
-- may see it: the hook reads it the way render does.

local B = require("pirates.board")
local D = require("pirates.render")
local Gd = require("pirates.golden")
local W = require("pirates.weather")

local P = {}

local S, TOP = 24, 30
-- The map's top-left corner: room for the row ruler on the left and the column ruler above.
local OX, OY = 22, TOP + 14
-- Lines of the port key below the map, and the characters a line holds at most.
local KEY_LINE, KEY_CHARS = 16, 150
local SIDE = { spain = "#c62828", pirate = "#7b1fa2", none = "#9e9e9e" }
local SPANISH_PORT = { V = true, C = true, H = true }

-- An arrow pointing north in the cell whose top-left corner is (x, y), turned d eighths.
local function arrow(x, y, d, size, fill, class, data)
  local cx, cy, h = x + size / 2, y + size / 2, size * 0.35
  return { "g", rotate = 45 * d, x = cx, y = cy, class = class, data = data, items = {
    { "polygon", points = { cx, cy - h, cx + h * 0.6, cy, cx + h * 0.2, cy, cx + h * 0.2, cy + h,
      cx - h * 0.2, cy + h, cx - h * 0.2, cy, cx - h * 0.6, cy }, fill = fill },
  } }
end

local function cell(G, pos, ch, cur, w, items)
  local x, y = OX + (pos % w) * S, OY + (pos // w) * S
  if ch == "#" then
    items[#items + 1] = { "rect", x = x, y = y, w = S, h = S, fill = "#8bc34a", class = "land" }
  elseif ch == "." then
    local d = cur:byte(pos + 1) - 48
    if d >= 0 and d <= 7 then
      items[#items + 1] = arrow(x, y, d, S, "#bfe3ff", "current", { dir = d })
    end
  else
    items[#items + 1] = { "g", class = "port", data = { port = ch, name = B.port_name(G, pos) }, items = {
      { "rect", x = x, y = y, w = S, h = S, fill = SPANISH_PORT[ch] and "#ef9a9a" or "#fff176", stroke = "#555" },
      { "text", x = x + S / 2, y = y + S / 2, text = ch, anchor = "middle", bold = true },
    } }
  end
end

local function ship(s, x, y, size, gold)
  local golden = s.p == gold
  local hull = { "polygon", points = { x + 1, y + size * 0.35, x + size - 1, y + size * 0.35, x + size * 0.8, y + size - 1,
    x + size * 0.2, y + size - 1 }, fill = SIDE[s.side], stroke = golden and "#ffd600" or "#000",
    width = golden and 3 or 1 }
  local out = { "g", class = "ship", title = s.id .. " " .. s.kind .. ", " .. s.holes .. " holes" .. (golden and ", golden" or ""),
    data = { side = s.der and "derelict" or s.side, id = s.id, kind = s.kind, holes = s.holes, golden = golden or nil },
    items = { hull, { "text", x = x + size / 2, y = y + size * 0.2, text = s.id, size = size * 0.4, anchor = "middle",
      bold = s.holes > 0 } } }
  for k = 1, s.holes do
    local g = out.items
    g[#g + 1] = { "circle", x = x + size * (0.25 + 0.25 * (k - 1)), y = y + size * 0.62, r = size * 0.09, fill = "#000",
      class = "hole" }
  end
  return out
end

-- Column numbers every five columns above the map, row numbers beside every row.
local function rulers(w, h, items)
  for c = 0, w - 1, 5 do
    items[#items + 1] = { "text", x = OX + c * S + S / 2, y = OY - 5, text = c, size = 9, anchor = "middle",
      class = "ruler" }
  end
  for r = 0, h - 1 do
    items[#items + 1] = { "text", x = OX - 3, y = OY + r * S + S / 2 + 3, text = r, size = 9, anchor = "end",
      class = "ruler" }
  end
end

-- The key below the map: each kind of port, its letters' colour and every port's place.
local function key(G, w, grid, y, items)
  local lines = 0
  for _, kind in ipairs(D.port_kinds(G, w, grid)) do
    items[#items + 1] = { "rect", x = OX, y = y + lines * KEY_LINE, w = 12, h = 12, stroke = "#555",
      fill = kind.spanish and "#ef9a9a" or "#fff176" }
    -- wrapped after a port where a line would pass KEY_CHARS
    local line = ""
    for part in (kind.text .. ", "):gmatch("(.-), ") do
      if line ~= "" and #line + #part > KEY_CHARS then
        items[#items + 1] = { "text", x = OX + 16, y = y + lines * KEY_LINE + 10, text = line .. ",", size = 10,
          class = "key" }
        line, lines = "", lines + 1
      end
      line = line == "" and part or line .. ", " .. part
    end
    items[#items + 1] = { "text", x = OX + 16, y = y + lines * KEY_LINE + 10, text = line, size = 10, class = "key" }
    lines = lines + 1
  end
  return lines * KEY_LINE
end

local function wind(G, x, items)
  local wx = G:get("wx") or nil
  local g = { "g", class = "wind", data = { weather = W.text(wx) }, title = W.text(wx), items = {
    { "circle", x = x + 14, y = TOP / 2, r = 13, fill = "#fff", stroke = "#555" } } }
  if wx and wx ~= W.CALM then
    local from = wx >= W.HURRICANE and wx - W.HURRICANE or wx
    g.items[2] = arrow(x, TOP / 2 - 14, (from + 4) % 8, 28, wx >= W.HURRICANE and "#d50000" or "#1565c0")
  end
  items[#items + 1] = g
end

function P.draw(G, _viewer)
  local w, h, grid, cur = G:get("w", "h", "grid", "cur")
  local gold = Gd.visible(G) and G:secret_get("golden") or nil
  local width = math.max(OX + w * S, 360)
  local background = { "rect", x = 0, y = 0, w = width, fill = "#fff" }
  local items = { background,
    { "text", x = 4, y = TOP / 2, text = D.headline(G), size = 11, class = "caption" },
    { "rect", x = OX, y = OY, w = w * S, h = h * S, fill = "#4f8fcf", class = "sea" } }
  wind(G, width - 32, items)
  rulers(w, h, items)
  for pos = 0, w * h - 1 do cell(G, pos, grid:sub(pos + 1, pos + 1), cur, w, items) end
  local height = OY + h * S + 8
  height = height + key(G, w, grid, height, items)
  background.h = height
  local at, order = {}, {}
  for _, s in ipairs(B.ships(G)) do
    if not at[s.pos] then at[s.pos], order[#order + 1] = {}, s.pos end
    table.insert(at[s.pos], s)
  end
  for _, pos in ipairs(order) do
    local here, x, y = at[pos], OX + (pos % w) * S, OY + (pos // w) * S
    local size = S / #here
    for i, s in ipairs(here) do items[#items + 1] = ship(s, x + (i - 1) * size, y + (S - size) / 2, size, gold) end
  end
  return { width = width, height = height, title = "Pirates: " .. D.headline(G), items = items }
end

return P
