-- Backgammon's legal moves built from the rules' hooks (spec §3-§5; rules.lua): every
-- sequence of single-die steps that hook.step allows for the dice of hook.dice_to_play, the
-- sequences hook.forced_play keeps, one move per resulting position. House rules change
-- moves through those hooks; while none is overridden, or only as the fast generator
-- (movegen.lua) can follow (rules.lua: R.fast_dice, R.shield), the game takes the same moves,
-- in the same order, from it. tests/lua/backgammon/moves_differential_test.lua (base rules)
-- and house_moves_check.lua (house rules) keep the two equal.
--
-- Moves are packs as in movegen.lua (11 bits a step, from * 64 + to * 2 + hit; the first
-- die << 44; the number of steps << 48), so a pack holds at most four steps.
--
-- The order of the options (which the fast generator follows, so both list a roll alike):
-- a double's moves by their steps taken from the highest source down, compared step by step,
-- each from the lowest source up with bearing off after every point; a non-double's, when
-- no checker can bear off during the move, one-checker moves first (by starting point,
-- through the higher die's point first), then two-checker moves (by the point the higher
-- die leaves, then the lower die's), then one-die moves (by source); any other move in the
-- order the search below first reaches its position (the higher die first; sources from
-- the lowest up, bearing off last).

local Z = require("backgammon.zobrist")
local R = require("backgammon.rules")
local movegen = require("backgammon.movegen")

local M = {}

-- The step from -> to (0 = off) on `b`, hitting a lone opposing checker there: its code and
-- the position key after it (`key` before), without playing it.
local function step_of(b, key, from, to)
  local v, w = b[from], b[to]
  local hit = to > 0 and w == -1
  local after = hit and 1 or w + 1
  local f, t = from * 32 + 16, to * 32 + 16
  key = key ~ Z[f + v] ~ Z[f + v - 1] ~ Z[t + w] ~ Z[t + after]
  return from * 64 + to * 2 + (hit and 1 or 0), key
end

-- Plays the step `code` on `b`.
local function play(b, code)
  local from, to = code >> 6, code >> 1 & 31
  b[from] = b[from] - 1
  b[to] = code & 1 == 1 and 1 or b[to] + 1
end

-- Takes back the step `code` played on `b`.
local function undo(b, code)
  local from, to = code >> 6, code >> 1 & 31
  b[from] = b[from] + 1
  b[to] = code & 1 == 1 and -1 or b[to] - 1
end

-- The steps die d allows on `b`, written to `list` as from, to pairs (sources from the
-- lowest up, bearing off after the points); returns the length written. Each depth of the
-- search has a list of its own, so no node makes a table.
local function steps(G, b, d, list)
  local n, off, step = 0, 0, hook.step
  for from = 1, 25 do
    if b[from] > 0 then
      local to = step(G, b, from, d)
      if to == 0 then
        off = off | 1 << from
      elseif to then
        list[n + 1], list[n + 2], n = from, to, n + 2
      end
    end
  end
  if off ~= 0 then
    for from = 1, 25 do
      if off & 1 << from ~= 0 then list[n + 1], list[n + 2], n = from, 0, n + 2 end
    end
  end
  return n
end

-- Whether dice[i] is the first unused die of its value (equal dice are interchangeable;
-- `dice` is sorted, so equal dice stand together).
local function first_of_value(dice, used, i)
  return used & 1 << i == 0 and (i == 1 or dice[i - 1] ~= dice[i] or used & 1 << (i - 1) ~= 0)
end

-- Whether the position `key` with the dice `used` played was reached before, for equal dice
-- (s.seen): what follows from it is known. Marks it reached.
local function seen_before(s, used, key)
  local seen = s.seen
  if not seen then return false end
  local at = seen[used]
  if not at then
    at = {}
    seen[used] = at
  end
  if at[key] then return true end
  at[key] = true
  return false
end

-- Records a maximal sequence `pack` (steps, first die, length) ending at position `key`.
local function record(s, pack, key)
  s.packs[#s.packs + 1] = pack
  s.key_of[pack] = key
end

-- Depth-first over every sequence; `s` collects each maximal one (no further die playable)
-- as s.packs[n] with the key of its position in s.key_of[pack]. With equal dice a position
-- reached again with as many dice left is not searched again (seen_before). Other dice need
-- every sequence (the listing order takes the least of a position's sequences). A step of
-- the last die ends its sequence without being played.
local function walk(G, b, s, used, depth, key, pack)
  local dice, list, moved = s.dice, s.lists[depth], false
  local last, shift = depth == #dice, 11 * depth - 11
  for i = 1, #dice do
    if first_of_value(dice, used, i) then
      local d, now = dice[i], used | (1 << i)
      local first = depth == 1 and d << 44 or 0
      for k = 1, steps(G, b, d, list), 2 do
        moved = true
        local code, after = step_of(b, key, list[k], list[k + 1])
        local next_pack = pack | code << shift | first
        if not seen_before(s, now, after) then
          if last then
            record(s, next_pack | depth << 48, after)
          else
            play(b, code)
            walk(G, b, s, now, depth + 1, after, next_pack)
            undo(b, code)
          end
        end
      end
    end
  end
  if not moved then record(s, pack | (depth - 1) << 48, key) end
end

-- Every legal step set of the mover's move from `b` for the roll d1, d2, after forced play, in
-- the shape of movegen.search(b, d1, d2, cap, false): c.cnt, c.packs, c.keys (positions,
-- as movegen.key names them), c.best (dice played; 0 = none).
function M.search(G, b, d1, d2)
  local dice = hook.dice_to_play(G, d1, d2)
  if #dice > 4 then error("backgammon: a move holds at most four dice, not " .. #dice, 0) end
  local sorted = {}
  for i, d in ipairs(dice) do sorted[i] = d end
  table.sort(sorted, function(x, y) return x > y end)
  local s = { dice = sorted, packs = {}, key_of = {}, seen = sorted[1] == sorted[#sorted] and {},
    lists = { {}, {}, {}, {} } }
  walk(G, R.start(G, b), s, 0, 1, movegen.key(b), 0)
  local kept = hook.forced_play(G, s.packs, dice)
  local c = { cnt = 0, packs = {}, keys = {}, best = 0, dice = sorted }
  for _, p in ipairs(kept) do
    local key = s.key_of[p]
    if not key then error("backgammon: forced_play returned a move it was not given", 0) end
    c.cnt = c.cnt + 1
    c.packs[c.cnt], c.keys[c.cnt] = p, key
    c.best = math.max(c.best, R.length(p))
  end
  if c.best == 0 then c.cnt, c.packs, c.keys = 0, {}, {} end
  return c
end

-- A step's place in the listing order: its source, bearing off after every point; no step
-- (code 0) is 0.
local function rank(code)
  if code == 0 then return 0 end
  local from = code >> 6
  return (code >> 1 & 31) == 0 and 26 + from or from
end

-- The four step codes of a pack (0 where it has fewer).
local function codes_of(pack)
  return pack & 2047, pack >> 11 & 2047, pack >> 22 & 2047, pack >> 33 & 2047
end

-- Listing key of a double's step set: the ranks of its steps from the highest source down
-- (sorted by a network of five exchanges).
local function double_key(pack)
  local a, b, c, d = codes_of(pack)
  if a >> 6 < b >> 6 then a, b = b, a end
  if c >> 6 < d >> 6 then c, d = d, c end
  if a >> 6 < c >> 6 then a, c = c, a end
  if b >> 6 < d >> 6 then b, d = d, b end
  if b >> 6 < c >> 6 then b, c = c, b end
  return rank(a) << 18 | rank(b) << 12 | rank(c) << 6 | rank(d)
end

-- Listing key of a non-double's step set (no bearing off): a one-checker move (class 0),
-- a two-checker one (1), a one-die one (2).
local function non_double_key(pack, hi)
  local c1, c2 = codes_of(pack)
  if R.length(pack) == 1 then return 2 << 12 | rank(c1) << 6 end
  local f1, t1, f2 = c1 >> 6, c1 >> 1 & 31, c2 >> 6
  if f2 == t1 then return f1 << 6 | (R.first_die(pack) == hi and 0 or 1) end
  if R.first_die(pack) ~= hi then f1, f2 = f2, f1 end
  return 1 << 12 | f1 << 6 | f2
end

-- Whether a non-double's move can bear a checker off: nothing on the bar and at most one
-- checker outside the home board.
local function may_bear_off_during(b)
  if b[25] > 0 then return false end
  local outside = 0
  for p = 7, 24 do
    if b[p] > 0 then outside = outside + b[p] end
  end
  return outside < 2
end

-- The legal moves of a search result `c` from `b`, one per resulting position, as packs in
-- the listing order (see the header): each position under the least listing key of the step
-- sets reaching it, ties in the order found.
function M.listing(b, c)
  local dice = c.dice
  local double, plain = dice[1] == dice[#dice], #dice == 2 and not may_bear_off_during(b)
  local found, least, pack_of = {}, {}, {}
  for i = 1, c.cnt do
    local p, pos = c.packs[i], c.keys[i]
    local key = 0
    if double then
      key = double_key(p)
    elseif plain then
      key = non_double_key(p, dice[1])
    end
    if not least[pos] then
      found[#found + 1] = pos
      least[pos], pack_of[pos] = key, p
    elseif key < least[pos] then
      least[pos], pack_of[pos] = key, p
    end
  end
  -- Integers sort without a Lua comparison: the key above the place found.
  local order = {}
  for j, pos in ipairs(found) do order[j] = least[pos] << 16 | j end
  table.sort(order)
  local out = {}
  for j, v in ipairs(order) do out[j] = pack_of[found[v & 0xffff]] end
  return out
end

-- The legal moves of the mover of `b` for the roll d1, d2, from the hooks.
function M.moves(G, b, d1, d2)
  return M.listing(b, M.search(G, b, d1, d2))
end

-- Every legal step set (as M.search gives them): from the fast search when it gives the
-- hooks' moves with the usual dice and every blot open to a hit (R.fast_dice, R.shield),
-- else from the hooks.
function M.all(G, b, d1, d2)
  local n = R.fast_dice(G, d1, d2)
  if n == (d1 == d2 and 4 or 2) and R.shield(G, b, R.blots(b)) == 0 then
    return movegen.search(b, d1, d2, 0, false)
  end
  return M.search(G, b, d1, d2)
end

return M
