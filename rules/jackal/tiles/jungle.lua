-- Jungle (§7.4): no fighting, any teams together, no items (switch jungle_items).
local C = require("jackal.core")
return {
  name = "jungle", code = "jg", count = 3, glyph = "♣",
  help = "Jungle: enemies may stand together here and nobody is hit; no coins may be brought in.",
  hooks = {
    shelter = function() return true end,
    no_hits = function() return true end,
    accepts_items = function(G) return C.sw(G, "jungle_items") == "allowed" end,
  },
}
