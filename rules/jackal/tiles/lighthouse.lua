-- Lighthouse (§7.6): the finder turns up to 4 closed tiles of his choice, one at a time
-- (switch lighthouse: or only looks at them, "peek4", and may put them back in another
-- order, "peek4_permute"). Which cells a team has seen is its secret "seen_<letter>" (the
-- picks were made in the open, so its domain is that very list); what it saw there is the
-- kernel secret of each tile (core.cell_write), seen by that team's side only.
local B = require("jackal.board")
local C = require("jackal.core")
local P = require("jackal.packs")

local function fire(G, l)
  C.spend(G, l)
  G:set("lh_peek", nil)
  return C.ask(G, "lh", "lighthouse_pick", l, 4)
end

-- The seats of team t's side, sorted.
local function side_seats(G, t)
  local seats = {}
  local ctrl = G:get("ctrl")
  for u = 1, 4 do
    if ctrl[u] ~= 0 and C.allied(G, t, u) and not C.contains(seats, ctrl[u]) then seats[#seats + 1] = ctrl[u] end
  end
  table.sort(seats)
  return seats
end

-- The seats that know the identity of closed cell l: those of every side that has seen it
-- (none before a team first sees a cell: every flip asks).
local function seers(G, l)
  local out, name = {}, B.name(l)
  if not G:get("lh_seen") then return out end
  for t = 1, 4 do
    if C.contains(G:secret_get("seen_" .. B.LETTER[t]) or {}, name) then
      for _, s in ipairs(side_seats(G, t)) do
        if not C.contains(out, s) then out[#out + 1] = s end
      end
    end
  end
  table.sort(out)
  return out
end

-- Who may read cell l's tile follows who has seen it.
local function share(G, l)
  local t, open = C.cell(G, l)
  if t and not open then G:secret_set("tile" .. l, t, seers(G, l), "deck") end
end

-- Records that team t has seen cell l (a secret of the players of its side).
local function seen(G, t, l)
  local key = "seen_" .. B.LETTER[t]
  local list = G:secret_get(key) or {}
  if not C.contains(list, B.name(l)) then list[#list + 1] = B.name(l) end
  G:secret_set(key, list, side_seats(G, t), { list })
  G:set("lh_seen", true)
  share(G, l)
end

-- An earthquake swapped the tiles of a and b (§7.6: "an earthquake moves fixed identities
-- with their tiles"): what each team has seen moves with them; who may read it stays.
local function swap_seen(G, a, b)
  local na, nb = B.name(a), B.name(b)
  for t = 1, 4 do
    local key = "seen_" .. B.LETTER[t]
    local list = G:secret_get(key)
    if list and (C.contains(list, na) or C.contains(list, nb)) then
      local seats = {}
      for s = 1, G:seats() do
        if G:can_see(key, s) then seats[#seats + 1] = s end
      end
      for i = 1, #list do
        if list[i] == na then list[i] = nb elseif list[i] == nb then list[i] = na end
      end
      G:secret_set(key, list, seats, { list })
    end
  end
  share(G, a)
  share(G, b)
end

-- The tiles put back so far (permute): the peeking side's secret until the last one.
local function chosen(G)
  return G:secret_get("lh_new") or {}
end

-- The tiles still to put back (permute): the peeked ones less those put back already.
local function to_place(G)
  local out = {}
  for _, c in ipairs(G:get("lh_peek") or {}) do out[#out + 1] = C.tile(G, c) end
  for _, t in ipairs(chosen(G)) do
    for i = 1, #out do
      if out[i] == t then
        table.remove(out, i)
        break
      end
    end
  end
  return out
end

-- Puts a peeked tile back; the choices are written all at once after the last one, so the
-- pack stays whole in between.
local function place(G, l, answer)
  local list = chosen(G)
  list[#list + 1] = P.name(answer)
  if #list < #(G:get("lh_peek")) then
    G:secret_set("lh_new", list, side_seats(G, G:get("turn")), { list })
    C.ask(G, "lh", "lighthouse_place", l, "-")
    return
  end
  for i, cell in ipairs(G:get("lh_peek")) do
    C.cell_write(G, cell, list[i], false, nil, false)
  end
  G:secret_set("lh_new", nil)
end

return {
  name = "lighthouse", code = "lh", count = 1, glyph = "Λ",
  help = "Lighthouse: turn up 4 closed tiles of your choice, one after the other.",
  hooks = {
    one_shot = function() return true end,
    seen = seen,
    seers = seers,
    side_seats = side_seats,
    -- putting peeked tiles back is seen by the peeking side only
    seen_by = function(G, kind)
      if kind == "lighthouse_place" then return side_seats(G, G:get("turn")) end
    end,
    swap_seen = swap_seen,
    on_reveal = function(G, l, by) if by == "lighthouse" then fire(G, l) end end,
    on_arrive = function(G, l)
      if C.spent(G, l) then return "rest" end
      return fire(G, l)
    end,
    prompt = function(G, _, kind)
      if kind == "lighthouse_place" then
        local n = #chosen(G)
        return "put a tile back on " .. B.name(G:get("lh_peek")[n + 1])
      end
    end,
    choices = function(G, _, kind)
      local out = {}
      if kind == "lighthouse_place" then
        for _, t in ipairs(to_place(G)) do
          local code = P.code(t)
          if not C.contains(out, code) then out[#out + 1] = code end
        end
        table.sort(out)
        return out
      end
      local peeked = G:get("lh_peek") or {}
      local closed = C.closed_cells(G)
      for i = 1, #closed do
        if not C.contains(peeked, closed[i]) then out[#out + 1] = B.name(closed[i]) end
      end
      return out
    end,
    decide = function(G, l, kind, extra, answer)
      if kind == "lighthouse_place" then
        place(G, l, answer)
        return
      end
      if not answer then return end
      local mode = C.sw(G, "lighthouse")
      local cell = B.parse(answer)
      local left = tonumber(extra) - 1
      if mode == "flip4" then
        if left > 0 then C.ask(G, "lh", "lighthouse_pick", l, left) end
        C.push(G, "flip", cell, "lighthouse")
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
      C.push(G, "flip", cell, "peek")
    end,
  },
}
