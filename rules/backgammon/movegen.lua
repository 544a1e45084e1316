-- Backgammon move generation: moving, entering and hitting (spec §3), forced play (§4: use
-- both dice if possible, else the larger; a double up to four times; one entry per distinct
-- resulting position) and bearing off (§5).
--
-- Board array `b`, oriented to the player on roll (the mover): b[1..24] = the mover's points
-- 1..24, positive for his checkers and negative for the opponent's; b[25] = the mover's bar;
-- b[0] = the mover's borne-off checkers. A single-die step is the integer
-- from * 64 + to * 2 + hit (from 25 = bar, to 0 = off, hit = 1 when it hits a blot).
--
-- The search walks every sequence of single-die steps depth first on `b` itself (undoing each
-- step), with an incremental Zobrist key and the steps packed in one integer (11 bits each).
-- Doubles take sources in non-increasing order (every legal multiset of steps has such an
-- order) unless `max_per_point` is on, where order can matter. A non-double is searched in
-- both dice orders; the second order skips sequences the first one already gave.
-- Positions are de-duplicated by key, except for doubles in non-increasing order: there the
-- net change of the board determines the multiset of sources (count them from the highest
-- point down), so distinct step sets always reach distinct positions. Without a point limit
-- the game needs no search: non-doubles are listed from the board's bit sets (two_steps,
-- two_dice below), doubles in four loops (four_steps); the search serves point limits,
-- doubles played fewer than four times (a house rule's) and the notation (every step set of
-- a move).
-- Results: c.keys[i], c.packs[i] for i = 1..c.cnt, pack = steps | first die << 44 | length << 48.

local Z = require("backgammon.zobrist")

local M = {}

-- Step codes.
function M.code(from, to, hit) return from * 64 + to * 2 + (hit and 1 or 0) end

-- The steps of a pack as an array of codes, and their number.
function M.unpack(pack)
  local len = pack >> 48
  local codes = {}
  for i = 1, len do codes[i] = (pack >> (11 * (i - 1))) & 2047 end
  return codes, len
end

-- Full key of a board (0..25).
function M.key(b)
  local k = 0
  for p = 0, 25 do k = k ~ Z[p * 32 + b[p] + 16] end
  return k
end

-- Key changes: ZUP[p * 32 + 16 + v] for point p going from v to v + 1 checkers (signed),
-- ZHIT[p] for a hit on p (-1 to 1).
local ZUP, ZHIT = {}, {}
for p = 0, 25 do
  for v = -15, 15 do ZUP[p * 32 + 16 + v] = Z[p * 32 + 16 + v] ~ (Z[p * 32 + 17 + v] or 0) end
  ZHIT[p] = Z[p * 32 + 15] ~ Z[p * 32 + 17]
end

-- Bit masks over points 1..25: POINT[(1 << p) % 37] = p (2 is a primitive root modulo 37, so
-- the residues of 2^1..2^25 differ, and a 36-entry array beats a hash lookup on 1 << p);
-- UPTO[p] = points 1..p (UPTO[25]: all); HIGHEST[m] = the highest point of a home-board
-- mask m (0 for none).
local POINT, UPTO, HIGHEST = {}, {}, {}
for r = 1, 36 do POINT[r] = 0 end
for p = 1, 25 do POINT[(1 << p) % 37] = p end
for p = 0, 25 do UPTO[p] = (1 << (p + 1)) - 2 end
for m = 0, 127 do
  local h = 0
  for p = 1, 6 do
    if m & (1 << p) ~= 0 then h = p end
  end
  HIGHEST[m] = h
end

local BAR_BIT = 1 << 25

-- Bearing off from point q as a source bit of four_steps: 1 << (q + 26), which comes after
-- the points in a loop from the lowest bit; POINT gives q for it too (2^27..2^32 have residues
-- of their own). BEAR is the lowest such bit.
local BEAR = 1 << 27
for q = 1, 6 do POINT[(1 << (q + 26)) % 37] = q end

