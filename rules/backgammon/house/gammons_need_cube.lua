-- House rule "gammons count only with a turned cube": a gammon or backgammon scores as a
-- single game unless the cube has been turned (doubled and taken) in this game — the Jacoby
-- rule of spec §6, in matches as well as money play.
return {
  name = "gammons_need_cube",
  help = "gammons and backgammons count single until the cube is turned",
  hooks = {
    points = function(base, G, kind, cube)
      if (G:get("cube_owner") or 0) == 0 then kind = 1 end
      return base(G, kind, cube)
    end,
  },
}
