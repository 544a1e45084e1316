-- Crocodile (§4.4): back where you came from, with the reversed motion.
return {
  name = "crocodile", code = "cr", count = 4, glyph = "Ж",
  help = "Crocodile: back to where you came from (a spinner: its step 1); that cell acts again.",
  hooks = {
    transit = function() return "back" end,
    on_arrive = function(G)
      local prev = G:get("mv_prev")
      return { to = prev, type = G:get("mv_type"), dx = -G:get("mv_dx"), dy = -G:get("mv_dy"),
               step = (G:get("mv_pstep") or 0) > 0 and 1 or 0 }
    end,
  },
}
