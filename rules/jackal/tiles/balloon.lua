-- Balloon (§7.2): to the character's own team's ship, with its item. Every time.
local C = require("jackal.core")
return {
  name = "balloon", code = "bl", count = 2, glyph = "○",
  help = "Balloon: flies you (and your coin) to your own ship.",
  hooks = {
    transit = function() return "ship" end,
    on_arrive = function(G, l, c)
      local ship = G:get("ships")[c.team] or 0
      if ship == 0 then return "rest" end
      return C.motion(l, ship, "flight")
    end,
  },
}
