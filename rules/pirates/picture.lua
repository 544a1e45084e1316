-- The Pirates map as a picture (`show --svg`, docs/lua-api.md "Pictures"; shared/specs/
-- pirates.md §2 the map, §3 the ships, §5 the weather): the sea, land and ports by their letter
-- (Spanish ports red), a current's arrow along its hop, the ships by side (Spain red, pirates
-- purple, a derelict grey; class "ship", data side/id/holes), several in one cell side by
-- side, and the wind's arrow where it blows. The golden galleon is marked (data golden, a gold
-- outline) only in a view that may see it: the hook reads it the way render does.

local B = require("pirates.board")
local D = require("pirates.render")
local Gd = require("pirates.golden")
local W = require("pirates.weather")

local P = {}

local S, TOP = 24, 30
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
  local x, y = (pos % w) * S, TOP + (pos // w) * S
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
  return { "g", class = "ship", title = s.id .. " " .. s.kind .. ", " .. s.holes .. " holes" .. (golden and ", golden" or ""),
    data = { side = s.der and "derelict" or s.side, id = s.id, kind = s.kind, holes = s.holes, golden = golden or nil },
    items = { hull, { "text", x = x + size / 2, y = y + size * 0.2, text = s.id, size = size * 0.4, anchor = "middle",
      bold = s.holes > 0 } } }
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
  local width, height = math.max(w * S, 360), TOP + h * S + 4
  local items = { { "rect", x = 0, y = 0, w = width, h = height, fill = "#fff" },
    { "text", x = 4, y = TOP / 2, text = D.headline(G), size = 11, class = "caption" },
    { "rect", x = 0, y = TOP, w = w * S, h = h * S, fill = "#4f8fcf", class = "sea" } }
  wind(G, width - 32, items)
  for pos = 0, w * h - 1 do cell(G, pos, grid:sub(pos + 1, pos + 1), cur, w, items) end
  local at, order = {}, {}
  for _, s in ipairs(B.ships(G)) do
    if not at[s.pos] then at[s.pos], order[#order + 1] = {}, s.pos end
    table.insert(at[s.pos], s)
  end
  for _, pos in ipairs(order) do
    local here, x, y = at[pos], (pos % w) * S, TOP + (pos // w) * S
    local size = S / #here
    for i, s in ipairs(here) do items[#items + 1] = ship(s, x + (i - 1) * size, y + (S - size) / 2, size, gold) end
  end
  return { width = width, height = height, title = "Pirates: " .. D.headline(G), items = items }
end

return P
