-- Where a piece stands: its route index (0 waiting, 1..83 on a square of its colour's route, 84
-- home) as kernel state. The route passes the own middle column twice, so the square alone
-- does not say where a piece is; the index is recorded with the piece.

local B = require("chaupar.board")

local P = {}

function P.index(G, p)
  return G:piece_get(p, "i")
end

function P.put(G, p, c, i, dir)
  if i == 0 then
    G:move(p, B.wait_loc(G, c))
  elseif i == B.HOME then
    G:move(p, B.home_loc(G, c))
  else
    G:move(p, B.ROUTE[dir][c][i])
  end
  G:piece_set(p, "i", i)
end

return P
