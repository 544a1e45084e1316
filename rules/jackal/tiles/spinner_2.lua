-- Spinner with 2 steps (§7.3): enter on step 1, each later move advances one step.
return {
  name = "spinner_2", code = "s2", count = 5, glyph = "②",
  help = "Spinner 2: enter on step 1, advance one step per move, leave from step 2.",
  hooks = {
    steps = function() return 2 end,
  },
}
