-- Arrow a7 (§7.1): four diagonal arrows. Transit: leave at once along one arrow.
local A = require("jackal.arrows")
return {
  name = "arrows_diagonal_four", code = "a7", count = 3, glyph = "✕",
  help = "Arrow (7): four diagonal arrows; leave at once along one arrow (choose if several).",
  hooks = A.hooks("a7"),
}
