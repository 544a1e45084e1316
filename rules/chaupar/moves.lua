-- Moves (spec §7–§13): which units may move how far, entering, passing blocks, landing,
-- capture by rank, castles and the exact finish, over a board read from the kernel once per
-- event (the "view"); and the plan search of §8 that filters a long-dice throw's actions
-- (compulsory entry, then the most dice used).
--
-- Pieces are kernel pieces 1..16: colour c owns 4c-3 .. 4c. The view holds each piece's route
-- index (0 waiting, 1..83 on the board, 84 home). An action is an integer: group g (its place in
-- throws.GROUPS[key], 0 for a cowrie value) + 8·j (pieces moving) + 64·i (route index; 0 =
-- enter) + 8192·t (target index) + 2^20 when triple_stack_bonus doubles the die + 2^21·(the
-- dice of a summed group stepped one by one, 3 bits each, in their order) with
-- sum_touches_intermediate + 2^30·(c − 1) for the colour c it plays. A turn plays one colour,
-- or with two_player_throw=shared both colours of its player (a list of colours `cs`).

local B = require("chaupar.board")
local T = require("chaupar.throws")
local P = require("chaupar.pieces")

local M = {}

local HOME, LAST = B.HOME, B.LAST
local TEAM, PARTNER = B.TEAM, B.PARTNER

