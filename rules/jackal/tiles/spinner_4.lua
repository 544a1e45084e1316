-- Spinner with 4 steps (§7.3): enter on step 1, each later move advances one step.
return {
  name = "spinner_4", code = "s4", count = 2, glyph = "④",
  help = "Spinner 4: enter on step 1, advance one step per move, leave from step 4.",
  hooks = {
    steps = function() return 4 end,
  },
}
