-- {Title} (rules/{game}/game.lua): a throw moves the player by the die, then the next plays;
-- the first to reach the goal wins.
local K = require("test_kernel")

local G = K.new("{game}")
hook.setup(G)
hook.apply(G, "throw")
hook.chance(G, "die", { 4 })
assert(G:player_get(1, "at") == 4, "a throw of 4 moves A four squares")
assert(G:current() == 2, "then B plays")

G = K.new("{game}", { goal = 3 })
hook.setup(G)
hook.apply(G, "throw")
local st = hook.chance(G, "die", { 6 })
assert(st.over and st.scores[1] == 1, "A reaches the goal and wins")
