-- Chest with 4 coin(s) (§7.1): on flip, 4 coin(s) are put on it.
local C = require("jackal.core")
return {
  name = "chest_4", code = "c4", count = 2, glyph = "❹",
  help = "Chest: 4 coin(s) appear here when it is turned up.",
  hooks = {
    gold = function() return 4 end,
    on_reveal = function(G, l) C.add_items(G, "coin", l, 4) end,
  },
}
