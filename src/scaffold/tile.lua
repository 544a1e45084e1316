-- {Title} (a house tile, not in the spec: the variant `{name}` deals it): say here what it
-- does and which section of the spec it follows or departs from. Known by its code "{code}"
-- (its token in the position format).

return {
  name = "{name}", code = "{code}", count = 0, glyph = "◇",
  help = "{Title}: what the player reads in `rules` and `help tile {name}`.",
  hooks = {
    {hook} = function(G, ...)
      return nil
    end,
  },
}
