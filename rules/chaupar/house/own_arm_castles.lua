-- House rule "castles guard their own arm": a piece is safe only in the arm of its own colour.
-- The castles of the three other arms are ordinary squares for it: an opponent may land there
-- and capture it (spec §12, with the castles of §3). Stacks on `safe`: whatever the rules below
-- make safe (a castle, or a house rule under this one) holds in the piece's own arm alone.

local B = require("chaupar.board")

return {
  name = "own_arm_castles",
  help = "a piece is safe only in its own colour's arm: other arms' castles do not guard it",
  hooks = {
    safe = function(base, sw, o, q, k)
      return B.ARM[q] == o and base(sw, o, q, k)
    end,
  },
}
