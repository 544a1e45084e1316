-- Arrow a2 (§7.1): single diagonal arrow. Transit: leave at once along one arrow.
local A = require("jackal.arrows")
return {
  name = "arrow_diagonal", code = "a2", count = 3, glyph = "↗",
  help = "Arrow (2): single diagonal arrow; leave at once along one arrow (choose if several).",
  hooks = A.hooks("a2"),
}
