-- Rum barrel (§7.3): drunk, the character skips its team's next turn. Every time.
local C = require("jackal.core")
return {
  name = "rum_barrel", code = "rb", count = 4, glyph = "Ⓡ",
  help = "Rum barrel: you are drunk and skip your team's next turn (Friday leaves the game).",
  hooks = {
    on_arrive = function(G, _, c)
      if c.who == "fri" then
        C.leave(G, c, "rum")
        return "done"
      end
      if C.sober_mis(c) then
        C.flag(G, c.id, "conv", true)
        G:log("Mis drinks and becomes a fighter")
      end
      C.flag(G, c.id, "drunk", 2)
      G:log(c.label .. " is drunk")
      return "rest"
    end,
  },
}
