-- Spinner with 5 steps (§7.3): enter on step 1, each later move advances one step.
return {
  name = "spinner_5", code = "s5", count = 1, glyph = "⑤",
  help = "Spinner 5: enter on step 1, advance one step per move, leave from step 5.",
  hooks = {
    steps = function() return 5 end,
  },
}
