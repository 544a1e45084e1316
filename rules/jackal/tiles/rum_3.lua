-- Rum bottles (3) (§7.4, §8): the bottles go to the finder's team supply.
local R = require("jackal.native")
return {
  name = "rum_3", code = "r3", count = 1, glyph = "ⅲ",
  help = "Rum: 3 bottle(s) for the finder's team (Friday drinks one and leaves, the missionary converts).",
  hooks = R.rum_hooks(3),
}
