-- Chest with 3 coin(s) (§7.1): on flip, 3 coin(s) are put on it.
local C = require("jackal.core")
return {
  name = "chest_3", code = "c3", count = 3, glyph = "❸",
  help = "Chest: 3 coin(s) appear here when it is turned up.",
  hooks = {
    gold = function() return 3 end,
    on_reveal = function(G, l) C.add_items(G, "coin", l, 3) end,
  },
}
