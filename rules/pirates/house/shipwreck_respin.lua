-- House rule "shipwreck_respin" (spec §15): a drift that would wreck a ship spins once more,
-- and the result decides its fate without moving it. Wind from w: wrecked if the cell one
-- step toward opposite(w) is land or the step cuts between two land cells, else it stays;
-- calm: it stays; hurricane: its direction as hurricane_direction says, then the wind test.
-- Several ships driven ashore in one drift re-spin in ship order (prop "wreckq").
-- Stacks on `drive_ashore`, `spun` and `hurricane_from`.

local B = require("pirates.board")
local S = require("pirates.sail")
local T = require("pirates.turns")
local W = require("pirates.weather")

-- The first queued ship's fate with the wind from w (nil: it stays), then the next one.
local function decide(G, w)
  local q = G:get("wreckq")
  local p = table.remove(q, 1)
  local s = B.ship(G, p)
  G:set("wreckq", q, "await", #q > 0 and "wreck" or false)
  if w and S.onshore(S.context(G), s, w) then
    G:log("re-spin: " .. s.id .. " is driven ashore")
    hook.shipwreck(G, p)
  else
    G:log("re-spin: " .. s.id .. " stays off the shore")
  end
  if #q == 0 and G:get("phase") ~= "over" then T.finish_drift(G) end
end

return {
  name = "shipwreck_respin",
  help = "a ship driven ashore by a hurricane spins once more for its fate",
  hooks = {
    drive_ashore = function(base, G, p)
      if G:get("off_shipwreck_respin") then return base(G, p) end
      local q = G:get("wreckq")
      q[#q + 1] = p
      G:set("wreckq", q, "await", "wreck")
    end,
    spun = function(base, G, await, o)
      if await ~= "wreck" then return base(G, await, o) end
      if o == "hurricane" then
        T.ask_direction(G, "wreck")
      else
        decide(G, W.DIR[o])
      end
    end,
    hurricane_from = function(base, G, what, d)
      if what ~= "wreck" then return base(G, what, d) end
      decide(G, d)
    end,
    house_rules = function(base, G)
      local out = base(G)
      out[#out + 1] = "shipwreck_respin"
      return out
    end,
  },
}
