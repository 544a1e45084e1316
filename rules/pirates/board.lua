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

-- A ship's state is one integer piece prop "s", so that one kernel read gives every ship:
-- pos (bits 0-11) | seat (12-15, 0 for a derelict) | side (16-17) | holes (18-19) | the turn
-- flags moved, fired, rep, frozen, der (20-24) | its own weather + 1 (25-29, 0 = none) |
-- brigantine (30) | number (31-33). The piece's kernel owner is its holder's seat.
local SIDE = { [0] = "none", "spain", "pirate", none = 0, spain = 1, pirate = 2 }
local ID = { galleon = { "G1", "G2", "G3" }, brig = { "B1", "B2", "B3", "B4", "B5", "B6" } }
B.MAX_CELLS = 4096

-- The ship of piece p from its packed value v, as a table (see B.ships for the fields).
function B.decode(p, v)
  local kind = (v >> 30) & 1 == 1 and "brig" or "galleon"
  local wx = (v >> 25) & 31
  return { p = p, pos = v & 4095, seat = (v >> 12) & 15, side = SIDE[(v >> 16) & 3], holes = (v >> 18) & 3,
    moved = v & (1 << 20) ~= 0, fired = v & (1 << 21) ~= 0, rep = v & (1 << 22) ~= 0,
    frozen = v & (1 << 23) ~= 0, der = v & (1 << 24) ~= 0, wx = wx > 0 and wx - 1 or nil,
    kind = kind, n = (v >> 31) & 7, id = ID[kind][(v >> 31) & 7] }
end

local function bit(b, k) return b and (1 << k) or 0 end

local function encode(s)
  return s.pos | (s.seat << 12) | (SIDE[s.side] << 16) | (s.holes << 18) | bit(s.moved, 20) | bit(s.fired, 21)
    | bit(s.rep, 22) | bit(s.frozen, 23) | bit(s.der, 24) | ((s.wx and s.wx + 1 or 0) << 25)
    | bit(s.kind == "brig", 30) | (s.n << 31)
end

-- Every ship in id order: {p, id, kind, n, seat, side, pos, holes, moved, fired, rep, frozen, der, wx}.
function B.ships(G)
  local ps, v = B.packed(G)
  local out = {}
  for i = 1, #ps do out[i] = B.decode(ps[i], v[i]) end
  return out
end

-- Every ship still packed, in two lists in id order: the piece ids and the packed values, for
-- readers that look at a few fields of many ships (B.pos, B.seat, B.side, B.derelict) and
-- decode only the ships they act on.
function B.packed(G)
  local ps = G:get("ships")
  return ps, G:pieces_get(ps, "s")
end

B.POS = 4095 -- the pos bits of a packed ship

function B.pos(v) return v & B.POS end
function B.seat(v) return (v >> 12) & 15 end
function B.side(v) return SIDE[(v >> 16) & 3] end
B.DERELICT = 1 << 24 -- the der bit of a packed ship

function B.derelict(v) return v & B.DERELICT ~= 0 end

-- The turn flags (moved, fired, rep, frozen) and the ship's own weather, cleared on every ship
-- at the end of a turn (§6.4).
local TURN_BITS = (15 << 20) | (31 << 25)

function B.new_turn(G)
  local ps, v = B.packed(G)
  for i = 1, #ps do
    if v[i] & TURN_BITS ~= 0 then G:piece_set(ps[i], "s", v[i] & ~TURN_BITS) end
  end
end

function B.ship(G, p) return B.decode(p, G:piece_get(p, "s")) end

-- Changes fields of the decoded ship s, which must be as stored (decoded since its last
-- change), and stores it: B.change(G, s, "holes", 2, "moved", true, …); a new seat is the
-- piece's owner, a new pos its cell.
function B.change(G, s, ...)
  local seat, pos = s.seat, s.pos
  for i = 1, select("#", ...), 2 do
    local k, v = select(i, ...)
    s[k] = v
  end
  G:piece_set(s.p, "s", encode(s))
  if s.seat ~= seat then G:set_owner(s.p, s.seat) end
  if s.pos ~= pos then G:move(s.p, B.cell(G, s.pos)) end
end

-- Changes fields of ship p as B.change does.
function B.update(G, p, ...) B.change(G, B.ship(G, p), ...) end

-- The ships afloat are the pieces in prop "ships", in id order: one read of a list is cheaper
-- than asking the kernel for its pieces (invariant checks that they agree).

-- A new ship "G2"/"B5" on cell pos.
function B.add(G, id, kind, seat, side, pos, holes)
  local p = G:add(kind, seat, B.cell(G, pos))
  G:piece_set(p, "s", encode({ pos = pos, seat = seat, side = side, holes = holes or 0, kind = kind,
    n = tonumber(id:sub(2)) }))
  local ships = G:get("ships") or {}
  ships[#ships + 1] = p
  G:set("ships", ships)
  return p
end

-- Takes ship p off the board (sunk, wrecked, or its treasure claimed).
function B.remove(G, p)
  G:remove(p)
  local ships = {}
  for _, q in ipairs(G:get("ships")) do
    if q ~= p then ships[#ships + 1] = q end
  end
  G:set("ships", ships)
end

-- Hands a ship to another holder (capture, recapture, claim).
function B.hand_over(G, p, seat, side) B.update(G, p, "seat", seat, "side", side) end

-- The ship with label id ("G2"), or nil.
function B.find(G, id)
  for _, s in ipairs(B.ships(G)) do
    if s.id:upper() == id:upper() then return s end
  end
  return nil
end

return B
