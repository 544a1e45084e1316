-- Toll bridge (a house tile, not in the boxes of §2: the variant `toll_bridge` deals two):
-- a pirate of a team with no gold in its ship's hold may not step on it (a chain that carries
-- him there, or turning it up himself, kills him as a forbidden cell does, §4.3); one who
-- does pays one coin from the hold to the team that plays next, so no gold leaves play.
local C = require("jackal.core")

return {
  name = "toll_bridge", count = 0, glyph = "≠",
  help = "Toll bridge: costs one banked coin, paid to the team that plays next.",
  hooks = {
    may_enter = function(G, _, c)
      return c.team == 0 or G:get("bank")[c.team] > 0
    end,
    on_arrive = function(G, _, c)
      local to = C.team_after(G:get("teams"), c.team)
      if c.team == 0 or to == nil or to == c.team then return "rest" end
      C.add_bank(G, c.team, -1)
      C.add_bank(G, to, 1)
      G:log(c.label .. " pays a coin of toll to " .. C.team_name(to))
      return "rest"
    end,
  },
}
