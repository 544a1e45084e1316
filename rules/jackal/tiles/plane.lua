-- Plane (§7.2): one flight per game, to any land cell or an own/allied ship.
local C = require("jackal.core")

local function take_off(G, l)
  C.spend(G, l)
  return C.ask(G, "move", "plane_target", l)
end

return {
  name = "plane", code = "pl", count = 1, glyph = "✈",
  help = "Plane: fly once to any land cell or your ship (now or later); then an empty tile.",
  hooks = {
    one_shot = function() return true end,
    first_moves = function(G, l) if not C.spent(G, l) then return "flight" end end,
    on_arrive = function(G, l)
      if C.spent(G, l) then return "rest" end
      if C.sw(G, "plane_deferred") then return C.ask(G, "pl", "plane_wait", l) end
      return take_off(G, l)
    end,
    choices = function() return { "fly", "wait" } end,
    decide = function(G, l, _, _, answer)
      if answer == "fly" then take_off(G, l) else C.end_move(G) end
    end,
  },
}