-- The board as the rules see it: V.at[p] the route index of piece p, V.wait[c] and V.home[c]
-- the counts of colour c; sw the switch values; V.stops, V.ranks, V.foes and V.units caches
-- of what obstructs a colour, of a team's ranks, of what opposes it and of its units (false
-- until computed; made as arrays of four, so that each entry sits in the array part). V.killed
-- (per colour: has it captured) is read only for kill_before_home, and false otherwise; V.round
-- with kill_before_home=round. V.turn is for turns.lua (the turn's props, read with the board).
-- V.safe: whether a house rule overrides the `safe` hook (else the castles alone are safe).
function M.view(G, sw)
  local at = P.board(G)
  local wait, home = { 0, 0, 0, 0 }, { 0, 0, 0, 0 }
  for p = 1, 16 do
    local i = at[p]
    if i == 0 then
      local c = (p + 3) // 4
      wait[c] = wait[c] + 1
    elseif i == HOME then
      local c = (p + 3) // 4
      home[c] = home[c] + 1
    end
  end
  local dir = sw.direction
  return {
    at = at, wait = wait, home = home, sw = sw,
    route = B.ROUTE[dir], on = B.AT[dir], castles = B.CASTLE[sw.castle_set], safe = hook.safe ~= M.safe,
    killed = sw.kill_before_home ~= "off" and G:get("killed"), round = sw.kill_before_home == "round",
    stops = { false, false, false, false }, ranks = { false, false, false, false },
    foes = { false, false, false, false }, units = { false, false, false, false },
    captures = 0, memo = false, turn = false,
    stack = sw.block_model == "stack", team_rank = sw.block_form_by == "team",
  }
end

-- How many pieces of colour c stand at route index i.
function M.count(V, c, i)
  local at, n = V.at, 0
  for p = 4 * c - 3, 4 * c do if at[p] == i then n = n + 1 end end
  return n
end

-- Pieces of colour o on square q, per route position (o's own m8 may hold two positions).
local function counts_at(V, o, q)
  local list = V.on[o][q]
  if not list then return 0, 0 end
  local i1, i2 = list[1], list[2] or -1
  local at, a, b = V.at, 0, 0
  for p = 4 * o - 3, 4 * o do
    local x = at[p]
    if x == i1 then a = a + 1 elseif x == i2 then b = b + 1 end
  end
  return a, b
end

-- An empty list with room for four units (i, k pairs), made at once: a list grown from empty
-- is moved four times on the way.
local function unit_list() return { nil, nil, nil, nil, nil, nil, nil, nil } end

-- Colour c's positions on the board with their piece counts, as a list i, k, i, k, … in the
-- order of c's pieces. Kept in V.units[c] until c's pieces move.
local function units(V, c)
  local list = V.units[c]
  if list then return list end
  list = unit_list()
  local at = V.at
  for p = 4 * c - 3, 4 * c do
    local i = at[p]
    if i > 0 and i < HOME then
      local n, x = 1, list[1] -- the unit at i, if an earlier piece of c is there, else a new one
      while x and x ~= i do
        n = n + 2
        x = list[n]
      end
      if x then list[n + 1] = list[n + 1] + 1 else list[n], list[n + 1] = i, 1 end
    end
  end
  V.units[c] = list
  return list
end

-- With block_form_by=team, the rank of team x on each square it holds (§10): how many of the
-- team's pieces stand there, partners' pieces adding up; a map square → rank. Kept in
-- V.ranks[x] until the team's pieces move. (Else a unit's rank is its own piece count.)
local function team_ranks(V, x)
  local map = V.ranks[x]
  if map then return map end
  map = {}
  local at, route = V.at, V.route
  for o = 1, 4 do
    if TEAM[o] == x then
      for p = 4 * o - 3, 4 * o do
        local i = at[p]
        if i > 0 and i < HOME then
          local q = route[o][i]
          map[q] = (map[q] or 0) + 1
        end
      end
    end
  end
  V.ranks[x] = map
  return map
end

-- The two colours that oppose colour c.
local OPPONENTS = { { 2, 4 }, { 1, 3 }, { 2, 4 }, { 1, 3 } }

-- The `safe` hook (§12): whether a unit of k pieces of colour o on square q is safe from
-- capture, so that no opponent may land there (with castle_function=shared one may, capturing
-- nothing). The rules' own answer: q is a castle. The move search asks an override on the board
-- before a move and trusts the answer for the rest of the throw (see `monotone`), so it may
-- read only its arguments.
function M.safe(sw, o, q, k)
  return B.CASTLE[sw.castle_set][q] == true
end

-- Whether colour o's pieces on square q, a on its first route position there and b on its
-- second (counts_at), are safe: the `safe` hook asked for each unit.
local function safe_on(V, o, q, a, b)
  return (a > 0 and hook.safe(V.sw, o, q, a)) or (b > 0 and hook.safe(V.sw, o, q, b)) or false
end

-- Whether the opposing pieces on square q are safe from colour c: a castle, or where a house
-- rule overrides the `safe` hook, what it says of either opposing colour there.
local function sheltered(V, c, q)
  if not V.safe then return V.castles[q] end
  local them = OPPONENTS[c]
  local o1, o2 = them[1], them[2]
  return safe_on(V, o1, q, counts_at(V, o1, q)) or safe_on(V, o2, q, counts_at(V, o2, q))
end

-- Whether pieces of both teams may stand together on square q: with castle_function=shared,
-- where the pieces of one of them are safe (§12).
function M.shared(V, q)
  if V.sw.castle_function ~= "shared" then return false end
  if not V.safe then return V.castles[q] == true end
  for o = 1, 4 do
    if safe_on(V, o, q, counts_at(V, o, q)) then return true end
  end
  return false
end

-- The places on colour c's route that stop a unit passing (§10 block_passing): a list of
-- route index, rank, … for every block of rank 2 or more (a lone piece stops nobody),
-- opposing ones only unless block_passing=all (a place may be listed more than once, with the
-- rank of each unit there). Kept in V.stops[c] until pieces change.
local function stops(V, c)
  local list = V.stops[c]
  if list then return list end
  list = {}
  local sw = V.sw
  if sw.block_passing ~= "none" and V.stack then
    local all, on = sw.block_passing == "all", V.on[c]
    for o = 1, 4 do
      if all or TEAM[o] ~= TEAM[c] then
        local summed = V.team_rank and team_ranks(V, TEAM[o])
        local held, route = V.units[o] or units(V, o), V.route[o]
        for n = 1, #held, 2 do
          local q = route[held[n]]
          local r, mine = summed and summed[q] or held[n + 1], on[q]
          if r >= 2 and mine then
            for k = 1, #mine do
              list[#list + 1] = mine[k]
              list[#list + 1] = r
            end
          end
        end
      end
    end
  end
  V.stops[c] = list
  return list
end

-- The squares holding pieces that oppose colour c, each with the rank of the strongest
-- opposing unit there: a map square → rank. Kept in V.foes[team] until those pieces move.
local function foes(V, c)
  local team = TEAM[c]
  local map = V.foes[team]
  if map then return map end
  if V.team_rank then
    map = team_ranks(V, 3 - team)
  else
    map = {}
    for n = 1, 2 do
      local o = OPPONENTS[c][n]
      local held, route = V.units[o] or units(V, o), V.route[o]
      for x = 1, #held, 2 do
        local q, k = route[held[x]], held[x + 1]
        if k > (map[q] or 0) then map[q] = k end
      end
    end
  end
  V.foes[team] = map
  return map
end

-- How far one lap of the outer squares is: X.l8 (index 75) is followed by X.m8 (index 8, the
-- square of 76) and X.r8 (index 9) for a piece that goes round again.
local LAP = 68

-- The route index s steps on from index i for colour c, or nil where kill_before_home bars
-- the way: a colour that has not captured may not turn home past X.l8 (§15); with `round` it
-- goes round again instead. (fast_actions inlines this.)
local function ahead(V, c, i, s)
  local t = i + s
  if V.killed and i <= 75 and t >= 76 and not V.killed[c] then
    return V.round and t - LAP or nil
  end
  return t
end

-- Whether a move that went round, from index i on to index t (t < i), passes index x: the
-- rest of the lap after i, then the squares from X.m8 (8) up to t, never the homeward run.
local function passes_round(i, t, x)
  return (x > i and x <= 75) or (x >= 8 and x < t)
end

-- Target index of j pieces of colour c moving s from index i, or nil when illegal.
function M.target(V, c, i, j, s)
  local t = ahead(V, c, i, s)
  if not t then return nil end
  if t > HOME then
    if V.sw.exact_finish == "on" then return nil end
    t = HOME
  end
  local round = t < i
  local list = V.stops[c] or stops(V, c)
  for k = 1, #list, 2 do
    local x = list[k]
    if list[k + 1] > j and ((x > i and x < t) or (round and passes_round(i, t, x))) then return nil end
  end
  if t == HOME then return t end
  -- landing (§10, §11, §12): on no opposing unit of a higher rank, on no castle they hold
  local q = V.route[c][t]
  local r = (V.foes[TEAM[c]] or foes(V, c))[q]
  if not r then return t end
  if V.stack and r > j then return nil end
  if V.sw.castle_function ~= "shared" and sheltered(V, c, q) then return nil end
  return t
end

-- How many pieces may move together from a position holding k (§10 blocks_split, block_model).
local function most(V, k)
  if not V.stack then return 1, 1 end
  if V.sw.blocks_split == "off" then return k, k end
  return 1, k
end

local play_view, undo_view

-- Colour c's pieces moved (and `captured` some): forgets what that changes in the caches (c's
-- units, its team's ranks, the other team's foes and stops), and after a capture everything.
local function forget(V, c, captured)
  V.units[c], V.ranks[TEAM[c]], V.foes[3 - TEAM[c]] = false, false, false
  if captured or V.sw.block_passing == "all" then
    V.stops, V.ranks = { false, false, false, false }, { false, false, false, false }
    V.units, V.foes = { false, false, false, false }, { false, false, false, false }
    return
  end
  V.stops[PARTNER[c] % 4 + 1], V.stops[c % 4 + 1] = false, false
end

-- The dice an action steps through (sum_touches_intermediate), as a list, or nil.
local function steps_of(a)
  local packed = (a >> 21) & 511
  if packed == 0 then return nil end
  local out = {}
  while packed > 0 do
    out[#out + 1] = packed & 7
    packed = packed >> 3
  end
  return out
end

-- Target of j pieces of colour c stepping from index i through the dice of `order`, each step
-- a full move (§8 sum_touches_intermediate=true), or nil when a step is illegal.
local function stepped_target(V, c, i, j, order)
  local cur, done, ok = i, {}, true
  for k = 1, #order do
    local t = M.target(V, c, cur, j, order[k])
    if not t or (t == HOME and k < #order) then
      ok = false
      break
    end
    local a = ((c - 1) << 30) + 8 * j + 64 * cur + 8192 * t
    local moved, captured = play_view(V, c, a, 0)
    done[#done + 1] = { a, moved, captured }
    cur = t
  end
  for k = #done, 1, -1 do undo_view(V, c, done[k][1], done[k][2], done[k][3]) end
  return ok and cur or nil
end

-- The bits of an order of dice in an action.
local function order_bits(order)
  local packed = 0
  for k = #order, 1, -1 do packed = packed << 3 | order[k] end
  return packed << 21
end

-- Calls visit(a) for each move of colour c's units by s (group g), one per unit (i, j), until
-- visit returns true; returns whether it did. `bonus`: a block of 3 may also move 2s;
-- `orders`: the group is stepped die by die, in each of these orders.
local function each_move(V, c, g, s, bonus, visit, orders)
  local list = V.units[c] or units(V, c)
  for n = 1, #list, 2 do
    local i, k = list[n], list[n + 1]
    local lo, hi = 1, 1 -- how many pieces may move together (most below)
    if V.stack then
      hi = k
      if V.sw.blocks_split == "off" then lo = k end
    end
    for j = lo, hi do
      if orders then
        for _, order in ipairs(orders) do
          local t = stepped_target(V, c, i, j, order)
          if t and visit(g + 8 * j + 64 * i + 8192 * t + order_bits(order)) then return true end
        end
      else
        local t = M.target(V, c, i, j, s)
        if t and visit(g + 8 * j + 64 * i + 8192 * t) then return true end
      end
    end
    if bonus and k == 3 and hi == 3 then
      local t = M.target(V, c, i, 3, 2 * s)
      if t and visit(g + 24 + 64 * i + 8192 * t + (1 << 20)) then return true end
    end
  end
  return false
end

M.steps_of = steps_of

-- Group, pieces, from and to of action a; and the colour it plays.
function M.decode(a)
  return a & 7, (a >> 3) & 7, (a >> 6) & 127, (a >> 13) & 127
end
function M.colour(a) return ((a >> 30) & 3) + 1 end

-- The bits that name colour c in an action.
local function colour_bits(c) return (c - 1) << 30 end

-- Plays action a for colour c on the view (entering at index `entry`); returns the pieces
-- moved (a bit set of piece numbers) and the captured pieces with their indices (p, i, …) or
-- nil, for undo. A stepped action returns -1 and the undo records of its steps.
play_view = function(V, c, a, entry)
  local order = steps_of(a)
  if order then
    local j, cur, done = (a >> 3) & 7, (a >> 6) & 127, {}
    for k = 1, #order do
      local t = ahead(V, c, cur, order[k])
      local step = colour_bits(c) + 8 * j + 64 * cur + 8192 * t
      local moved, captured = play_view(V, c, step, entry)
      done[k] = { step, moved, captured }
      cur = t
    end
    return -1, done
  end
  local j, i, t = (a >> 3) & 7, (a >> 6) & 127, (a >> 13) & 127
  local at, first = V.at, 4 * c - 3
  local moved, captured = 0, nil
  if i == 0 then
    for p = first, first + 3 do
      if at[p] == 0 then
        at[p] = entry
        moved = 1 << p
        break
      end
    end
    V.wait[c] = V.wait[c] - 1
  else
    local n = 0
    for p = first, first + 3 do
      if n < j and at[p] == i then
        at[p] = t
        moved, n = moved | (1 << p), n + 1
      end
    end
    if t == HOME then
      V.home[c] = V.home[c] + j
    else
      local q = V.route[c][t]
      if (V.safe or not V.castles[q]) and (V.foes[TEAM[c]] or foes(V, c))[q] then
        for o = 1, 4 do
          if TEAM[o] ~= TEAM[c] then
            local a1, b1 = counts_at(V, o, q)
            if a1 + b1 > 0 and (V.sw.block_model ~= "immune_pairs" or a1 + b1 == 1)
              and not (V.safe and safe_on(V, o, q, a1, b1)) then
              for p = 4 * o - 3, 4 * o do
                local x = at[p]
                if x > 0 and x < HOME and V.route[o][x] == q then
                  captured = captured or {}
                  captured[#captured + 1] = p
                  captured[#captured + 1] = x
                  at[p] = 0
                  V.wait[o] = V.wait[o] + 1
                end
              end
            end
          end
        end
        if captured then
          V.captures = V.captures + 1
          if V.killed and not V.killed[c] then -- the colour may turn home from now on
            V.killed[c], captured.opened = true, true
          end
        end
      end
    end
  end
  forget(V, c, captured)
  return moved, captured
end

undo_view = function(V, c, a, moved, captured)
  if moved == -1 then
    for k = #captured, 1, -1 do undo_view(V, c, captured[k][1], captured[k][2], captured[k][3]) end
    return
  end
  local j, i, t = (a >> 3) & 7, (a >> 6) & 127, (a >> 13) & 127
  local at = V.at
  for p = 4 * c - 3, 4 * c do
    if moved & (1 << p) ~= 0 then at[p] = i end
  end
  if i == 0 then
    V.wait[c] = V.wait[c] + 1
  elseif t == HOME then
    V.home[c] = V.home[c] - j
  end
  if captured then
    V.captures = V.captures - 1
    if captured.opened then V.killed[c] = false end
    for k = 1, #captured, 2 do
      local p = captured[k]
      at[p] = captured[k + 1]
      V.wait[(p + 3) // 4] = V.wait[(p + 3) // 4] - 1
    end
  end
  forget(V, c, captured)
end

------------------------------------------------------------------------------------------
-- Long dice (§7, §8)

-- Calls visit(a) for each action of the colours cs with the unused dice `key`, `entries`
-- pieces entered so far in this throw, until visit returns true. `triple`: the throw was three
-- equal dice (§15 triple_stack_bonus).
local function each_dice_action(V, cs, key, entries, entry, triple, visit)
  local groups, sw = T.GROUPS[key], V.sw
  local bonus = triple and sw.triple_stack_bonus == "on" and V.stack
  local may_enter = entries == 0 or sw.multi_entry == "on"
  local stepped = sw.sum_touches_intermediate
  for g = 1, #groups do
    local grp = groups[g]
    local orders = stepped and grp.size > 1 and T.ORDERS[grp.key] or nil
    for n = 1, #cs do
      local c = cs[n]
      local gc = g + colour_bits(c)
      if may_enter and V.wait[c] > 0 and grp.sum == entry and visit(gc) then return true end
      if each_move(V, c, gc, grp.sum, bonus and grp.size == 1, visit, orders) then return true end
    end
  end
  return false
end

function M.dice_actions(V, cs, key, entries, entry, triple)
  local out = {}
  each_dice_action(V, cs, key, entries, entry, triple, function(a) out[#out + 1] = a end)
  return out
end

-- Score of a complete plan for the filters of §7 (entry_compulsory) and §8 (forced_play).
local function score(sw, entries, used)
  local rule = sw.entry_compulsory
  if rule == "at_least_one" then return (entries > 0 and 16 or 0) + used end
  if rule == "maximal" then return entries * 16 + used end
  return used
end

-- Colour c's four route indices, sorted, as one number.
local function sorted_indices(at, c)
  local p = 4 * c - 3
  local a, b, x, d = at[p], at[p + 1], at[p + 2], at[p + 3]
  if a > b then a, b = b, a end
  if x > d then x, d = d, x end
  if a > x then a, x = x, a end
  if b > d then b, d = d, b end
  if b > x then b, x = x, b end
  return ((a * 128 + b) * 128 + x) * 128 + d
end

-- A key naming the search state: the pieces of the colours cs, the dice left and the entries
-- made; valid while no capture has changed the other colours (V.captures == 0).
local function state_key(V, cs, key, entries)
  local k = (sorted_indices(V.at, cs[1]) * 1024 + key) * 8 + entries
  if cs[2] then return k .. "/" .. sorted_indices(V.at, cs[2]) end
  return k
end

-- The best score any completion reaches after action a (stops at `cap`, a bound nothing beats).
local best, bound
local function after(V, cs, key, entries, used, entry, triple, cap, a)
  local g, c = T.GROUPS[key][a & 7], M.colour(a)
  local moved, captured = play_view(V, c, a, entry)
  local e = (a >> 6) & 127 == 0 and entries + 1 or entries
  local v = best(V, cs, g.rest, e, used + g.size, entry, triple, cap)
  undo_view(V, c, a, moved, captured)
  return v
end

best = function(V, cs, key, entries, used, entry, triple, cap)
  if key == 0 then return score(V.sw, entries, used) end
  local memo = V.captures == 0 and state_key(V, cs, key, entries)
  if memo and not V.memo then V.memo = {} end
  local known = memo and V.memo[memo]
  if known then return known end
  -- nothing from here scores more than bound: a plan that reaches it ends the search
  local goal = bound(V, cs, key, entries, used, entry)
  if goal > cap then goal = cap end
  local top = -1
  each_dice_action(V, cs, key, entries, entry, triple, function(a)
    local v = after(V, cs, key, entries, used, entry, triple, cap, a)
    if v > top then top = v end
    return top >= goal
  end)
  if top < 0 then top = score(V.sw, entries, used) end
  if memo then V.memo[memo] = top end
  return top
end

-- The most entries the dice of `key` can still make: as many as they hold groups for, as
-- wait, and one a throw with multi_entry=off.
local function entries_left(V, cs, key, entries, entry)
  local waiting = V.wait[cs[1]] + (cs[2] and V.wait[cs[2]] or 0)
  local more = waiting > 0 and T.ENTRIES[entry][key] or 0
  local most = waiting
  if V.sw.multi_entry ~= "on" then
    local one = entries == 0 and 1 or 0
    if most > one then most = one end
  end
  if more > most then more = most end
  return more
end

-- A bound on the score from here: every die used, as many entries as the dice allow.
bound = function(V, cs, key, entries, used, entry)
  local more = entries_left(V, cs, key, entries, entry)
  return score(V.sw, entries + more, used + T.SIZE[key])
end

-- The fast path of `offered`: a proof, from the board before the action, that a complete plan
-- using every die (with an entry if one is owed) starts with action a. It rests on one fact of
-- these rules: a move never makes another unit's move illegal (it only adds own pieces, which
-- obstruct nobody, and removes opposing ones, of which an override of `safe` says of those
-- left what it said before), so single-die moves legal now stay legal for the pieces that
-- action a leaves where they are. It holds unless block_passing=all (own blocks obstruct), or
-- kill_before_home=round for a colour yet to capture (its first capture turns a move that went
-- round into one past home), and it is used only where `offered` would look for plans of the
-- most dice, for one colour (with entry_compulsory=maximal: where the dice left can make no
-- entry, or one as the first of the throw, which is what at_least_one asks).
local function monotone(V, cs, key, entries, entry, triple)
  local sw = V.sw
  if cs[2] or sw.block_passing == "all" or sw.forced_play ~= "max_dice" or sw.sum_touches_intermediate
    or (triple and sw.triple_stack_bonus == "on") or (V.round and not V.killed[cs[1]]) then
    return false
  end
  if sw.entry_compulsory ~= "maximal" then return true end
  local more = entries_left(V, cs, key, entries, entry)
  return more == 0 or (more == 1 and entries == 0)
end

-- Colour c's positions from which one piece may move d now, each with its piece count: a
-- list i, k, i, k, … (built on demand, per die, and kept in cache[d]).
local function movers(V, c, d, cache)
  local list = unit_list()
  local all = V.units[c] or units(V, c)
  for n = 1, #all, 2 do
    if M.target(V, c, all[n], 1, d) then
      list[#list + 1] = all[n]
      list[#list + 1] = all[n + 1]
    end
  end
  cache[d] = list
  return list
end

-- Whether each die of `key` (at most two) can be moved by a piece of its own, pieces taken
-- from where they stand now except `gone` pieces taken from index `from`. (The pieces left at
-- entry x of a movers list: list[x + 1], less `gone` where list[x] is `from`.) Two dice go to
-- one unit only where it may split (§10 blocks_split): a block that moves whole takes one die
-- from where it stands, and its second move, from where the first ends, is not proven here.
local function assign(V, c, key, from, gone, cache)
  if key == 0 then return true end
  local dice = T.DICE[key]
  if #dice > 2 then return false end
  local first = cache[dice[1]] or movers(V, c, dice[1], cache)
  if #dice == 1 then
    for x = 1, #first, 2 do
      if first[x] ~= from or first[x + 1] > gone then return true end
    end
    return false
  end
  local second = cache[dice[2]] or movers(V, c, dice[2], cache)
  local splits = not (V.stack and V.sw.blocks_split == "off")
  for x = 1, #first, 2 do
    local i1, f1 = first[x], first[x + 1]
    if i1 == from then f1 = f1 - gone end
    if f1 > 0 then
      for y = 1, #second, 2 do
        local i2 = second[y]
        if i1 == i2 then
          if f1 > 1 and splits then return true end
        elseif i2 ~= from or second[y + 1] > gone then
          return true
        end
      end
    end
  end
  return false
end

-- The fast path's actions: M.dice_actions for one colour c where `monotone` holds (no triple
-- bonus, no stepped sums), in the same order, with M.target's test taken apart into what does
-- not depend on how many pieces move (the target, or none) and the fewest that may (to pass the
-- blocks on the way and to land), so that each unit is tested once per group. On the way it
-- fills `cache` with the movers list of every die of the throw (each die is a group of its own).
local function fast_actions(V, c, key, entries, entry, cache)
  local sw, groups = V.sw, T.GROUPS[key]
  local list = V.units[c] or units(V, c)
  local blocks = V.stops[c] or stops(V, c)
  local land = V.foes[TEAM[c]] or foes(V, c)
  local route, stack = V.route[c], V.stack
  local exact, shared_castles = sw.exact_finish == "on", sw.castle_function == "shared"
  local barred = V.killed and not V.killed[c] -- no stepping onto index 76 yet
  local round = V.round -- … but going round again
  local whole = stack and sw.blocks_split == "off" -- a block moves whole
  local may_enter = (entries == 0 or sw.multi_entry == "on") and V.wait[c] > 0
  local out = { nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil } -- room for 16
  local m, nblocks, bits = 0, #blocks, colour_bits(c)
  for g = 1, #groups do
    local grp = groups[g]
    local s, gc = grp.sum, g + bits
    local one, ones = grp.size == 1 and unit_list() or nil, 0 -- the movers list of die s
    if may_enter and s == entry then
      m = m + 1
      out[m] = gc
    end
    for n = 1, #list, 2 do
      local i, k = list[n], list[n + 1]
      local t, need = i + s, 1
      if barred and i <= 75 and t >= 76 then t = round and t - LAP or nil end -- ahead
      if t and t > HOME then t = (not exact) and HOME or nil end
      if t then
        local lapped = t < i
        for x = 1, nblocks, 2 do
          local y = blocks[x]
          if blocks[x + 1] > need and ((y > i and y < t) or (lapped and passes_round(i, t, y))) then
            need = blocks[x + 1]
          end
        end
        if t ~= HOME then
          local q = route[t]
          local r = land[q]
          if r then
            if stack and r > need then need = r end
            if not shared_castles and sheltered(V, c, q) then t = nil end
          end
        end
      end
      if t then
        local lo, hi = 1, 1
        if stack then hi = k end
        if whole then lo = k end
        if lo < need then lo = need end
        local base = gc + 64 * i + 8192 * t
        for j = lo, hi do
          m = m + 1
          out[m] = base + 8 * j
        end
        if one and need <= 1 then
          one[ones + 1], one[ones + 2], ones = i, k, ones + 2
        end
      end
    end
    if one then cache[s] = one end
  end
  return out
end
M.fast_actions = fast_actions

-- Whether a plan reaching `cap` must still enter a piece (§7 at_least_one, or maximal where
-- the fast path serves it: a plan that enters scores 16 more), none having entered with this
-- throw yet.
local function entry_due(sw, entries, cap)
  return sw.entry_compulsory ~= "off" and cap >= 16 and entries == 0
end

-- Where n pieces of colour c that an action brought to index t (with `whole`: and every piece
-- of c there, a block that moves whole) can go on to by d, and how many go; nil when they
-- cannot (from home, or by the board before the action: a move legal there stays legal after
-- it, see `monotone`).
local function onward(V, c, t, n, d, whole)
  if t == HOME then return nil end
  if whole then n = n + M.count(V, c, t) end
  local t1 = M.target(V, c, t, n, d)
  return t1, n
end

-- Whether the dice of `key` (at most two) can be played by the pieces that an action took
-- from index `from` (`gone` of them) to index t, going on from there (one piece, or the whole
-- block), with the pieces where they stand for a second die (not those a whole block took
-- along from t): the plans `assign` leaves out, where pieces are few.
local function follow(V, c, key, from, gone, t, cache)
  local whole = V.stack and V.sw.blocks_split == "off"
  local n = whole and gone or 1
  local dice = T.DICE[key]
  if #dice == 1 then return onward(V, c, t, n, dice[1], whole) ~= nil end
  if #dice > 2 then return false end
  local others = not whole or M.count(V, c, t) == 0 -- the units assign sees are all still there
  for k = 1, 2 do
    local d1, d2 = dice[k], dice[3 - k]
    local t1, n1 = onward(V, c, t, n, d1, whole)
    if t1 and (onward(V, c, t1, n1, d2, whole) or (others and assign(V, c, d2, from, gone, cache))) then
      return true
    end
  end
  return false
end

-- Whether the fast path proves that action a starts a plan reaching `cap` (`due`: entry_due).
local function proven(V, c, key, entry, due, a, cache)
  local g = T.GROUPS[key][a & 7]
  local j, i = (a >> 3) & 7, (a >> 6) & 127
  if i == 0 then return assign(V, c, g.rest, i, j, cache) end
  if not due then
    return assign(V, c, g.rest, i, j, cache) or follow(V, c, g.rest, i, j, (a >> 13) & 127, cache)
  end
  if V.wait[c] == 0 then return false end
  for _, e in ipairs(T.GROUPS[g.rest]) do
    if e.sum == entry and assign(V, c, e.rest, i, j, cache) then return true end
  end
  return false
end

-- How many of colour c's units may move one piece by d now.
local function reach(V, c, d, cache)
  return #(cache[d] or movers(V, c, d, cache)) // 2
end

-- Whether the dice of `key` (at most two) can be moved by pieces of their own whatever one
-- move took from one unit (the proof `assign` makes for each action, made once for all): a die
-- with two units that may move it keeps one; of two dice, one with two units and the other
-- with three keep a unit each (one die twice: three units).
local function robust(V, c, key, cache)
  if key == 0 then return true end
  local dice = T.DICE[key]
  if #dice > 2 then return false end
  local a = reach(V, c, dice[1], cache)
  if #dice == 1 then return a >= 2 end
  if dice[1] == dice[2] then return a >= 3 end
  local b = reach(V, c, dice[2], cache)
  return a >= 2 and b >= 2 and a + b >= 5
end

-- Whether the fast path proves that every move (not an entry) of group `grp` starts a plan
-- reaching `cap` (`due`: entry_due): `proven` for all of them at once, where `robust` holds.
local function group_proven(V, c, grp, entry, due, cache)
  if not due then return robust(V, c, grp.rest, cache) end
  if V.wait[c] == 0 then return false end
  for _, e in ipairs(T.GROUPS[grp.rest]) do
    if e.sum == entry and robust(V, c, e.rest, cache) then return true end
  end
  return false
end

-- Whether the fast path proves that action a falls short of `cap`: it does not enter while an
-- entry is due, and no group of the dice it leaves makes the entry, so that every plan it
-- starts scores its dice alone, less than 16.
local function short(key, entry, due, a)
  return due and (a >> 6) & 127 ~= 0 and T.ENTRIES[entry][T.GROUPS[key][a & 7].rest] == 0
end

-- The actions offered now (§8): those some surviving complete plan continues with. With
-- forced_play=free: those that keep the compulsory entry possible. `reference`: without the
-- fast path (for the differential test).
function M.offered(V, cs, key, entries, used, entry, triple, reference)
  local fast = not reference and monotone(V, cs, key, entries, entry, triple)
  local c = cs[1]
  local cache = { false, false, false, false, false, false } -- the movers lists of the dice
  local list
  if fast then
    list = fast_actions(V, c, key, entries, entry, cache)
  else
    list = M.dice_actions(V, cs, key, entries, entry, triple)
  end
  if #list <= 1 and V.sw.forced_play ~= "free" then return list end
  -- free play keeps only a compulsory entry possible, and with entry_compulsory=off there is none
  if V.sw.forced_play == "free" and V.sw.entry_compulsory == "off" then return list end
  local cap = bound(V, cs, key, entries, used, entry)
  local due = entry_due(V.sw, entries, cap)
  V.memo, V.captures = false, 0
  local groups = T.GROUPS[key]
  local g, sure = 0, false -- the group of the last action, and whether all its moves are proven
  -- values[n]: the best score action n reaches, none where it is proven to reach cap
  local values, top, deferred, proofs = {}, -1, false, 0
  for n = 1, #list do
    local a = list[n]
    if fast and a & 7 ~= g then g, sure = a & 7, group_proven(V, c, groups[a & 7], entry, due, cache) end
    if fast and ((sure and (a >> 6) & 127 ~= 0) or proven(V, c, key, entry, due, a, cache)) then
      if cap > top then top = cap end
      proofs = proofs + 1
    elseif fast and short(key, entry, due, a) then
      values[n], deferred = -1, true -- searched below only if no action reaches cap
    else
      values[n] = after(V, cs, key, entries, used, entry, triple, cap, a)
      if values[n] > top then top = values[n] end
    end
  end
  if proofs == #list then return list end -- every action reaches the bound: all are offered
  if deferred and top < cap then
    for n = 1, #list do
      if values[n] == -1 then
        values[n] = after(V, cs, key, entries, used, entry, triple, cap, list[n])
        if values[n] > top then top = values[n] end
      end
    end
  end
  local floor = top
  if V.sw.forced_play == "free" then floor = 16 * (top // 16) end
  local out = {}
  for n = 1, #list do
    if (values[n] or cap) >= floor then out[#out + 1] = list[n] end
  end
  return out
end

-- Whether the compulsory entry of §7 is still owed (forced_play=free may stop only after it).
function M.entry_owed(V, cs, key, entries, entry)
  local rule = V.sw.entry_compulsory
  if rule == "off" or V.wait[cs[1]] + (cs[2] and V.wait[cs[2]] or 0) == 0 then return false end
  if entries > 0 and (rule == "at_least_one" or V.sw.multi_entry ~= "on") then return false end
  for _, g in ipairs(T.GROUPS[key]) do if g.sum == entry then return true end end
  return false
end

------------------------------------------------------------------------------------------
-- Cowries (§9)

-- The options for a cowrie value v (grace: it can enter) for the colours cs: entering a
-- piece of colour c is action colour_bits(c); moves are actions with g = 0. `bound_piece`: the
-- piece the value is bound to, or nil.
function M.cowrie_actions(V, cs, v, grace, bound_piece)
  local sw = V.sw
  local last_grace = grace and sw.cowrie_last_square == "grace"
  if bound_piece then
    local c, i = (bound_piece + 3) // 4, V.at[bound_piece]
    if i > 0 and i < HOME then
      local t = M.target(V, c, i, 1, v)
      if i == LAST and last_grace then t = HOME end
      if t then return { colour_bits(c) + 8 + 64 * i + 8192 * t } end
    end
  end
  local out = {}
  if grace then
    for n = 1, #cs do
      if V.wait[cs[n]] > 0 then out[#out + 1] = colour_bits(cs[n]) end
    end
    if #out > 0 and sw.entry_compulsory ~= "off" then return out end
  end
  local function add(a) out[#out + 1] = a end
  for n = 1, #cs do
    local c = cs[n]
    each_move(V, c, colour_bits(c), v, false, add)
    local k = last_grace and M.count(V, c, LAST) or 0
    if k > 0 then
      local lo, hi = most(V, k)
      for j = lo, hi do
        local a = colour_bits(c) + 8 * j + 64 * LAST + 8192 * HOME
        local dup = false
        for x = 1, #out do if out[x] == a then dup = true end end
        if not dup then out[#out + 1] = a end
      end
    end
  end
  return out
end

-- Whether no piece can ever move again (§15 kill_before_home=on): a colour is still barred
-- from its homeward run, nothing waits to enter, nothing is on the homeward run (where an exact
-- throw always comes), and no unit of any colour has a legal move of any length the implement
-- can give. Only moves change the board, so it is then fixed for good.
function M.dead_end(V)
  local barred = false
  for c = 1, 4 do
    if V.wait[c] > 0 then return false end
    if V.home[c] < 4 and not V.killed[c] then barred = true end
  end
  if not barred then return false end
  local lengths = T.lengths(V.sw)
  for c = 1, 4 do
    local list = V.units[c] or units(V, c)
    for n = 1, #list, 2 do
      local i = list[n]
      if i > 75 then return false end
      for j = 1, list[n + 1] do
        for x = 1, #lengths do
          if M.target(V, c, i, j, lengths[x]) then return false end
        end
      end
    end
  end
  return true
end

------------------------------------------------------------------------------------------
-- Playing on the kernel state

-- Plays action a (entry index `entry`) on the state and the view: returns the pieces moved
-- or entered and how many opposing pieces were captured.
function M.play(G, V, a, entry)
  local c = M.colour(a)
  local order = steps_of(a)
  if order then
    local j, cur, list, n = (a >> 3) & 7, (a >> 6) & 127, nil, 0
    for k = 1, #order do
      local t = ahead(V, c, cur, order[k])
      local moved, caught = M.play(G, V, colour_bits(c) + 8 * j + 64 * cur + 8192 * t, entry)
      list, n, cur = moved, n + caught, t
    end
    return list, n
  end
  local moved, captured = play_view(V, c, a, entry)
  local _, _, i, t = M.decode(a)
  local dir, list = V.sw.direction, {}
  for p = 4 * c - 3, 4 * c do
    if moved & (1 << p) ~= 0 then
      P.move(G, p, c, i == 0 and entry or t, dir)
      list[#list + 1] = p
    end
  end
  local n = 0
  if captured then
    for k = 1, #captured, 2 do
      local p = captured[k]
      P.move(G, p, (p + 3) // 4, 0, dir)
      n = n + 1
    end
  end
  P.save(G, V.at)
  return list, n
end

-- The label of action a: "enter 1+5", "move E.l4 x1 6 to E.r8"; `what` is the group's text
-- (or the cowrie value). `named`: the colour is said first ("N: enter 6"), for a turn that
-- plays two colours.
function M.label(V, a, what, named)
  local _, j, i, t = M.decode(a)
  local c = M.colour(a)
  local who = named and B.COLOURS[c] .. ": " or ""
  if i == 0 then return who .. "enter " .. what end
  local order = steps_of(a)
  if order then what = table.concat(order, ",") end
  local bonus = (a >> 20) & 1 ~= 0 and " doubled" or ""
  return who .. "move " .. B.index_name(V.sw.direction, c, i) .. " x" .. j .. " " .. what .. bonus .. " to "
    .. B.index_name(V.sw.direction, c, t)
end

return M
