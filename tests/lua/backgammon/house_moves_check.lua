-- Issue 16, item 1, run in the rules of a movement house rule (a variant's, or the test rule
-- house/hit_in_reach.lua) by tests/suite/backgammon_house_moves.rs (globals new_state(): a new
-- game state without the cube, before setup; and positions: 10,000 at the full soak size). On
-- at least `positions` positions
-- (decisions of random games, each with the roll played and another):
-- - the moves the game offers (turn.moves: the fast generator as far as rules.fast_dice and
--   rules.shield allow) reach the positions the moves built from the hooks (moves.lua) reach,
--   in the same order;
-- - those are the positions of a plain enumeration of every sequence of hook.step over
--   every order of the dice of hook.dice_to_play, kept as spec §4 says, each once, with
--   may_hit judged on the board before the move (rules.start).
-- Returns on how many positions a legal move changes hook.may_hit's answer for a blot it
-- leaves standing (an override reading the mover's checkers).

local layout = require("backgammon.layout")
local movegen = require("backgammon.movegen")
local moves = require("backgammon.moves")
local rules = require("backgammon.rules")
local turn = require("backgammon.turn")
local S = require("bg_support")

local rnd = S.random(2026)

-- A roll of two dice. (Two calls of rnd(6) in a row never give a double: the generator's low
-- bits repeat with a short period.)
local function roll()
  local r = rnd(36) - 1
  return r // 6 + 1, r % 6 + 1
end

-- Plays from -> to (0 = off) on `b`, hitting a lone opposing checker; returns what to restore.
local function play(b, from, to)
  local v, w = b[from], b[to]
  b[from], b[to] = v - 1, (to > 0 and w == -1) and 1 or w + 1
  return v, w
end

-- Every end of a sequence of hook.step from `b` with the dice not in `used` (equal dice are
-- interchangeable: only the first unused one of a value is tried) as out[text] = { dice
-- played, first die }. A board reached again with the same dice used ends alike (`done`).
local function walk(G, b, dice, used, depth, first, out, done)
  local text = S.board_text(b) .. "/" .. used
  if done[text] then return end
  done[text] = true
  local moved, tried = false, {}
  for i = 1, #dice do
    local d = dice[i]
    if used & (1 << i) == 0 and not tried[d] then
      tried[d] = true
      for from = 25, 1, -1 do
        local to = b[from] > 0 and hook.step(G, b, from, d)
        if to then
          moved = true
          local v, w = play(b, from, to)
          walk(G, b, dice, used | (1 << i), depth + 1, first or d, out, done)
          b[from], b[to] = v, w
        end
      end
    end
  end
  if not moved then out[#out + 1] = { depth - 1, first, S.board_text(b) } end
end

-- The positions of the legal moves (spec §4: the most dice; of a non-double of which one die
-- can be played, the larger if it can), as a set, and their number.
local function plain(G, b, d1, d2)
  local dice, ends = hook.dice_to_play(G, d1, d2), {}
  walk(G, rules.start(G, b), dice, 0, 1, nil, ends, {})
  local most, larger = 0, nil
  for _, e in ipairs(ends) do most = math.max(most, e[1]) end
  for _, e in ipairs(ends) do
    if d1 ~= d2 and most == 1 and e[2] == math.max(d1, d2) then larger = e[2] end
  end
  local set, n = {}, 0
  for _, e in ipairs(ends) do
    if most > 0 and e[1] == most and (not larger or e[2] == larger) and not set[e[3]] then
      set[e[3]], n = true, n + 1
    end
  end
  return set, n
end

local NAMES = { "offered", "readable" }
local compared, shielded, few, changed = 0, 0, 0, 0

-- Whether one of the moves `packs` from `b` leaves a blot of `b` standing with another answer
-- of hook.may_hit than on `b` (the mover's checkers moved under it).
local function changes_may_hit(G, b, packs)
  for _, pack in ipairs(packs) do
    local after = movegen.copy(b)
    local codes, n = movegen.unpack(pack)
    movegen.apply(after, codes, n)
    for p = 1, 24 do
      if b[p] == -1 and after[p] == -1 and hook.may_hit(G, after, p) ~= hook.may_hit(G, b, p) then
        return true
      end
    end
  end
  return false
end

-- The roll d1, d2 for the player on roll in G's position, three ways.
local function compare(G, d1, d2, offered)
  local seat = G:current()
  local b = layout.board(G, seat)
  local readable = moves.moves(G, b, d1, d2)
  S.same_moves(b, d1, d2, offered or turn.moves(G, seat, d1, d2), readable, NAMES)
  local want, n = plain(G, b, d1, d2)
  local ok = n == #readable
  for _, p in ipairs(readable) do ok = ok and want[S.after(b, p)] end
  if not ok then
    error(string.format("roll %d-%d on %s: %d moves, the plain enumeration %d", d1, d2,
      S.board_text(b), #readable, n))
  end
  compared = compared + 1
  if rules.shield(G, b, rules.blots(b)) ~= 0 then shielded = shielded + 1 end
  if changes_may_hit(G, b, readable) then changed = changed + 1 end
  if d1 == d2 and rules.fast_dice(G, d1, d2) ~= 4 then few = few + 1 end
end

while compared < positions do
  local G = new_state()
  hook.setup(G)
  local st = hook.status(G)
  while not st.over do
    if st.chance then
      hook.chance(G, st.chance, { roll() })
    else
      local d = turn.dice(G)
      if d and math.type(st.options[1]) == "integer" then
        compare(G, d[1], d[2], st.options)
        compare(G, roll())
      end
      hook.apply(G, st.options[rnd(#st.options)])
    end
    st = hook.status(G)
  end
end

-- The house rule matters on some of the positions.
if hook.may_hit ~= rules.may_hit then assert(shielded >= positions / 10, "blots shielded " .. shielded) end
if hook.dice_to_play ~= rules.dice_to_play then assert(few >= positions / 10, "short doubles " .. few) end

return changed
