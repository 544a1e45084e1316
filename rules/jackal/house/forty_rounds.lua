-- House rule "forty rounds": the short game some tables play when time is short. After the
-- fortieth round the game ends at once and the gold banked decides it, as at the usual end
-- (spec §9: side scores, the `tiebreak` switch); until then nothing changes.
-- Stacks on `apply` and `chance`, the two hooks after which a round can have ended.

local T = require("jackal.turns")

local LIMIT = 40

local function after(G)
  if G:get("phase") ~= "over" and (G:get("round") or 1) > LIMIT then
    T.finish(G, LIMIT .. " rounds played")
  end
end

return {
  name = "forty_rounds",
  help = "the game ends after the 40th round; the gold banked decides it",
  hooks = {
    apply = function(base, G, option)
      base(G, option)
      after(G)
    end,
    chance = function(base, G, name, outcome)
      base(G, name, outcome)
      after(G)
    end,
  },
}
