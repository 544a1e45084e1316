-- House rule "the ace-point is safe": a lone checker on its owner's 1-point cannot be hit,
-- so the opponent may not land there (spec §3). The mover sees that point as his 24-point,
-- which a checker entering from the bar with a 1 also reaches. may_hit is judged on the board
-- before the move, which the fast move generator follows (rules.lua), so it still serves.
return {
  name = "safe_ace_point",
  help = "a blot on its owner's ace point cannot be hit",
  hooks = {
    may_hit = function(base, G, b, to)
      return to ~= 24 and base(G, b, to)
    end,
  },
}
