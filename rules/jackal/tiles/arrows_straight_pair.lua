-- Arrow a4 (§7.1): straight pair of arrows. Transit: leave at once along one arrow.
local A = require("jackal.arrows")
return {
  name = "arrows_straight_pair", code = "a4", count = 3, glyph = "↔",
  help = "Arrow (4): straight pair of arrows; leave at once along one arrow (choose if several).",
  hooks = A.hooks("a4"),
}
