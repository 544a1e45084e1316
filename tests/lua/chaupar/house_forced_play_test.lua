-- variant: own_arm_safe_blocks
-- With two house rules on the `safe` hook (own_arm_castles, then safe_blocks), the view asks
-- the hook (V.safe) and the forced-play fast path still gives the moves of the plain search
-- (forced_play_check.lua): the hook answers from a unit's colour, square and size, which no
-- move of the mover's changes for the opposing pieces it leaves on the board.

local K = require("test_kernel")
local R = require("chaupar.rules")
local M = require("chaupar.moves")
local F = require("forced_play_check")

do
  local G = K.new("chaupar", {})
  hook.setup(G)
  assert(M.view(G, R.read(G)).safe, "the view does not ask the house rules' safe hook")
end

local decisions, compared = F.games({
  { implement = "dice3" }, { implement = "dice2" },
  { implement = "dice3", castle_function = "shared" },
  { implement = "dice3", block_form_by = "team", block_passing = "none" },
}, K.soak(3))
assert(decisions > 500 * K.soak(3) / 3, "too few decisions: " .. decisions)
assert(compared > 500 * K.soak(3) / 3, "too few long-dice decisions compared: " .. compared)
