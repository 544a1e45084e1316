-- Cannibal (§7.1): whoever arrives dies (Friday is immune); he hits nobody first.
local C = require("jackal.core")
return {
  name = "cannibal", code = "cn", count = 1, glyph = "☠",
  help = "Cannibal: you die here and your coin is lost. Friday is immune.",
  hooks = {
    no_hits = function(_, _, c) return c.who ~= "fri" end,
    on_arrive = function(G, _, c)
      if c.who == "fri" then return "rest" end
      C.kill(G, c, C.sw(G, "cannibal_item") == "stays" and "stays" or "lost", "the cannibal")
      return "done"
    end,
  },
}
