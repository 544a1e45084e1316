-- House rule "doubles thrice": a double is played three times instead of four (spec §3).
-- Stacks on `dice_to_play`; every other rule of the move (entering, hitting, bearing off,
-- forced play) still applies to the three dice.
return {
  name = "doubles_thrice",
  help = "a double is played three times, not four",
  hooks = {
    dice_to_play = function(base, G, d1, d2)
      local dice = base(G, d1, d2)
      if d1 == d2 then return { dice[1], dice[2], dice[3] } end
      return dice
    end,
  },
}
