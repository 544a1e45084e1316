-- Backgammon's evaluation for the greedy bot (`bot <seat> greedy`, `sim --bots greedy`): the
-- equity `seat` may expect, in points, from the race and the blots, times the cube.
--
-- A finished game is worth its final scores. Otherwise the chance of winning is a logistic
-- curve of the pip lead (hits count through the pips: a hit checker restarts from the bar),
-- less a few pips per blot; a double waiting for its answer counts the cube as doubled, so
-- the bot doubles when ahead, and drops when taking would cost more than the cube (spec §6).

local layout = require("backgammon.layout")
local pubeval = require("backgammon.pubeval")

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

-- `named`: nil for the evaluation above, or one the game table's `evaluations` declares
-- (`greedy:pubeval`: pubeval.lua's score, which knows no cube; a finished game outranks it).
function E.eval(G, seat, named)
  if G:get("phase") == "over" then
    local final = G:get("final")
    local points = final[seat] - final[3 - seat]
    return named == "pubeval" and points * 1e9 or points
  end
  if named == "pubeval" then return pubeval.score(G, seat) end
  local mine, mb = pips_blots(layout.side(G, seat))
  local theirs, tb = pips_blots(layout.side(G, 3 - seat))
  local lead = theirs - mine + 4 * (tb - mb)
  local p = 1 / (1 + math.exp(-lead / (8 + (mine + theirs) / 20)))
  local cube = G:get("cube") or 1
  if G:get("phase") == "doubled" then cube = cube * 2 end
  return cube * (2 * p - 1)
end

return E
