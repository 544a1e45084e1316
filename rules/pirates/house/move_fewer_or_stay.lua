-- House rule "move_fewer_or_stay" (spec §15, §7): a ship may sail any distance from 1 to the
-- wind's maximum, and any ship may stay put (`end` is never refused for want of sailing).
-- Stacks on `stop_short` and `must_sail`; a position's `house -move_fewer_or_stay` turns it off.

return {
  name = "move_fewer_or_stay",
  help = "sail 1 to the maximum distance, or stay put",
  hooks = {
    stop_short = function(base, G)
      if G:get("off_move_fewer_or_stay") then return base(G) end
      return true
    end,
    must_sail = function(base, G)
      if G:get("off_move_fewer_or_stay") then return base(G) end
      return false
    end,
    house_rules = function(base, G)
      local out = base(G)
      out[#out + 1] = "move_fewer_or_stay"
      return out
    end,
  },
}
