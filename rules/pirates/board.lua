-- The board in the kernel (spec §2): the map's grid as a w×h kernel grid (cell (col,row) is
-- `B.cell(G, pos)`; a position imported over a new game's board gets a grid of its own), its terrain and currents as two strings of w*h characters in
-- props "grid" and "cur" (one read per call), the ports' names, and the ships (§1) as pieces
-- with their facts in piece props. Cells are numbered pos = row*w + col.

local M = require("pirates.map")

local B = {}

B.SINK = { galleon = 3, brig = 2 } -- the hole that sinks a ship (§1)
B.RANGE = { galleon = 2, brig = 1 } -- fire range (§1)

-- Spanish and pirate player counts for n players (§1).
B.SPLIT = { [2] = { 1, 1 }, [3] = { 1, 2 }, [4] = { 1, 3 }, [5] = { 2, 3 }, [6] = { 3, 3 },
  [7] = { 1, 6 }, [8] = { 2, 6 }, [9] = { 3, 6 } }

-- Ports a side may enter and where it may repair (§2, §12).
local ENTER = {
  spain = { V = true, C = true, H = true },
  pirate = { ["1"] = true, ["2"] = true, ["3"] = true, ["4"] = true, ["5"] = true, ["6"] = true, E = true, F = true },
}

-- The kernel cell of pos.
function B.cell(G, pos)
  local w, grid = G:get("w", "grid_name")
  return G:cell(grid, pos % w + 1, pos // w + 1)
end

function B.may_enter(ch, side, neutral_open)
  if ch == "." then return true end
  if ENTER[side] and ENTER[side][ch] then return true end
  return side == "spain" and neutral_open and (ch == "E" or ch == "F")
end

function B.may_repair(ch, side)
  return ENTER[side] ~= nil and ENTER[side][ch] == true
end

function B.is_port(ch) return ch ~= "." and ch ~= "#" end

-- Builds the board from a parsed map; `lines` are kept for a `map inline` export.
function B.create(G, map, name, lines)
  local old = G:get("grid_name")
  local grid = old and old .. "'" or "c"
  G:grid(grid, map.w, map.h)
  G:set("grid_name", grid)
  local cur = {}
  for i = 1, map.w * map.h do cur[i] = "." end
  for _, h in ipairs(map.hops) do
    for d = 0, 7 do
      if M.DCOL[d] == h.tc - h.fc and M.DROW[d] == h.tr - h.fr then cur[h.fr * map.w + h.fc + 1] = tostring(d) end
    end
  end
  local pos, names = {}, {}
  for i, p in ipairs(map.ports) do
    pos[i], names[i] = p.row * map.w + p.col, p.name
  end
  G:set("w", map.w, "h", map.h, "grid", table.concat(map.rows), "cur", table.concat(cur),
    "port_pos", pos, "port_names", names, "map", name, "map_lines", lines or {})
end

-- The ports as {pos, name} in file order.
function B.ports(G)
  local pos, names = G:get("port_pos", "port_names")
  local out = {}
  for i = 1, #pos do out[i] = { pos = pos[i], name = names[i] } end
  return out
end

function B.port_name(G, pos)
  for _, p in ipairs(B.ports(G)) do if p.pos == pos then return p.name end end
  return nil
end

-- Fields every ship carries (piece props); the piece's kernel owner is its holder's seat.
local FIELDS = { "id", "kind", "seat", "side", "pos", "holes", "moved", "fired", "rep", "frozen", "der", "wx" }
B.FIELDS = FIELDS

-- Every ship in id order: {p, id, kind, seat, side, pos, holes, moved, fired, rep, frozen, der, wx}.
function B.ships(G)
  local ps = G:pieces()
  local id, kind, seat, side, pos, holes, moved, fired, rep, frozen, der, wx = G:pieces_get(ps, table.unpack(FIELDS))
  local out = {}
  for i, p in ipairs(ps) do
    out[i] = { p = p, id = id[i], kind = kind[i], seat = seat[i], side = side[i], pos = pos[i], holes = holes[i],
      moved = moved[i], fired = fired[i], rep = rep[i], frozen = frozen[i], der = der[i], wx = wx[i] }
  end
  return out
end

function B.ship(G, p)
  local id, kind, seat, side, pos, holes, moved, fired, rep, frozen, der, wx = G:piece_get(p, table.unpack(FIELDS))
  return { p = p, id = id, kind = kind, seat = seat, side = side, pos = pos, holes = holes,
    moved = moved, fired = fired, rep = rep, frozen = frozen, der = der, wx = wx }
end

-- A new ship on cell pos.
function B.add(G, id, kind, seat, side, pos, holes)
  local p = G:add(kind, seat, B.cell(G, pos))
  G:piece_set(p, "id", id, "kind", kind, "seat", seat, "side", side, "pos", pos, "holes", holes or 0,
    "moved", false, "fired", false, "rep", false, "frozen", false, "der", false)
  return p
end

function B.place(G, p, pos)
  G:piece_set(p, "pos", pos)
  G:move(p, B.cell(G, pos))
end

-- Hands a ship to another holder (capture, recapture, claim).
function B.hand_over(G, p, seat, side)
  G:piece_set(p, "seat", seat, "side", side)
  G:set_owner(p, seat)
end

-- The ship with label id ("G2"), or nil.
function B.find(G, id)
  for _, s in ipairs(B.ships(G)) do
    if s.id:upper() == id:upper() then return s end
  end
  return nil
end

return B
