-- The map for the terminal (issue 12 item 5), two columns a cell: sea " .", land "##", ports
-- by their letter, current tails by an arrow along the hop, ships by their id coloured by
-- side (Spain red, pirates magenta, a derelict gray) and damage (bold = holed). The golden
-- ship is marked ("golden" after the list entry, yellow on the map) only in views that may
-- see it. Rulers give the (col,row) that positions and options use (spec §2: column 0 west,
-- row 0 north). Above the map: round, player, weather and the last shot's spin, and the
-- compass with the wind; below: the ports by kind, with their places, and the ships.

local B = require("pirates.board")
local P = require("pirates.players")
local W = require("pirates.weather")
local Gd = require("pirates.golden")
local M = require("pirates.map")

local D = {}

local ARROW = { [0] = "↑", "↗", "→", "↘", "↓", "↙", "←", "↖" }
local SIDE = { spain = "{red}", pirate = "{magenta}", none = "{gray}" }

-- The line above the map: the round, who acts, the weather and the last shot's spin.
function D.headline(G)
  local line
  if G:get("phase") == "over" then
    line = "game over: " .. G:get("result")
  else
    line = string.format("round %d, %s to act, %s", G:get("round"), P.name(G, P.current(G)),
      W.text(G:get("wx") or nil))
  end
  local shot = G:get("last_shot")
  if shot then line = line .. "; last shot " .. shot end
  return line
end

-- The column ruler: every fifth column's number, its last digit over the cell's second
-- character (where the sea's dot is).
local function column_ruler(w)
  local chars = {}
  for i = 1, 2 * w do chars[i] = " " end
  for c = 0, w - 1, 5 do
    local label = tostring(c)
    for k = 1, #label do chars[2 * c + 2 - #label + k] = label:sub(k, k) end
  end
  return ("   " .. table.concat(chars)):gsub("%s+$", "")
end

-- The compass and the wind: where north lies, and whence the wind blows and whither.
local function compass(G)
  local wx = G:get("wx") or nil
  local line = "compass: N ↑ (row 0), E → (the last column)"
  if wx and wx ~= W.CALM then
    local from = wx >= W.HURRICANE and wx - W.HURRICANE or wx
    line = line .. string.format("; %s from %s, blowing %s", wx >= W.HURRICANE and "hurricane" or "wind",
      M.DIRS[from], ARROW[(from + 4) % 8])
  elseif wx == W.CALM then
    line = line .. "; calm"
  end
  return line
end

-- The kinds of port, in the order the lines list them (spec §2 cell kinds).
local KINDS = {
  { "Spanish ports", "{red}", function(ch) return ch == "V" or ch == "C" or ch == "H" end },
  { "pirate bases", "{yellow}", function(ch) return ch:match("%d") ~= nil end },
  { "English and French ports", "{yellow}", function(ch) return ch == "E" or ch == "F" end },
}

-- The map's ports by kind: { text = "Spanish ports: V Vera Cruz (1,20), …", spanish = bool,
-- tagged = the same with each letter in its colour }, for the kinds the map has.
function D.port_kinds(G, w, grid)
  local out = {}
  for _, kind in ipairs(KINDS) do
    local plain, tagged = {}, {}
    for _, p in ipairs(B.ports(G)) do
      local ch = grid:sub(p.pos + 1, p.pos + 1)
      if kind[3](ch) then
        local place = string.format(" %s (%d,%d)", p.name, p.pos % w, p.pos // w)
        plain[#plain + 1] = ch .. place
        tagged[#tagged + 1] = kind[2] .. "{reverse}" .. ch .. "{/}" .. place
      end
    end
    if #plain > 0 then
      out[#out + 1] = { text = kind[1] .. ": " .. table.concat(plain, ", "),
        tagged = kind[1] .. ": " .. table.concat(tagged, ", "), spanish = kind[2] == "{red}" }
    end
  end
  return out
end

-- `show --legend`: every symbol of the map.
function D.legend(_G)
  return table.concat({
    "{blue} .{/} open sea · {green}##{/} land · {cyan} →{/} a current's tail, the arrow along its hop",
    "{red}{reverse}V{/} Vera Cruz, {red}{reverse}C{/} Cadiz, {red}{reverse}H{/} the other Spanish ports (Spain enters and repairs)",
    "{yellow}{reverse}1{/}–{yellow}{reverse}6{/} pirate base n (pirates) · {yellow}{reverse}E{/} English, "
      .. "{yellow}{reverse}F{/} French port (neutral: pirates enter and repair there)",
    "G1–G3 galleons, B1–B6 brigantines: {red}red{/} Spanish, {magenta}magenta{/} pirate, {gray}gray{/} derelict;"
      .. " {bold}bold{/} holed; {yellow}yellow{/} the golden galleon (only where it may be seen)",
    "{white}**{/} several ships in one cell (the list below the map places each)",
    "rulers: column numbers above, row numbers beside, as positions and options write a place (col,row)",
    "wind E blows from the east (toward ←); a ship's list entry names its port, or its place",
  }, "\n")
end

function D.render(G, viewer)
  local w, h, grid, cur = G:get("w", "h", "grid", "cur")
  local gold = Gd.visible(G) and G:secret_get("golden") or nil
  local at = {}
  local ships = B.ships(G)
  for _, s in ipairs(ships) do
    if at[s.pos] then at[s.pos] = #ships else at[s.pos] = s end
  end
  local out = { D.headline(G), compass(G), column_ruler(w) }
  for r = 0, h - 1 do
    local row = { string.format("%2d ", r) }
    for c = 0, w - 1 do
      local pos = r * w + c
      local s = at[pos]
      local ch = grid:sub(pos + 1, pos + 1)
      if type(s) == "table" then
        local tint = s.p == gold and "{yellow}" or SIDE[s.side]
        row[#row + 1] = tint .. (s.holes > 0 and "{bold}" or "") .. s.id .. "{/}"
      elseif s then
        row[#row + 1] = "{white}**{/}"
      elseif ch == "#" then
        row[#row + 1] = "{green}##{/}"
      elseif ch == "." then
        local d = cur:byte(pos + 1) - 48
        row[#row + 1] = (d >= 0 and d <= 7) and "{cyan} " .. ARROW[d] .. "{/}" or "{blue} .{/}"
      else
        local tint = (ch == "V" or ch == "C" or ch == "H") and "{red}" or "{yellow}"
        row[#row + 1] = tint .. "{reverse} " .. ch .. "{/}"
      end
    end
    out[#out + 1] = table.concat(row)
  end
  for _, kind in ipairs(D.port_kinds(G, w, grid)) do out[#out + 1] = kind.tagged end
  for _, s in ipairs(ships) do
    local port = B.port_name(G, s.pos)
    out[#out + 1] = string.format("%s%s{/} %s %s %s(%d,%d), %d hole%s%s", SIDE[s.side], s.id, s.kind,
      s.der and "derelict" or P.name(G, s.seat), port and port .. " " or "", s.pos % w, s.pos // w,
      s.holes, s.holes == 1 and "" or "s", s.p == gold and " {yellow}golden{/}" or "")
  end
  out[#out + 1] = G:get("gold_rev") and "golden revealed" or "golden hidden"
  return table.concat(out, "\n")
end

return D
