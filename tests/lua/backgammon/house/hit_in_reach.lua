-- Test house rule for tests/suite/backgammon_house_moves.rs: the mover may hit a blot only while he
-- holds a point (two or more checkers) at most six pips behind it. The answer reads his own
-- checkers, which a move shifts, so the two move generators agree on it only because both
-- judge may_hit on the board before the move (rules.lua, R.may_hit).
return {
  name = "hit_in_reach",
  help = "a blot may be hit only within six pips of a point the mover holds",
  hooks = {
    may_hit = function(base, G, b, to)
      for p = to + 1, math.min(to + 6, 24) do
        if b[p] >= 2 then return base(G, b, to) end
      end
      return false
    end,
  },
}
