-- Where the pieces stand. Each piece is a kernel piece in its colour's waiting zone or at a
-- position of its colour's track (board.lua: route indices 1..83, home at 84), put there with
-- G:track_put, so that the kernel records the route position where the square alone does not
-- say it (the route passes the own middle column twice). The rules read the board once per
-- event as one array of the 16 route indices (prop "at": 0 waiting, 1..83 on the route, 84
-- home), written with every move; check.lua verifies that it agrees with the kernel's record.

local B = require("chaupar.board")

local P = {}

-- The 16 route indices, piece by piece.
function P.board(G) return G:get("at") end

-- Moves piece p of colour c to route index i (on the route of direction dir).
function P.move(G, p, c, i, dir)
  if i == 0 then
    G:move(p, B.WAIT[c])
  else
    G:track_put(p, B.track(dir, c), i)
  end
end

-- The route index the kernel recorded for piece p of colour c (0 waiting), or nil when p is
-- neither waiting nor on its colour's track.
function P.recorded(G, p, c, dir)
  local i, track = G:track_index(p)
  if i then return track == B.track(dir, c) and i or nil end
  return G:where(p) == B.WAIT[c] and 0 or nil
end

-- Writes the board array after the pieces moved.
function P.save(G, at) G:set("at", at) end

return P
