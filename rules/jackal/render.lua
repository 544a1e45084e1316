-- The Jackal board for the terminal: two text lines per row, five columns per cell.
-- Line 1: the tile (closed ░, open glyph turned as it lies, spent one-shots dim) and the items
-- (● coins, $ the treasure). Line 2: who is there, in team colours; a character that cannot
-- act is written lying down (lower case). Ships are [W] [Y] [B] [R] on the sea.

local B = require("jackal.board")
local C = require("jackal.core")
local M = require("jackal.moves")

local R = {}

local COLOUR = { "{white}{bold}", "{yellow}", "{blue}{bold}", "{red}" }
local SHORT = { Ben = "Bn", Fri = "Fr", Mis = "Ms" }

local function tint(t, s)
  if t == 0 then return "{green}" .. s .. "{/}" end
  return COLOUR[t] .. s .. "{/}"
end

-- Pads s (shown width w) to n columns.
local function pad(s, w, n)
  if w >= n then return s end
  return s .. string.rep(" ", n - w)
end

local function tile_glyph(G, l, known)
  local t = C.tile(G, l)
  if not C.is_open(G, l) then
    if known and known[l] and t then return "{dim}" .. (C.th(t, "glyph", G, l) or tiles[t].glyph) .. "{/}" end
    return "{gray}░{/}"
  end
  local g = C.th(t, "glyph", G, l) or tiles[t].glyph
  if C.spent(G, l) then return "{dim}" .. g .. "{/}" end
  if t == "empty" then return "{gray}" .. g .. "{/}" end
  return "{cyan}" .. g .. "{/}"
end

local function char_text(c, can)
  local s = SHORT[c.label] or c.label
  if not can then s = string.lower(s) end
  return s
end

