-- The forced-play filter's fast path (moves.lua `fast_actions`, `proven` and `short`) against
-- the plain move generation and plan search, at every long-dice decision of random games of
-- both implements and several readings, and at a position where a block that moves whole
-- meets a throw it cannot use in full; and every option's label typed back to that option
-- (notation.lua).

local K = require("test_kernel")
local R = require("chaupar.rules")
local M = require("chaupar.moves")
local T = require("chaupar.throws")

local function rng(seed)
  return function(n)
    seed = (seed * 6364136223846793005 + 1442695040888963407)
    return ((seed >> 33) % n) + 1
  end
end

local FACES = { dice3 = { 1, 2, 5, 6 }, dice2 = { 1, 3, 4, 6 } }

local function same(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end

local compared = 0 -- long-dice decisions whose move generations were compared

local function check(G)
  local st = hook.status(G)
  if not st.options then return end
  local seen = {}
  for i, o in ipairs(st.options) do
    local l = hook.label(G, o)
    assert(not seen[l], "label twice: " .. l)
    seen[l] = true
    assert(hook.parse(G, l) == i, "label " .. l .. " does not type back to option " .. i)
  end
  if G:get("phase") ~= "act" then return end
  local sw = R.read(G)
  local V = M.view(G, sw)
  local key, entries, used, triple, mover = G:get("dice", "entries", "used", "triple", "mover")
  local entry = T.IMPLEMENTS[sw.implement].entry
  local fast = M.offered(V, { mover }, key, entries, used, entry, triple)
  local plain = M.offered(M.view(G, sw), { mover }, key, entries, used, entry, triple, true)
  assert(same(fast, plain), "fast path and search differ at\n" .. hook.export(G))
  local moves = M.fast_actions(M.view(G, sw), mover, key, entries, entry, {})
  assert(same(moves, M.dice_actions(M.view(G, sw), { mover }, key, entries, entry, triple)),
    "fast and plain move generation differ at\n" .. hook.export(G))
  compared = compared + 1
end

local decisions = 0
for _, case in ipairs({
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
}) do
  for seed = 1, 3 do
    local G = K.new("chaupar", case)
    hook.setup(G)
    local r = rng(seed)
    local faces = FACES[case.implement]
    local st = K.run(G, function(s)
      check(G)
      decisions = decisions + 1
      return r(#s.options)
    end, function()
      local out = {}
      for i = 1, T.IMPLEMENTS[case.implement].count do out[i] = faces[r(#faces)] end
      return out
    end, 20000)
    assert(st.over, "game did not end: " .. tostring(st.prompt or st.chance))
  end
end
assert(decisions > 1000, "too few decisions: " .. decisions)
assert(compared > 1000, "too few long-dice decisions compared: " .. compared)

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
  assert(#plain == 5 and same(fast, plain), "a whole block was proven to take two dice")
end
