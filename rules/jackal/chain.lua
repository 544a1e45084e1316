-- Jackal chains: the arrival procedure of §4.2, forced chains (§4.4), flips as chance events
-- and the decisions in the middle of a move (§12). Each step is a continuation on the
-- kernel's pending stack (docs/lua-api.md), so every waiting point is plain data (undo, save
-- and replay work there) and house rules stack on the steps' hooks (chain.<step>).
--
-- Steps (the top of the stack runs first):
--   chain.done                  under a move that waits: the main action is over
--   chain.arrive                the mover arrives at mv_at with motion mv_type/mv_dx/mv_dy
--   chain.land                  after the flip: place the mover, hit (rule 7), then effect
--   chain.effect                the tile effect (rule 8): the tile's on_arrive hook
--   chain.tile_draw(outcome, T, L)  a tile T's own chance event at L (core.draw): T's on_draw
--   chain.flip(L, by)           turn cell L face up (by = "move", "lighthouse" or "peek")
--   chain.drawn / chain.oriented(outcome, L, by)  after the deck / orientation chance event
--   chain.reveal(L, by)         the tile at L is now known: open it, call on_reveal
--   chain.answer(answer, owner, kind, L, extra)  a decision (core.ask); owner "move"
--                               (arrow_exit, knight_target, plane_target) or a tile name
--                               whose choices/decide hooks handle it
--
-- A step that would run as soon as it is pushed (nothing pushed after it, nothing left to do
-- in the hooks that run before it) runs at once instead, in the same call and with the same
-- view (see `hand_over`): that is what pushing it would do, as long as no house rule stacks
-- on a step and could act between the two. Only the steps that wait below a chance event or
-- a decision go on the stack, and chain.done under them when the move first waits (core.wait):
-- a move that never waits ends in the call that started it. arrive, land and effect take that
-- view as an argument the kernel never gives (it calls them with G alone), and return the view
-- of the state as the move left it when they know it (nothing else changed it since).

local B = require("jackal.board")
local C = require("jackal.core")
local W = require("jackal.words")

local H = {}

------------------------------------------------------------------------------------------
-- Handing over from step to step

-- The hooks a step may hand over from or to at once (chain.done and chain.ask are only ever
-- called by the kernel).
local HANDING = { "chain.arrive", "chain.land", "chain.effect", "chain.tile_draw", "chain.flip",
  "chain.drawn", "chain.oriented", "chain.reveal", "chain.answer", "chain.no_option" }

