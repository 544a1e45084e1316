-- A turn (spec §6, §17): the spin, the player's actions (move, row, drift, fire, salvo,
-- repair, end), the chance events they wait for, and the passing of the turn. Prop "phase"
-- says golden (S1 chooses), play or over; the spins a turn waits for in its middle (the
-- weather, a hurricane's direction, a shot, a wreck's re-spin) are continuations on the
-- kernel's pending stack (docs/lua-api.md), so undo, save and replay work at every point.

local B = require("pirates.board")
local S = require("pirates.sail")
local K = require("pirates.combat")
local Gd = require("pirates.golden")
local P = require("pirates.players")
local W = require("pirates.weather")
local M = require("pirates.map")
local O = require("pirates.options")

local T = {}

-- Base hooks that house rules stack on (§15).
T.hooks = {}

-- §7 printed: a move goes its full distance (or stops short in a port it may enter).
function T.hooks.stop_short(G) return false end

-- §8: in a calm a brigantine may row one cell any way; galleons never row. The directions a
-- ship of `kind` may row in weather wx.
function T.hooks.row_dirs(G, kind, wx)
  if wx == W.CALM and kind == "brig" then return { 0, 1, 2, 3, 4, 5, 6, 7 } end
  return {}
end

-- §6.3 printed: in a wind turn every ship at sea with a legal sailing move must sail.
function T.hooks.must_sail(G) return true end

-- §9 case 2: a ship driven ashore is wrecked.
function T.hooks.drive_ashore(G, p) hook.shipwreck(G, p) end

-- A wrecked ship is removed; the golden one ends the game in a draw (§13 printed).
function T.hooks.shipwreck(G, p)
  local id = B.ship(G, p).id
  G:stat("shipwrecks")
  if Gd.id(G) == p then
    G:stat("golden_wrecked")
    Gd.finish(G, nil, "a draw: the golden galleon " .. id .. " was wrecked")
    return
  end
  G:log(id .. " is wrecked")
  B.remove(G, p)
  Gd.narrow(G)
  Gd.check_early_end(G)
end

-- A ship ended a manoeuvre, a carry or its turn (the trophy claim stacks here).
function T.hooks.settled(G, p) end

-- A hurricane blows from d for `what`: "weather" (the turn's, or ship p's with spin_scope
-- per_ship; p = 0 for the turn), or a house rule's own ("wreck").
function T.hooks.hurricane_dir(G, what, d, p)
  if p > 0 then
    B.update(G, p, "wx", W.HURRICANE + d)
  else
    G:set("wx", W.HURRICANE + d)
  end
  G:log("hurricane from " .. M.DIRS[d])
end

-- Continuations: the hurricane's direction drawn (chance "hdir") or chosen by an opponent.
function T.hooks.hurricane_drawn(G, outcome, what, p) hook.hurricane_dir(G, what, W.DIR[outcome[1]], p) end
function T.hooks.hurricane_chosen(G, label, what, p) hook.hurricane_dir(G, what, W.DIR[label], p) end

local function free(s) return not s.moved and not s.rep and not s.frozen end

-- Waits for a hurricane's direction (§5 hurricane_direction) on behalf of `what` (ship p).
function T.ask_direction(G, what, p)
  local how, spinner = G:get("sw_hurricane_direction", "sw_spinner")
  local fixed = how == "adjacent_sector" and W.adjacent_direction(spinner)
  if fixed then
    hook.hurricane_dir(G, what, fixed, p)
  elseif how == "opponent_choice" then
    local who = P.next_opponent(G, P.current(G))
    G:push({ hook = "hurricane_chosen", args = { what, p }, actor = who, options = M.DIRS_LIST,
      prompt = P.name(G, who) .. ": where does the hurricane blow from?", why = "the hurricane's direction" })
  else
    G:push({ hook = "hurricane_drawn", args = { what, p }, chance = "hdir", why = "the hurricane's direction" })
  end
end

-- Waits for a weather spin (§5, §6.1): the turn's (p = 0) or ship p's.
function T.ask_weather(G, p)
  G:push({ hook = "weather_spun", args = { p }, chance = "spin", weights = W.weights_of(G),
    why = p > 0 and "the weather of " .. B.ship(G, p).id or "the turn's weather" })
