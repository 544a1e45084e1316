-- Helpers shared by the backgammon rule tests: scenario boards in the notation of spec §12
-- ("P{13:1, 2:-2}": X's numbering, negative = O, unlisted checkers off) and list checks.
-- Needs `rules/` and this folder on the module path, and the kernel's `json` global.

local movegen = require("backgammon.movegen")
local notation = require("backgammon.notation")
local position = require("backgammon.position")

local S = {}

-- The position of a scenario with X on roll: sides in own numbering (see position.lua).
function S.position(points, bar, n)
  n = n or 15
  local me, opp = position.empty_side(), position.empty_side()
  for p, v in pairs(points) do
    if v > 0 then me[p] = v else opp[25 - p] = -v end
  end
  me[25], opp[25] = bar and bar[1] or 0, bar and bar[2] or 0
  local cm, co = 0, 0
  for p = 1, 25 do cm, co = cm + me[p], co + opp[p] end
  me[0], opp[0] = n - cm, n - co
  assert(me[0] >= 0 and opp[0] >= 0, "scenario has more than " .. n .. " checkers a side")
  return { me = me, opp = opp, on_roll = "x", cube = { value = 1, owner = "center" },
    match = { length = 0, score = { 0, 0 }, crawford = false } }
end

-- Mover-oriented board of a scenario with X on roll.
function S.board(points, bar)
  return position.mover_board(S.position(points, bar))
end

S.START = { [24] = 2, [13] = 5, [8] = 3, [6] = 5, [1] = -2, [12] = -5, [17] = -3, [19] = -5 }

-- Canonical labels of all legal moves, sorted in byte order.
function S.labels(b, d1, d2, cap)
  local list = notation.entries(b, d1, d2, cap)
  local out = {}
  for i, e in ipairs(list) do out[i] = e.label end
  table.sort(out)
  return out
end

-- Asserts that two lists of strings are equal, showing both on failure.
function S.same(got, want, what)
  local ok = #got == #want
  for i = 1, math.max(#got, #want) do ok = ok and got[i] == want[i] end
  assert(ok, string.format("%s:\n  got  [%s]\n  want [%s]", what, table.concat(got, ", "), table.concat(want, ", ")))
end

-- Asserts that f() raises an error whose message contains `needle` (plain text).
function S.raises(f, needle, what)
  local ok, err = pcall(f)
  assert(not ok, what .. ": expected an error")
  assert(tostring(err):find(needle, 1, true), string.format("%s: error %q lacks %q", what, tostring(err), needle))
  return err
end

-- A deterministic generator (the sandbox has no math.random): rnd(n) gives 1..n.
function S.random(seed)
  return function(n)
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n + 1
  end
end

-- A random mover-oriented board: kind 1 contact, 2 the mover bearing off, 3 the mover on the bar.
function S.random_board(rnd, kind)
  local b = {}
  for p = 0, 25 do b[p] = 0 end
  for _ = 1, 15 do
    local r = rnd(20)
    if kind == 3 and r <= 3 then b[25] = b[25] + 1
    elseif kind == 2 and r <= 6 then b[0] = b[0] + 1
    else
      local p = kind == 2 and rnd(6) or rnd(24)
      b[p] = b[p] + 1
    end
  end
  local placed = 0
  while placed < 15 do
    local p = rnd(24)
    if b[p] <= 0 then b[p], placed = b[p] - 1, placed + 1 end
  end
  return b
end

-- The board `b` from the opponent's side, who has `opp_off` off and `opp_bar` on the bar.
function S.flipped(b, opp_off, opp_bar)
  local t = {}
  for p = 1, 24 do t[p] = -b[25 - p] end
  t[0], t[25] = opp_off, opp_bar
  return t
end

-- A board as text: its places 0..25.
function S.board_text(b)
  local t = {}
  for p = 0, 25 do t[#t + 1] = b[p] end
  return table.concat(t, ",")
end

-- The board `b` after the move `pack` (movegen.lua), as text.
function S.after(b, pack)
  local t = movegen.copy(b)
  local codes, n = movegen.unpack(pack)
  movegen.apply(t, codes, n)
  return S.board_text(t)
end

-- Raises unless the move lists `a` and `b` (packs, for the roll d1, d2 from `board`) reach
-- the same position at every index; `names` says which lists they are.
function S.same_moves(board, d1, d2, a, b, names)
  local ok = #a == #b
  for i = 1, #a do ok = ok and S.after(board, a[i]) == S.after(board, b[i]) end
  if ok then return end
  local x, y = {}, {}
  for i, p in ipairs(a) do x[i] = S.after(board, p) end
  for i, p in ipairs(b) do y[i] = S.after(board, p) end
  error(string.format("roll %d-%d on %s:\n %s: %s\n %s: %s", d1, d2, S.board_text(board),
    names[1], table.concat(x, " | "), names[2], table.concat(y, " | ")))
end

-- Number of distinct resulting positions, counted by the fast generator.
function S.count(b, d1, d2, cap)
  return #movegen.moves(b, d1, d2, cap)
end

return S
