-- House rule "rum frees a trapped pirate": a pirate caught in a trap (spec §7.3) drinks a
-- bottle of his side's rum at once (§8, rum_sharing) and walks free, staying on the trap;
-- even where a bottle could not free him later (trap_release = "friend_only"). Without rum,
-- or in a shifted turn (§7.6: nobody may use rum), the trap holds him as usual.
-- Stacks on the trap's on_arrive.

local C = require("jackal.core")

-- Whether c, just caught, may drink himself free now.
local function has_rum(G, c)
  return C.char(G, c.id).trap and not G:get("shifted") and (C.bottles_for(G, c.team)) > 0
end

return {
  name = "rum_frees_trapped",
  help = "a pirate caught in a trap drinks a bottle of rum at once and walks free",
  hooks = {
    ["tr.on_arrive"] = function(base, G, l, c)
      local res = base(G, l, c)
      if has_rum(G, c) then
        C.spend_bottle(G, c.team)
        C.flag(G, c.id, "trap", false)
        G:log(c.label .. " drinks a bottle of rum and walks out of the trap")
      end
      return res
    end,
  },
}
