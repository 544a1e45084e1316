-- Grass (§7.6): one round of shifted control, starting with the next team.
local C = require("jackal.core")

local function fire(G, l)
  C.spend(G, l)
  local n = #G:get("teams")
  if C.sw(G, "grass_duration") == "teams_plus_one" then n = n + 1 end
  G:set("grass", (G:get("grass") or 0) + n)
  G:log("grass: the next " .. n .. " turns are played by the next player")
end

return {
  name = "grass", code = "gr", count = 2, glyph = "⁂",
  help = "Grass: for one round each team's turn is played by the controller of the next team.",
  hooks = {
    one_shot = function() return true end,
    on_reveal = function(G, l, by) if by == "lighthouse" then fire(G, l) end end,
    on_arrive = function(G, l)
      if not C.spent(G, l) then fire(G, l) end
      return "rest"
    end,
  },
}
