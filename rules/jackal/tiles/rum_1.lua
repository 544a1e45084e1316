-- Rum bottles (1) (§7.4, §8): the bottles go to the finder's team supply.
local R = require("jackal.native")
return {
  name = "rum_1", code = "r1", count = 3, glyph = "ⅰ",
  help = "Rum: 1 bottle(s) for the finder's team (Friday drinks one and leaves, the missionary converts).",
  hooks = R.rum_hooks(1),
}
