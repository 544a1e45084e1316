-- Jackal's evaluation for the greedy bot (`bot <seat> greedy`, `sim --bots greedy`): how far
-- the side `seat` plays for leads in gold (§9), in coins.
--
-- Banked gold counts in full against the best other side; loose gold where one of the side's
-- living characters stands counts half (it may be carried to the ship); each living
-- character of the side counts a tenth of a coin, each of another side's a tenth against.

local C = require("jackal.core")

local E = {}

-- The side `seat` plays for (nil when it plays none), the gold that side has banked and the
-- most any other side has (§9): the lead the greedy measure, the learned inputs and the
-- learned gold outcome all count from.
---@param G G
---@param seat Seat
---@return integer? side, number own, number best
function E.side_gold(G, seat)
  local bank, ctrl, sides = G:get("bank"), G:get("ctrl"), G:get("sides")
  local mine
  for t = 1, 4 do
    if ctrl[t] == seat then mine = sides[t] end
  end
  local gold, best = {}, 0
  for t = 1, 4 do
    if sides[t] ~= 0 then gold[sides[t]] = (gold[sides[t]] or 0) + bank[t] end
  end
  for s, g in pairs(gold) do
    if s ~= mine and g > best then best = g end
  end
  return mine, mine and gold[mine] or 0, best
end

-- V: the view of the state where the caller has it (the learned inputs do), else read here.
---@param G G
---@param seat Seat
---@param V table?
---@return number
function E.eval(G, seat, V)
  local mine, own, best = E.side_gold(G, seat)
  if not mine then return 0 end
  local sides = G:get("sides")
  local value = own - best
  V = V or C.view(G)
  local ours = {}
  for i = 1, #V.chars do
    local c = V.chars[i]
    if c.team ~= 0 and C.alive(c) then
      local own = sides[c.team] == mine
      value = value + (own and 0.1 or -0.1)
      if own then ours[c.loc] = true end
    end
  end
  for _, kind in ipairs({ "coin", "treasure" }) do
    for _, p in ipairs(G:pieces(nil, kind)) do
      if ours[G:where(p)] then value = value + 0.5 * C.VALUE[kind] end
    end
  end
  return value
end

return E
