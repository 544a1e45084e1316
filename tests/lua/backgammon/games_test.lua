-- Random games on the rule flow (fake kernel): invariants after every step (checkers per side,
-- one colour per point, max_per_point), labels distinct and typed back to their own option,
-- the options equal the machine interface's list (B34 self-check), matches end with a winner,
-- and the same seed gives the same game (B35).

local K = require("test_kernel")
local F = require("flow_support")
local game = require("backgammon.game")

local rng = K.rng

local function check_decision(G, st)
  local labels, seen = {}, {}
  for i, o in ipairs(st.options) do
    local l = hook.label(G, o)
    assert(not seen[l], "label twice: " .. l)
    seen[l], labels[i] = true, l
    assert(hook.parse(G, l) == i, "label " .. l .. " does not type back to option " .. i)
  end
  if G:get("phase") ~= "move" then return end
  local a, b = G:get("die1", "die2")
  local line = hook.machine_moves(G, { position = hook.export(G), dice = a .. b })
  local listed = {}
  for m in line:gmatch('"move":"([^"]*)"') do listed[#listed + 1] = m end
  table.sort(labels)
  assert(#listed == #labels, "machine interface lists " .. #listed .. " moves, options " .. #labels)
  for i = 1, #labels do assert(listed[i] == labels[i], "machine " .. listed[i] .. " vs option " .. labels[i]) end
end

-- Plays one game; returns the final status, the number of decisions and the log.
local function play(switches, seed, deep)
  local G = F.new(switches)
  local r = rng(seed)
  local cap = switches and switches.max_per_point or 0
  local steps = 0
  while true do
    local st = hook.status(G)
    if st.over then return st, steps, K.logs(G) end
    if st.chance then
      hook.chance(G, st.chance, { r(6), r(6) })
    else
      assert(#st.options > 0, "a decision without options")
      if deep then check_decision(G, st) end
      hook.apply(G, st.options[r(#st.options)])
      steps = steps + 1
    end
    local bad = hook.invariant(G)
    assert(not bad, "invariant: " .. tostring(bad))
    if cap > 0 then
      for p = 1, 24 do assert(G:count(G:loc("p" .. p)) <= cap, "more than " .. cap .. " on p" .. p) end
    end
    assert(steps < 5000, "game does not end")
  end
end

local NO_CUBE = { cube = false }
for seed = 1, 2 do play(NO_CUBE, seed, true) end
for seed = 1, 2 do play(nil, seed, true) end
for seed = 1, K.soak(20) do
  local st = play(NO_CUBE, seed)
  assert(st.over and (st.scores[1] > 0) ~= (st.scores[2] > 0), "money game has one winner")
end
for seed = 1, K.soak(5) do
  local st = play({ match_length = 3 }, seed)
  assert(math.max(st.scores[1], st.scores[2]) >= 3, "match to 3 ends at 3 or more")
end
for seed = 1, K.soak(5) do play({ max_per_point = 5, cube = false }, seed, seed == 1) end
for seed = 1, K.soak(5) do play({ start = "hyper", cube = false }, seed, seed == 1) end
for seed = 1, K.soak(5) do play({ beavers = true, jacoby = true, opening_roll = "starter_rerolls" }, seed) end

-- B35: same seed and decisions twice → identical.
local a, na, la = play({ match_length = 5 }, 99)
local b, nb, lb = play({ match_length = 5 }, 99)
assert(na == nb and a.result == b.result and #la == #lb, "B35: replay differs")
for i = 1, #la do assert(la[i] == lb[i], "B35: log line " .. i .. " differs") end
