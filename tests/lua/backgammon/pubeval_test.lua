-- pubeval.lua (`greedy:pubeval`, the benchmark opponent) scores positions as Tesauro's published
-- routine does. The expected scores were computed apart from this code, by a transliteration
-- of the published routine and weights: the opening position (contact weights), a race, a
-- contact position with a bar on each side and opposing blots, and a race with checkers off.

local K = require("test_kernel")
local pubeval = require("backgammon.pubeval")

local CASES = {
  { "start", nil, 6.84055 },
  { "race", '{"board":[3,3,3,3,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-3,-3,-3,-3,-3],"bar":[0,0],"off":[0,0]}',
    -13.11744 },
  { "contact", '{"board":[1,0,0,2,0,5,0,-1,0,0,0,-4,4,0,-1,0,-2,0,-2,-2,0,-2,0,2],"bar":[1,1],"off":[0,0]}',
    6.904 },
  { "bearing off", '{"board":[2,2,0,4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-6],"bar":[0,0],"off":[7,9]}',
    -8.64095 },
}

for _, case in ipairs(CASES) do
  local name, text, want = case[1], case[2], case[3]
  local G = K.new("backgammon", { cube = false })
  hook.setup(G)
  if text then hook.import(G, text) end
  local got = pubeval.score(G, 1)
  assert(math.abs(got - want) < 1e-4, string.format("%s: pubeval %.5f, expected %.5f", name, got, want))
end

