-- Invariants of §9 for fuzzing (the game's `check` hook): returns a list of problems, empty
-- when the state is sound.

local B = require("jackal.board")
local C = require("jackal.core")
local P = require("jackal.packs")
local T = require("jackal.turns")

local K = {}

-- Gold the position holds in every form: the conservation total (§9).
function K.gold_total(G)
  return T.banked(G) + (G:get("lost") or 0) + T.loose_gold(G) + T.hidden_gold(G)
end

function K.problems(G, light)
  local out = {}
  local function bad(s) out[#out + 1] = s end
  local total = G:get("gold_total")
  if total and K.gold_total(G) ~= total then
    bad("gold: " .. K.gold_total(G) .. " instead of " .. total .. " (banked " .. T.banked(G) ..
      ", lost " .. (G:get("lost") or 0) .. ", loose " .. T.loose_gold(G) .. ", hidden " .. T.hidden_gold(G) .. ")")
  end
  local V = C.view(G)
  local stable = #G:pending() == 0
  local originals = {}
  for _, c in ipairs(V.chars) do
    if G:where(c.id) ~= c.loc then bad(c.label .. " is at " .. G:where(c.id) .. ", its record says " .. c.loc) end
    if B.is_land(c.loc) then
      if not C.is_open(G, c.loc) then bad(c.label .. " on the closed tile " .. B.name(c.loc)) end
      local n = C.steps(G, c.loc)
      if n > 1 and (c.step < 1 or c.step > n) then bad(c.label .. " on step " .. c.step .. " of " .. B.name(c.loc)) end
      if stable and not hook.may_stop(G, V, c, c.loc) then
        bad(c.label .. " stands on " .. B.name(c.loc) .. ", where nobody may stop")
      end
      local jungle = C.is_jungle(G, c.loc)
      local mis = false
      for _, o in ipairs(V.at[c.loc]) do
        if C.sober_mis(o) and (n <= 1 or o.step == c.step) then mis = true end
      end
      for _, o in ipairs(V.at[c.loc]) do
        if stable and C.enemy_in(V.sides, c.team, o.team) and not jungle and not (n > 1 and o.step ~= c.step)
          and not (mis and C.sw(G, "missionary_block") == "classic") then
          bad(c.label .. " and " .. o.label .. " share " .. B.name(c.loc))
        end
      end
    end
    if c.who == "pirate" and c.loc ~= 0 then originals[c.team] = (originals[c.team] or 0) + 1 end
  end
  for t = 1, 4 do
    if (originals[t] or 0) > 3 then bad(B.TEAMS[t] .. " has " .. originals[t] .. " pirates") end
  end
  if stable then
    for _, it in ipairs(C.all_items(G)) do
      if not it.holder then
        if not B.is_land(it.loc) then
          bad(it.kind .. " at " .. it.loc .. " off the island")
        elseif not C.accepts_items(G, it.loc) or C.th(C.tile(G, it.loc), "transit", G, it.loc) then
          bad(it.kind .. " on " .. B.name(it.loc) .. ", which cannot hold it")
        end
      elseif it.loc ~= B.UNDER then
        bad(it.kind .. " held but not underground")
      end
    end
  end
  local ships = G:get("ships")
  for _, t in ipairs(G:get("teams")) do
    if not B.on_lane(t, ships[t], C.sw(G, "ship_range")) then bad(B.TEAMS[t] .. " ship off its lane") end
  end
  if light then return out end
  -- the deck: one tile per undetermined closed cell; with the board it makes up the pack
  local undetermined = 0
  local counts = {}
  for _, l in ipairs(B.LAND) do
    local t = C.tile(G, l)
    if t == nil then undetermined = undetermined + 1 else counts[t] = (counts[t] or 0) + 1 end
  end
  local deck = G:bag_items("deck")
  if not G:get("deck_list") and #deck ~= undetermined then
    bad("deck holds " .. #deck .. " tiles for " .. undetermined .. " closed cells")
  end
  if G:get("pack_check") then
    for _, d in ipairs(deck) do counts[d] = (counts[d] or 0) + 1 end
    local pack = P.counts(G)
    for _, n in ipairs(tile_names) do
      if (counts[n] or 0) ~= pack[n] then
        bad("tiles " .. P.code(n) .. ": " .. (counts[n] or 0) .. " on the board and in the deck, the pack has " .. pack[n])
      end
    end
  end
  return out
end

return K
