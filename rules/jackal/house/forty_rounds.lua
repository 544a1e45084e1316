-- House rule "forty rounds": the short game some tables play when time is short. After the
-- fortieth round the game ends at once and the gold banked decides it, as at the usual end
-- (spec §9: side scores, the `tiebreak` switch); until then nothing changes.
-- Stacks on `apply` and `chain.done`, the two hooks after which a round can have ended (a
-- move's chance events and mid-move decisions are continuations that end in `chain.done`).

local T = require("jackal.turns")

local LIMIT = 40

-- Ends the game once the round counter passed the limit; nil then asks the kernel for the
-- status afresh.
local function after(G, status)
  if G:get("phase") ~= "over" and (G:get("round") or 1) > LIMIT then
    T.finish(G, LIMIT .. " rounds played")
    return nil
  end
  return status
end

return {
  name = "forty_rounds",
  help = "the game ends after the 40th round; the gold banked decides it",
  hooks = {
    apply = function(base, G, option)
      return after(G, base(G, option))
    end,
    ["chain.done"] = function(base, G)
      return after(G, base(G))
    end,
  },
}
