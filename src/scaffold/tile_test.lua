-- variant: {name}
-- The tile {name} (rules/{game}/tiles/{name}.lua): loaded under its code, its hook composed,
-- and a game with it sets up. Add a test that moves onto it and checks its effect.
local K = require("test_kernel")

assert(tiles["{code}"].name == "{name}", "the tile is known by its code")
assert(tiles["{code}"].count == 2, "the variant {name} deals two")
assert(hook["{code}.{hook}"], "its {hook} hook")
local G = K.new("{game}")
hook.setup(G)
