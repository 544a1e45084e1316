-- Chest with 2 coin(s) (§7.1): on flip, 2 coin(s) are put on it.
local C = require("jackal.core")
return {
  name = "chest_2", code = "c2", count = 5, glyph = "❷",
  help = "Chest: 2 coin(s) appear here when it is turned up.",
  hooks = {
    gold = function() return 2 end,
    on_reveal = function(G, l) C.add_items(G, "coin", l, 2) end,
  },
}
