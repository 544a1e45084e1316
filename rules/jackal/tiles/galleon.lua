-- Galleon (§7.4): the treasure (worth 3) appears on it.
local C = require("jackal.core")
return {
  name = "galleon", code = "gl", count = 1, glyph = "$",
  help = "Galleon: the treasure (worth 3 coins) appears here when it is turned up.",
  hooks = {
    gold = function() return 3 end,
    on_reveal = function(G, l) C.add_items(G, "treasure", l, 1) end,
  },
}