end

-- Starts the turn of the player at place i of the order, in round r.
function T.start_turn(G, i, r)
  local order = G:get("order")
  local seat = order[i]
  G:set("ti", i, "round", r, "wx", false, "shots", 0)
  G:set_current(seat)
  if G:get("sw_current_timing") == "start_of_turn" then
    local C = S.context(G, S.read(G))
    for _, s in ipairs(S.fleet(C, seat)) do
      if S.carry(G, C, s) then hook.settled(G, s.p) end
    end
  end
  if G:get("sw_spin_scope") == "per_turn" and G:get("phase") ~= "over" then T.ask_weather(G, 0) end
end

-- Passes the turn to the next player with a ship (§1); the end of round max_rounds is a draw.
function T.advance(G)
  local order, ti, round, maxr = G:get("order", "ti", "round", "sw_max_rounds")
  local i, r = ti, round
  for _ = 1, #order do
    i = i + 1
    if i > #order then
      i, r = 1, r + 1
      if maxr > 0 and r > maxr then
        Gd.finish(G, nil, "a draw: round " .. maxr .. " ended without a result")
        return
      end
    end
    if #G:pieces(order[i]) > 0 then
      T.start_turn(G, i, r)
      return
    end
  end
  Gd.finish(G, nil, "a draw: no player has a ship left")
end

-- `end` (§6.4): currents on the ships that made no manoeuvre, repairs, claims, next player.
-- C: the view with the ships as they are (S.view).
function T.end_turn(G, C)
  local seat = P.current(G)
  local ships = S.fleet(C, seat)
  local carry = C.sw.current_timing == "after_manoeuvre"
  for _, s in ipairs(ships) do
    if carry and not s.moved and not s.rep then S.carry(G, C, s) end
    if s.rep then B.update(G, s.p, "holes", s.holes - 1) end
  end
  for _, s in ipairs(ships) do
    if G:exists(s.p) then hook.settled(G, s.p) end
  end
  Gd.check_win(G)
  if G:get("phase") == "over" then return end
  B.new_turn(G)
  T.advance(G)
end

-- After a ship's manoeuvre: a win, then the current's carry (§10), then a claim.
-- (Only the golden ship can win, and only by entering a port, which a carry never reaches.)
local function after_manoeuvre(G, C, s)
  if S.in_port(C, s) and Gd.id(G) == s.p then
    Gd.check_win(G)
    if G:get("phase") == "over" then return end
  end
  if C.sw.current_timing == "after_manoeuvre" then S.carry(G, C, s) end
  hook.settled(G, s.p)
end

