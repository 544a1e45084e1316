-- The greedy bot's view of a state (docs/lua-api.md `eval`): the result when the game is over;
-- otherwise how far the seat's partnership has run, less how far the other one has (spec §1:
-- a team wins with all eight of its pieces home). Each piece counts its route index (0
-- waiting, 84 home), a piece home a bonus on top, so that bringing one in beats running past.

local B = require("chaupar.board")
local O = require("chaupar.order")
local P = require("chaupar.pieces")

local E = {}

local HOME_BONUS = 20

-- Progress of piece p standing at route index i.
local function progress(i)
  if i == B.HOME then return i + HOME_BONUS end
  return i
end

function E.eval(G, seat)
  if G:get("phase") == "over" then return 1000 * (G:get("scores")[seat] - 0.5) end
  local at = P.board(G)
  local team, score = nil, 0
  for c = 1, 4 do
    if O.seat_of(G, c) == seat then team = B.TEAM[c] end
  end
  for p = 1, 16 do
    local c = (p + 3) // 4
    local v = progress(at[p])
    if B.TEAM[c] == team then score = score + v else score = score - v end
  end
  return score
end

return E
