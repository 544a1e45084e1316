-- House rule "safe gold": gold is carried only out of an enemy's reach: nobody may bring a coin
-- onto a cell where an enemy stands or next to one (spec §4.1 allows it next to one; a ship
-- still banks it). Stacks on may_carry.

local B = require("jackal.board")
local C = require("jackal.core")

-- Whether an enemy of c stands at l or next to it.
local function in_reach(V, c, l)
  if #C.enemies_at(V, c, l, nil) > 0 then return true end
  local near = B.neighbours(l)
  for i = 1, #near do
    if #C.enemies_at(V, c, near[i], nil) > 0 then return true end
  end
  return false
end

return {
  name = "safe_gold",
  help = "no coin may be carried onto a cell where an enemy stands or next to one",
  hooks = {
    may_carry = function(base, G, V, c, l, step)
      return base(G, V, c, l, step) and not in_reach(V, c, l)
    end,
  },
}
