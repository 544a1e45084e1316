-- Natives and rum (§8): the hooks of the Ben Gunn, Friday and missionary tiles, the rum
-- bottle tiles, and what rum does to a native.

local C = require("jackal.core")

local N = {}

local LABEL = { ben = "Ben", fri = "Fri", mis = "Mis" }

-- A native drinks: Friday leaves the game, the missionary becomes a fighter.
function N.drink(G, c)
  if c.who == "fri" then
    C.leave(G, c, "rum")
  elseif C.sober_mis(c) then
    C.flag(G, c.id, "conv", true)
    c.conv = true
    G:log("Mis drinks and becomes a fighter")
  end
end

-- Hooks of a native's tile: the native waits there until a character enters.
function N.hooks(who)
  return {
    one_shot = function() return true end,
    on_arrive = function(G, l, c)
      if C.spent(G, l) then return "rest" end
      C.spend(G, l)
      C.add_native(G, who, c.team, l, 0)
      G:log(LABEL[who] .. " joins " .. C.team_name(c.team))
      return "rest"
    end,
  }
end

-- Hooks of a rum tile with n bottles.
function N.rum_hooks(n)
  return {
    one_shot = function() return true end,
    on_arrive = function(G, l, c)
      if C.spent(G, l) then return "rest" end
      C.spend(G, l)
      if c.who == "fri" or C.sober_mis(c) then
        C.add_bottles(G, c.team, n - 1)
        N.drink(G, c)
      else
        C.add_bottles(G, c.team, n)
      end
      G:log(C.team_name(c.team) .. " finds " .. n .. " rum bottle" .. (n > 1 and "s" or ""))
      return G:get("mv_live") and "rest" or "done"
    end,
  }
end

return N