-- Step codes by source bit (see POINT): SECOND[d][(1 << p) % 37] is the step p -> p-d as the
-- second step of a pack, THIRD[d][...] as the third, FOURTH[d][...] as the fourth and last
-- (with the pack's length), bearing off for the BEAR bits; HIT3 and HIT4 mark a hit by the
-- third and the fourth. The hottest loops append a move with one lookup.
local SECOND, THIRD, FOURTH, HIT3, HIT4 = {}, {}, {}, 1 << 22, 1 << 33
for d = 1, 6 do
  SECOND[d], THIRD[d], FOURTH[d] = {}, {}, {}
  for r = 1, 36 do SECOND[d][r], THIRD[d][r], FOURTH[d][r] = 0, 0, 0 end
  for p = d + 1, 25 do
    local code, r = p * 64 + (p - d) * 2, (1 << p) % 37
    SECOND[d][r], THIRD[d][r], FOURTH[d][r] = code << 11, code << 22, code << 33 | 4 << 48
  end
  for q = 1, 6 do
    local r = (1 << (q + 26)) % 37
    THIRD[d][r], FOURTH[d][r] = (q * 64) << 22, (q * 64) << 33 | 4 << 48
  end
end
-- CHAIN[d1 * 8 + d2][(1 << p) % 37]: the pack of the chain p -> p-d1 -> p-d1-d2 (no hits).
local CHAIN = {}
for d1 = 1, 6 do
  for d2 = 1, 6 do
    local t = {}
    for r = 1, 36 do t[r] = 0 end
    for p = d1 + d2 + 1, 25 do
      local m, f = p - d1, p - d1 - d2
      t[(1 << p) % 37] = p * 64 + m * 2 | (m * 64 + f * 2) << 11 | d1 << 44 | 2 << 48
    end
    CHAIN[d1 * 8 + d2] = t
  end
end
-- Points 1..24, and those with the bar.
local POINTS, PLACES = UPTO[24], UPTO[25]
-- The bar and the points outside the home board.
local OUTSIDE = PLACES & ~127

-- The mover's checkers outside the home board (7..24) of a board whose occupied places are
-- `occ`: a loop over those few points.
local function outside_of(b, occ)
  local outside, far = 0, occ & POINTS & ~127
  while far ~= 0 do
    local low = far & -far
    far = far ~ low
    outside = outside + b[POINT[low % 37]]
  end
  return outside
end

-- The board as bit sets (bit p: point p, bit 25: the bar): the mover's occupied places, those
-- of them with exactly one checker, the points open to him (not held by 2+ opposing
-- checkers), the opponent's blots. From the sets as the kernel gives them (`held`, `ones`,
-- `blocked`, `blots`: see M.quick) when the caller has them, else from the board.
local function masks(b, held, ones, blocked, blots)
  if held then
    return held & PLACES, ones & PLACES, ~blocked & POINTS, blots & POINTS
  end
  local occ, open = 0, 0
  ones, blots = 0, 0
  for p = 1, 24 do
    local v, bit = b[p], 1 << p
    if v > 0 then
      occ = occ | bit
      if v == 1 then ones = ones | bit end
    elseif v == -1 then
      blots = blots | bit
    end
    if v >= -1 then open = open | bit end
  end
  local bar = b[25]
  if bar > 0 then occ = occ | BAR_BIT end
  if bar == 1 then ones = ones | BAR_BIT end
  return occ, ones, open, blots
end

