-- Jackal core: reading the state (a "view" of characters and items), alliances, the
-- forbidden-cell rule (§4.3), and the primitive changes every rule is made of (kill, hit,
-- board, bank, sink, trap, …). Tiles require this module; it never calls the chain.
--
-- State layout (all in the kernel):
--   cell props   c = the tile, packed (see C.cell)
--   pieces       kind "char": its facts are in the game prop cs (see C.cread); props lost
--                (entry cave while underground) and lseq
--                kind "coin" / "treasure": prop step (spinner step) or holder (underground)
--                kind "void": a discarded piece (the kernel cannot delete pieces)
--   game props   cs (characters), teams (turn order), ctrl (seat per team), sides (side per
--                team), ships (ship location per team, 0 = absent), bank, bottles (per
--                team), lost, turn (team to act), shifted (grass), round, grass, stall, act
--                (activity this round), mv_* (the move in progress; its steps wait on
--                the kernel's pending stack, mv_base: chain.done is under them, see C.wait),
--                phase, sw_<switch> (switches a position set, see C.sw), tile_writes (how
--                many times a cell's tile was written, see C.cell_write).

local B = require("jackal.board")

local C = {}

local IS_LAND = B.IS_LAND

C.VALUE = { coin = 1, treasure = 3 }

------------------------------------------------------------------------------------------
-- Small helpers

-- The prop names of the switches a position may set, made once rather than at every read.
local SW_PROP = {}
for k in pairs(require("jackal.switches")) do SW_PROP[k] = "sw_" .. k end

-- The value of switch k this game plays with (positions may set switches, §14); else the
-- loaded rules' (the global `switches` reads what G:switch does, without a kernel call).
function C.sw(G, k)
  local v = G:get(SW_PROP[k] or "sw_" .. k)
  if v == nil then return switches[k] end
  return v
end

-- Switch k read through view V: once per view (a view lasts one call, or is kept, see C.view).
function C.vsw(V, k)
  local v = V.sw[k]
  if v == nil then
    v = C.sw(V.G, k)
    V.sw[k] = v
  end
  return v
end

-- Sorts a short list (a team's characters, a cell's items) by `less` in place: table.sort is
-- a bounded library call, which costs more than sorting a handful of entries here.
function C.sort_few(list, less)
  for i = 2, #list do
    local v, j = list[i], i - 1
    while j > 0 and less(v, list[j]) do
      list[j + 1] = list[j]
      j = j - 1
    end
    list[j + 1] = v
  end
  return list
end

function C.contains(list, v)
  for i = 1, #list do if list[i] == v then return true end end
  return false
end

-- Hook names of the known tiles, built once (a new tile file works too, a little slower).
local KEY = {}
do
  local names = { "empty", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "hs", "s2", "s3", "s4", "s5",
    "ic", "tr", "cr", "cn", "ft", "rf", "c1", "c2", "c3", "c4", "c5", "pl", "bl", "gu", "rb", "gl",
    "ca", "lh", "bg", "ms", "fr", "r1", "r2", "r3", "cv", "eq", "jg", "gr" }
  local hooks = { "on_reveal", "on_arrive", "choices", "decide", "transit", "accepts_items",
    "fortress", "may_enter", "shelter", "no_hits", "steps", "rotations", "exits", "code", "glyph",
    "first_moves", "revive", "gold", "one_shot", "emerge", "cave_exits", "prompt", "seen_by",
    "seers", "side_seats" }
  for _, n in ipairs(names) do
    local k = {}
    for _, h in ipairs(hooks) do k[h] = n .. "." .. h end
    KEY[n] = k
  end
end

-- The code of each tile by its name: wherever a tile is named (C.ask's owner, C.th), its name
-- does as well as its code.
local CODE = {}
when_loaded(function()
  for i = 1, #tile_names do CODE[tiles[tile_names[i]].name] = tile_names[i] end
end)

-- Calls tile hook `name.what` if the tile (named by its code or its name) defines it.
function C.th(name, what, ...)
  if not name then return nil end
  local k = KEY[name]
  if not k and CODE[name] and CODE[name] ~= name then
    name = CODE[name]
    k = KEY[name]
  end
  local f = hook[k and k[what] or (name .. "." .. what)]
  if f then return f(...) end
  return nil
end

-- The tile that defines hook `what` (the first by code), e.g. the cave's cave_exits: the rules
-- reach a one-of-a-kind tile by what it does, never by its name. Found for every hook name
-- once the tiles are loaded.
local PROVIDER = {}
when_loaded(function()
  for i = #tile_names, 1, -1 do
    local prefix = tile_names[i] .. "."
    for _, name in ipairs(sorted_keys(hook)) do
      if name:sub(1, #prefix) == prefix then PROVIDER[name:sub(#prefix + 1)] = tile_names[i] end
    end
  end
end)

---@param what string
---@return string?
function C.provider(what) return PROVIDER[what] end

-- Calls hook `what` of the tile that defines it (C.provider).
function C.ph(what, ...)
  return C.th(C.provider(what), what, ...)
end

------------------------------------------------------------------------------------------
-- Teams and sides

function C.team_name(t) return B.TEAMS[t] or "nobody" end

function C.allied_in(sides, a, b)
  if a == 0 or b == 0 then return false end
  return a == b or sides[a] == sides[b]
end

function C.enemy_in(sides, a, b)
  return a ~= 0 and b ~= 0 and a ~= b and sides[a] ~= sides[b]
end

function C.allied(G, a, b) return C.allied_in(G:get("sides"), a, b) end
function C.enemy(G, a, b) return C.enemy_in(G:get("sides"), a, b) end

-- The team whose ship is at l, or nil.
function C.ship_team(ships, l)
  if l == 0 then return nil end
  for t = 1, 4 do if ships[t] == l then return t end end
  return nil
end

-- The team that plays after team t in the turn order `teams` (nil when t is not in it).
function C.team_after(teams, t)
  for i = 1, #teams do
    if teams[i] == t then return teams[i % #teams + 1] end
  end
  return nil
end

-- The seat that plays team t's turn (grass shifts control to the next team's, §7.6): seats
-- per team `ctrl`, the turn order `teams`, `shifted`: whether the turn is shifted.
function C.control(ctrl, teams, shifted, t)
  if shifted then
    local next_team = C.team_after(teams, t)
    if next_team then return ctrl[next_team] end
  end
  return ctrl[t]
end

-- The seat that plays team t's turn now.
function C.controller(G, t)
  local ctrl, teams, shifted = G:get("ctrl", "teams", "shifted")
  return C.control(ctrl, teams, shifted, t)
end

-- The rum bottles per team read through view V: once per view, like its items (they change
-- without the view knowing, see C.forget_cells).
local function vbottles(V)
  local b = V.bottles
  if not b then
    b = V.G:get("bottles")
    V.bottles = b
  end
  return b
end

-- Teams whose rum a team may spend (§8, rum_sharing); V: a view of the state, when known.
function C.bottles_for(G, t, V)
  local b = V and vbottles(V) or G:get("bottles")
  local sharing = V and C.vsw(V, "rum_sharing") or C.sw(G, "rum_sharing")
  if sharing == "team" then return b[t], { t } end
  local sides, total, who = V and V.sides or G:get("sides"), 0, {}
  for u = 1, 4 do
    if b[u] > 0 and C.allied_in(sides, t, u) then
      total = total + b[u]
      who[#who + 1] = u
    end
  end
  -- own supply first
  if #who > 1 then
    C.sort_few(who, function(x, y)
      if (x == t) ~= (y == t) then return x == t end
      return x < y
    end)
  end
  return total, who
end

function C.spend_bottle(G, t)
  local _, who = C.bottles_for(G, t)
  local b = G:get("bottles")
  local u = who[1]
  if not u then error("no rum bottle to spend") end
  b[u] = b[u] - 1
  G:set("bottles", b)
end

function C.add_bottles(G, t, n)
  if n <= 0 then return end
  local b = G:get("bottles")
  b[t] = b[t] + n
  G:set("bottles", b)
end

------------------------------------------------------------------------------------------
-- Characters

local WHO = { Ben = "ben", Fri = "fri", Mis = "mis" }

-- The characters' facts live in one game prop "cs": an array with one integer per character,
-- in piece-id order, so that a view of the board costs one read. Each integer holds the piece
-- id (bits 27 and up), the location (bits 0-7, mirroring the kernel's: every move of a
-- character goes through C.move_char), the spinner step (8-10), the team (11-13), flags
-- (14-19) and the label (20-26). Flags: trap (bit 0), conv (bit 1), drunk (bits 2-3, turns
-- left), newb (bits 4-5, turns left).
local FLAG = { trap = { 0, 1 }, conv = { 1, 1 }, drunk = { 2, 3 }, newb = { 4, 3 } }

local LABELS, LABEL_CODE = {}, {}
for t = 1, 4 do
  for k = 1, 3 do
    local label = B.LETTER[t] .. k
    LABELS[t * 4 + k] = label
    LABEL_CODE[label] = t * 4 + k
  end
end
LABELS[100], LABELS[101], LABELS[102] = "Ben", "Fri", "Mis"
LABEL_CODE.Ben, LABEL_CODE.Fri, LABEL_CODE.Mis = 100, 101, 102

local function decode(v)
  return LABELS[(v >> 20) & 127], (v >> 11) & 7, (v >> 8) & 7, (v >> 14) & 63, v & 255
end

local function find(cs, p)
  for i = 1, #cs do if cs[i] >> 27 == p then return i end end
  return nil
end

-- The characters' integers and where character piece p's is among them (nil: not yet).
local function slot(G, p)
  local cs = G:get("cs") or {}
  return cs, find(cs, p)
end

-- Writes character piece p's integer at index i of cs (nil: a new one), and cs to the state.
local function store(G, cs, i, p, label, team, step, f, l)
  cs[i or #cs + 1] = (p << 27) | l | (step << 8) | (team << 11) | (f << 14) | (LABEL_CODE[label] << 20)
  G:set("cs", cs)
end

-- The packed integer of character piece p.
local function packed(G, p)
  local cs, i = slot(G, p)
  return cs[i]
end

function C.cread(G, p)
  return decode(packed(G, p))
end

function C.cwrite(G, p, label, team, step, f, l)
  local cs, i = slot(G, p)
  store(G, cs, i, p, label, team, step, f, l)
end

-- Forgets a character piece (it is discarded).
function C.cdrop(G, p)
  local cs = G:get("cs") or {}
  local i = find(cs, p)
  if i then table.remove(cs, i) end
  G:set("cs", #cs > 0 and cs or nil)
end

-- A new character piece at l.
function C.new_char(G, label, team, l, step)
  local p = G:add("char", 0, l)
  C.cwrite(G, p, label, team, step or 0, 0, l)
  return p
end

-- Flags f with flag `name` set to v (true/false or a number).
local function with_flag(f, name, v)
  local sh, m = FLAG[name][1], FLAG[name][2]
  if v == true then v = 1 elseif not v then v = 0 end
  return (f & ~(m << sh)) | ((v & m) << sh)
end

-- Flags f with the character out of a trap and sober.
local function freed(f)
  return with_flag(with_flag(f, "trap", false), "drunk", 0)
end

-- Moves a character (and resets its spinner step to `step`); `free`: also out of a trap and
-- sober.
function C.move_char(G, p, l, step, free)
  G:move(p, l)
  local cs, i = slot(G, p)
  local label, team, _, f = decode(cs[i])
  store(G, cs, i, p, label, team, step or 0, free and freed(f) or f, l)
end

function C.set_team(G, p, t)
  local cs, i = slot(G, p)
  local label, _, step, f, l = decode(cs[i])
  store(G, cs, i, p, label, t, step, f, l)
end

function C.set_step(G, p, st)
  local cs, i = slot(G, p)
  local label, team, _, f, l = decode(cs[i])
  store(G, cs, i, p, label, team, st or 0, f, l)
end

function C.flag(G, p, name, v)
  local cs, i = slot(G, p)
  local label, team, step, f, l = decode(cs[i])
  store(G, cs, i, p, label, team, step, with_flag(f, name, v), l)
end

-- Moves a character off the board (dead, gone) with its step and flags cleared.
function C.retire(G, p, zone)
  G:move(p, zone)
  local cs, i = slot(G, p)
  local label, team = decode(cs[i])
  store(G, cs, i, p, label, team, 0, 0, zone)
end

-- Character record c as C.retire left its character.
function C.retired(c, zone)
  c.loc, c.step, c.trap, c.conv, c.drunk, c.newb = zone, 0, false, false, 0, 0
end

-- The character table of the packed integer v (see decode).
local function make_char(G, v)
  local p, l, label = v >> 27, v & 255, LABELS[(v >> 20) & 127]
  local c = {
    id = p, loc = l, label = label, who = WHO[label] or "pirate", team = (v >> 11) & 7,
    step = (v >> 8) & 7, trap = v & 16384 ~= 0, conv = v & 32768 ~= 0, drunk = (v >> 16) & 3,
    newb = (v >> 18) & 3,
  }
  if l == B.UNDER then
    c.lost = G:piece_get(p, "lost")
    c.lseq = G:piece_get(p, "lseq")
  end
  return c
end

function C.char(G, p)
  return make_char(G, packed(G, p))
end

function C.fighter(c)
  return c.who == "pirate" or c.who == "ben" or (c.who == "mis" and c.conv == true)
end

function C.sober_mis(c) return c.who == "mis" and not c.conv end

-- Living: on the board, a ship, swimming or underground (not dead, gone or discarded).
function C.alive(c) return c.loc ~= 0 and c.loc ~= B.DEAD and c.loc ~= B.GONE end

-- A view of every character, indexed by location; items, tiles and switches are read when
-- asked for, once. A view describes the state it was read from: after a change, read a new
-- one. One call reads it once: a step of the move that hands over to the next within the
-- call keeps the view (C.keep_view) after its last write, and the next step's C.view finds it
-- (G:kept is nil once anything changed, in a seat's view, and in a copy of the state).
function C.view(G)
  return C.kept_view(G) or C.read_view(G)
end

-- The game props a view is read from (C.read_view; the underground characters' lost and lseq
-- are written only with their cs entry, and a position's switches only with cs).
local VIEW_PROPS = { "cs", "ships", "sides", "shifted" }

-- Keeps view V for the state as it is now (after the caller's last write): V must say what
-- C.read_view would, which the tests check by playing the same games without kept values. It
-- stays kept while its props are unchanged (G:keep), through flips, logs and pending steps
-- (what it read of the cells is checked when it is found, C.kept_view).
function C.keep_view(G, V)
  G:keep("view", V, VIEW_PROPS)
end

-- The view kept for the state as it is (nil: none), with what it read of the cells forgotten:
-- they may have changed since it was kept.
function C.kept_view(G)
  local V = G:kept("view")
  if V then C.forget_cells(V) end
  return V
end

-- Items, bottles and tiles change without the view knowing: a view kept or carried past
-- changes reads them again when asked for (the tiles, their steps and where they lie open
-- only when a cell's tile was written since it read them).
function C.forget_cells(V)
  V.items_at, V.bottles = {}, nil
  local writes = V.G:get("tile_writes")
  if writes ~= V.tile_writes then V.tiles, V.steps, V.open, V.tile_writes = {}, {}, {}, writes end
end

-- A view read from the state afresh.
function C.read_view(G)
  local chars, at, by_id = {}, {}, {}
  local sides, ships, cs, shifted, writes = G:get("sides", "ships", "cs", "shifted", "tile_writes")
  local V = { G = G, sides = sides, ships = ships, shifted = shifted or false, chars = chars, at = at,
              by_id = by_id, items_at = {}, tiles = {}, steps = {}, open = {}, tile_writes = writes, sw = {},
              seat_names = {} }
  cs = cs or {}
  for i = 1, #cs do
    local c = make_char(G, cs[i])
    chars[i], by_id[c.id] = c, c
    local list = at[c.loc]
    if list then list[#list + 1] = c else at[c.loc] = { c } end
  end
  return V
end

-- What follows "white to play": nothing when the seat plays that team alone, else the seat as
-- the kernel shows it (" (white+black)").
---@param seat string the seat's name (G:seat_name)
---@param t integer the team to play
---@return string
function C.played_by(seat, t)
  if seat == B.TEAMS[t] then return "" end
  return " (" .. seat .. ")"
end

-- The name of seat s, through view V: asked once per view (a seat keeps its name).
function C.vseat_name(V, s)
  local name = V.seat_names[s]
  if not name then
    name = V.G:seat_name(s)
    V.seat_names[s] = name
  end
  return name
end

-- The character of the view with piece id p (nil: none).
function C.vchar(V, p)
  return V.by_id[p]
end

-- Item piece p of kind `kind` (at l, when the caller knows it).
local function item(G, p, kind, l)
  local step, holder = G:piece_get(p, "step", "holder")
  return { id = p, kind = kind, loc = l or G:where(p), step = step or 0, holder = holder }
end

-- Every item in the game (coins and the treasure), in id order.
function C.all_items(G)
  local out = {}
  for _, kind in ipairs({ "coin", "treasure" }) do
    local ps = G:pieces(nil, kind)
    for i = 1, #ps do out[#out + 1] = item(G, ps[i], kind) end
  end
  table.sort(out, function(a, b) return a.id < b.id end)
  return out
end

-- The open tile at l as the view sees it (cached in V; nil when closed or sea).
function C.vt(V, l)
  local e = V.tiles[l]
  if e == nil then
    e = C.open_tile(V.G, l) or false
    V.tiles[l] = e
  end
  return e or nil
end

-- Steps of the tile at l (spinners), through the view: asked once per cell, like the tile
-- (a move search asks it for every cell it looks at).
function C.vsteps(V, l)
  local n = V.steps[l]
  if n == nil then
    local t = C.vt(V, l)
    n = (t and C.th(t, "steps", V.G, l)) or 1
    V.steps[l] = n
  end
  return n
end

-- Keeps a view up to date after c moved from `from` to c.loc. (The lists are a cell's few
-- characters: shifted in Lua, cheaper than the bounded table.insert and table.remove.)
function C.vrelocate(V, c, from)
  local list = V.at[from]
  if list then
    local n = 0
    for i = 1, #list do
      if list[i].id ~= c.id then
        n = n + 1
        list[n] = list[i]
      end
    end
    for i = #list, n + 1, -1 do list[i] = nil end
    if n == 0 then V.at[from] = nil end
  end
  local to = V.at[c.loc]
  if not to then
    V.at[c.loc] = { c }
    return
  end
  -- in piece-id order, as C.read_view lists them
  local i = #to
  while i > 0 and to[i].id > c.id do
    to[i + 1] = to[i]
    i = i - 1
  end
  to[i + 1] = c
end

-- Characters at l (spinner step `step`, or every step when step is nil), except `but`.
function C.occupants(V, l, step, but)
  local out = {}
  local list = V.at[l]
  if not list then return out end
  for i = 1, #list do
    local o = list[i]
    if o.id ~= but and (step == nil or o.step == step) then out[#out + 1] = o end
  end
  return out
end

-- Items lying at l (on spinner step `step` when given).
function C.items_here(V, l, step)
  local list = V.items_at[l]
  if not list then
    list = {}
    local G = V.G
    -- only pieces beyond the characters the view puts here may be items
    local chars = V.at[l]
    local ps = G:count(l) > (chars and #chars or 0) and G:at(l) or {}
    for i = 1, #ps do
      local p = ps[i]
      local kind = G:kind(p)
      if kind == "coin" or kind == "treasure" then list[#list + 1] = item(G, p, kind, l) end
    end
    V.items_at[l] = list
  end
  local out = {}
  for i = 1, #list do
    local it = list[i]
    if not it.holder and (step == nil or it.step == step) then out[#out + 1] = it end
  end
  return out
end

function C.is_swimming(V, c)
  return B.is_sea(c.loc) and C.ship_team(V.ships, c.loc) == nil
end

function C.aboard(V, c)
  return B.is_sea(c.loc) and C.ship_team(V.ships, c.loc) ~= nil
end

------------------------------------------------------------------------------------------
-- Tiles on cells

-- A land cell's tile lives in one integer cell prop "c": bits 0-6 the tile's index in
-- tile_names (0: closed and not yet drawn), bit 7 open, bit 8 orientation known, bits 9-10 the
-- orientation, bit 11 spent (one-shots), bit 12: closed, and its identity is known to some
-- (a lighthouse peek, a position's "#code"): the tile is then the kernel secret "tile<l>",
-- seen by the seats of the teams that have seen the cell, and reads as unknown in the other
-- seats' views. No prop: closed and not yet drawn. Only C.cell_write writes it, and counts
-- the write in game prop tile_writes: a view keeps the tiles it read while that count holds.
local HIDDEN = 4096

-- Index of each tile name in tile_names (published after the modules load).
local TILE_INDEX = {}
when_loaded(function()
  for i = 1, #tile_names do TILE_INDEX[tile_names[i]] = i end
end)

---@param name string
---@return integer
local function tile_index(name) return TILE_INDEX[name] or error("unknown tile '" .. tostring(name) .. "'") end

-- tile name (or nil), open, rotation (or nil), spent
function C.cell(G, l)
  local v = G:cell_get(l, "c")
  if not v then return nil, false, nil, false end
  local i = v & 127
  local t = i > 0 and tile_names[i] or nil
  if v & HIDDEN ~= 0 and G:can_see("tile" .. l) then t = G:secret_get("tile" .. l) end
  return t, v & 128 ~= 0, (v & 256 ~= 0) and ((v >> 9) & 3) or nil, v & 2048 ~= 0
end

-- The seats that may know the identity of closed cell l (lh's seers: the teams that have
-- seen it and their allies).
function C.seers(G, l) return C.ph("seers", G, l) or {} end

function C.cell_write(G, l, t, open, r, spent)
  local hidden = t ~= nil and not open
  local v = ((t and not hidden) and tile_index(t) or 0) | (hidden and HIDDEN or 0) | (open and 128 or 0)
    | (r and (256 | (r << 9)) or 0) | (spent and 2048 or 0)
  local old = G:cell_get(l, "c") or 0
  G:cell_set(l, "c", v ~= 0 and v or nil)
  G:set("tile_writes", (G:get("tile_writes") or 0) + 1) -- (views read tiles again, C.forget_cells)
  if hidden then
    G:secret_set("tile" .. l, t, C.seers(G, l), "deck")
  elseif old & HIDDEN ~= 0 then
    G:secret_set("tile" .. l, nil)
  end
end

function C.tile(G, l) local t = C.cell(G, l) return t end
function C.is_open(G, l) local _, o = C.cell(G, l) return o end
function C.rot(G, l) local _, _, r = C.cell(G, l) return r end

-- Puts tile t at l; returns the orientation it keeps (nil when none).
function C.set_tile(G, l, t)
  local _, o, r, x = C.cell(G, l)
  C.cell_write(G, l, t, o, r, x)
  return r
end

-- Turns the tile at l face up; returns the tile and its orientation (nil when it has none).
function C.set_open(G, l)
  local t, _, r, x = C.cell(G, l)
  C.cell_write(G, l, t, true, r, x)
  return t, r
end

function C.set_rot(G, l, r)
  local t, o, _, x = C.cell(G, l)
  C.cell_write(G, l, t, o, r, x)
end

-- The open tile at a land cell (nil when closed or sea). An open tile is never secret (see
-- C.cell): its name is the one its index says, read without C.cell's other fields.
function C.open_tile(G, l)
  if not IS_LAND[l] then return nil end
  local v = G:cell_get(l, "c")
  if not v or v & 128 == 0 then return nil end
  return tile_names[v & 127]
end

-- The land cells, in reading order, where tile `name` lies face up (but cell `but`).
function C.open_cells(G, name, but)
  local out = {}
  local cells = G:cells_get(B.LAND, "c") -- an open tile is never secret (see C.cell)
  for i = 1, #B.LAND do
    local v, t = cells[i], B.LAND[i]
    if v and v & 128 ~= 0 and t ~= but and tile_names[v & 127] == name then out[#out + 1] = t end
  end
  return out
end

-- The land cells where tile `name` lies face up, through view V (once per view, like its
-- tiles: the lost characters' options ask at every decision). Only read the list.
function C.vopen_cells(V, name)
  local cells = V.open[name]
  if not cells then
    cells = C.open_cells(V.G, name)
    V.open[name] = cells
  end
  return cells
end

-- The closed land cells, in reading order.
function C.closed_cells(G)
  local out = {}
  local cells = G:cells_get(B.LAND, "c")
  for i = 1, #B.LAND do
    local v = cells[i]
    if not v or v & 128 == 0 then out[#out + 1] = B.LAND[i] end
  end
  return out
end

function C.spent(G, l) local _, _, _, x = C.cell(G, l) return x end

function C.spend(G, l)
  local t, o, r = C.cell(G, l)
  C.cell_write(G, l, t, o, r, true)
end

-- Number of steps of the open tile at l (spinners; 1 otherwise).
function C.steps(G, l)
  local t = C.open_tile(G, l)
  return (t and C.th(t, "steps", G, l)) or 1
end

function C.is_fortress(G, l)
  local t = C.open_tile(G, l)
  return t ~= nil and C.th(t, "fortress", G, l) == true
end

function C.accepts_items(G, l)
  if not B.is_land(l) then return false end
  if not C.is_open(G, l) then return false end
  local t = C.tile(G, l)
  local v = C.th(t, "accepts_items", G, l)
  if v == nil then return true end
  return v
end

-- The step a character arriving from outside lands on (spinners: 1; Friday: the last).
local function entry_step(n, c)
  if n <= 1 then return 0 end
  if c.who == "fri" then return n end
  return 1
end

function C.ventry_step(V, l, c) return entry_step(C.vsteps(V, l), c) end

------------------------------------------------------------------------------------------
-- Enemies, forbidden cells (§4.3) and who would be hit (§5)

-- Enemies of c at l (on step `step`, or any step when nil).
function C.enemies_at(V, c, l, step)
  local out = {}
  local list = V.at[l]
  if not list then return out end
  for i = 1, #list do
    local o = list[i]
    if o.id ~= c.id and (step == nil or o.step == step) and C.enemy_in(V.sides, c.team, o.team) then
      out[#out + 1] = o
    end
  end
  return out
end

function C.is_jungle(G, l)
  local t = C.open_tile(G, l)
  return t ~= nil and C.th(t, "shelter", G, l) == true
end

-- Whether land cell l (step) is forbidden for c (§4.3), or closed to c by its tile's may_enter
-- hook (the toll bridge's). Ship cells are never forbidden.
local function forbidden(G, V, c, l, step)
  local t = C.vt(V, l)
  if t and C.th(t, "may_enter", G, l, c) == false then return true end
  local list = V.at[l]
  if not list then return false end
  if C.ship_team(V.ships, l) then return false end
  local spin = t ~= nil and C.vsteps(V, l) > 1
  local en = C.enemies_at(V, c, l, (step and step > 0 and spin) and step or nil)
  if #en == 0 then
    return false
  end
  if t and C.th(t, "fortress", G, l) then return true end
  local mis_only, fri_only, has_mis = true, true, false
  for i = 1, #en do
    local o = en[i]
    if C.sober_mis(o) then has_mis = true; fri_only = false
    elseif o.who == "fri" then mis_only = false
    else mis_only = false; fri_only = false end
  end
  local strict = C.vsw(V, "missionary_block") == "strict"
  if has_mis and strict and c.who ~= "fri" then
    return true
  end
  if not C.fighter(c) then
    if t and C.th(t, "shelter", G, l) then return false end
    local meet = C.vsw(V, "friday_missionary_meet") == "both_leave"
    if c.who == "fri" and mis_only and meet then return false end
    if C.sober_mis(c) and fri_only and meet then return false end
    if c.who == "fri" and mis_only and not strict then return false end
    return true
  end
  return false
end

------------------------------------------------------------------------------------------
-- Where a character may go: the game's hooks may_enter, may_stop and may_carry (hooks.toml).
-- Every rule that decides one of these questions asks it through `hook`, so that a tile (by
-- its tile hooks) or a house rule (stacking on these) changes it everywhere at once.

-- may_enter: whether c may enter cell l (any cell; spinner step `step`, 0 when none): not a
-- forbidden land cell (§4.3, and the tile's may_enter). Asked for the moves offered, the cells
-- of a motion decision, every cell a chain reaches and the caves a character may come out at.
function C.may_enter(G, V, c, l, step)
  return not (IS_LAND[l] and forbidden(G, V, c, l, step))
end

-- may_stop: whether c may end a move at l: not on an open tile that sends him on (transit).
-- A move that would end where he may not stop is not offered, and a chain that ends there
-- ends as on a forbidden cell; nobody stands there (positions, the invariants).
function C.may_stop(G, V, _, l)
  local t = C.vt(V, l)
  return not (t and C.th(t, "transit", G, l))
end

-- may_carry: whether c may bring an item onto land cell l (spinner step `step`, 0 when none):
-- an open tile that accepts items, no enemy on the step of a spinner (spinner_coin_block), and
-- nobody hit there (§4.1, §4.2 rule 5). Asked for the moves offered with an item, at every
-- cell a chain reaches, and by forced_coin_blocked's look-ahead.
function C.may_carry(G, V, c, l, step)
  local t = C.vt(V, l)
  if not t or C.th(t, "accepts_items", G, l) == false then return false end
  if step > 0 and C.vsw(V, "spinner_coin_block") and #C.enemies_at(V, c, l, step) > 0 then return false end
  return #C.would_hit(G, V, c, l, step) == 0
end

-- Enemies c would hit on arriving at l (spinners: on `step`), §5. Empty when no hit happens.
function C.would_hit(G, V, c, l, step)
  local list = V.at[l]
  if not list or not C.fighter(c) then return {} end
  if not B.is_land(l) then
    if C.ship_team(V.ships, l) then return {} end
    return C.enemies_at(V, c, l, nil)      -- swimmers are hit in the sea (they die)
  end
  local t = C.vt(V, l)
  if not t then return {} end
  if C.th(t, "no_hits", G, l, c) then return {} end
  -- nobody on the missionary's cell (on a spinner: his step) is hit
  local st = C.vsteps(V, l) > 1 and step or nil
  for i = 1, #list do
    local o = list[i]
    if o.id ~= c.id and C.sober_mis(o) and (st == nil or o.step == st) then return {} end
  end
  return C.enemies_at(V, c, l, st)
end

------------------------------------------------------------------------------------------
-- Moving characters and items

-- Moves character c to l (spinner step `step`), out of a trap and sober when `free` (in the
-- same write); view V, when given, follows.
function C.place(G, c, l, step, V, free)
  local from = c.loc
  C.move_char(G, c.id, l, step or 0, free)
  c.loc, c.step = l, step or 0
  if free then c.trap, c.drunk = false, 0 end
  if V then C.vrelocate(V, c, from) end
end

-- Frees character p from a trap and sobers it up (record c, when given, follows).
function C.clear_flags(G, p, c)
  local cs, i = slot(G, p)
  local label, team, step, f, l = decode(cs[i])
  store(G, cs, i, p, label, team, step, freed(f), l)
  if c then c.trap, c.drunk = false, 0 end
end

-- Discards a piece (the kernel cannot delete one).
function C.discard(G, p)
  if G:kind(p) == "char" then C.cdrop(G, p) end
  G:move(p, 0)
  G:set_kind(p, "void")
end

-- Gold leaving play (banked or lost) marks the action for the end check (§9).
function C.add_lost(G, n)
  G:set("lost", (G:get("lost") or 0) + n)
  G:set("gold_out", true)
end

function C.add_bank(G, t, n)
  local b = G:get("bank")
  b[t] = b[t] + n
  G:set("bank", b)
  G:set("gold_out", true)
end

function C.item_value(G, it) return C.VALUE[G:kind(it)] or 0 end

-- The item of the move in progress (0 = none).
function C.mv_item(G) return G:get("mv_item") or 0 end

-- The move's item goes back where the move started (§4.2 rules 1, 2, 5).
function C.item_home(G)
  local it = C.mv_item(G)
  if it == 0 then return end
  G:move(it, G:get("mv_start"))
  local s = G:get("mv_sstep") or 0
  G:piece_set(it, "step", s > 0 and s or nil)
  G:set("mv_item", 0)
end

-- The move's item is destroyed.
function C.item_lost(G)
  local it = C.mv_item(G)
  if it == 0 then return end
  C.add_lost(G, C.item_value(G, it))
  C.discard(G, it)
  G:set("mv_item", 0)
  G:set("act", true)
end

-- The move's item is banked for team t.
function C.item_bank(G, t)
  local it = C.mv_item(G)
  if it == 0 then return end
  local v = C.item_value(G, it)
  C.add_bank(G, t, v)
  C.discard(G, it)
  G:set("mv_item", 0)
  G:set("act", true)
  G:log(C.team_name(t) .. " banks " .. v)
end

-- Ends the move in progress.
function C.end_move(G)
  G:set("mv_live", false)
end

-- c dies. fate of the move's item (when c is the mover): "start", "lost" or "stays". View V,
-- when given, follows.
function C.kill(G, c, fate, why, V)
  if c.id == G:get("mv_ch") and G:get("mv_live") then
    if fate == "lost" then C.item_lost(G)
    elseif fate == "stays" then G:set("mv_item", 0)
    else C.item_home(G) end
    C.end_move(G)
  end
  local from = c.loc
  C.retire(G, c.id, B.DEAD)
  C.retired(c, B.DEAD)
  if V then C.vrelocate(V, c, from) end
  G:log(c.label .. " dies" .. (why and (" (" .. why .. ")") or ""))
  G:stat("deaths")
end

-- c leaves the game (Friday or the missionary, §8); view V, when given, follows.
function C.leave(G, c, why, V)
  if c.id == G:get("mv_ch") and G:get("mv_live") then
    C.item_home(G)
    C.end_move(G)
  end
  local from = c.loc
  C.retire(G, c.id, B.GONE)
  C.retired(c, B.GONE)
  if V then C.vrelocate(V, c, from) end
  G:log(c.label .. " leaves the game" .. (why and (" (" .. why .. ")") or ""))
end

-- c is hit by attacker a (§5); view V follows.
function C.hit(G, V, c, a)
  if c.who == "fri" then
    C.set_team(G, c.id, a.team)
    C.clear_flags(G, c.id, c)
    c.team = a.team
    G:log("Fri joins " .. C.team_name(a.team))
    return
  end
  local from = c.loc
  local ship = V.ships[c.team] or 0
  if B.is_sea(from) then
    C.kill(G, c, "lost", "hit in the sea")
  elseif ship == 0 then
    C.kill(G, c, "lost", "no ship")
  else
    C.place(G, c, ship, 0, nil, true)
    G:log(c.label .. " is hit and goes to the " .. C.team_name(c.team) .. " ship")
    G:stat("hits")
  end
  C.vrelocate(V, c, from)
end

-- c boards the ship of team t (with the move's item banked, §4.2 rule 3); view V, when given,
-- follows.
function C.board(G, c, t, ships, V)
  C.place(G, c, ships[t], 0, V, true)
  if c.id == G:get("mv_ch") then
    C.item_bank(G, t)
    C.end_move(G)
  end
end

-- A new native owned by team t at l.
function C.add_native(G, who, t, l, step)
  local label = ({ ben = "Ben", fri = "Fri", mis = "Mis" })[who]
  return C.new_char(G, label, t, l, step)
end

-- Puts n coins on l.
function C.add_items(G, kind, l, n, step)
  for _ = 1, n do
    local p = G:add(kind, 0, l)
    if step and step > 0 then G:piece_set(p, "step", step) end
  end
end

------------------------------------------------------------------------------------------
-- The steps of a chain (§4.4, §12) wait on the kernel's pending stack (docs/lua-api.md).

-- Step `step` of the chain ("arrive", "land", "effect", "flip", "reveal", "done"): the hook
-- chain.<step> runs with `...` once everything pushed after it is resolved.
function C.push(G, step, ...)
  C.wait(G, { hook = "chain." .. step, args = { ... } })
end

-- Pushes continuation `entry` (G:push; tiles push through C.push, C.draw and C.ask). A move
-- that has not waited yet (prop mv_base false: its steps ran at once, see chain.lua) first
-- pushes chain.done under it, which ends the move once everything above is resolved.
function C.wait(G, entry)
  if G:get("mv_base") == false then
    G:set("mv_base", true)
    G:push({ hook = "chain.done" })
  end
  G:push(entry)
end

-- A chance event of tile `tile`'s own randomizer in the middle of a move at cell l: the
-- tile's on_draw(G, l, outcome, mover) hook gets the outcome and returns what on_arrive may
-- (a motion, "wait", or nothing to end the move). Returns "wait", for on_arrive to return.
function C.draw(G, tile, randomizer, l, why)
  C.wait(G, { hook = "chain.tile_draw", args = { tile, l }, chance = randomizer, why = why })
  return "wait"
end

-- What a decision asks, in words (prompts and the log say these, never the kind).
local QUESTIONS = {
  arrow_exit = "which arrow to follow", knight_target = "where to jump",
  plane_target = "where to fly", plane_wait = "whether to fly now",
  cave_exit = "which cave to come out of", cave_take = "whether to take the coin into the cave",
  quake_first = "which tile the earthquake moves", quake_second = "where the earthquake moves it",
  quake_turn = "how to turn the moved tile",
  lighthouse_pick = "which tiles the lighthouse shows", lighthouse_place = "where to put a tile back",
}

function C.question(kind)
  return QUESTIONS[kind] or (kind:gsub("_", " "))
end

-- A pending decision: `owner` is a tile name, or "move" for the engine's motion choices
-- (arrow_exit, knight_target, plane_target). Its options are listed when it is reached (see
-- chain.lua); a single option is taken at once, and with none the owner decides on nil. The
-- owner's seen_by hook may name the seats that see the options and the choice (a peek's).
-- The log tells why it waits in words: who, where, and what is asked.
function C.ask(G, owner, kind, cell, extra)
  local c = C.mover(G)
  local who = c and c.label or C.team_name(G:get("turn"))
  local why = string.format("%s at %s: %s", who, B.name(cell), C.question(kind))
  C.wait(G, { hook = "chain.answer", args = { owner, kind, cell or 0, tostring(extra or "-") },
           ask = "chain.ask", auto = true, none = "chain.no_option", why = why,
           seen_by = C.th(owner, "seen_by", G, kind) })
  return "wait"
end

------------------------------------------------------------------------------------------
-- Motions (§4.2): tables { to, type, dx, dy } returned by tile effects.

function C.motion(from, to, type)
  local fx, fy = B.xy(from)
  local tx, ty = B.xy(to)
  return { to = to, type = type, dx = tx - fx, dy = ty - fy }
end

-- The mover (a fresh record).
function C.mover(G)
  local p = G:get("mv_ch")
  if not p then return nil end
  return C.char(G, p)
end

-- Knight targets from l (§7.1 horse, switch horse_into_sea), in reading order.
function C.knight_cells(G, l)
  local mode = C.sw(G, "horse_into_sea")
  local ships = G:get("ships")
  local out = {}
  for i = 1, 8 do
    local t = B.add(l, B.KNIGHT[i][1], B.KNIGHT[i][2])
    if t then
      local ok = B.is_land(t) or mode == "yes" or (mode == "ships_only" and C.ship_team(ships, t))
      if ok then out[#out + 1] = t end
    end
  end
  return B.sort(out)
end

-- The tiles plane_targets = "no_transit" keeps flights off, by how they send the mover on
-- (their transit hook): ice, crocodile, horse.
local NO_FLIGHT = { ["repeat"] = true, back = true, jump = true }

-- Flight targets from l for character c (§7.2): land cells but l, own/allied ships.
function C.flight_cells(G, l, c)
  local out = {}
  local no_transit = C.sw(G, "plane_targets") == "no_transit"
  local ships, sides = G:get("ships"), G:get("sides")
  for i = 1, #B.ALL do
    local t = B.ALL[i]
    if B.is_land(t) then
      if t ~= l then
        local ok = true
        if no_transit then
          local tn = C.open_tile(G, t)
          if tn and NO_FLIGHT[C.th(tn, "transit", G, t)] then ok = false end
        end
        if ok then out[#out + 1] = t end
      end
    else
      local st = C.ship_team(ships, t)
      if st and C.allied_in(sides, c.team, st) then out[#out + 1] = t end
    end
  end
  return out
end

return C
