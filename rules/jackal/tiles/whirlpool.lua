-- Whirlpool (a house tile, not in the boxes of §2: the variant `whirlpool` deals two): whoever
-- ends a step on it is swept to a sea cell drawn by the tile's own randomizer, and arrives
-- there as after any move (§4.2: he swims, boards his own ship, or dies at an enemy's; a
-- carried coin sinks).
local B = require("jackal.board")
local C = require("jackal.core")

return {
  name = "whirlpool", count = 0, glyph = "@",
  help = "Whirlpool: sweeps whoever stops on it to a random sea cell.",
  randomizers = {
    -- the 52 sea cells of the board, in reading order (board.lua's B.SEA)
    whirlpool = { kind = "orientation", count = #B.SEA },
  },
  hooks = {
    on_arrive = function(G, l, c)
      return C.draw(G, "whirlpool", "whirlpool", l, c.label .. " is caught in the whirlpool")
    end,
    on_draw = function(G, l, outcome, c) -- outcome = { k }, 0 <= k < 52
      local to = B.SEA[outcome[1] + 1]
      G:log(c.label .. " is swept from " .. B.name(l) .. " to " .. B.name(to))
      return { to = to, type = "whirl" }
    end,
  },
}
