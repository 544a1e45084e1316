-- Trap (§7.3): trapped until an ally arrives (or a rum bottle); acts on every entry.
local C = require("jackal.core")
return {
  name = "trap", code = "tr", count = 3, glyph = "⊗",
  help = "Trap: stuck until a friend steps in (both go free) or a rum bottle frees you.",
  hooks = {
    on_arrive = function(G, l, c)
      if c.who == "fri" then return "rest" end
      if G:get("mv_hit") and C.sw(G, "trap_enemy_entry") == "attacker_free" then return "rest" end
      local V = C.view(G)
      local here = C.occupants(V, l, nil, c.id)
      local friends = false
      for i = 1, #here do
        if C.allied_in(V.sides, c.team, here[i].team) then
          friends = true
          if here[i].trap then
            C.flag(G, here[i].id, "trap", false)
            G:log(here[i].label .. " is freed")
          end
        end
      end
      if not friends then
        C.flag(G, c.id, "trap", true)
        G:log(c.label .. " is trapped")
      end
      return "rest"
    end,
  },
}
