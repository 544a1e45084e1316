-- House rule "automatic doubles" (money play): each tie on the opening roll doubles the cube,
-- which stays centred. Clubs usually cap it; here the game's `cube_limit` applies (spec §6, §8).
-- Stacks on the `chance` hook: the base rule still decides that a tie rolls again.
return {
  name = "automatic_doubles",
  help = "each tied opening roll doubles the centred cube (money play)",
  hooks = {
    chance = function(base, G, name, outcome)
      local tie = name == "opening" and G:get("phase") == "opening" and outcome[1] == outcome[2]
      base(G, name, outcome)
      local limit = switches.cube_limit
      local value = G:get("cube") or 1
      if tie and (G:get("match_length") or 0) == 0 and (limit == 0 or value < limit) then
        G:set("cube", value * 2)
        G:log(string.format("Automatic double: the cube is now %d", value * 2))
      end
    end,
  },
}
