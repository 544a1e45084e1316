-- House rule "carry into a fight": a pirate may take his coin along onto a cell where he hits
-- an enemy (spec §4.1 and §4.2 rule 5 make him leave it behind): the coin lies there with him
-- after the hit. What else keeps a coin out (a closed tile, a fortress, the jungle) still does.
-- Stacks on may_carry.

local C = require("jackal.core")

return {
  name = "carry_into_fight",
  help = "a pirate may carry his coin onto a cell where he hits an enemy",
  hooks = {
    may_carry = function(base, G, V, c, l, step)
      if base(G, V, c, l, step) then return true end
      local t = C.vt(V, l)
      return t ~= nil and C.th(t, "accepts_items", G, l) ~= false and #C.would_hit(G, V, c, l, step) > 0
    end,
  },
}
