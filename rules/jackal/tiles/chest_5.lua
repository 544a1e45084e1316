-- Chest with 5 coin(s) (§7.1): on flip, 5 coin(s) are put on it.
local C = require("jackal.core")
return {
  name = "chest_5", code = "c5", count = 1, glyph = "❺",
  help = "Chest: 5 coin(s) appear here when it is turned up.",
  hooks = {
    gold = function() return 5 end,
    on_reveal = function(G, l) C.add_items(G, "coin", l, 5) end,
  },
}
