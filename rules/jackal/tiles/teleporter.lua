-- Teleporter (a house tile, not in the boxes of §2: the variant `teleporters` deals a pair):
-- whoever stops on one while the other lies face up is carried to the other and arrives there
-- as after any move (§4.2: hits, fortresses and the forbidden-cell rule apply there); he
-- stays where he is while the other is face down. Arriving by teleport carries no further.
local B = require("jackal.board")
local C = require("jackal.core")

return {
  name = "teleporter", count = 0, glyph = "⊙",
  help = "Teleporter: carries whoever stops on it to the other teleporter, once that is face up.",
  hooks = {
    on_arrive = function(G, l, c)
      if G:get("mv_type") == "teleport" then return "rest" end
      local to = C.open_cells(G, "teleporter", l)[1]
      if not to then return "rest" end
      G:log(c.label .. " is teleported from " .. B.name(l) .. " to " .. B.name(to))
      return { to = to, type = "teleport" }
    end,
  },
}
