-- House rule "brigantine_row_upwind" (spec §15, §8): in a wind turn a brigantine may also row
-- one cell straight into the wind as its manoeuvre; galleons never may. Stacks on `row_dirs`.

local W = require("pirates.weather")

return {
  name = "brigantine_row_upwind",
  help = "a brigantine may row one cell into the wind",
  hooks = {
    row_dirs = function(base, G, kind, wx)
      local dirs = base(G, kind, wx)
      if G:get("off_brigantine_row_upwind") or kind ~= "brig" or not W.is_wind(wx) then return dirs end
      local out = { table.unpack(dirs) }
      out[#out + 1] = wx
      return out
    end,
    house_rules = function(base, G)
      local out = base(G)
      out[#out + 1] = "brigantine_row_upwind"
      return out
    end,
  },
}
