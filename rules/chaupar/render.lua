-- The board in the terminal: the cross on its 19×19 grid, north at the top (spec §2). Each
-- square shows its pieces as colour letters with the block size ("S2" = a block of two S
-- pieces), in the colour's colour, castles are marked "*", the Charkoni is the middle. Rulers
-- name the squares as options do (`N.r7`): each lane by its arm at the arm's end, each depth
-- from the Charkoni out beside the arms. Each colour's corner shows its pieces waiting and
-- home; below, whose turn it is and the throw.

local B = require("chaupar.board")
local T = require("chaupar.throws")
local R = require("chaupar.rules")
local M = require("chaupar.moves")
local O = require("chaupar.order")

local D = {}

-- Colour tags of each colour (the REPL paints them, or drops them under NO_COLOR).
local TAG = { "{yellow}{bold}", "{red}{bold}", "{gray}{bold}", "{green}{bold}" }

local SQUARE_AT = {}
for q = 1, B.SQUARES do SQUARE_AT[B.RC[q][1] * 19 + B.RC[q][2]] = q end

-- What one square shows, at most 4 characters.
local function cell(V, q)
  local parts = {}
  for c = 1, 4 do
    local list = V.on[c][q]
    if list then
      for _, i in ipairs(list) do
        local k = M.count(V, c, i)
        if k > 0 then
          parts[#parts + 1] = TAG[c] .. B.COLOURS[c] .. (k > 1 and tostring(k) or "") .. (i > 75 and "'" or "")
            .. "{/}"
        end
      end
    end
  end
  local text = table.concat(parts)
  if V.castles[q] then text = "*" .. text end
  if text == "" then text = "." end
  return text
end

-- `s` padded to `w` visible characters (colour tags take no room).
local function pad(s, w) return s .. string.rep(" ", w - utf8.len((s:gsub("{/?%a*}", "")))) end

local function throw_text(G, sw, phase)
  if phase == "act" then return "to play " .. T.text(G:get("dice")) end
  if phase == "value" or phase == "bonus" then
    local v, bound = G:get("value", "bound")
    return "to play " .. v .. (phase == "bonus" and " (bonus step)" or (bound ~= 0 and " (bound)" or ""))
  end
  if phase == "throw" then return "to throw (" .. sw.implement .. ")" end
  return ""
end

-- The ruler cell at grid row r, column c, outside the squares: the depth of the arm squares
-- beside it (vertical arms on their left, horizontal arms on the rows just off the middle).
local function ruler(r, c)
  if c == 7 and r >= 11 then return tostring(r - 10) end
  if c == 7 and r <= 7 then return tostring(8 - r) end
  if r == 11 and c <= 7 then return tostring(8 - c) end
  if r == 11 and c >= 11 then return tostring(c - 10) end
  return ""
end

-- Each colour's corner (S south-east, E north-east, N north-west, W south-west) and the line
-- of it that names the colour's waiting and home pieces.
local CORNER = { { 3, 12 }, { 15, 12 }, { 15, 0 }, { 3, 0 } }

local function corner_text(V, r, c)
  for k = 1, 4 do
    local at = CORNER[k]
    if r == at[1] and c == at[2] then
      return string.format("%s%s{/} (%s) %d waiting %d home", TAG[k], B.COLOURS[k], B.DISPLAY[k], V.wait[k], V.home[k])
    end
  end
end

-- A lane label row: the lanes of an arm at columns 8, 9, 10 (as `arm`'s lanes run there).
local function lanes(arm, names)
  return string.rep(" ", 4 + 8 * 4) .. arm .. "." .. names[1] .. " " .. arm .. "." .. names[2] .. " " .. arm .. "."
    .. names[3]
end

function D.render(G, _viewer)
  local sw = R.read(G)
  local V = M.view(G, sw)
  local lines = { lanes("N", { "r", "m", "l" }) }
  for r = 18, 0, -1 do
    local row = {}
    local c = 0
    while c <= 18 do
      local q = SQUARE_AT[r * 19 + c]
      local text = corner_text(V, r, c)
      if text then
        row[#row + 1] = pad(text, 28)
        c = c + 6
      elseif q then
        row[#row + 1] = pad(cell(V, q), 4)
      elseif r >= 8 and r <= 10 and c >= 8 and c <= 10 then
        row[#row + 1] = "::::"
      else
        row[#row + 1] = pad(ruler(r, c), 4)
      end
      c = c + 1
    end
    local left = ({ [10] = "W.l ", [9] = "W.m ", [8] = "W.r " })[r] or "    "
    local right = ({ [8] = "E.l", [9] = "E.m", [10] = "E.r" })[r] or ""
    lines[#lines + 1] = (left .. table.concat(row) .. right):gsub("%s+$", "")
  end
  lines[#lines + 1] = lanes("S", { "l", "m", "r" })
  local wait, home = {}, {}
  for c = 1, 4 do
    wait[c] = B.COLOURS[c] .. " " .. V.wait[c]
    home[c] = B.COLOURS[c] .. " " .. V.home[c]
  end
  lines[#lines + 1] = "Charkoni — waiting: " .. table.concat(wait, "  ") .. "   home: " .. table.concat(home, "  ")
  lines[#lines + 1] = "teams S+N (yellow, black) and E+W (red, green); * castle; S2 = block of two; S' homeward;"
    .. " squares are named arm.lane depth (S.m1 is next to the Charkoni)"
  lines[#lines + 1] = D.turn_line(G, sw)
  return table.concat(lines, "\n")
end

-- Who is to act and with what throw, or how the game ended.
function D.turn_line(G, sw)
  local phase, turn = G:get("phase"), O.turn(G)
  if phase == "over" then return "game over: " .. tostring(G:get("result")) end
  if phase == "throwoff" then
    local contenders, n = G:get("contenders", "tnext")
    return "throw-off: " .. O.seat_label(G, contenders[n]) .. " to throw (" .. sw.implement .. ")"
  end
  local who = B.COLOURS[turn] .. " (" .. B.DISPLAY[turn] .. ")"
  if G:seats() == 2 then who = who .. ", player " .. O.seat_label(G, O.seat_of(G, turn)) end
  return who .. " " .. throw_text(G, sw, phase)
end

return D
