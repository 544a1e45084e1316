-- Arrow a1 (§7.1): single straight arrow. Transit: leave at once along one arrow.
local A = require("jackal.arrows")
return {
  name = "arrow_straight", code = "a1", count = 3, glyph = "↑",
  help = "Arrow (1): single straight arrow; leave at once along one arrow (choose if several).",
  hooks = A.hooks("a1"),
}
