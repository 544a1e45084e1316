-- The greedy bot's view of a state (docs/lua-api.md `eval`), from what `seat` may see: the
-- result when the game is over; otherwise the ships each side keeps, less their holes, and
-- for a side holding a revealed golden ship how near it is to its goal.

local B = require("pirates.board")
local P = require("pirates.players")

local E = {}

function E.eval(G, seat)
  local side = P.side(G, seat)
  if G:get("phase") == "over" then return 1000 * (G:get("scores")[seat] - 0.5) end
  local score = 0
  local w = G:get("w")
  for _, s in ipairs(B.ships(G)) do
    local v = (s.kind == "galleon" and 3 or 2) - s.holes
    if s.side == side then score = score + v elseif s.side ~= "none" then score = score - v end
  end
  if G:get("gold_rev") then
    local p = G:secret_get("golden")
    if G:exists(p) then
      local s = B.ship(G, p)
      local c = s.pos % w
      -- Spain runs east to Cadiz, the pirates west to their Caribbean bases.
      local lead = s.side == "spain" and c or (s.side == "pirate" and w - c or 0)
      score = score + (s.side == side and 0.2 or -0.2) * lead
    end
  end
  return score
end

return E
