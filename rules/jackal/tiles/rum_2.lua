-- Rum bottles (2) (§7.4, §8): the bottles go to the finder's team supply.
local R = require("jackal.native")
return {
  name = "rum_2", code = "r2", count = 2, glyph = "ⅱ",
  help = "Rum: 2 bottle(s) for the finder's team (Friday drinks one and leaves, the missionary converts).",
  hooks = R.rum_hooks(2),
}
