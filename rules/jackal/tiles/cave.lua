-- Cave (§7.5): all open caves form one system; go underground and come out at another.
local B = require("jackal.board")
local C = require("jackal.core")

-- Open cave cells other than `but` not blocked for c (blocked = holds an enemy of c) that c
-- may enter (the may_enter hook).
local function exits(G, c, but)
  local V = C.view(G)
  local out = {}
  for _, t in ipairs(C.vopen_cells(V, "cv")) do
    if t ~= but and #C.enemies_at(V, c, t, nil) == 0 and hook.may_enter(G, V, c, t, 0) then
      out[#out + 1] = B.name(t)
    end
  end
  return out
end

-- c (and the item it holds) comes out at l.
local function emerge(G, c, l)
  C.place(G, c, l, 0)
  G:piece_set(c.id, "lost", nil)
  G:piece_set(c.id, "lseq", nil)
  local items = G:pieces(nil, "coin")
  local tr = G:pieces(nil, "treasure")
  for i = 1, #tr do items[#items + 1] = tr[i] end
  for i = 1, #items do
    if G:piece_get(items[i], "holder") == c.id then
      G:piece_set(items[i], "holder", nil)
      G:move(items[i], l)
      G:set("act", true)
    end
  end
  G:log(c.label .. " comes out of the cave at " .. B.name(l))
end

-- The lost characters, the first one lost first.
local function lost_list(V)
  local lost = {}
  for i = 1, #V.chars do
    if V.chars[i].loc == B.UNDER then lost[#lost + 1] = V.chars[i] end
  end
  table.sort(lost, function(a, b) return (a.lseq or 0) < (b.lseq or 0) end)
  return lost
end

-- Lost characters allied with the first one lost come out at l (§7.5); with
-- cave_model = "swap" only the first one does.
local function release(G, l)
  local V = C.view(G)
  local lost = lost_list(V)
  if #lost == 0 then return end
  local first = lost[1]
  if C.sw(G, "cave_model") == "swap" then
    emerge(G, first, l)
    return
  end
  for i = 1, #lost do
    if C.allied_in(V.sides, first.team, lost[i].team) then emerge(G, lost[i], l) end
  end
end

-- cave_model = "swap" (§11 #28, the jackal.team hole). §7.5 does not spell the hole out, so
-- this follows the seed's wording: "when another pirate opens the exit, the first is carried
-- to the entrance and the first pirate ends on the exit". The mover who just turned up the
-- cave at l lets the first lost character out at l and is carried, with its item, to that
-- character's entry cave, where its move ends; no exit is chosen and the other lost
-- characters stay below. Nothing lost, or the entrance blocked by the mover's enemies: the
-- classic rule (the first still comes out at l; the mover goes underground).
local function swap(G, l)
  local V = C.view(G)
  local first = lost_list(V)[1]
  if not first then return nil end
  local c = C.mover(G)
  local entrance = first.lost
  emerge(G, first, l)
  if #C.enemies_at(V, c, entrance, nil) > 0 then return nil end
  emerge(G, c, entrance)
  local it = C.mv_item(G)
  if it ~= 0 then G:move(it, entrance); G:set("act", true) end
  C.end_move(G)
  return "done"
end

-- The mover goes underground at l.
local function under(G, l)
  if C.sw(G, "cave_model") == "archipelago" then return "rest" end
  return C.ask(G, "cv", "cave_exit", l)
end

return {
  name = "cave", code = "cv", count = 4, glyph = "◙",
  help = "Cave: go underground and come out at another open cave; wait below if none is free.",
  hooks = {
    cave_exits = function(G, c, but) return exits(G, c, but) end,
    emerge = function(G, c, l) emerge(G, c, l) end,
    on_reveal = function(G, l, by)
      if by == "lighthouse" and C.sw(G, "cave_model") ~= "archipelago" then release(G, l) end
    end,
    on_arrive = function(G, l)
      if C.sw(G, "cave_model") == "archipelago" then return "rest" end
      if G:get("mv_fresh") == l then
        if C.sw(G, "cave_model") == "swap" then
          if swap(G, l) then return "done" end
        else
          release(G, l)
        end
      end
      if G:get("mv_hit") and C.mv_item(G) == 0 then
        local V = C.view(G)
        if #C.items_here(V, l) > 0 then return C.ask(G, "cv", "cave_take", l) end
      end
      return under(G, l)
    end,
    choices = function(G, l, kind)
      if kind == "cave_take" then return { "take", "leave" } end
      return exits(G, C.mover(G), l)
    end,
    decide = function(G, l, kind, _, answer)
      local c = C.mover(G)
      if kind == "cave_take" then
        if answer == "take" then
          local V = C.view(G)
          local items = C.items_here(V, l)
          table.sort(items, function(a, b) return a.kind > b.kind or (a.kind == b.kind and a.id < b.id) end)
          G:set("mv_item", items[1].id)
        end
        under(G, l)
        return
      end
      if answer then
        emerge(G, c, B.parse(answer))
        local it = C.mv_item(G)
        if it ~= 0 then G:move(it, B.parse(answer)); G:set("act", true) end
        C.end_move(G)
        return
      end
      -- no free exit: lost underground with the item
      C.move_char(G, c.id, B.UNDER, 0)
      G:piece_set(c.id, "lost", l)
      local seq = (G:get("lseq") or 0) + 1
      G:set("lseq", seq)
      G:piece_set(c.id, "lseq", seq)
      local it = C.mv_item(G)
      if it ~= 0 then
        G:move(it, B.UNDER)
        G:piece_set(it, "holder", c.id)
        G:piece_set(it, "step", nil)
        G:set("mv_item", 0)
      end
      C.end_move(G)
      G:log(c.label .. " is lost in the cave")
    end,
  },
}