-- Checkers outside the home board (7..24 and bar), occupied points (without the bar) and
-- open points of a board (`...`: the kernel's sets, as for masks).
local function scan(b, ...)
  local occ, _, open = masks(b, ...)
  return outside_of(b, occ) + b[25], occ & POINTS, open
end

-- The point die d bears off from when all checkers are home (0 if none): point d, or the
-- highest occupied point when it is lower than d.
local function bear_off_source(occ, d)
  if occ & (1 << d) ~= 0 then return d end
  local h = HIGHEST[occ]
  return h < d and h or 0
end

-- Stores a new result of `len` steps, dropping shorter ones.
local function append(c, len, key, pack)
  if len > c.best then c.best, c.cnt = len, 0 end
  local n = c.cnt + 1
  c.cnt = n
  c.keys[n], c.packs[n] = key, pack | c.ds[1] << 44 | len << 48
end

-- A sequence of `len` steps ends at `key`.
local function record(c, len, key, pack)
  if len < c.best then return end
  local seen = c.seen
  if seen then
    if seen[key] == len then return end
    seen[key] = len
  end
  append(c, len, key, pack)
end

local dfs, last

-- Plays src -> dst (0 = off) at `depth`, searches on, then undoes it.
local function play(c, b, depth, src, dst, key, outside, occ, nextmax, pack)
  local sv, v = b[src], b[dst]
  b[src] = sv - 1
  if sv == 1 and src <= 24 then occ = occ ~ (1 << src) end
  key = key ~ ZUP[src * 32 + 15 + sv]
  local code = src * 64 + dst * 2
  if dst == 0 then
    key = key ~ ZUP[16 + v]
    b[0] = v + 1
  else
    if v == -1 then
      key, code = key ~ ZHIT[dst], code + 1
      b[dst] = 1
    else
      key = key ~ ZUP[dst * 32 + 16 + v]
      b[dst] = v + 1
    end
    if v <= 0 then occ = occ | (1 << dst) end
    if src > 6 and dst <= 6 then outside = outside - 1 end
  end
  pack = pack | code << (11 * depth - 11)
  if depth + 1 == c.n then
    last(c, b, depth + 1, nextmax, key, outside, occ, pack, dst)
  else
    dfs(c, b, depth + 1, nextmax, key, outside, occ, pack)
  end
  b[dst] = v
  b[src] = sv
end

-- Entering from the bar with die d: the entry point, or nil when it is closed.
local function entry(c, b, d)
  local dst = 25 - d
  if c.open & (1 << dst) ~= 0 and (c.cap == 0 or b[dst] < c.cap) then return dst end
  return nil
end

-- The last die of the sequence: each legal step ends a sequence; nothing is played on `b`.
-- Steps from sources in c.skip other than `prev` (where the previous step landed) are legal
-- but repeat a sequence of the other dice order; they are not recorded.
last = function(c, b, depth, maxsrc, key, outside, occ, pack, prev)
  local d, cap, skip = c.ds[depth], c.cap, c.skip & ~(1 << prev)
  local shift = 11 * depth - 11
  if b[25] > 0 then
    local dst = entry(c, b, d)
    if not dst then return record(c, depth - 1, key, pack) end
    if skip & (1 << 25) ~= 0 then return end
    local v = b[dst]
    key = key ~ ZUP[815 + b[25]] ~ (v == -1 and ZHIT[dst] or ZUP[dst * 32 + 16 + v])
    return record(c, depth, key, pack | (1600 + dst * 2 + (v == -1 and 1 or 0)) << shift)
  end
  local srcs = occ & (c.open << d) & UPTO[maxsrc]
  local moved = srcs & skip ~= 0
  srcs = srcs & ~skip
  while srcs ~= 0 do
    local low = srcs & -srcs
    srcs = srcs ~ low
    local src = POINT[low % 37]
    local dst = src - d
    local v = b[dst]
    if cap == 0 or v < cap then
      moved = true
      local k = key ~ ZUP[src * 32 + 15 + b[src]]
      if v == -1 then
        record(c, depth, k ~ ZHIT[dst], pack | (src * 64 + dst * 2 + 1) << shift)
      else
        record(c, depth, k ~ ZUP[dst * 32 + 16 + v], pack | (src * 64 + dst * 2) << shift)
      end
    end
  end
  if outside == 0 then
    local src = bear_off_source(occ, d)
    if src > 0 and src <= maxsrc then
      moved = true
      if skip & (1 << src) == 0 then
        local k = key ~ ZUP[src * 32 + 15 + b[src]] ~ ZUP[16 + b[0]]
        record(c, depth, k, pack | (src * 64) << shift)
      end
    end
  end
  if not moved then record(c, depth - 1, key, pack) end
end

dfs = function(c, b, depth, maxsrc, key, outside, occ, pack)
  local d, cap = c.ds[depth], c.cap
  if b[25] > 0 then
    local dst = entry(c, b, d)
    if not dst then return record(c, depth - 1, key, pack) end
    return play(c, b, depth, 25, dst, key, outside, occ, 25, pack)
  end
  local restrict, moved = c.restrict, false
  local srcs = occ & (c.open << d) & UPTO[maxsrc]
  while srcs ~= 0 do
    local low = srcs & -srcs
    srcs = srcs ~ low
    local src = POINT[low % 37]
    local dst = src - d
    if cap == 0 or b[dst] < cap then
      moved = true
      play(c, b, depth, src, dst, key, outside, occ, restrict and src or 25, pack)
    end
  end
  if outside == 0 then
    local src = bear_off_source(occ, d)
    if src > 0 and src <= maxsrc then
      moved = true
      play(c, b, depth, src, 0, key, outside, occ, restrict and src or 25, pack)
    end
  end
  if not moved then record(c, depth - 1, key, pack) end
end

-- §4 rule 2: a non-double of which only one die can be played must use the larger if it can.
-- Keeps those of packs[1..cnt] (and their keys) whose first die is `hi`, if any; returns the
-- new count.
local function keep_larger(keys, packs, cnt, hi)
  local w = 0
  for i = 1, cnt do
    if (packs[i] >> 44) & 15 == hi then
      w = w + 1
      keys[w], packs[w] = keys[i], packs[i]
    end
  end
  return w > 0 and w or cnt
end

-- Sources (bit 25 = bar) from which die d can be played as a first step (no point limit), on a
-- board with `bar` occupied or not, and `home` (nothing outside the home board) or not.
-- A sequence "other die, then d from one of these" (not moving on the same checker) gives a
-- position that "d first, then the other die" gives too.
local function first_steps(bar, home, d, occ, open)
  if bar then
    return open & (1 << (25 - d)) ~= 0 and 1 << 25 or 0
  end
  local mask = occ & (open << d)
  if home then mask = mask | (1 << bear_off_source(occ, d)) end
  return mask & ~1
end

-- Searches all legal moves of `b` for dice hi >= lo, a double played n times (2 to 4), as
-- M.search does.
local function search(b, hi, lo, n, cap, distinct, ...)
  local double = hi == lo
  local outside, occ, open = scan(b, ...)
  -- Keys name positions (notation compares them with M.key); where only distinctness
  -- matters, keys relative to `b` do.
  local key = distinct and 0 or M.key(b)
  cap = cap or 0
  local c = {
    n = n, ds = { hi, lo, hi, lo }, cap = cap, open = open, skip = 0,
    restrict = double and cap == 0, best = 0, cnt = 0, keys = {}, packs = {},
    seen = distinct and not (double and cap == 0) and {} or false,
  }
  dfs(c, b, 1, 25, key, outside, occ, 0)
  if not double then
    c.ds[1], c.ds[2] = lo, hi
    if cap == 0 then c.skip = first_steps(b[25] > 0, outside == 0, hi, occ, open) end
    dfs(c, b, 1, 25, key, outside, occ, 0)
    if c.best == 1 then c.cnt = keep_larger(c.keys, c.packs, c.cnt, hi) end
  end
  if c.best == 0 then c.cnt = 0 end
  return c
end

-- Searches all legal moves of `b` for dice d1, d2 (`b` is left as it was).
-- distinct = true keeps one entry per resulting position, false keeps every step set.
-- `...`: the board's bit sets as the kernel gives them (see M.quick), when the caller has them.
-- Returns the context: c.cnt results in c.keys, c.packs; c.best = dice played (0 = none).
function M.search(b, d1, d2, cap, distinct, ...)
  local hi, lo = d1, d2
  if lo > hi then hi, lo = lo, hi end
  return search(b, hi, lo, hi == lo and 4 or 2, cap, distinct, ...)
end

-- A table with room for 32 array entries: growing one entry at a time costs five
-- reallocations on the way (Lua 5.4 has no table.create).
local function presized()
  return { nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
    nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil }
end

-- The common case, found without search or keys: dice hi > lo, no point limit, and either
-- nothing on the bar and at least two checkers outside the home board, or one checker on
-- the bar (`bar` is true); either way nothing can bear off. Opening and blocking never
-- change during such a move, so every two-step move is
--   a chain: one checker s -> s-hi-lo, through s-hi or s-lo (whichever are open); the two
--     ways give one position unless one of them hits a blot on the way;
--   a pair: a -> a-hi and b -> b-lo with b /= a-hi and b /= a+lo (those two are chains through
--     an own point), both legal on the board as it is, two checkers if a == b.
-- With a checker on the bar, only chains from the bar and pairs with the bar count (the bar
-- step is written first). Different pairs and chains give different positions. Works on the
-- bit sets of `masks` alone. Appends the packs to `out`; returns how many (0: no two-step
-- move; the full search then applies the one-die rules).
local function two_steps(hi, lo, occ, ones, open, blots, bar, out)
  local n, first = 0, hi << 44 | 2 << 48
  local srcs = occ & (open << (hi + lo))
  if bar then srcs = srcs & BAR_BIT end
  -- Chains through s-hi (when open) and through s-lo (when open, unless through s-hi gives
  -- the same position: neither way hits on the way).
  local hit_hi, hit_lo, hit_end = blots << hi, blots << lo, blots << (hi + lo)
  local via_hi = srcs & (open << hi)
  local via_lo = srcs & (open << lo) & ~(via_hi & ~hit_hi & ~hit_lo)
  local chains, by_hi, by_lo = via_hi | via_lo, CHAIN[hi * 8 + lo], CHAIN[lo * 8 + hi]
  while chains ~= 0 do
    local low = chains & -chains
    chains = chains ~ low
    local r, last = low % 37, hit_end & low ~= 0 and 2048 or 0
    if via_hi & low ~= 0 then
      n = n + 1
      out[n] = by_hi[r] | (hit_hi & low ~= 0 and 1 or 0) | last
    end
    if via_lo & low ~= 0 then
      n = n + 1
      out[n] = by_lo[r] | (hit_lo & low ~= 0 and 1 or 0) | last
    end
  end
  local his, los, second = occ & (open << hi), occ & (open << lo), SECOND[lo]
  if bar then
    -- The checker on the bar enters with the low die (written first) at y, then a -> a-hi
    -- for every other source a (a = y is a chain); then it enters with the high die, below.
    local y = 25 - lo
    if los & BAR_BIT ~= 0 then
      local enter, up = 1600 + y * 2 + (blots >> y & 1) | lo << 44 | 2 << 48, SECOND[hi]
      -- Sources whose high step hits a blot (not the one the entry hit).
      local hits = (blots & ~(1 << y)) << hi
      local as = his & ~BAR_BIT & ~(1 << y)
      while as ~= 0 do
        local la = as & -as
        as = as ~ la
        n = n + 1
        out[n] = enter | up[la % 37] | (hits & la ~= 0 and 2048 or 0)
      end
    end
    his = his & BAR_BIT
  end
  while his ~= 0 do
    local low = his & -his
    his = his ~ low
    local a = POINT[low % 37]
    local x = a - hi
    local bs = los & ~(1 << x) & ~(1 << (a + lo))
    if ones & low ~= 0 then bs = bs & ~low end
    local hi_step = a * 64 + x * 2 + (blots >> x & 1) | first
    -- Sources whose low step hits a blot (not the one the high step hit). Most often none
    -- does, and the first loop, which need not ask, lists them all.
    local hits = (blots & ~(1 << x)) << lo & bs
    if hits == 0 then
      while bs ~= 0 do
        local lb = bs & -bs
        bs = bs ~ lb
        n = n + 1
        out[n] = hi_step | second[lb % 37]
      end
    end
    while bs ~= 0 do
      local lb = bs & -bs
      bs = bs ~ lb
      n = n + 1
      out[n] = hi_step | second[lb % 37] | (hits & lb ~= 0 and 2048 or 0)
    end
  end
  return n
end

-- Whether at least two of the mover's checkers are outside his home board (7..24).
local function two_outside(occ, ones)
  local far = occ & POINTS & ~127
  return far & (far - 1) ~= 0 or far & ~ones ~= 0
end

-- Position keys by net change (two_dice): a step from p to q (0 = off, 25 = bar) adds
-- STEP_KEY[q] - STEP_KEY[p], a hit on q adds ZHIT[q]. The sum depends on where checkers went,
-- not on the order of the steps, so two sequences reach one position exactly when their sums
-- agree (but for a 2^-64 chance), and no board is needed to name a position. The words of Z
-- at multiples of 32 are free for this (see zobrist.lua).
local STEP_KEY = {}
for p = 0, 25 do STEP_KEY[p] = Z[p * 32 + 32] end

-- Keeps a move of `len` steps (`pack` without its length) in out[1..n], the moves found so
-- far (all of `best` steps): longer moves replace shorter ones, shorter ones give way. With
-- `keys` (the positions of out[1..n]), a move reaching position `key` found before is not
-- kept again; without, every move reaches a position of its own (four_steps). Returns n, best.
local function keep(out, keys, n, best, len, key, pack)
  if len < best then return n, best end
  if len > best then
    n, best = 0, len
  elseif keys then
    for i = 1, n do
      if keys[i] == key then return n, best end
    end
  end
  n = n + 1
  out[n] = pack | len << 48
  if keys then keys[n] = key end
  return n, best
end

-- After the first step s1 -> t1 (t1 = 0: off) of a two_dice sequence, every second step of
-- die d2 (those from `skip`, other than the moved checker, repeat the other dice order), or
-- the first step alone when no second step is legal. As `last` in the search.
local function follow(out, keys, n, best, held, ones, open, blots, d2, skip, first, s1, t1)
  local hit1 = t1 > 0 and blots >> t1 & 1 or 0
  local code1 = s1 * 64 + t1 * 2 + hit1 | first
  local key1 = STEP_KEY[t1] - STEP_KEY[s1] + (hit1 == 1 and ZHIT[t1] or 0)
  local after = held | (t1 > 0 and 1 << t1 or 0)
  if ones & (1 << s1) ~= 0 then after = after ~ (1 << s1) end
  local standing = blots & ~(1 << t1)
  skip = skip & ~(1 << t1)
  if after & BAR_BIT ~= 0 then
    local t2 = 25 - d2
    if open & (1 << t2) == 0 then return keep(out, keys, n, best, 1, key1, code1) end
    if skip & BAR_BIT ~= 0 then return n, best end
    local hit2 = standing >> t2 & 1
    local key = key1 + STEP_KEY[t2] - STEP_KEY[25] + (hit2 == 1 and ZHIT[t2] or 0)
    return keep(out, keys, n, best, 2, key, code1 | (1600 + t2 * 2 + hit2) << 11)
  end
  local occ = after & POINTS
  local srcs = occ & (open << d2)
  local moved = srcs & skip ~= 0
  srcs = srcs & ~skip
  while srcs ~= 0 do
    local low = srcs & -srcs
    srcs = srcs ~ low
    local s2 = POINT[low % 37]
    local t2 = s2 - d2
    local hit2 = standing >> t2 & 1
    local key = key1 + STEP_KEY[t2] - STEP_KEY[s2] + (hit2 == 1 and ZHIT[t2] or 0)
    moved = true
    n, best = keep(out, keys, n, best, 2, key, code1 | (s2 * 64 + t2 * 2 + hit2) << 11)
  end
  if after & OUTSIDE == 0 then
    local s2 = bear_off_source(occ, d2)
    if s2 > 0 then
      moved = true
      if skip & (1 << s2) == 0 then
        local key = key1 + STEP_KEY[0] - STEP_KEY[s2]
        n, best = keep(out, keys, n, best, 2, key, code1 | (s2 * 64) << 11)
      end
    end
  end
  if not moved then return keep(out, keys, n, best, 1, key1, code1) end
  return n, best
end

-- Any non-double without point limit, from the bit sets of `masks` alone: the sequences of
-- the search (M.search) in its order, the high die first and then the low die first, one
-- move per position (STEP_KEY), the larger die alone when only one die can be played. Two
-- steps decide everything here, so the board's counts are not needed: only which places hold
-- exactly one checker (`ones`), and no step is played on a board.
local function two_dice(hi, lo, held, ones, open, blots)
  local out, keys, n, best, skip = {}, {}, 0, 0, 0
  local bar, home, occ = held & BAR_BIT ~= 0, held & OUTSIDE == 0, held & POINTS
  for order = 1, 2 do
    local d1, d2 = hi, lo
    if order == 2 then d1, d2, skip = lo, hi, first_steps(bar, home, hi, occ, open) end
    local first = d1 << 44
    if bar then
      if open & (1 << (25 - d1)) ~= 0 then
        n, best = follow(out, keys, n, best, held, ones, open, blots, d2, skip, first, 25, 25 - d1)
      end
    else
      local srcs = occ & (open << d1)
      while srcs ~= 0 do
        local low = srcs & -srcs
        srcs = srcs ~ low
        local s1 = POINT[low % 37]
        n, best = follow(out, keys, n, best, held, ones, open, blots, d2, skip, first, s1, s1 - d1)
      end
      local s1 = home and bear_off_source(occ, d1) or 0
      if s1 > 0 then
        n, best = follow(out, keys, n, best, held, ones, open, blots, d2, skip, first, s1, 0)
      end
    end
  end
  if best == 1 then n = keep_larger(keys, out, n, hi) end
  for i = #out, n + 1, -1 do out[i] = nil end
  return out
end

-- The moves of a non-double without point limit from the board's bit sets (see masks): the
-- common case of two_steps, else two_dice.
local function non_double(hi, lo, occ, ones, open, blots)
  local bar = occ & BAR_BIT ~= 0
  if bar and ones & BAR_BIT ~= 0 or not bar and two_outside(occ, ones) then
    local out = presized()
    if two_steps(hi, lo, occ, ones, open, blots, bar, out) > 0 then return out end
  end
  return two_dice(hi, lo, occ, ones, open, blots)
end

-- The moves of a non-double (no point limit) from the board's bit sets as the kernel gives
-- them: G:mask over the mover's track gives his places, those with one checker, the
-- opponent's places with 2+ and those with one. Nil for a double, which needs the board
-- (M.packs).
function M.quick(d1, d2, held, ones, blocked, blots)
  if d1 == d2 then return nil end
  local hi, lo = d1, d2
  if lo > hi then hi, lo = lo, hi end
  return non_double(hi, lo, held & PLACES, ones & PLACES, ~blocked & POINTS, blots & POINTS)
end

-- Plays src -> src-d on `b`, or bears src off when src-d <= 0; returns the step code, the new
-- occupied mask, and what to restore: b[src] = vs, b[at] = va.
local function step(b, occ, src, d)
  local vs, at = b[src], src - d
  b[src] = vs - 1
  if vs == 1 then occ = occ ~ (1 << src) end
  if at <= 0 then
    local off = b[0]
    b[0] = off + 1
    return src * 64, occ, vs, off, 0
  end
  local va = b[at]
  b[at] = va == -1 and 1 or va + 1
  return src * 64 + at * 2 + (va == -1 and 1 or 0), occ | (1 << at), vs, va, at
end

-- The bearing-off step of die d from a board whose places are `occ`, all at home, as a source
-- bit (see BEAR), or 0 when there is none from a point up to `top`.
local function bear_bit(occ, d, top)
  local q = bear_off_source(occ & POINTS, d)
  return q > 0 and q <= top and 1 << (q + 26) or 0
end

-- The double d without point limit. The open points do not change during the move, so the
-- sources are `occ & open << d` (bit 25: the bar, the only source while it is occupied), and
-- bearing off once every checker is home (a BEAR bit, after the points); taking them in
-- non-increasing order gives every multiset of steps once, and distinct multisets give
-- distinct positions (see the header). The order is the search's. Four nested loops instead
-- of recursion: this is the dearest case of the game (a recursive version measured 35%
-- slower). Writes the packs to out[1..n] and returns n (longer moves found later overwrite
-- shorter ones, which may leave stale entries after n).
local function four_steps(b, d, occ, open, blots, out)
  local n, best, movable, first, third, fourth = 0, 0, open << d, d << 44, THIRD[d], FOURTH[d]
  -- The module's tables and masks as locals: the inner loops read them on every pass, and an
  -- upvalue costs an instruction of its own each time.
  local POINT, UPTO, BAR_BIT, OUTSIDE, BEAR, HIT3, HIT4, PLACES =
    POINT, UPTO, BAR_BIT, OUTSIDE, BEAR, HIT3, HIT4, PLACES
  local s1 = occ & movable
  if b[25] > 0 then
    s1 = s1 & BAR_BIT
  elseif occ & OUTSIDE == 0 then
    s1 = s1 | bear_bit(occ, d, 25)
  end
  while s1 ~= 0 do
    local l1 = s1 & -s1
    s1 = s1 ~ l1
    local p1 = POINT[l1 % 37]
    local c1, o1, v1s, v1a, a1 = step(b, occ, p1, d)
    c1 = c1 | first
    local s2 = o1 & movable & UPTO[p1]
    if b[25] > 0 then
      s2 = s2 & BAR_BIT
    elseif o1 & OUTSIDE == 0 then
      s2 = s2 | bear_bit(o1, d, p1)
    end
    if s2 == 0 then n, best = keep(out, nil, n, best, 1, nil, c1) end
    while s2 ~= 0 do
      local l2 = s2 & -s2
      s2 = s2 ~ l2
      local p2 = POINT[l2 % 37]
      local c2, o2, v2s, v2a, a2 = step(b, o1, p2, d)
      c2 = c1 | c2 << 11
      local s3 = o2 & movable & UPTO[p2]
      if b[25] > 0 then
        s3 = s3 & BAR_BIT
      elseif o2 & OUTSIDE == 0 then
        s3 = s3 | bear_bit(o2, d, p2)
      end
      if s3 == 0 then n, best = keep(out, nil, n, best, 2, nil, c2) end
      -- The blots the first two steps left standing (a2 = 0: borne off).
      local standing = blots & ~(1 << a1 | 1 << a2)
      while s3 ~= 0 do
        local l3 = s3 & -s3
        s3 = s3 ~ l3
        -- The last step before the fourth is not played on `b`: only its sources are needed.
        local r3 = l3 % 37
        local p3, down = POINT[r3], l3 < BEAR and l3 >> d or 0
        local c3 = c2 | third[r3] | (standing & down ~= 0 and HIT3 or 0)
        local o3 = o2 | down
        if b[p3] == 1 then o3 = o3 & ~(1 << p3) end
        local s4 = o3 & movable & UPTO[p3]
        if l3 == BAR_BIT and b[25] > 1 then
          s4 = s4 & BAR_BIT
        elseif o3 & OUTSIDE == 0 then
          s4 = s4 | bear_bit(o3, d, p3)
        end
        if s4 == 0 then
          n, best = keep(out, nil, n, best, 3, nil, c3)
        elseif best < 4 then
          n, best = 0, 4
        end
        -- Sources whose step hits a blot (one the first three steps left standing). Most
        -- often none does, and the first loop, which need not ask, lists them all.
        local hits = (standing & ~down) << d & PLACES & s4
        if hits == 0 then
          while s4 ~= 0 do
            local l4 = s4 & -s4
            s4 = s4 ~ l4
            n = n + 1
            out[n] = c3 | fourth[l4 % 37]
          end
        end
        while s4 ~= 0 do
          local l4 = s4 & -s4
          s4 = s4 ~ l4
          n = n + 1
          out[n] = c3 | fourth[l4 % 37] | (hits & l4 ~= 0 and HIT4 or 0)
        end
      end
      b[p2], b[a2] = v2s, v2a
    end
    b[p1], b[a1] = v1s, v1a
  end
  return n
end

-- The packs of a search result `c`, cut to its c.cnt moves.
local function trimmed(c)
  local packs = c.packs
  for i = #packs, c.cnt + 1, -1 do packs[i] = nil end
  return packs
end

-- The legal moves, one per distinct resulting position, as packed integers (see the header;
-- M.unpack gives the steps). The game offers these integers as its options, so a decision
-- costs no table per move. Without a point limit, non-doubles (two_steps, two_dice) and
-- doubles (four_steps) need no search; point limits use M.search.
-- `...`: the board's bit sets as the kernel gives them (see M.quick), when the caller has them.
function M.packs(b, d1, d2, cap, ...)
  local hi, lo = d1, d2
  if lo > hi then hi, lo = lo, hi end
  if (cap or 0) == 0 then
    local occ, ones, open, blots = masks(b, ...)
    if hi ~= lo then return non_double(hi, lo, occ, ones, open, blots) end
    local out = presized()
    local n = four_steps(b, hi, occ, open, blots, out)
    for i = #out, n + 1, -1 do out[i] = nil end
    return out
  end
  return trimmed(M.search(b, d1, d2, cap, true, ...))
end

-- The moves of the double d played n times (2 or 3; a house rule's dice_to_play), without
-- point limit, as M.packs gives them: the search, which takes the sources in non-increasing
-- order as four_steps does, and so lists the moves in its order.
function M.few(b, d, n, ...)
  return trimmed(search(b, d, d, n, 0, true, ...))
end

-- The same moves as arrays of step codes.
function M.moves(b, d1, d2, cap)
  local opts = M.packs(b, d1, d2, cap)
  for i = 1, #opts do opts[i] = (M.unpack(opts[i])) end
  return opts
end

-- Plays step codes codes[1..n] on `b` in place; returns the number of blots hit.
function M.apply(b, codes, n)
  local hits = 0
  for i = 1, n or #codes do
    local code = codes[i]
    local src, dst = code >> 6, (code >> 1) & 31
    b[src] = b[src] - 1
    if dst == 0 then
      b[0] = b[0] + 1
    elseif b[dst] == -1 then
      b[dst], hits = 1, hits + 1
    else
      b[dst] = b[dst] + 1
    end
  end
  return hits
end

-- A copy of board `b` (0..25).
function M.copy(b)
  local t = {}
  for p = 0, 25 do t[p] = b[p] end
  return t
end

return M
