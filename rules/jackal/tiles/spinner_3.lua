-- Spinner with 3 steps (§7.3): enter on step 1, each later move advances one step.
return {
  name = "spinner_3", code = "s3", count = 4, glyph = "③",
  help = "Spinner 3: enter on step 1, advance one step per move, leave from step 3.",
  hooks = {
    steps = function() return 3 end,
  },
}
