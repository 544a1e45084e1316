-- The map for the terminal (issue 12 item 5), two columns a cell: sea " .", land "##", ports
-- by their letter, current tails by an arrow along the hop, ships by their id coloured by
-- side (Spain red, pirates magenta, a derelict gray) and damage (bold = holed). The golden
-- ship is marked ($ after the list entry, yellow on the map) only in views that may see it.
-- Above the map: round, player, weather and the last shot's spin; below: the ships.

local B = require("pirates.board")
local P = require("pirates.players")
local W = require("pirates.weather")
local Gd = require("pirates.golden")

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

function D.render(G, viewer)
  local w, h, grid, cur = G:get("w", "h", "grid", "cur")
  local gold = Gd.visible(G) and G:secret_get("golden") or nil
  local at = {}
  local ships = B.ships(G)
  for _, s in ipairs(ships) do
    if at[s.pos] then at[s.pos] = #ships else at[s.pos] = s end
  end
  local out = { D.headline(G) }
  for r = 0, h - 1 do
    local row = {}
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
  for _, s in ipairs(ships) do
    out[#out + 1] = string.format("%s%s{/} %s %s %s, %d hole%s%s", SIDE[s.side], s.id, s.kind,
      s.der and "derelict" or P.name(G, s.seat), B.port_name(G, s.pos) or string.format("(%d,%d)", s.pos % w, s.pos // w),
      s.holes, s.holes == 1 and "" or "s", s.p == gold and " {yellow}golden{/}" or "")
  end
  out[#out + 1] = G:get("gold_rev") and "golden revealed" or "golden hidden"
  return table.concat(out, "\n")
end

return D