-- Whether no house rule stacks on a step that hands over (it could act after the step it
-- wraps, where a pushed step would come later).
local function own_steps()
  local hooks = hook -- (a global read goes through the environment's __index: read it once)
  for i = 1, #HANDING do
    if hooks[HANDING[i]] ~= H.hooks[HANDING[i]] then return false end
  end
  return true
end

-- Step `name` comes next, with `...`: run at once where pushing it would run it right away
-- (given view V, which must say what C.read_view would now, when it takes one); else pushed.
-- The caller returns what this returns, and does nothing after it.
local STEPS -- the steps by name (below)
local function hand_over(G, V, name, ...)
  if V and V.own_steps == nil then V.own_steps = own_steps() end
  if not (V and V.own_steps or not V and own_steps()) then return C.push(G, name, ...) end
  if V then return STEPS[name](G, V) end
  return STEPS[name](G, ...)
end

------------------------------------------------------------------------------------------
-- Starting and continuing a move

-- The move goes on with motion m = { to, type, dx, dy [, step] } from (prev, pstep); `...`:
-- more props to set in the same write (key, value pairs).
local function set_motion(G, m, prev, pstep, ...)
  G:set("mv_prev", prev, "mv_pstep", pstep or 0, "mv_at", m.to, "mv_step", m.step or 0,
    "mv_type", m.type, "mv_dx", m.dx or 0, "mv_dy", m.dy or 0, ...)
end

-- Continue the move with motion m from where it is, with view V of the state as it is.
function H.go(G, V, m)
  set_motion(G, m, G:get("mv_at", "mv_step"))
  return hand_over(G, V, "arrive")
end

-- The end of a move's chain: the main action is over. V: the view of the state, when known.
-- jackal.turns, which requires this module.
local T
when_loaded(function() T = require("jackal.turns") end)

local function done(G, V)
  if G:get("phase") ~= "move" then return end
  return T.action_done(G, V)
end

-- Starts a move of character c of view V, carrying item piece `item` (0 = none), with motion
-- m. `at_once`: nothing stacked on the action's hook acts after it (see hand_over). Returns
-- the status that follows when the move ended in this call.
function H.start(G, V, c, item, m, at_once)
  if V.own_steps == nil then V.own_steps = own_steps() end
  local direct = at_once and V.own_steps
  if c.trap then
    C.flag(G, c.id, "trap", false)
    c.trap = false
  end
  if not direct then G:push({ hook = "chain.done" }) end
  set_motion(G, m, c.loc, c.step or 0, "phase", "move", "mv_ch", c.id, "mv_item", item or 0,
    "mv_start", c.loc, "mv_sstep", c.step or 0, "mv_hit", false, "mv_live", true, "mv_fresh", 0,
    "mv_base", not direct)
  if not direct then return C.push(G, "arrive") end
  local after = hand_over(G, V, "arrive")
  if G:get("mv_base") then return nil end -- it waits: chain.done comes when all is resolved
  if #G:pending() > 0 then
    error("a continuation was pushed in the middle of a move without core.push, core.ask or core.draw", 0)
  end
  return done(G, after)
end

local MOVE_KEYS = { "mv_ch", "mv_item", "mv_start", "mv_sstep", "mv_at", "mv_step", "mv_prev",
  "mv_pstep", "mv_type", "mv_dx", "mv_dy", "mv_seen", "mv_hit", "mv_live", "mv_fresh", "mv_base" }

-- Forgets the move: all of it, or (at the end of an action) what a later move must not see.
function H.clear_move(G, all)
  if all then
    for i = 1, #MOVE_KEYS do G:set(MOVE_KEYS[i], nil) end
  else
    G:set("mv_live", false, "mv_seen", nil, "mv_item", 0, "mv_base", nil)
  end
end

------------------------------------------------------------------------------------------
-- The arrival procedure (§4.2)

-- Rule 1: whether the chain has come back to a state it was in (or, with loop_rule
-- fourth_visit, to a cell for the fourth time); records this visit: "<cell>:", then the
-- requested step and the vector (-12..12 each way) packed in one number (fewer numbers to
-- write out), then the motion type.
local function looped(G, V, l, req, mtype, dx, dy)
  local key = l .. ":" .. ((req * 32 + dx + 16) * 32 + dy + 16) .. mtype
  local seen = G:get("mv_seen") or {}
  if C.vsw(V, "loop_rule") == "fourth_visit" then
    local n = 0
    for i = 1, #seen do
      if string.match(seen[i], "^(%d+):") == tostring(l) then n = n + 1 end
    end
    if n >= 3 then return true end
  else
    for i = 1, #seen do
      if seen[i] == key then return true end
    end
  end
  seen[#seen + 1] = key
  G:set("mv_seen", seen)
  return false
end

local function arrive(G, V)
  local live, p, l, req, mtype, dx, dy, item =
    G:get("mv_live", "mv_ch", "mv_at", "mv_step", "mv_type", "mv_dx", "mv_dy", "mv_item")
  if not live then return end
  V = V or C.view(G)
  local c = C.vchar(V, p)
  req, dx, dy, item = req or 0, dx or 0, dy or 0, item or 0
  -- 1. Loop
  if looped(G, V, l, req, mtype, dx, dy) then
    C.kill(G, c, "start", "a loop", V)
    return V
  end
  -- 2. Forbidden
  local open = B.is_land(l) and C.vt(V, l) ~= nil
  local step = req
  if open and req == 0 then step = C.ventry_step(V, l, c) end
  if not hook.may_enter(G, V, c, l, step) then
    C.kill(G, c, "start", "a forbidden cell", V)
    return V
  end
  -- 3. Ship cell
  local st = C.ship_team(V.ships, l)
  if st then
    if C.allied_in(V.sides, c.team, st) then
      C.board(G, c, st, V.ships, V)
      G:log(c.label .. " boards the " .. C.team_name(st) .. " ship")
    else
      C.kill(G, c, "lost", "the " .. C.team_name(st) .. " ship", V)
    end
    return V
  end
  -- 4. Sea cell
  if B.is_sea(l) then
    if item ~= 0 then
      G:log("the item sinks")
      C.item_lost(G)
    end
    if mtype == "cannon" and C.vsw(V, "cannon_open_sea") == "die" then
      C.kill(G, c, "lost", "shot into the open sea", V)
      return V
    end
    local en = C.enemies_at(V, c, l, nil)
    if C.fighter(c) then
      for i = 1, #en do C.kill(G, en[i], "lost", "hit in the sea", V) end
    end
    C.place(G, c, l, 0, V, true)
    C.end_move(G)
    G:log(c.label .. " swims at " .. B.name(l))
    return V
  end
  -- 5. Item check
  if item ~= 0 then
    if not hook.may_carry(G, V, c, l, step) then
      C.item_home(G)
      G:log("the item stays at " .. B.name(G:get("mv_start")))
    end
  end
  -- 6. Flip
  if open then return hand_over(G, V, "land") end
  C.push(G, "land")
  G:set("mv_fresh", l)
  C.keep_view(G, V) -- for land, after the flip
  return hand_over(G, nil, "flip", l, "move")
end

-- Rule 7 and the meeting rules, after the cell is open.
local function land(G, V)
  local live, p, l, req, fresh, it = G:get("mv_live", "mv_ch", "mv_at", "mv_step", "mv_fresh", "mv_item")
  if not live then return end
  V = V or C.view(G)
  local c = C.vchar(V, p)
  req, it = req or 0, it or 0
  local step = req > 0 and req or C.ventry_step(V, l, c)
  -- A fresh spinner can put the mover on a step held by enemies: forbidden after all.
  if fresh == l and not hook.may_enter(G, V, c, l, step) then
    C.kill(G, c, "start", "a forbidden cell", V)
    return V
  end
  C.place(G, c, l, step, V)
  G:set("mv_step", step)
  if it ~= 0 then
    G:move(it, l)
    G:piece_set(it, "step", step > 0 and step or nil)
    G:set("act", true)
  end
  local victims = C.would_hit(G, V, c, l, step)
  if #victims > 0 then G:set("mv_hit", true) end
  for i = 1, #victims do C.hit(G, V, victims[i], c) end
  -- Friday meets the missionary (§8)
  if C.vsw(V, "friday_missionary_meet") == "both_leave" and (c.who == "fri" or C.sober_mis(c)) then
    local here = C.occupants(V, l, nil, c.id)
    for i = 1, #here do
      local o = here[i]
      if (c.who == "fri" and C.sober_mis(o)) or (C.sober_mis(c) and o.who == "fri") then
        C.leave(G, o, "Friday meets the missionary", V)
        C.leave(G, c, "Friday meets the missionary", V)
        return V
      end
    end
  end
  -- Unowned natives waiting here join the newcomer's team.
  local here = C.occupants(V, l, nil, c.id)
  for i = 1, #here do
    local o = here[i]
    if o.team == 0 and c.team ~= 0 then
      C.set_team(G, o.id, c.team)
      o.team = c.team
      G:log(o.label .. " joins " .. C.team_name(c.team))
    end
  end
  return hand_over(G, V, "effect")
end

-- What a tile effect returned: a motion (the move goes on), "wait" (a continuation it pushed
-- comes first), or nil, "rest" or "done" (the move ends here); anything else is the tile's
-- mistake, an error naming its file.
-- V: the view of the state as the effect left it (nil when not known, except for a motion).
---@param G G
---@param V table|false|nil
---@param res any
---@param tile string the tile whose hook returned res (its code)
---@param what string the hook
local function follow(G, V, res, tile, what)
  if type(res) == "table" then
    return H.go(G, V, res)
  elseif res == "wait" then
    return
  elseif res ~= nil and res ~= "rest" and res ~= "done" then
    -- a mistake in the tile, not a way to end a move: say so where it is
    local name = tiles[tile] and tiles[tile].name or tile
    error(
      ("jackal/tiles/%s.lua: %s returned %s %s, where it returns nil or \"rest\" (the move ends"
        .. ' here), "done", "wait" or a motion {to, type, dx, dy}'):format(
        name,
        what,
        type(res),
        tostring(res)
      ),
      0
    )
  end
  C.end_move(G)
  return V
end

-- Whether the move of c ends at l (tile t), where he may not stop (may_stop). V: the view as
-- the tile's effect left the state (nil: not known). The rules' own may_stop says no only on
-- a tile that sends him on: while nobody overrides it, nothing else needs asking.
local function may_not_stop(G, V, c, l, t)
  if hook.may_stop == C.may_stop and not C.th(t, "transit", G, l) then return false end
  V = V or C.read_view(G)
  c = C.vchar(V, c.id)
  return c ~= nil and c.loc == l and not hook.may_stop(G, V, c, l)
end

local function effect(G, V)
  local live, p, l, fresh = G:get("mv_live", "mv_ch", "mv_at", "mv_fresh")
  if not live then return end
  V = V or C.view(G)
  local c = C.vchar(V, p)
  local t = C.vt(V, l)
  -- the tile's hook may read the view (C.view): it is the state's as it is
  C.keep_view(G, V)
  local res = C.th(t, "on_arrive", G, l, c)
  -- the view as the tile left it: the same one when it changed nothing (mv_fresh is not in it)
  V = C.kept_view(G)
  if (res == nil or res == "rest") and may_not_stop(G, V, c, l, t) then
    C.kill(G, V and C.vchar(V, p) or C.mover(G), "start", "no stopping at " .. B.name(l), V)
    return V
  end
  if not V and type(res) == "table" then V = C.read_view(G) end
  if fresh == l then G:set("mv_fresh", 0) end
  return follow(G, V, res, t, "on_arrive")
end

-- The outcome of a tile's own randomizer (core.draw): the tile's on_draw hook says what follows.
local function tile_draw(G, outcome, tile, l)
  local res = C.th(tile, "on_draw", G, l, outcome, C.mover(G))
  follow(G, type(res) == "table" and C.view(G), res, tile, "on_draw")
end

------------------------------------------------------------------------------------------
-- Flips (§2): the deck and orientation are chance events

local function orientations(name)
  return C.th(name, "rotations") or 1
end

-- Waits for the chance event that tells what the tile at l is (draw) or how it lies (orient).
-- A peek's draw is seen by the peeking side only (§7.6).
local function wait_for(G, what, l, by)
  local hook = what == "deck" and "chain.drawn" or "chain.oriented"
  local seen_by = by == "peek" and C.ph("side_seats", G, G:get("turn")) or nil
  C.wait(G, { hook = hook, args = { l, by }, chance = what, why = "turning up " .. B.name(l), seen_by = seen_by })
end

local function flip(G, l, by)
  local t = C.tile(G, l)
  if t == nil then
    wait_for(G, "deck", l, by)
  elseif by == "peek" then
    return
  elseif C.rot(G, l) == nil and orientations(t) > 1 then
    wait_for(G, "orient", l, by)
  else
    return hand_over(G, nil, "reveal", l, by)
  end
end

-- `said`: the deck's and the orientation's draws already told the log what the tile is.
local function reveal(G, l, by, said)
  local t, r = C.set_open(G, l)
  G:set("act", true)
  G:stat("flips")
  if not said then G:log(W.turned_up(G, l, by, t, r)) end
  C.th(t, "on_reveal", G, l, by)
end

-- The deck gave the tile at l.
local function drawn(G, outcome, l, by)
  local t = outcome[1]
  local r = C.set_tile(G, l, t)
  if by == "peek" then
    G:log(B.name(l) .. " is seen")
    G:log(B.name(l) .. " is " .. W.tile(t), C.ph("side_seats", G, G:get("turn")))
  elseif orientations(t) > 1 then
    G:log(W.turned_up(G, l, by, t, r) .. " (which way it lies is drawn next)")
    wait_for(G, "orient", l, by)
  else
    return hand_over(G, nil, "reveal", l, by)
  end
end

-- The orientation draw turned the tile at l.
local function oriented(G, outcome, l, by)
  local t = C.tile(G, l)
  local r = outcome[1] % orientations(t)
  C.set_rot(G, l, r)
  G:log(B.name(l) .. ": " .. W.tile(t, r))
  return hand_over(G, nil, "reveal", l, by, true)
end

------------------------------------------------------------------------------------------
-- Decisions

-- The candidate cells of a motion decision, minus forbidden ones (§4.3), in reading order.
local function motion_cells(G, kind, l, c)
  local cells
  if kind == "arrow_exit" then
    cells = {}
    local exits = C.th(C.open_tile(G, l), "exits", G, l) or {}
    for i = 1, #exits do
      local d = B.DIRS[exits[i]]
      cells[#cells + 1] = B.add(l, d[1], d[2])
    end
    B.sort(cells)
  elseif kind == "knight_target" then
    cells = C.knight_cells(G, l)
  elseif kind == "plane_target" then
    cells = C.flight_cells(G, l, c)
  else
    error("unknown motion decision " .. kind)
  end
  local V = C.view(G)
  local out = {}
  for i = 1, #cells do
    local t = cells[i]
    local step = 0
    if C.vt(V, t) then step = C.ventry_step(V, t, c) end
    if hook.may_enter(G, V, c, t, step) then
      -- a flight never lands in the sea or on an enemy ship
      if kind ~= "plane_target" or B.is_land(t) or C.allied_in(V.sides, c.team, C.ship_team(V.ships, t) or 0) then
        out[#out + 1] = t
      end
    end
  end
  return out
end

local MOTION_TYPE = { arrow_exit = "step", knight_target = "knight", plane_target = "flight" }

-- Options of a decision (labels).
local function choices(G, owner, kind, l, extra)
  if owner == "move" then
    local cells = motion_cells(G, kind, l, C.mover(G))
    local out = {}
    for i = 1, #cells do out[i] = B.name(cells[i]) end
    return out
  end
  return C.th(owner, "choices", G, l, kind, extra) or {}
end

-- Answers a decision with `answer` (a label, or nil when there was no option).
local function answer(G, ans, owner, kind, l, extra)
  if owner == "move" then
    if ans == nil then
      C.kill(G, C.mover(G), "start", "no way out")
      return
    end
    H.go(G, C.view(G), C.motion(l, B.parse(ans), MOTION_TYPE[kind]))
    return
  end
  local res = C.th(owner, "decide", G, l, kind, extra, ans)
  -- what decide returns is followed as on_arrive's is; nil: the tile said what follows itself
  if res ~= nil then follow(G, type(res) == "table" and C.view(G), res, owner, "decide") end
end

-- The question shown for a decision, in words: the team, the pirate and the cell it is asked
-- at, and the tile's own question or the kind's.
local function prompt(G, owner, kind, l, extra)
  local custom = owner ~= "move" and C.th(owner, "prompt", G, l, kind, extra)
  local c = C.mover(G)
  local team = C.team_name(G:get("turn"))
  local who = c and team .. " " .. c.label or team
  return string.format("%s at %s: %s", who, B.name(l), custom or C.question(kind))
end

STEPS = { arrive = arrive, land = land, effect = effect, flip = flip, reveal = reveal }

-- The steps' hooks, for the game table: house rules stack on them like on any other.
H.hooks = {
  ["chain.done"] = done,
  -- (the kernel takes what a continuation returns for a status: not the view these return)
  ["chain.arrive"] = function(G) arrive(G) end,
  ["chain.land"] = function(G) land(G) end,
  ["chain.effect"] = function(G) effect(G) end,
  ["chain.tile_draw"] = tile_draw,
  ["chain.flip"] = flip,
  ["chain.drawn"] = drawn,
  ["chain.oriented"] = oriented,
  ["chain.reveal"] = reveal,
  ["chain.answer"] = answer,
  ["chain.no_option"] = function(G, owner, kind, l, extra) answer(G, nil, owner, kind, l, extra) end,
  ["chain.ask"] = function(G, owner, kind, l, extra)
    return { actor = C.controller(G, G:get("turn")), options = choices(G, owner, kind, l, extra),
             prompt = prompt(G, owner, kind, l, extra) }
  end,
}

------------------------------------------------------------------------------------------
-- Tile tokens (§14), also used in logs

function H.token(G, l)
  if not B.is_land(l) then return "~" end
  local t, open, r, spent = C.cell(G, l)
  if t == nil then return "#" end
  local code = C.th(t, "code", G, l, r) or (t == "empty" and "." or t)
  if not open then return "#" .. code end
  if spent then code = code .. "-" end
  return code
end

return H
