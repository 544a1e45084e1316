-- Empty tile (§7.1, code "."): nothing happens.
return {
  name = "empty", count = 18, glyph = "·",
  help = "Empty (code .): nothing happens.",
  hooks = {
    code = function() return "." end,
  },
}
