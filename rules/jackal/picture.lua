-- The Jackal board as a picture (`show --svg`, docs/lua-api.md "Pictures"), from the viewer's
-- view (shared/specs/jackal.md §1 the board, §14 what a position holds): the sea and the 117
-- land cells; a face-down tile is blank (class "tile closed"), unless the viewer's team has
-- seen it with the lighthouse (then it also carries its name, dimmed); an open tile shows its
-- glyph turned as it lies (data rot = quarter turns clockwise); coins and the treasure; each
-- team's ship; the characters by team colour, every one a circle of class "piece", grouped
-- per cell (class "people", data count). Below: banked gold, whose turn, who is off the board.

local B = require("jackal.board")
local C = require("jackal.core")
local M = require("jackal.moves")
local R = require("jackal.render")

local P = {}

local S, X0, Y0 = 48, 24, 24
local WIDTH, HEIGHT = X0 + 13 * S + 8, Y0 + 13 * S + 76
local FILL = { "#ffffff", "#f2c200", "#222222", "#d62828" }
local INK = { "#222222", "#222222", "#ffffff", "#ffffff" }

local function corner(l)
  local x, y = B.xy(l)
  return X0 + (x - 1) * S, Y0 + (13 - y) * S
end

-- The glyph of the open tile t at l and the angle it is drawn at.
local function glyph(G, t, l)
  local r = C.rot(G, l)
  if r then return tiles[t].glyph, 90 * r end
  return C.th(t, "glyph", G, l) or tiles[t].glyph, 0
end

local function tile(G, l, known)
  local px, py = corner(l)
  local t, open = C.tile(G, l), C.is_open(G, l)
  local g = { "g", class = "tile", data = { cell = B.name(l) }, items = {} }
  local items = g.items
  if not open then
    g.class = "tile closed"
    items[1] = { "rect", x = px + 1, y = py + 1, w = S - 2, h = S - 2, rx = 3, fill = "#5b7a3a", stroke = "#3d5226" }
    if known[l] and t then
      g.class, g.data.tile = "tile closed known", t
      items[2] = { "text", x = px + S / 2, y = py + S / 2, text = tiles[t].glyph, size = 20, anchor = "middle",
        fill = "#c8d8b0", opacity = 0.7 }
    end
    return g
  end
  local spent = C.spent(G, l)
  g.data.tile, g.data.rot = t, C.rot(G, l)
  if spent then g.class = "tile spent" end
  items[1] = { "rect", x = px + 1, y = py + 1, w = S - 2, h = S - 2, rx = 3, fill = "#ead9ab", stroke = "#a08850" }
  local text, angle = glyph(G, t, l)
  items[2] = { "text", x = px + 14, y = py + 14, text = text, size = 18, anchor = "middle", rotate = angle,
    fill = spent and "#a89c80" or "#1f5f7a", title = tiles[t].help }
  return g
end

local function items_on(V, l, out)
  local coins, treasure = 0, false
  for _, it in ipairs(C.items_here(V, l)) do
    if it.kind == "coin" then coins = coins + 1 else treasure = true end
  end
  local px, py = corner(l)
  if coins > 0 then
    out[#out + 1] = { "g", class = "coins", data = { cell = B.name(l), count = coins }, items = {
      { "circle", x = px + S - 12, y = py + 12, r = 8, fill = "#f5c518", stroke = "#8a6d00" },
      { "text", x = px + S - 12, y = py + 12, text = coins, size = 10, anchor = "middle", bold = true },
    } }
  end
  if treasure then
    out[#out + 1] = { "text", x = px + S - 26, y = py + 12, text = "$", size = 14, bold = true, anchor = "middle",
      fill = "#b8860b", class = "treasure", data = { cell = B.name(l) } }
  end
end

local function ship(t, l)
  local px, py = corner(l)
  return { "polygon", points = { px + 4, py + 14, px + S - 4, py + 14, px + S - 12, py + S - 6, px + 12, py + S - 6 },
    fill = FILL[t], stroke = "#000", width = 1.5, class = "ship", data = { team = B.TEAMS[t], cell = B.name(l) } }
