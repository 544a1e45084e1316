-- Arrow a6 (§7.1): four straight arrows. Transit: leave at once along one arrow.
local A = require("jackal.arrows")
return {
  name = "arrows_straight_four", code = "a6", count = 3, glyph = "✛",
  help = "Arrow (6): four straight arrows; leave at once along one arrow (choose if several).",
  hooks = A.hooks("a6"),
}
