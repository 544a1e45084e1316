-- the missionary (§7.4, §8): joins the team of the first character to enter the tile.
local C = require("jackal.native")
return {
  name = "missionary", code = "ms", count = 1, glyph = "✝",
  help = "The missionary joins the finder's team: he cannot carry or fight until he drinks rum.",
  hooks = C.hooks("mis"),
}