-- The characters of one cell as at most 4 columns: "W1", "W1:2" (spinner step), "W12" (two
-- white pirates), "W1B2" (a jungle), "W1+3".
local function people(list)
  if not list or #list == 0 then return "", 0 end
  table.sort(list, function(a, b) return a.id < b.id end)
  local function can(c) return M.can_act(c) and not c.trap end
  if #list == 1 then
    local c = list[1]
    local s = char_text(c, can(c))
    local out, w = tint(c.team, s), #s
    if c.step > 0 then out, w = out .. ":" .. c.step, w + 2 end
    return out, w
  end
  local same = true
  for _, c in ipairs(list) do
    if c.who ~= "pirate" or c.team ~= list[1].team or can(c) ~= can(list[1]) then same = false end
  end
  if same and #list <= 3 then
    local s = string.sub(char_text(list[1], can(list[1])), 1, 1)
    for _, c in ipairs(list) do s = s .. string.sub(c.label, 2) end
    return tint(list[1].team, s), #s
  end
  local a, b = char_text(list[1], can(list[1])), char_text(list[2], can(list[2]))
  if #list == 2 and #a + #b <= 4 then
    return tint(list[1].team, a) .. tint(list[2].team, b), #a + #b
  end
  local more = "+" .. (#list - 1)
  return tint(list[1].team, a) .. more, #a + #more
end

local function items_text(V, l)
  local coins, treasure = 0, false
  for _, it in ipairs(C.items_here(V, l)) do
    if it.kind == "coin" then coins = coins + 1 else treasure = true end
  end
  local s, w = "", 0
  if coins > 0 then s, w = "{yellow}●" .. coins .. "{/}", 1 + #tostring(coins) end
  if treasure then s, w = s .. "{yellow}{bold}${/}", w + 1 end
  return s, w
end

-- The closed cells whose tile the viewer's team has seen (lighthouse peeks): known[l] = true.
function R.known(G, viewer)
  local known = {}
  for t = 1, 4 do
    local key = "seen_" .. B.LETTER[t]
    if viewer and viewer > 0 and G:can_see(key, viewer) then
      for _, name in ipairs(G:secret_get(key) or {}) do known[B.parse(name)] = true end
    end
  end
  return known
end

function R.render(G, viewer)
  local V = C.view(G)
  local known = R.known(G, viewer)
  local turn = G:get("turn")
  local ships = V.ships
  local lines = {}
  local head = "    "
  for x = 1, 13 do head = head .. "  " .. string.sub(B.COLS, x, x) .. "  " end
  lines[#lines + 1] = head
  for y = 13, 1, -1 do
    local l1, l2 = string.format("%2d  ", y), "    "
    for x = 1, 13 do
      local l = B.loc(x, y)
      local a, aw, b, bw
      local st = C.ship_team(ships, l)
      if B.is_land(l) then
        local it, iw = items_text(V, l)
        a, aw = tile_glyph(G, l, known) .. (iw > 0 and (" " .. it) or ""), 1 + (iw > 0 and iw + 1 or 0)
        -- a native still waiting on its tile
        local t = C.tile(G, l)
        if C.is_open(G, l) and not C.spent(G, l) and (t == "bg" or t == "fr" or t == "ms") and aw <= 3 then
          a, aw = a .. " {green}?{/}", aw + 2
        end
      elseif st then
        a, aw = COLOUR[st] .. "[" .. B.LETTER[st] .. "]{/}", 3
      else
        a, aw = "{blue}{dim}~{/}", 1
      end
      b, bw = people(V.at[l] and { table.unpack(V.at[l]) } or nil)
      l1 = l1 .. pad(a, aw, 5)
      l2 = l2 .. pad(b, bw, 5)
    end
    lines[#lines + 1] = (string.gsub(l1, "%s+$", ""))
    lines[#lines + 1] = (string.gsub(l2, "%s+$", ""))
  end
  -- legend: banked gold, bottles, turn, people off the board
  local teams = G:get("teams")
  local bank, bottles = G:get("bank"), G:get("bottles")
  local parts = {}
  for _, t in ipairs(teams) do
    local s = tint(t, B.TEAMS[t]) .. " " .. bank[t]
    if bottles[t] > 0 then s = s .. " rum " .. bottles[t] end
    parts[#parts + 1] = s
  end
  local legend = "gold: " .. table.concat(parts, " · ") .. " · lost " .. (G:get("lost") or 0)
  local phase = G:get("phase")
  if phase == "over" then
    legend = legend .. " · game over: " .. tostring(G:get("result"))
  elseif turn then
    legend = legend .. " · " .. tint(turn, B.TEAMS[turn]) .. " to play" .. C.played_by(G:seat_name(C.controller(G, turn)), turn)
    if G:get("shifted") then legend = legend .. " {green}(grass){/}" end
    legend = legend .. " · round " .. (G:get("round") or 1)
  end
  lines[#lines + 1] = legend
  local off = {}
  for _, c in ipairs(V.chars) do
    if c.loc == B.DEAD then off[#off + 1] = tint(c.team, c.label) .. " dead"
    elseif c.loc == B.UNDER then off[#off + 1] = tint(c.team, c.label) .. " lost in the cave " .. B.name(c.lost)
    elseif c.loc == B.GONE then off[#off + 1] = tint(c.team, c.label) .. " gone"
    elseif c.loc ~= 0 and (c.trap or c.drunk > 0) then
      off[#off + 1] = tint(c.team, c.label) .. (c.trap and " trapped" or " drunk") .. " at " .. B.name(c.loc)
    end
  end
  if #off > 0 then lines[#lines + 1] = table.concat(off, " · ") end
  return table.concat(lines, "\n")
end

-- `show --legend`: what the board's symbols mean, then every tile's glyph (an arrow's or a
-- cannon's in each way it may lie) and what the tile does.
function R.legend(G)
  local A = require("jackal.arrows")
  local lines = {
    "{blue}{dim}~{/} sea · {gray}░{/} a closed tile · [W] [Y] [B] [R] the teams' ships (white, yellow, black, red)",
    "{yellow}●2{/} two coins · {yellow}{bold}${/} the treasure · {green}?{/} a native waiting on his tile · "
      .. "{dim}dim{/}: a used tile, or a closed one your lighthouse showed you",
    "W1 a white pirate (W12 two of them, W1:2 on step 2 of a spinner, W1+2 with two more people);",
    "  lower case (w1): cannot act now (drunk or trapped) · Bn Ben Gunn · Fr Friday · Ms the missionary",
    "Tiles:",
  }
  local names = {}
  for i, t in ipairs(tile_names) do names[i] = t end
  table.sort(names)
  for _, t in ipairs(names) do
    local glyph = A.GLYPHS[t] and table.concat(A.GLYPHS[t], "") or tiles[t].glyph
    lines[#lines + 1] = string.format("  {cyan}%s{/}  %s", glyph, tiles[t].help)
  end
  return table.concat(lines, "\n")
end

return R
