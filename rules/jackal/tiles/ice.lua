-- Ice (§4.4): repeat the last motion.
local B = require("jackal.board")
local C = require("jackal.core")
return {
  name = "ice", code = "ic", count = 6, glyph = "❄",
  help = "Ice: slide on, repeating the last motion (a step, a knight jump, a flight).",
  hooks = {
    transit = function() return "repeat" end,
    on_arrive = function(G, l)
      local kind, dx, dy = G:get("mv_type"), G:get("mv_dx"), G:get("mv_dy")
      if kind == "flight" then return C.ask(G, "move", "plane_target", l) end
      if kind == "knight" then
        if C.sw(G, "ice_after_horse") == "any_jump" then
          return C.ask(G, "move", "knight_target", l)
        end
        local t = B.add(l, dx, dy)
        if not t or not C.contains(C.knight_cells(G, l), t) then
          C.kill(G, C.mover(G), "start", "no way out")
          return "done"
        end
      end
      local t = B.add(l, dx, dy)
      if not t then
        C.kill(G, C.mover(G), "start", "no way out")
        return "done"
      end
      return { to = t, type = kind, dx = dx, dy = dy }
    end,
  },
}
