-- Where the pieces stand. Each piece is a kernel piece in its colour's waiting zone or at a
-- position of its colour's track (board.lua: route indices 1..83, home at 84), put there with
-- G:track_put, so that the kernel records the route position where the square alone does not
-- say it (the route passes the own middle column twice). The rules read the board when an event
-- finds no view kept (turns.lua) as one array of the 16 route indices (0 waiting, 1..83 on the
-- route, 84 home), kept in prop "at" as a string of 16 bytes, one per piece (every move writes
-- it: a string is one short copy for the kernel, where a list is 16 values to convert);
-- check.lua verifies that it agrees with the kernel's record.

local B = require("chaupar.board")

local P = {}

-- The 16 route indices, piece by piece.
function P.board(G) return { string.byte(G:get("at"), 1, 16) } end

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
-- (each index named: the sandbox's table.unpack is metered, and costs more than the rest).
function P.save(G, at)
  G:set("at", string.char(at[1], at[2], at[3], at[4], at[5], at[6], at[7], at[8],
    at[9], at[10], at[11], at[12], at[13], at[14], at[15], at[16]))
end

return P
