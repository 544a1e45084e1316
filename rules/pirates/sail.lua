-- Movement (spec §7–§10): the step rules of a path (terrain, ports, other ships, the corner
-- rule, the current restriction), sailing by points of sail, rowing, the hurricane drift and
-- the currents' carry. Every function works on a view `C` of the board (`read`, `context`).

local B = require("pirates.board")
local M = require("pirates.map")
local O = require("pirates.options")

local S = {}

-- Maximum distance by k = (course − wind) mod 8 (§7).
-- Terrain bytes of the map's grid.
local SEA, LAND = 46, 35 -- '.', '#'
local byte = string.byte -- called directly: the map is read a byte at a time in every walk

S.REACH = { [0] = 0, 1, 2, 3, 3, 3, 2, 1 }

-- The view of the board that the functions below work on (their `C`): what no event of a
-- game changes (only a new game or a position's import writes it) — the map, the switches
-- the moves and the turns read (`sw`) — and memos of what follows from that and the ships
-- alone (each ship's moves and decoded table, the prompts of turns.lua). The ships themselves
-- come with S.context.
function S.read(G)
  local w, h, grid, cur, corner, against, neutral, chain, spin_scope, fire_timing, shots_per_turn, salvo,
    fire_in_hurricane, current_timing = G:get("w", "h", "grid", "cur", "sw_corner_cutting", "sw_against_current",
    "sw_neutral_ports_open_to_spain", "sw_current_chain", "sw_spin_scope", "sw_fire_timing", "sw_shots_per_turn",
    "sw_salvo", "sw_fire_in_hurricane", "sw_current_timing")
  return { w = w, h = h, grid = grid, cur = cur, corner = corner, against = against, neutral = neutral == "on",
    chain = chain == "on", moves = {}, decoded = {}, prompts = {},
    sw = { spin_scope = spin_scope, fire_timing = fire_timing, shots_per_turn = shots_per_turn, salvo = salvo,
      fire_in_hurricane = fire_in_hurricane, current_timing = current_timing } }
end

-- Reads the ships into view C and returns it: `ps` and `packed` as B.packed reads them, and
-- `occ`, the piece id of the ship on each occupied sea cell (ships in port share the port).
-- They stay as read: after a change to the ships, read them again (S.go and S.carry keep
-- `occ` up to date, not `packed`).
function S.context(G, C)
  local grid = C.grid
  local ps, packed = B.packed(G)
  local occ = {}
  for i = 1, #ps do
    local pos = packed[i] & B.POS -- B.pos, inline: this runs for every ship at every decision
    local t = byte(grid, pos + 1)
    if t == SEA or t == LAND then occ[pos] = ps[i] end -- not S.port_cell
  end
  C.ps, C.packed, C.occ = ps, packed, occ
  return C
end

-- The view with the ships as they are: the one the last event kept (G:keep, docs/lua-api.md
-- "Kept values") if the state has not changed since, else read afresh.
function S.view(G)
  return G:kept("view") or S.context(G, S.read(G))
end

-- The decoded ship of piece p with packed value v, shared through the view's memo: for
-- readers only, who must not change it.
local function decoded(C, p, v)
  local key = v | p << 34 -- v uses bits 0-33
  local s = C.decoded[key]
  if not s then
    s = B.decode(p, v)
    C.decoded[key] = s
  end
  return s
end

-- The decoded ships of the player in `seat` that are not derelicts, in id order; `shared`:
-- from the view's memo, for a reader that does not change them.
function S.fleet(C, seat, shared)
  local out, ps, packed = {}, C.ps, C.packed
  for i = 1, #ps do
    local v = packed[i]
    if (v >> 12) & 15 == seat and v & B.DERELICT == 0 then -- B.seat, B.derelict, inline
      out[#out + 1] = shared and decoded(C, ps[i], v) or B.decode(ps[i], v)
    end
  end
  return out
end

function S.terrain(C, pos) return C.grid:sub(pos + 1, pos + 1) end

-- The cell one step from pos in direction d, or nil off the map.
function S.step(C, pos, d)
  local c, r = pos % C.w + M.DCOL[d], pos // C.w + M.DROW[d]
  if c < 0 or r < 0 or c >= C.w or r >= C.h then return nil end
  return r * C.w + c
end

-- The corner rule (switch corner_cutting, not "free"): whether a diagonal step between the
-- side cells x and y (both on the map) is refused: by both of them land, or with any_land
-- by either. The second side cell is read only when it decides.
local function corner_cut(grid, any_land, x, y)
  local a = byte(grid, x + 1) == LAND
  if a == any_land then return a end
  return byte(grid, y + 1) == LAND
end

-- Whether a diagonal step from pos in direction d (to a cell on the map) is refused by the
-- corner rule.
function S.cuts_corner(C, pos, d)
  if d % 2 == 0 or C.corner == "free" then return false end
  return corner_cut(C.grid, C.corner == "any_land", pos + M.DCOL[d], pos + M.DROW[d] * C.w)
end

-- Whether cell pos is a port (neither sea nor land).
function S.port_cell(C, pos)
  local t = byte(C.grid, pos + 1)
  return t ~= SEA and t ~= LAND
end

-- Whether ship s stands in a port.
function S.in_port(C, s) return S.port_cell(C, s.pos) end

-- Walks course d from ship s for up to n steps; returns how many steps are legal and a bit
-- mask of the steps that end in a port the ship may enter (a legal place to stop short, §7).
-- Each step is refused off the map (n is cut to the steps before the edge), on land, on an
-- occupied sea cell, in a port the ship may not enter, across a corner (as `S.cuts_corner`)
-- and against a current where the against_current switch forbids it. A step to b runs
-- against the current when b is the tail of a hop whose tip is where it came from: when the
-- current at b (prop "cur": its direction's digit, "." for none) runs opposite to d.
function S.walk(C, s, d, n)
  local pos, prev_against, ports, back = s.pos, true, 0, 48 + (d + 4) % 8
  local w, grid, cur, occ, corner, against = C.w, C.grid, C.cur, C.occ, C.corner, C.against
  local dc, dr = M.DCOL[d], M.DROW[d]
  local c, r = pos % w, pos // w
  if dc > 0 and w - 1 - c < n then n = w - 1 - c elseif dc < 0 and c < n then n = c end
  if dr > 0 and C.h - 1 - r < n then n = C.h - 1 - r elseif dr < 0 and r < n then n = r end
  local step, diagonal, any_land = dr * w + dc, dc ~= 0 and dr ~= 0 and corner ~= "free", corner == "any_land"
  for i = 1, n do
    local b = pos + step
    local t = byte(grid, b + 1)
    if t == LAND then return i - 1, ports end
    if t == SEA then
      if occ[b] then return i - 1, ports end
    elseif B.may_enter(string.char(t), s.side, C.neutral) then
      ports = ports | (1 << i)
    else
      return i - 1, ports
    end
    if diagonal and corner_cut(grid, any_land, pos + dc, b - dc) then return i - 1, ports end
    -- first_step_only refuses it after the first step, start_on_tip unless every step so
    -- far ran against it (its current is read only where it decides)
    if against == "first_step_only" and i > 1 then
      if byte(cur, b + 1) == back then return i - 1, ports end
    elseif against == "start_on_tip" then
      local up = byte(cur, b + 1) == back
      if up and not prev_against then return i - 1, ports end
      prev_against = prev_against and up
    end
    pos = b
  end
  return n, ports
end

-- Appends ship s's sailing options with the wind from `wind` to `out`: the full distance,
-- or short of it in a port it may enter (§7), or, when `short` (the house rule
-- move_fewer_or_stay), anywhere on its way.
function S.sail_moves(C, s, wind, short, out)
  local p, reach, at, dist = s.p, S.REACH, #out, O.DISTANCE
  for d = 0, 7 do
    local max = reach[(d - wind) % 8]
    if max > 0 then
      local k, ports = S.walk(C, s, d, max)
      local move = O.ship(O.MOVE, p, d)
      for n = 1, k do
        if short or n == max or ports & (1 << n) ~= 0 then
          at = at + 1
          out[at] = move | n << dist
        end
      end
    end
  end
end

-- Appends ship s's rowing options, one cell in each direction of `dirs`.
function S.row_moves(C, s, dirs, out)
  for _, d in ipairs(dirs) do
    if S.walk(C, s, d, 1) == 1 then out[#out + 1] = O.ship(O.ROW, s.p, d, 1) end
  end
end

-- How far a ship's moves look: the longest sail (S.REACH). Its moves read the board only
-- within this many cells of it.
S.NEAR = 3

-- The occupied sea cells within S.NEAR cells of pos (the ships of C.occ), as a bit mask of the
-- square around it.
local function near(C, pos)
  local w, ps, packed, occ, r0 = C.w, C.ps, C.packed, C.occ, S.NEAR
  local c, r, side, mask = pos % w, pos // w, 2 * S.NEAR + 1, 0
  for i = 1, #ps do
    local at = packed[i] & B.POS
    local dc, dr = at % w - c, at // w - r
    if dc <= r0 and dc >= -r0 and dr <= r0 and dr >= -r0 and occ[at] == ps[i] then
      mask = mask | 1 << ((dr + r0) * side + dc + r0)
    end
  end
  return mask
end

-- Appends the entries of `list` to `out` (a loop: cheaper than table.move's calls per entry).
local function append(out, list)
  local n = #out
  for i = 1, #list do out[n + i] = list[i] end
end

-- Appends ship s's sailing options with the wind from `wind` (nil: no wind) and its rowing
-- options in the directions `rows` (S.sail_moves, S.row_moves) to `out`; returns how many are
-- sailing options. They follow from the ship's place and side, the weather, the hooks'
-- answers (`short`, and `rows` as the text `rows_key`), the map and the ships near it (`near`),
-- so they are found once and reused from the view (V.moves) while none of these changes.
-- C is as S.context made it (no ship moved since).
function S.ship_moves(C, s, wind, short, rows, rows_key, out)
  local memo, around = C.moves, near(C, s.pos)
  local m = memo[s.p]
  if not (m and m.pos == s.pos and m.side == s.side and m.wind == wind and m.short == short
      and m.rows == rows_key and m.near == around) then
    local list = {}
    if wind then S.sail_moves(C, s, wind, short, list) end
    local sail = #list
    S.row_moves(C, s, rows, list)
    m = { pos = s.pos, side = s.side, wind = wind, short = short, rows = rows_key, near = around,
      list = list, sail = sail }
    memo[s.p] = m
  end
  append(out, m.list)
  return m.sail
end

-- Carries ship s (as stored, see B.change) along the current if it stands on a tail (§10);
-- returns whether it moved.
function S.carry(G, C, s)
  local moved, seen = false, nil
  while true do
    local d = byte(C.cur, s.pos + 1) - 48
    if d < 0 or d > 7 or seen and seen[s.pos] then return moved end
    seen = seen or {}
    seen[s.pos] = true
    local tip = S.step(C, s.pos, d)
    local t = S.terrain(C, tip)
    if C.occ[tip] or not B.may_enter(t, s.side, C.neutral) then return moved end
    C.occ[s.pos] = nil
    B.change(G, s, "pos", tip)
    moved = true
    if not B.is_port(t) then C.occ[tip] = s.p end
    if not C.chain then return moved end
  end
end

-- Moves ship s (as stored, see B.change) to cell `to` (a sail, a row or a drift), keeping
-- `occ` up to date; further arguments are fields to change with it, as in B.change.
function S.go(G, C, s, to, ...)
  if C.occ[s.pos] == s.p then C.occ[s.pos] = nil end
  B.change(G, s, "pos", to, ...)
  if not B.is_port(S.terrain(C, to)) then C.occ[to] = s.p end
end

-- The §9 fate of a drifting ship: "stay", "wreck", "blocked" (a ship holds the target) or
-- the cell it drifts to. `occ0` is the
-- occupancy at the start of the drift.
function S.drift_target(C, s, wind, occ0)
  local d = (wind + 4) % 8
  local t = S.step(C, s.pos, d)
  if not t then return "stay" end
  local ch = S.terrain(C, t)
  if ch == "#" or S.cuts_corner(C, s.pos, d) then return "wreck" end
  if occ0[t] then return "blocked" end
  if not B.may_enter(ch, s.side, C.neutral) then return "stay" end
  return t
end

-- Whether the wind from w drives ship s ashore (the shipwreck re-spin's test, §15).
function S.onshore(C, s, w)
  local d = (w + 4) % 8
  local t = S.step(C, s.pos, d)
  if not t then return false end
  return S.terrain(C, t) == "#" or S.cuts_corner(C, s.pos, d)
end

return S
