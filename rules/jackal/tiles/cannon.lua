-- Cannon (§7.2): fly along the barrel to the first sea cell beyond the island.
local A = require("jackal.arrows")
local B = require("jackal.board")
local C = require("jackal.core")
return {
  name = "cannon", code = "gu", count = 2, glyph = "⇑",
  help = "Cannon: shot along the barrel into the sea (or onto a ship there).",
  hooks = {
    transit = function() return "shot" end,
    rotations = function() return 4 end,
    exits = function(G, l) return A.exits("gu", C.rot(G, l)) end,
    code = function(_, _, r) return A.code("gu", r) end,
    glyph = function(G, l) return A.glyph("gu", C.rot(G, l)) end,
    on_arrive = function(G, l)
      local d = B.DIRS[A.exits("gu", C.rot(G, l))[1]]
      local t = l
      repeat t = B.add(t, d[1], d[2]) until B.is_sea(t)
      return C.motion(l, t, "cannon")
    end,
  },
}
