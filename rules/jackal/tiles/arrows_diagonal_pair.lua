-- Arrow a3 (§7.1): diagonal pair of arrows. Transit: leave at once along one arrow.
local A = require("jackal.arrows")
return {
  name = "arrows_diagonal_pair", code = "a3", count = 3, glyph = "⤢",
  help = "Arrow (3): diagonal pair of arrows; leave at once along one arrow (choose if several).",
  hooks = A.hooks("a3"),
}
