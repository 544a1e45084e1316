-- Respawn fortress (§6): a fortress where a pirate may revive a dead pirate of his colour.
return {
  name = "respawn_fortress", code = "rf", count = 1, glyph = "♀",
  help = "Fortress with the native woman: a fortress; a pirate here may revive a dead one.",
  hooks = {
    fortress = function() return true end,
    accepts_items = function() return false end,
    revive = function() return true end,
  },
}
