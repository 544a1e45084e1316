-- Where the pieces stand. Each piece is a kernel piece on a square, in its colour's waiting
-- zone or home zone, with its route index recorded by the kernel (the route passes the own
-- middle column twice, so the square alone does not say where a piece is). The rules read the
-- board as one array of the 16 route indices (prop "at": 0 waiting, 1..83 on the route, 84
-- home), written with every move; check.lua verifies that both agree.

local B = require("chaupar.board")

local P = {}

-- The 16 route indices, piece by piece.
function P.board(G) return G:get("at") end

-- Moves piece p of colour c to route index i (on the route of direction dir).
function P.move(G, p, c, i, dir)
  if i == 0 then
    G:move(p, B.WAIT[c])
  elseif i == B.HOME then
    G:move(p, B.HOME_ZONE[c])
  else
    G:move(p, B.ROUTE[dir][c][i])
  end
  G:piece_set(p, "i", i)
end

-- The route index the kernel recorded for piece p.
function P.recorded(G, p) return G:piece_get(p, "i") end

-- Writes the board array after the pieces moved.
function P.save(G, at) G:set("at", at) end

return P
