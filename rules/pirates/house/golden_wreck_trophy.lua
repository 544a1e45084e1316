-- House rule "golden_wreck_trophy" (spec §15; mode: switch trophy_mode, control | transfer):
-- a wrecked golden ship stays on its cell as a derelict, revealed and nobody's, never
-- moving, unable to fire or be fired at, still occupying its cell. A ship that ends a
-- manoeuvre, a carry or its turn next to it claims it: `control` hands the derelict to the
-- claimer (holes unchanged, acting from the claimer's next turn); `transfer` makes the
-- claiming ship the golden one, and its side counts as the original side for recapture.
-- Stacks on `shipwreck` and `settled`; prop "derelict" says whether a derelict lies at sea.

local B = require("pirates.board")
local Gd = require("pirates.golden")
local P = require("pirates.players")

local function claim(G, p)
  local gold = Gd.id(G)
  if not gold or gold == p or not B.ship(G, gold).der then return end
  local d, s, w = B.ship(G, gold), B.ship(G, p), G:get("w")
  if math.max(math.abs(d.pos % w - s.pos % w), math.abs(d.pos // w - s.pos // w)) ~= 1 then return end
  if G:get("sw_trophy_mode") == "transfer" then
    B.remove(G, gold)
    G:set("derelict", false)
    Gd.set(G, p, true)
    G:set("gold_side", s.side)
    G:log(s.id .. " claims the golden galleon's treasure: " .. s.id .. " is now the golden ship")
  else
    B.hand_over(G, gold, s.seat, s.side)
    B.update(G, gold, "der", false, "frozen", true)
    G:set("derelict", false)
    G:log(P.name(G, s.seat) .. " claims the derelict " .. d.id)
  end
end

return {
  name = "golden_wreck_trophy",
  help = "a wrecked golden ship stays as a derelict trophy for the first ship to reach it",
  hooks = {
    shipwreck = function(base, G, p)
      if G:get("off_golden_wreck_trophy") or Gd.id(G) ~= p then return base(G, p) end
      B.hand_over(G, p, 0, "none")
      B.update(G, p, "der", true, "moved", false, "fired", false, "rep", false, "frozen", false)
      G:set("derelict", true)
      G:log(B.ship(G, p).id .. " is wrecked and lies a derelict")
      Gd.reveal(G, "wrecked")
    end,
    settled = function(base, G, p)
      base(G, p)
      local off, derelict = G:get("off_golden_wreck_trophy", "derelict")
      if not off and derelict then claim(G, p) end
    end,
    house_rules = function(base, G)
      local out = base(G)
      out[#out + 1] = "golden_wreck_trophy"
      return out
    end,
  },
}
