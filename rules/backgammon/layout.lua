-- Backgammon board in kernel state (spec §1): the 24 points as places `p1`..`p24` in X's
-- numbering, `bar.X`, `bar.O`, `off.X`, `off.O`, the starting layouts (§1, switch `start` of
-- §8) and reading the board back.
--
-- Each seat has a track in its own numbering: positions 1..24 = its points 1..24, 25 = its
-- bar, 26 = its off tray, so one `G:tally(track, seat)` call reads a whole side.

local L = {}

L.NAMES = { "X", "O" }
L.TRACKS = { "track.X", "track.O" }
L.BAR, L.OFF = 25, 26
L.KIND = "checker"

-- Starting layouts in own numbering: { point, count } pairs.
local STARTS = {
  standard = { { 24, 2 }, { 13, 5 }, { 8, 3 }, { 6, 5 } },
  hyper = { { 24, 1 }, { 23, 1 }, { 22, 1 } },
}

-- A side (own numbering: [1..24] points, [25] bar, [0] off) of a starting layout.
function L.start_side(kind)
  local side = {}
  for p = 0, 25 do side[p] = 0 end
  for _, pc in ipairs(STARTS[kind] or STARTS.standard) do side[pc[1]] = pc[2] end
  return side
end

-- The tracks as location numbers: L.TRACK_LOCS[seat][i] for i = 1..24 (own numbering), 25
-- (bar), 26 (off). `create` makes the places in this order on an empty board, so moves need
-- no kernel call to find a location.
L.TRACK_LOCS = { {}, {} }
for i = 1, 24 do L.TRACK_LOCS[1][i], L.TRACK_LOCS[2][i] = i, 25 - i end
L.TRACK_LOCS[1][25], L.TRACK_LOCS[1][26] = 25, 26
L.TRACK_LOCS[2][25], L.TRACK_LOCS[2][26] = 27, 28

-- The same locations in a side's own numbering: L.LOCS[seat][i] for point i = 1..24, 25 (bar)
-- and 0 (off), as sides (`start_side`, `side`) and step codes (movegen.lua) count.
L.LOCS = { {}, {} }
for seat = 1, 2 do
  for i = 1, 25 do L.LOCS[seat][i] = L.TRACK_LOCS[seat][i] end
  L.LOCS[seat][0] = L.TRACK_LOCS[seat][L.OFF]
end

-- Creates the places (p1..p24 in X's numbering, bar.X, off.X, bar.O, off.O) and the tracks.
function L.create(G)
  local names = {}
  for i = 1, 24 do names[i] = "p" .. i end
  names[25], names[26], names[27], names[28] = "bar.X", "off.X", "bar.O", "off.O"
  for want, name in ipairs(names) do
    local loc = G:place(name)
    if loc ~= want then error("backgammon: the board must be the first places made", 0) end
  end
  G:track(L.TRACKS[1], L.TRACK_LOCS[1])
  G:track(L.TRACKS[2], L.TRACK_LOCS[2])
end

-- Adds a seat's checkers as in `side`.
function L.add_side(G, seat, side)
  for i = 0, 25 do
    local loc = L.LOCS[seat][i]
    for _ = 1, side[i] do G:add(L.KIND, seat, loc) end
  end
end

-- Moves a seat's existing checkers to match `side` (same number of checkers).
function L.place_side(G, seat, side)
  local pieces, k = G:pieces(seat, L.KIND), 1
  for i = 0, 25 do
    local loc = L.LOCS[seat][i]
    for _ = 1, side[i] do
      G:move(pieces[k], loc)
      k = k + 1
    end
  end
end

-- A seat's side in own numbering ([0] off).
function L.side(G, seat)
  local t = G:tally(L.TRACKS[seat], seat)
  t[0], t[L.OFF] = t[L.OFF], nil
  return t
end

-- The mover-oriented board of `seat` (see movegen.lua), in one call: along the mover's track,
-- his checkers count up and the opponent's down (the opponent has none on the mover's bar or
-- off tray).
function L.board(G, seat)
  local b = G:tally(L.TRACKS[seat], seat, 3 - seat)
  b[0], b[L.OFF] = b[L.OFF], nil
  return b
end

return L
