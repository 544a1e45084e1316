-- Chest with 1 coin(s) (§7.1): on flip, 1 coin(s) are put on it.
local C = require("jackal.core")
return {
  name = "chest_1", code = "c1", count = 5, glyph = "❶",
  help = "Chest: 1 coin(s) appear here when it is turned up.",
  hooks = {
    gold = function() return 1 end,
    on_reveal = function(G, l) C.add_items(G, "coin", l, 1) end,
  },
}
