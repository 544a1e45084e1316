-- The forced-play filter's fast path (moves.lua `fast_actions`, `proven` and `short`) against
-- the plain move generation and plan search, at every long-dice decision of random games, in
-- the rules the test file runs in (forced_play_test.lua, house_forced_play_test.lua); and every
-- option's label typed back to that option (notation.lua).

local K = require("test_kernel")
local R = require("chaupar.rules")
local M = require("chaupar.moves")
local T = require("chaupar.throws")

local F = {}

local rng = K.rng

local FACES = { dice3 = { 1, 2, 5, 6 }, dice2 = { 1, 3, 4, 6 } }

function F.same(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end

-- Checks the decision G waits for; returns whether it compared long-dice move generations.
local function check(G)
  local st = hook.status(G)
  if not st.options then return false end
  local seen = {}
  for i, o in ipairs(st.options) do
    local l = hook.label(G, o)
    assert(not seen[l], "label twice: " .. l)
    seen[l] = true
    assert(hook.parse(G, l) == i, "label " .. l .. " does not type back to option " .. i)
  end
  if G:get("phase") ~= "act" then return false end
  local sw = R.read(G)
  local V = M.view(G, sw)
  local key, entries, used, triple, mover = G:get("dice", "entries", "used", "triple", "mover")
  local entry = T.IMPLEMENTS[sw.implement].entry
  local fast = M.offered(V, { mover }, key, entries, used, entry, triple)
  local plain = M.offered(M.view(G, sw), { mover }, key, entries, used, entry, triple, true)
  assert(F.same(fast, plain), "fast path and search differ at\n" .. hook.export(G))
  local moves = M.fast_actions(M.view(G, sw), mover, key, entries, entry, {})
  assert(F.same(moves, M.dice_actions(M.view(G, sw), { mover }, key, entries, entry, triple)),
    "fast and plain move generation differ at\n" .. hook.export(G))
  return true
end

-- Plays random games of each case (switch values) with seeds 1..`seeds`, checking every
-- decision; returns how many decisions there were and how many were long-dice ones compared.
function F.games(cases, seeds)
  local decisions, compared = 0, 0
  for _, case in ipairs(cases) do
    for seed = 1, seeds do
      local G = K.new("chaupar", case)
      hook.setup(G)
      local r = rng(seed)
      local faces = FACES[case.implement]
      local st = K.run(G, function(s)
        if check(G) then compared = compared + 1 end
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
  return decisions, compared
end

return F
