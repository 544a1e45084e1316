-- Arrow a5 (§7.1): three arrows. Transit: leave at once along one arrow.
local A = require("jackal.arrows")
return {
  name = "arrows_three", code = "a5", count = 3, glyph = "⋔",
  help = "Arrow (5): three arrows; leave at once along one arrow (choose if several).",
  hooks = A.hooks("a5"),
}
