-- House rule "{name}" ({game}): say here what it changes and which section of the spec it
-- departs from. Stacks on `{hook}`.

return {
  name = "{name}",
  help = "what the player reads in `rules` and `help rule {name}`",
  hooks = {
    {hook} = function(base, {first}, ...)
      return base({first}, ...)
    end,
  },
}
