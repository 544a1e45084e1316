-- Earthquake (§7.6): the finder swaps two tiles with nobody and nothing on them.
local A = require("jackal.arrows")
local B = require("jackal.board")
local C = require("jackal.core")

local function fire(G, l)
  C.spend(G, l)
  return C.ask(G, "eq", "quake_first", l)
end

local function eligible(G, but)
  local scope = C.sw(G, "quake_scope")
  local V = C.view(G)
  local out = {}
  for i = 1, #B.LAND do
    local t = B.LAND[i]
    local open = C.is_open(G, t)
    if t ~= but and not V.at[t] and #C.items_here(V, t) == 0
      and (scope == "all" or (scope == "open") == open) then
      out[#out + 1] = B.name(t)
    end
  end
  return out
end

return {
  name = "earthquake", code = "eq", count = 1, glyph = "≋",
  help = "Earthquake: swap two tiles that have nobody and nothing on them.",
  hooks = {
    one_shot = function() return true end,
    on_reveal = function(G, l, by) if by == "lighthouse" then fire(G, l) end end,
    on_arrive = function(G, l)
      if C.spent(G, l) then return "rest" end
      return fire(G, l)
    end,
    choices = function(G, _, kind, first)
      if kind == "quake_turn" then
        local l = tonumber(first)
        local t = C.tile(G, l)
        local out = {}
        for r = 0, C.th(t, "rotations") - 1 do out[#out + 1] = C.th(t, "code", G, l, r) end
        return out
      end
      local out = eligible(G, kind == "quake_second" and tonumber(first) or nil)
      if kind == "quake_first" and #out < 2 then return {} end
      return out
    end,
    decide = function(G, l, kind, first, answer)
      if not answer then return end
      if kind == "quake_turn" then
        local _, r = A.parse(answer)
        C.set_rot(G, tonumber(first), r)
        return
      end
      if kind == "quake_first" then
        C.ask(G, "eq", "quake_second", l, B.parse(answer))
        return
      end
      local a, b = tonumber(first), B.parse(answer)
      local ta, oa, ra, xa = C.cell(G, a)
      local tb, ob, rb, xb = C.cell(G, b)
      C.cell_write(G, a, tb, ob, rb, xb)
      C.cell_write(G, b, ta, oa, ra, xa)
      C.ph("swap_seen", G, a, b)
      G:log("earthquake: " .. B.name(a) .. " and " .. B.name(b) .. " swap")
      -- quake_rotate: the mover may also turn the arrows and cannons it moved
      if C.sw(G, "quake_rotate") then
        for _, cell in ipairs({ b, a }) do
          local t = C.tile(G, cell)
          if t and (C.th(t, "rotations") or 1) > 1 and C.rot(G, cell) ~= nil then
            C.ask(G, "eq", "quake_turn", l, cell)
          end
        end
      end
    end,
  },
}
