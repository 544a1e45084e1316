-- The board in the terminal: the cross on its 19×19 grid, north at the top (spec §2). Each
-- square shows its pieces as colour letters with the block size ("S2" = a block of two S
-- pieces), castles are marked "*", the Charkoni is the middle; below, the waiting and home
-- pieces, whose turn it is and the throw.

local B = require("chaupar.board")
local T = require("chaupar.throws")
local R = require("chaupar.rules")
local M = require("chaupar.moves")
local O = require("chaupar.order")

local D = {}

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
          parts[#parts + 1] = B.COLOURS[c] .. (k > 1 and tostring(k) or "") .. (i > 75 and "'" or "")
        end
      end
    end
  end
  local text = table.concat(parts)
  if V.castles[q] then text = "*" .. text end
  if text == "" then text = "." end
  return text
end

local function pad(s, w) return s .. string.rep(" ", w - utf8.len(s)) end

local function throw_text(G, sw, phase)
  if phase == "act" then return "to play " .. T.text(G:get("dice")) end
  if phase == "value" or phase == "bonus" then
    local v, bound = G:get("value", "bound")
    return "to play " .. v .. (phase == "bonus" and " (bonus step)" or (bound ~= 0 and " (bound)" or ""))
  end
  if phase == "throw" then return "to throw (" .. sw.implement .. ")" end
  return ""
end

function D.render(G, _viewer)
  local sw = R.read(G)
  local V = M.view(G, sw)
  local lines = { "                                 N" }
  for r = 18, 0, -1 do
    local row = {}
    for c = 0, 18 do
      local q = SQUARE_AT[r * 19 + c]
      if q then
        row[#row + 1] = pad(cell(V, q), 4)
      elseif r >= 8 and r <= 10 and c >= 8 and c <= 10 then
        row[#row + 1] = "::::"
      else
        row[#row + 1] = "    "
      end
    end
    local side = r == 9 and "W " or "  "
    lines[#lines + 1] = (side .. table.concat(row)):gsub("%s+$", "") .. (r == 9 and " E" or "")
  end
  lines[#lines + 1] = "                                 S"
  local wait, home = {}, {}
  for c = 1, 4 do
    wait[c] = B.COLOURS[c] .. " " .. V.wait[c]
    home[c] = B.COLOURS[c] .. " " .. V.home[c]
  end
  lines[#lines + 1] = "Charkoni — waiting: " .. table.concat(wait, "  ") .. "   home: " .. table.concat(home, "  ")
  lines[#lines + 1] = "teams S+N (yellow, black) and E+W (red, green); * castle; S2 = block of two; S' homeward"
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
