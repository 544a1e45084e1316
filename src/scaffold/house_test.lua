-- variant: {name}
-- The house rule {name} (rules/{game}/house/{name}.lua), stacked on `{hook}`: a game with it
-- sets up and says what it waits for. Add a test that reaches `{hook}` and checks its effect.
local K = require("test_kernel")

local G = K.new("{game}")
hook.setup(G)
local st = hook.status(G)
assert(st.over or st.chance or st.options, "the game waits for something")
