-- Caramba (§7.4): by default no game effect; switch caramba.
local B = require("jackal.board")
local C = require("jackal.core")

local function fire(G, l)
  C.spend(G, l)
  local mode = C.sw(G, "caramba")
  if mode == "remove" then
    -- spent, it is an empty tile (it stays "ca-" so that the pack stays whole)
    G:log("Caramba! the tile is now empty")
  elseif mode == "all_to_ships" then
    G:log("Caramba! everyone on land returns to the ships")
    local V = C.view(G)
    for i = 1, #V.chars do
      local c = V.chars[i]
      local ship = V.ships[c.team] or 0
      if B.is_land(c.loc) and c.team ~= 0 and ship ~= 0 then
        if c.id == G:get("mv_ch") and G:get("mv_live") then C.end_move(G) end
        C.place(G, c, ship, 0)
        C.clear_flags(G, c.id)
      end
    end
  else
    G:log("Caramba! the pirate swears, and nothing happens (the switch caramba gives the tile an effect)")
  end
end

return {
  name = "caramba", code = "ca", count = 1, glyph = "!",
  help = "Caramba: the pirate swears (switch caramba: all to ships, or an empty tile).",
  hooks = {
    one_shot = function() return true end,
    glyph = function(G, l)
      if C.spent(G, l) and C.sw(G, "caramba") == "remove" then return "·" end
      return "!"
    end,
    on_reveal = function(G, l, by) if by == "lighthouse" then fire(G, l) end end,
    on_arrive = function(G, l)
      if not C.spent(G, l) then fire(G, l) end
      return "rest"
    end,
  },
}
