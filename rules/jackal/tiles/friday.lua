-- Friday (§7.4, §8): joins the team of the first character to enter the tile.
local C = require("jackal.native")
return {
  name = "friday", code = "fr", count = 1, glyph = "Ⓕ",
  help = "Friday joins the finder's team: he carries but never hits; the hitter wins him over.",
  hooks = C.hooks("fri"),
}
