-- Helpers for the backgammon flow tests: a game on the fake kernel, driven by typed decisions
-- and forced dice like the REPL's `play …` and `roll …`.

local K = require("test_kernel")
local game = require("backgammon.game")

local F = {}

-- A new game after setup, with switch overrides.
function F.new(switches)
  local G = K.new(game, switches)
  hook.setup(G)
  return G
end

-- Labels of the pending decision (or nil when the game waits for chance or is over).
function F.options(G)
  local st = hook.status(G)
  if not st.options then return nil, st end
  local out = {}
  for i, o in ipairs(st.options) do out[i] = hook.label(G, o) end
  return out, st
end

-- Plays a typed decision (move notation, roll, double, take, drop, beaver).
function F.play(G, text)
  local st = hook.status(G)
  assert(st.options, "play " .. text .. ": no decision pending")
  hook.apply(G, st.options[hook.parse(G, text)])
end

-- Forces the pending chance event.
function F.roll(G, a, b)
  local st = hook.status(G)
  assert(st.chance, string.format("roll %d %d: the game does not wait for dice", a, b))
  hook.chance(G, st.chance, { a, b })
end

-- The pending status.
function F.status(G) return hook.status(G) end

return F
