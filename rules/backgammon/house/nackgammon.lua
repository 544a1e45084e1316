-- House rule "Nackgammon" (Nack Ballard's variant): each side starts with 2 checkers on its
-- 24-point, 2 on its 23, 4 on 13, 3 on 8 and 4 on 6, instead of the layout of spec §1.
-- Stacks on `starting_layout`, which every game of a match asks, so game 2 starts alike.
-- It does not call the layout below it, so it declares that it replaces that hook.
return {
  name = "nackgammon",
  help = "start with 2 on the 24, 2 on the 23, 4 on the 13, 3 on the 8, 4 on the 6",
  replaces = { "starting_layout" },
  hooks = {
    starting_layout = function(base, G, seat)
      local side = {}
      for p = 0, 25 do side[p] = 0 end
      side[24], side[23], side[13], side[8], side[6] = 2, 2, 4, 3, 4
      return side
    end,
  },
}
