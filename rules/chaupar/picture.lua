-- The Chaupar board as a picture (`show --svg`, docs/lua-api.md "Pictures"; shared/specs/
-- chaupar.md §2 the board, §3 the routes, §10 blocks): the cross of 96 squares on its 19×19
-- grid, north at the top, castles (the safe squares of the game's castle_set) marked; the
-- pieces by colour, every one a circle of class "piece", those sharing a route position
-- grouped (class "stack", or "stack block" for two or more, data count); the waiting pieces
-- beside their arm under a label of the colour's waiting and home pieces, and the pieces home
-- in the Charkoni (data where); every square carries its name as options say it (S.m3).

local B = require("chaupar.board")
local D = require("chaupar.render")
local M = require("chaupar.moves")
local R = require("chaupar.rules")

local P = {}

local S, TOP = 28, 8
local SIZE = 19 * S
local FILL = { "#f9d71c", "#d32f2f", "#212121", "#388e3c" }
local INK = { "#000", "#fff", "#fff", "#fff" }
-- The quadrant (column, row of its top-left cell) where each colour's waiting pieces sit.
local POOL = { { 12, 12 }, { 12, 1 }, { 1, 1 }, { 1, 12 } }

local function xy(q)
  local rc = B.RC[q]
  return rc[2] * S, TOP + (18 - rc[1]) * S
end

local function piece(c, x, y, r, where)
  return { "circle", x = x, y = y, r = r, fill = FILL[c], stroke = "#888", width = 1, class = "piece",
    data = { colour = B.COLOURS[c], where = where } }
end

local function square(V, q, items)
  local x, y = xy(q)
  local castle = V.castles[q]
  items[#items + 1] = { "rect", x = x, y = y, w = S, h = S, fill = castle and "#f5e6c8" or "#fffaf0",
    stroke = "#8d6e63", class = castle and "square castle" or "square", data = { square = B.NAME[q] } }
  if castle then
    items[#items + 1] = { "polygon", points = { x + 4, y + 4, x + S - 4, y + S - 4, x + 4, y + S - 4, x + S - 4, y + 4 },
      fill = "none", stroke = "#c8b08a" }
  end
  -- its name as options say it (S.m3), small in its corner
  items[#items + 1] = { "text", x = x + 2, y = y + 6, text = B.NAME[q], size = 6, fill = "#a1887f", class = "name" }
end

-- The pieces of every colour on square q, one group per route position.
local function pieces_on(V, q, items)
  local x, y = xy(q)
  local groups = {}
  for c = 1, 4 do
    for _, i in ipairs(V.on[c][q] or {}) do
      local k = M.count(V, c, i)
      if k > 0 then groups[#groups + 1] = { c = c, i = i, k = k } end
    end
  end
  for n, grp in ipairs(groups) do
    local g = { "g", class = grp.k > 1 and "stack block" or "stack",
      data = { square = B.NAME[q], colour = B.COLOURS[grp.c], count = grp.k, homeward = grp.i > 75 or nil },
      items = {} }
    local cx, cy = x + S / 2 + (n - 1) * 5 - (#groups - 1) * 2.5, y + S / 2
    for j = 1, grp.k do g.items[j] = piece(grp.c, cx + (j - 1) * 2, cy - (j - 1) * 3, 8, "board") end
    if grp.k > 1 then
      g.items[#g.items + 1] = { "text", x = cx + (grp.k - 1) * 2, y = cy - (grp.k - 1) * 3, text = grp.k, size = 9,
        anchor = "middle", bold = true, fill = INK[grp.c] }
    end
    items[#items + 1] = g
  end
end

local function off_board(V, items)
  for c = 1, 4 do
    local col, row = POOL[c][1], POOL[c][2]
    items[#items + 1] = { "text", x = (col + 0.5) * S, y = TOP + (row + 0.8) * S, class = "corner",
      text = string.format("%s (%s): %d waiting, %d home", B.COLOURS[c], B.DISPLAY[c], V.wait[c], V.home[c]) }
    for j = 1, V.wait[c] do
      items[#items + 1] = piece(c, (col + 1.5 * j) * S, TOP + (row + 2) * S, 10, "waiting")
    end
  end
  local mid = 9.5 * S
  for c = 1, 4 do
    for j = 1, V.home[c] do
      items[#items + 1] = piece(c, mid + (j - 2.5) * 14, TOP + 8 * S + c * 0.6 * S + 4, 6, "home")
    end
  end
end

function P.draw(G, _viewer)
  local sw = R.read(G)
  local V = M.view(G, sw)
  local items = { { "rect", x = 0, y = 0, w = SIZE, h = TOP + SIZE + 30, fill = "#fff" },
    { "rect", x = 8 * S, y = TOP + 8 * S, w = 3 * S, h = 3 * S, fill = "#d7b98e", stroke = "#8d6e63",
      class = "charkoni" } }
  for q = 1, B.SQUARES do square(V, q, items) end
  for q = 1, B.SQUARES do pieces_on(V, q, items) end
  off_board(V, items)
  items[#items + 1] = { "text", x = 4, y = TOP + SIZE + 14, text = D.turn_line(G, sw), class = "caption" }
  return { width = SIZE, height = TOP + SIZE + 30, title = "Chaupar: " .. D.turn_line(G, sw), items = items }
end

return P
