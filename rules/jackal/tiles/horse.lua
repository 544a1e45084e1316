-- Horse (§7.1): a knight jump to any of the 8 L's; only the landing cell flips.
local C = require("jackal.core")
return {
  name = "horse", code = "hs", count = 2, glyph = "♞",
  help = "Horse: jump like a chess knight (choose the landing cell); only it is turned up.",
  hooks = {
    transit = function() return "jump" end,
    on_arrive = function(G, l) return C.ask(G, "move", "knight_target", l) end,
  },
}
