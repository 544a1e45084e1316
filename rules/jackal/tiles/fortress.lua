-- Fortress (§7.1): occupants cannot be hit, enemies cannot enter, no items.
return {
  name = "fortress", code = "ft", count = 2, glyph = "▣",
  help = "Fortress: enemies cannot enter while you are inside; no coins may be brought in.",
  hooks = {
    fortress = function() return true end,
    accepts_items = function() return false end,
  },
}
