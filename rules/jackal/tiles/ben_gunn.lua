-- Ben Gunn (§7.4, §8): joins the team of the first character to enter the tile.
local C = require("jackal.native")
return {
  name = "ben_gunn", code = "bg", count = 1, glyph = "Ⓑ",
  help = "Ben Gunn joins the finder's team as a fourth fighter.",
  hooks = C.hooks("ben"),
}
