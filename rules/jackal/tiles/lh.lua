-- Lighthouse (§7.6): the finder turns up to 4 closed tiles of his choice, one at a time
-- (switch lighthouse: or only looks at them, "peek4", and may put them back in another
-- order, "peek4_permute"; what a team has seen is its secret).
local B = require("jackal.board")
local C = require("jackal.core")
local P = require("jackal.packs")

local function fire(G, l)
  C.spend(G, l)
  G:set("lh_peek", nil)
  return C.ask(G, "lh", "lighthouse_pick", l, 4)
end

-- Records that team t has seen cell l (a secret of the team's players).
local function seen(G, t, l)
  local key = "seen_" .. B.LETTER[t]
  local list = G:secret_get(key) or {}
  if not C.contains(list, B.name(l)) then list[#list + 1] = B.name(l) end
  local seats = {}
  local ctrl = G:get("ctrl")
  for u = 1, 4 do
    if ctrl[u] ~= 0 and C.allied(G, t, u) and not C.contains(seats, ctrl[u]) then seats[#seats + 1] = ctrl[u] end
  end
  table.sort(seats)
  G:secret_set(key, list, seats)
end

-- The tiles still to put back (permute): `extra` lists them, "-" means all peeked ones.
local function to_place(G, extra)
  local out = {}
  if extra == "-" then
    for _, c in ipairs(G:get("lh_peek") or {}) do out[#out + 1] = C.tile(G, c) end
  else
    for t in string.gmatch(extra, "[^,]+") do out[#out + 1] = t end
  end
  return out
end

return {
  name = "lh", count = 1, glyph = "Λ",
  help = "Lighthouse: turn up 4 closed tiles of your choice, one after the other.",
  hooks = {
    one_shot = function() return true end,
    seen = seen,
    prompt = function(G, _, kind, extra)
      if kind == "lighthouse_place" then
        local cells = G:get("lh_place") or G:get("lh_peek")
        return "put a tile back on " .. B.name(cells[1])
      end
    end,
    on_reveal = function(G, l, by) if by == "lighthouse" then fire(G, l) end end,
    on_arrive = function(G, l)
      if C.spent(G, l) then return "rest" end
      return fire(G, l)
    end,
    choices = function(G, l, kind, extra)
      if kind == "lighthouse_place" then
        -- extra: the tiles still to place; the next cell is the first of lh_place
        local out = {}
        for _, t in ipairs(to_place(G, extra)) do
          local code = P.code(t)
          if not C.contains(out, code) then out[#out + 1] = code end
        end
        table.sort(out)
        return out
      end
      local out = {}
      local peeked = G:get("lh_peek") or {}
      for i = 1, #B.LAND do
        local t = B.LAND[i]
        if not C.is_open(G, t) and not C.contains(peeked, t) then out[#out + 1] = B.name(t) end
      end
      return out
    end,
    decide = function(G, l, kind, extra, answer)
      local mode = C.sw(G, "lighthouse")
      if kind == "lighthouse_place" then
        local cells = G:get("lh_place") or G:get("lh_peek")
        local cell = table.remove(cells, 1)
        local rest, used = {}, false
        for _, t in ipairs(to_place(G, extra)) do
          if not used and P.code(t) == answer then used = true else rest[#rest + 1] = t end
        end
        C.cell_write(G, cell, P.name(answer), false, nil, false)
        G:set("lh_place", #cells > 0 and cells or nil)
        if #rest > 0 then C.ask(G, "lh", "lighthouse_place", l, table.concat(rest, ",")) end
        return
      end
      if not answer then return end
      local cell = B.parse(answer)
      local left = tonumber(extra) - 1
      if mode == "flip4" then
        if left > 0 then C.ask(G, "lh", "lighthouse_pick", l, left) end
        C.push(G, "flip|" .. cell .. "|lighthouse")
        return
      end
      local peeked = G:get("lh_peek") or {}
      peeked[#peeked + 1] = cell
      G:set("lh_peek", peeked)
      seen(G, G:get("turn"), cell)
      if left > 0 then
        C.ask(G, "lh", "lighthouse_pick", l, left)
      elseif mode == "peek4_permute" then
        C.ask(G, "lh", "lighthouse_place", l, "-")
      end
      C.push(G, "flip|" .. cell .. "|peek")
    end,
  },
}
