-- Spec §3-5 cross-check: on many pseudo-random positions (race, contact, bar, bear-off) and
-- all 21 rolls, the set of positions found by the fast generator (the search-free common
-- cases, sources of a double taken in non-increasing order, Zobrist de-duplication; every
-- step's hit flag checked against the board) equals the set found by a plain reference
-- search over every order of the dice, written from the rules' text. Also with
-- max_per_point = 5, where the generator searches every order; then on the positions of random
-- games.

local K = require("test_kernel")
local movegen = require("backgammon.movegen")

local S = require("bg_support")
local rnd = S.random(12345)

-- Reference legality of one step of die d from src; returns dst (0 = off) or nil.
local function ref_step(b, src, d, cap)
  if b[src] <= 0 then return nil end
  if b[25] > 0 and src ~= 25 then return nil end
  local dst = src - d
  if dst >= 1 then
    if b[dst] < -1 or (cap > 0 and b[dst] >= cap) then return nil end
    return dst
  end
  for p = 7, 25 do if b[p] > 0 then return nil end end
  if dst == 0 then return 0 end
  for p = src + 1, 6 do if b[p] > 0 then return nil end end
  return 0
end

local function serial(b, hits)
  local t = {}
  for p = 0, 25 do t[#t + 1] = b[p] end
  t[#t + 1] = hits
  return table.concat(t, ",")
end

-- Every sequence over every order of the remaining dice; results[len][first die][pos] = true.
local function ref_walk(b, dice, used, depth, first, hits, cap, out)
  local moved = false
  for i = 1, #dice do
    -- Equal dice are interchangeable: try only the first unused one of each value.
    local first_of_value = true
    for j = 1, i - 1 do
      if not used[j] and dice[j] == dice[i] then first_of_value = false end
    end
    if not used[i] and first_of_value then
      used[i] = true
      for src = 25, 1, -1 do
        local dst = ref_step(b, src, dice[i], cap)
        if dst then
          moved = true
          local save_s, save_d = b[src], b[dst]
          local h = 0
          b[src] = b[src] - 1
          if dst == 0 then b[0] = b[0] + 1
          elseif b[dst] == -1 then b[dst], h = 1, 1
          else b[dst] = b[dst] + 1 end
          ref_walk(b, dice, used, depth + 1, first or dice[i], hits + h, cap, out)
          b[src], b[dst] = save_s, save_d
        end
      end
      used[i] = false
    end
  end
  if not moved then out[#out + 1] = { depth - 1, first, serial(b, hits) } end
end

local function ref_positions(b, d1, d2, cap)
  local dice = d1 == d2 and { d1, d1, d1, d1 } or { d1, d2 }
  local out = {}
  ref_walk(b, dice, {}, 1, nil, 0, cap, out)
  local m, larger = 0, false
  for _, r in ipairs(out) do if r[1] > m then m = r[1] end end
  local hi = math.max(d1, d2)
  for _, r in ipairs(out) do if r[1] == 1 and r[2] == hi then larger = true end end
  local set, n = {}, 0
  if m == 0 then return set, 0 end
  for _, r in ipairs(out) do
    local ok = r[1] == m and not (d1 ~= d2 and m == 1 and larger and r[2] ~= hi)
    if ok and not set[r[3]] then set[r[3]], n = true, n + 1 end
  end
  return set, n
end

local function fast_positions(b, d1, d2, cap)
  local set, n = {}, 0
  for _, opt in ipairs(movegen.moves(b, d1, d2, cap)) do
    local t, hits = movegen.copy(b), 0
    for _, code in ipairs(opt) do
      local dst = (code >> 1) & 31
      local blot = dst ~= 0 and t[dst] == -1
      assert((code & 1 == 1) == blot, "a step's hit flag disagrees with the board")
      hits = hits + movegen.apply(t, { code }, 1)
    end
    local s = serial(t, hits)
    assert(not set[s], "fast generator lists a position twice")
    set[s], n = true, n + 1
  end
  return set, n
end

local random_board = function(kind) return S.random_board(rnd, kind) end

local function describe(b)
  local t = {}
  for p = 0, 25 do t[#t + 1] = p .. ":" .. b[p] end
  return table.concat(t, " ")
end

-- Rounds of random boards and games of positions at the full soak size (K.soak sizes them).
local ROUNDS, GAMES = K.soak(60), K.soak(25)
local compared = 0
for round = 1, ROUNDS do
  local b = random_board(round % 3 + 1)
  for d1 = 1, 6 do
    for d2 = d1, 6 do
      for _, cap in ipairs({ 0, 5 }) do
        if cap == 0 or round % 6 == 0 then
          local want, nw = ref_positions(b, d1, d2, cap)
          local got, ng = fast_positions(b, d1, d2, cap)
          local ok = nw == ng
          for s in pairs(want) do ok = ok and got[s] end
          assert(ok, string.format("roll %d-%d cap %d: %d positions, reference %d; board %s",
            d2, d1, cap, ng, nw, describe(b)))
          compared = compared + 1
        end
      end
    end
  end
end
assert(compared >= 21 * ROUNDS, "compared only " .. compared .. " cases")

-- Positions of random games (the distribution the game meets: races, primes, bear-offs, the
-- bar), each side in turn, one random legal move per roll.
local flipped = S.flipped
local in_games = 0
for _ = 1, GAMES do
  local b, opp_off, opp_bar = {}, 0, 0
  for p = 0, 25 do b[p] = 0 end
  b[24], b[13], b[8], b[6], b[1], b[12], b[17], b[19] = 2, 5, 3, 5, -2, -5, -3, -5
  while b[0] < 15 do
    local d1, d2 = rnd(6), rnd(6)
    local want, nw = ref_positions(b, d1, d2, 0)
    local got, ng = fast_positions(b, d1, d2, 0)
    local ok = nw == ng
    for s in pairs(want) do ok = ok and got[s] end
    assert(ok, string.format("game roll %d-%d: %d positions, reference %d; board %s", d1, d2, ng, nw, describe(b)))
    in_games = in_games + 1
    local moves = movegen.moves(b, d1, d2, 0)
    if #moves > 0 then
      local move = moves[rnd(#moves)]
      opp_bar = opp_bar + movegen.apply(b, move, #move)
    end
    if b[0] == 15 then break end
    b, opp_off, opp_bar = flipped(b, opp_off, opp_bar), b[0], b[25]
  end
end
assert(in_games >= 1500 * GAMES / 25, "compared only " .. in_games .. " positions of games")

-- A full point under max_per_point = 5 accepts a checker once one has left it.
local b = {}
for p = 0, 25 do b[p] = 0 end
b[9], b[5], b[24] = 1, 5, -15
b[0] = 9
local want, nw = ref_positions(b, 4, 4, 5)
local got, ng = fast_positions(b, 4, 4, 5)
assert(nw == ng and nw > 0, "capped 4-4: " .. ng .. " vs " .. nw)
for s in pairs(want) do assert(got[s], "capped 4-4 misses " .. s) end
