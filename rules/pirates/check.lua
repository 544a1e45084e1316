-- Invariants for random play (issue 12): never two ships on one sea cell, no ship on land
-- or off the map, damage below the sinking number, a derelict only as nobody's golden ship,
-- ships on the kernel cell their position names, prop "ships" listing the pieces afloat, and
-- the golden ship never in a pirate's view before the reveal.

local B = require("pirates.board")
local P = require("pirates.players")

local K = {}

function K.invariant(G)
  local w, h, grid = G:get("w", "h", "grid")
  local sea = {}
  local listed, afloat = table.concat(G:get("ships"), " "), table.concat(G:pieces(), " ")
  if listed ~= afloat then return "prop ships lists " .. listed .. ", the pieces afloat are " .. afloat end
  for _, s in ipairs(B.ships(G)) do
    if s.pos < 0 or s.pos >= w * h then return s.id .. " is off the map" end
    local ch = grid:sub(s.pos + 1, s.pos + 1)
    if ch == "#" then return s.id .. " is on land" end
    if ch == "." then
      if sea[s.pos] then return s.id .. " and " .. sea[s.pos] .. " share a sea cell" end
      sea[s.pos] = s.id
    end
    if s.holes < 0 or s.holes >= B.SINK[s.kind] then return s.id .. " has " .. s.holes .. " holes" end
    if G:where(s.p) ~= B.cell(G, s.pos) then return s.id .. " is not on its cell" end
    if s.der ~= (s.side == "none") then return s.id .. ": derelict and side disagree" end
    if not s.der and P.side(G, s.seat) ~= s.side then return s.id .. ": holder and side disagree" end
  end
  if G:get("gold") and not G:get("gold_rev") then
    for seat = G:get("nspain") + 1, G:seats() do
      if G:can_see("golden", seat) then return "P" .. (seat - G:get("nspain")) .. " sees the golden ship" end
    end
  end
  return ""
end

return K
