-- The forced-play filter's fast path (moves.lua `fast_actions`, `proven` and `short`) against
-- the plain move generation and plan search, at every long-dice decision of random games of
-- both implements and several readings, and at a position where a block that moves whole
-- meets a throw it cannot use in full; and every option's label typed back to that option
-- (notation.lua).

local K = require("test_kernel")
local R = require("chaupar.rules")
local M = require("chaupar.moves")
local T = require("chaupar.throws")
local F = require("forced_play_check")

local decisions, compared = F.games({
  { implement = "dice3" }, { implement = "dice2" },
  { implement = "dice3", block_form_by = "team" }, { implement = "dice3", block_model = "immune_pairs" },
  { implement = "dice3", kill_before_home = "on", castle_set = "none" },
  { implement = "dice3", kill_before_home = "round", castle_set = "none" },
  { implement = "dice2", kill_before_home = "round", block_passing = "none" },
  { implement = "dice2", exact_finish = "off", blocks_split = "off" },
  { implement = "dice3", blocks_split = "off" },
  { implement = "dice3", castle_function = "shared", block_passing = "none" },
  { implement = "dice2", multi_entry = "off", block_model = "none" },
  { implement = "dice3", entry_compulsory = "off", start = "ain_akbari" },
  { implement = "dice3", entry_compulsory = "maximal" }, { implement = "dice2", entry_compulsory = "maximal" },
  { implement = "dice3", entry_compulsory = "maximal", blocks_split = "off" },
}, K.soak(3))
assert(decisions > 1000 * K.soak(3) / 3, "too few decisions: " .. decisions)
assert(compared > 1000 * K.soak(3) / 3, "too few long-dice decisions compared: " .. compared)

-- A block that moves whole (blocks_split=off) gives one die at a time from where it stands:
-- S's block of two on @78 and lone piece on @82 cannot use all of 6 5 1 (spec §8, §10), and the
-- fast path must not prove that they can (it once offered the lone piece's 1 alone).
do
  local G = K.new("chaupar", { implement = "dice3", blocks_split = "off" })
  hook.setup(G)
  hook.import(G, "chaupar 1\nturn S\nS: @78 x2, @82, home 1\n")
  local sw, key = R.read(G), T.key({ 6, 5, 1 })
  local fast = M.offered(M.view(G, sw), { 1 }, key, 0, 0, 6, false)
  local plain = M.offered(M.view(G, sw), { 1 }, key, 0, 0, 6, false, true)
  assert(#plain == 5 and F.same(fast, plain), "a whole block was proven to take two dice")
end
