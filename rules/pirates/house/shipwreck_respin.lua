-- House rule "shipwreck_respin" (spec §15): a drift that would wreck a ship spins once more,
-- and the result decides its fate without moving it. Wind from w: wrecked if the cell one
-- step toward opposite(w) is land or the step cuts between two land cells, else it stays;
-- calm: it stays; hurricane: its direction as hurricane_direction says, then the wind test.
-- Stacks on `drive_ashore` (the spin waits on the pending stack), `wreck_spun` (its
-- continuation) and `hurricane_dir`.

local B = require("pirates.board")
local S = require("pirates.sail")
local T = require("pirates.turns")
local W = require("pirates.weather")

-- Ship p's fate with the wind from w (nil: a calm, it stays).
local function decide(G, p, w)
  local s = B.ship(G, p)
  if w and S.onshore(S.read(G), s, w) then
    G:log("re-spin: " .. s.id .. " is driven ashore")
    hook.shipwreck(G, p)
  else
    G:stat("respin_saved")
    G:log("re-spin: " .. s.id .. " stays off the shore")
  end
end

return {
  name = "shipwreck_respin",
  help = "a ship driven ashore by a hurricane spins once more for its fate",
  hooks = {
    drive_ashore = function(base, G, p)
      if G:get("off_shipwreck_respin") then return base(G, p) end
      G:push({ hook = "wreck_spun", args = { p }, chance = "spin", weights = W.weights_of(G),
        why = B.ship(G, p).id .. " is driven ashore: the re-spin decides" })
    end,
    wreck_spun = function(base, G, outcome, p)
      if outcome[1] == "hurricane" then
        T.ask_direction(G, "wreck", p)
      else
        decide(G, p, W.DIR[outcome[1]])
      end
    end,
    hurricane_dir = function(base, G, what, d, p)
      if what ~= "wreck" then return base(G, what, d, p) end
      decide(G, p, d)
    end,
    house_rules = function(base, G)
      local out = base(G)
      out[#out + 1] = "shipwreck_respin"
      return out
    end,
  },
}
