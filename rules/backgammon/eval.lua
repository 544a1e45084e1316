-- Backgammon's evaluation for the greedy bot (`bot <seat> greedy`, `sim --bots greedy`): what
-- the game is worth to `seat` with the cube where it is (cube_theory.lua), from a cubeless
-- estimate of its chances.
--
-- The game's own estimate: the chance of winning is a logistic curve of the pip lead (hits
-- count through the pips: a hit checker restarts from the bar), less a few pips per blot; it
-- sees no gammons. `greedy:pubeval` moves by pubeval.lua's score; the cube's decisions are
-- the game's own (the hook `eval_decides`), pubeval knowing no cube.

local layout = require("backgammon.layout")
local pubeval = require("backgammon.pubeval")
local cube_theory = require("backgammon.cube_theory")

local E = {}

-- Pips to bear off and blots (points 1..24 with one checker) of a side in own numbering.
local function pips_blots(side)
  local pips, blots = 0, 0
  for p = 1, 25 do
    pips = pips + p * side[p]
    if p <= 24 and side[p] == 1 then blots = blots + 1 end
  end
  return pips, blots
end

-- The game's own cubeless estimate of `seat`'s chances (no gammons).
---@param G G
---@param seat Seat
---@return Estimate
function E.estimate(G, seat)
  local mine, mb = pips_blots(layout.side(G, seat))
  local theirs, tb = pips_blots(layout.side(G, 3 - seat))
  local lead = theirs - mine + 4 * (tb - mb)
  return { win = 1 / (1 + math.exp(-lead / (8 + (mine + theirs) / 20))) }
end

-- `named`: nil for the game's own worth, or one the game table's `evaluations` declares
-- (`greedy:pubeval`: pubeval.lua's score, which knows no cube; a finished game outranks it).
---@param G G
---@param seat Seat
---@param named string?
---@return number
function E.eval(G, seat, named)
  if named == "pubeval" then
    if G:get("phase") == "over" then
      local final = G:get("final")
      return (final[seat] - final[3 - seat]) * 1e9
    end
    return pubeval.score(G, seat)
  end
  return cube_theory.equity(G, seat, E.estimate(G, seat))
end

return E