-- The compulsory drift of a hurricane (§9): every ship at once, then (continuations) the
-- ships driven ashore one by one, then currents and claims. C: the view with the ships as
-- they are (S.view).
local function drift(G, C)
  local seat, gw, per_ship = P.current(G), G:get("wx"), C.sw.spin_scope == "per_ship"
  if gw == false then gw = nil end
  local occ0 = {}
  for k, p in pairs(C.occ) do occ0[k] = p end
  local drifters, wrecks, targets, pinned = {}, {}, {}, {}
  for _, s in ipairs(S.fleet(C, seat)) do
    local wx = per_ship and s.wx or gw
    if free(s) and W.is_hurricane(wx) and not S.in_port(C, s) then
      local r = S.drift_target(C, s, wx - W.HURRICANE, occ0)
      -- Case 3: a ship in the way stays, and so does the one that would have hit it.
      if r == "blocked" then pinned[occ0[S.step(C, s.pos, (wx - W.HURRICANE + 4) % 8)]] = true end
      drifters[#drifters + 1] = s
      targets[#drifters] = r
    end
  end
  for i, s in ipairs(drifters) do
    local r = targets[i]
    if r == "wreck" then
      wrecks[#wrecks + 1] = s.p
    end
    if type(r) == "number" and not pinned[s.p] then
      S.go(G, C, s, r, "moved", true)
    else
      B.update(G, s.p, "moved", true)
    end
    drifters[i] = s.p
  end
  G:push({ hook = "drift_done", args = drifters, why = "currents and claims after the drift" })
  if #wrecks > 0 then G:push({ hook = "next_wreck", args = wrecks, why = "ships driven ashore" }) end
end

-- Continuation: the first of the ships driven ashore meets its fate, then the next.
function T.hooks.next_wreck(G, p, ...)
  if G:get("phase") == "over" then return end
  if select("#", ...) > 0 then G:push({ hook = "next_wreck", args = { ... }, why = "ships driven ashore" }) end
  hook.drive_ashore(G, p)
end

-- Continuation: after the drift and its wrecks, wins, currents and claims, lowest id first.
function T.hooks.drift_done(G, ...)
  local V = S.read(G)
  Gd.check_win(G)
  if G:get("phase") ~= "over" then
    S.context(G, V)
    local carry = V.sw.current_timing == "after_manoeuvre"
    for _, p in ipairs({ ... }) do
      if G:exists(p) then
        if carry then S.carry(G, V, B.ship(G, p)) end
        hook.settled(G, p)
      end
    end
    Gd.check_win(G)
  end
  return T.settle(G, V)
end

-- The options of the player in `seat` (§17.3), as integers (options.lua), in weather gw (nil:
-- unspun) after `shots` shots this turn; V is the view (sail.lua).
function T.act_options(G, V, seat, gw, shots)
  local C, sw = S.context(G, V), V.sw
  local per_ship, timing, per_ship_shots = sw.spin_scope == "per_ship", sw.fire_timing, sw.shots_per_turn == "per_ship"
  local out, shooters, drift_due, must = {}, {}, false, false
  local must_sail, short = hook.must_sail(G), hook.stop_short(G)
  local rows = {} -- hook.row_dirs by ship kind and weather, with the list as text
  for _, s in ipairs(S.fleet(C, seat, true)) do
    local wx = per_ship and s.wx or gw
    if free(s) then
      if per_ship and wx == nil then
        out[#out + 1] = O.ship(O.SPIN, s.p)
      elseif W.is_hurricane(wx) then
        drift_due = drift_due or not S.in_port(C, s)
      elseif wx ~= nil then
        local key = s.kind .. wx
        if not rows[key] then
          local dirs = hook.row_dirs(G, s.kind, wx)
          rows[key] = { dirs = dirs, text = table.concat(dirs, " ") }
        end
        local sail = S.ship_moves(C, s, W.is_wind(wx) and wx or nil, short, rows[key].dirs, rows[key].text, out)
        must = must or (must_sail and sail > 0 and not S.in_port(C, s))
      end
    end
    if K.may_fire(C, s, shots, timing, per_ship_shots) and (sw.fire_in_hurricane == "on" or not W.is_hurricane(wx)) then
      shooters[#shooters + 1] = s
    end
    if s.holes > 0 and free(s) and not s.fired and B.may_repair(S.terrain(C, s.pos), s.side) then
      out[#out + 1] = O.ship(O.REPAIR, s.p)
    end
  end
  if drift_due then out[#out + 1] = O.DRIFT end
  K.options(C, shooters, sw.salvo == "on", out)
  if not drift_due and not must then out[#out + 1] = O.END end
  return out
end

-- "P1 to act (wind NE)": made once per seat and weather in the view V.
local function prompt(G, V, seat, wx)
  local k = seat * 64 + (wx or 63)
  local text = V.prompts[k]
  if not text then
    text = P.name(G, seat) .. " to act (" .. W.text(wx) .. ")"
    V.prompts[k] = text
  end
  return text
end

-- The status (a query): with the view the last event kept, or the map and switches read
-- afresh (status_in reads the ships).
function T.status(G) return T.status_in(G, G:kept("view") or S.read(G)) end

-- The status, with the view V (sail.lua).
function T.status_in(G, V)
  local phase, wx, shots = G:get("phase", "wx", "shots")
  if phase == "over" then
    return { over = true, scores = G:get("scores"), result = G:get("result") }
  end
  if phase == "golden" then
    if G:get("sw_golden_choice") == "random" then
      return { chance = "golden", seen_by = P.spanish_seats(G) }
    end
    return { actor = 1, options = { "G1", "G2", "G3" }, prompt = "S1: choose the golden galleon",
      seen_by = P.spanish_seats(G) }
  end
  local seat = P.current(G)
  if wx == false then wx = nil end
  return { actor = seat, options = T.act_options(G, V, seat, wx, shots), prompt = prompt(G, V, seat, wx) }
end

-- The end of an event (an action, a chance event, a continuation) that read the view V: the
-- status that follows, found with V, which is kept for the next event; nothing while a
-- continuation waits (the kernel answers from it). A continuation reads the view afresh
-- (S.read): the kernel took it off the pending stack, a change, so no view kept before applies.
function T.settle(G, V)
  if #G:pending() > 0 then return nil end
  local st = T.status_in(G, V)
  G:keep("view", V)
  if hook.status ~= T.status then return hook.status(G) end
  return st
end

local VERB = { [O.MOVE] = "move", [O.ROW] = "row", [O.REPAIR] = "repair", [O.SPIN] = "spin" }

function T.label(G, o)
  local a = O.action(o)
  local function id(p) return B.ship(G, p).id end
  if a == O.DRIFT then return "drift" end
  if a == O.END then return "end" end
  if a == O.FIRE then
    local p, t = O.shot(o)
    return "fire " .. id(p) .. " " .. id(t)
  end
  if a == O.SALVO then
    local t, ships = O.salvo_args(o)
    local ids = {}
    for i, p in ipairs(ships) do ids[i] = id(p) end
    return "salvo " .. table.concat(ids, ",") .. " " .. id(t)
  end
  local p, d, n = O.args(o)
  if a == O.MOVE then return "move " .. id(p) .. " " .. M.DIRS[d] .. " " .. n end
  if a == O.ROW then return "row " .. id(p) .. " " .. M.DIRS[d] end
  return VERB[a] .. " " .. id(p)
end

-- The golden galleon is chosen (§3), then S1 spins.
local function golden_chosen(G, id)
  local s = B.find(G, id)
  Gd.set(G, s.p)
  G:set("phase", "play")
  T.start_turn(G, G:get("ti"), G:get("round"))
end

-- Applies an option; returns the status that follows (docs/lua-api.md, status), unless a
-- continuation waits (a spin, the drift's aftermath): the kernel answers from that instead.
function T.apply(G, o)
  local V = S.view(G)
  T.act(G, o, V)
  return T.settle(G, V)
end

function T.act(G, o, V)
  if G:get("phase") == "golden" then
    golden_chosen(G, o)
    return
  end
  local a = O.action(o)
  if a == O.END then
    T.end_turn(G, V)
  elseif a == O.SPIN then
    T.ask_weather(G, (O.args(o)))
  elseif a == O.MOVE or a == O.ROW then
    local p, d, n = O.args(o)
    local s = B.ship(G, p)
    local to = s.pos
    for _ = 1, n do to = S.step(V, to, d) end
    S.go(G, V, s, to, "moved", true)
    after_manoeuvre(G, V, s)
  elseif a == O.DRIFT then
    drift(G, V)
  elseif a == O.FIRE then
    local p, t = O.shot(o)
    K.declare(G, { p }, t)
  elseif a == O.SALVO then
    local t, ships = O.salvo_args(o)
    K.declare(G, ships, t)
  elseif a == O.REPAIR then
    B.update(G, (O.args(o)), "rep", true)
  end
end

-- Continuation: the weather spin (§5, §6.1) of the turn (p = 0) or of ship p.
function T.hooks.weather_spun(G, outcome, p)
  local V = S.read(G)
  local o = outcome[1]
  local wx = o == "calm" and W.CALM or W.DIR[o]
  if not wx then
    T.ask_direction(G, "weather", p)
  elseif p > 0 then
    B.update(G, p, "wx", wx)
  else
    G:set("wx", wx)
  end
  return T.settle(G, V)
end

-- Applies a chance outcome (the engine's choice of the golden galleon); returns the status
-- that follows.
function T.chance(G, name, outcome)
  local V = S.view(G)
  golden_chosen(G, outcome[1])
  return T.settle(G, V)
end

function T.hooks.shot_spun(G, outcome, target, ...)
  local V = S.read(G)
  K.shot_spun(G, outcome, target, ...)
  return T.settle(G, V)
end

-- A wreck's re-spin (a house rule's continuation; without the house rule none is pushed).
function T.hooks.wreck_spun(G, outcome, p)
  error("no rule re-spins for a wreck", 0)
end

return T