end

-- The characters on cell l on a grid of up to three columns in the cell's lower part.
local function people(list, l)
  local px, py = corner(l)
  local sorted = { table.unpack(list) }
  table.sort(sorted, function(a, b) return a.id < b.id end)
  local n = #sorted
  local cols = n == 1 and 1 or n <= 4 and 2 or 3
  local r = n == 1 and 10 or n <= 4 and 8 or 6
  local g = { "g", class = "people", data = { cell = B.name(l), count = n }, items = {} }
  for i, c in ipairs(sorted) do
    local col, row = (i - 1) % cols, (i - 1) // cols
    local x = px + S / 2 + (col - (cols - 1) / 2) * (2 * r + 2)
    local y = py + S - r - 3 - row * (2 * r + 2)
    local can = M.can_act(c) and not c.trap
    g.items[#g.items + 1] = { "circle", x = x, y = y, r = r, fill = c.team > 0 and FILL[c.team] or "#4caf50",
      stroke = "#000", width = can and 1 or 0.5, opacity = can and 1 or 0.6, class = "piece",
      data = { team = C.team_name(c.team), id = c.label, step = c.step > 0 and c.step or nil },
      title = c.label .. (can and "" or " (cannot act now)") }
    g.items[#g.items + 1] = { "text", x = x, y = y, text = c.label, size = r, anchor = "middle",
      fill = c.team > 0 and INK[c.team] or "#fff" }
  end
  return g
end

local function captions(G, V, items)
  local parts = {}
  local bank = G:get("bank")
  for _, t in ipairs(G:get("teams")) do parts[#parts + 1] = B.TEAMS[t] .. " " .. bank[t] end
  local line = "gold: " .. table.concat(parts, ", ") .. "; lost " .. (G:get("lost") or 0)
  local turn = G:get("turn")
  if G:get("phase") == "over" then
    line = line .. "; game over: " .. tostring(G:get("result"))
  elseif turn then
    line = line .. "; " .. B.TEAMS[turn] .. " to play, round " .. (G:get("round") or 1)
  end
  items[#items + 1] = { "text", x = X0, y = Y0 + 13 * S + 20, text = line, class = "caption" }
  local off = {}
  for _, c in ipairs(V.chars) do
    if c.loc == B.DEAD then off[#off + 1] = c.label .. " dead"
    elseif c.loc == B.UNDER then off[#off + 1] = c.label .. " in the cave " .. B.name(c.lost)
    elseif c.loc == B.GONE then off[#off + 1] = c.label .. " gone" end
  end
  if #off > 0 then
    items[#items + 1] = { "text", x = X0, y = Y0 + 13 * S + 44, text = table.concat(off, ", "), class = "caption" }
  end
end

function P.draw(G, viewer)
  local V = C.view(G)
  local known = R.known(G, viewer)
  local items = { { "rect", x = 0, y = 0, w = WIDTH, h = HEIGHT, fill = "#fff" },
    { "rect", x = X0, y = Y0, w = 13 * S, h = 13 * S, fill = "#3f7fbf", class = "sea" } }
  for i = 1, 13 do
    items[#items + 1] = { "text", x = X0 + (i - 0.5) * S, y = Y0 / 2, text = B.COLS:sub(i, i), anchor = "middle" }
    items[#items + 1] = { "text", x = X0 / 2, y = Y0 + (13 - i + 0.5) * S, text = i, anchor = "middle" }
  end
  for _, l in ipairs(B.LAND) do items[#items + 1] = tile(G, l, known) end
  for t = 1, 4 do
    if (V.ships[t] or 0) ~= 0 then items[#items + 1] = ship(t, V.ships[t]) end
  end
  for _, l in ipairs(B.ALL) do
    items_on(V, l, items)
    if V.at[l] then items[#items + 1] = people(V.at[l], l) end
  end
  captions(G, V, items)
  return { width = WIDTH, height = HEIGHT, title = "Jackal", items = items }
end

return P
