-- The spinner (spec §5) and the weather it gives. A weather is an integer: 0..7 the wind
-- from N…NW, CALM, or HURRICANE + d for a hurricane from d; nil before the spin.
--
-- The dial's eight hurricane wedges are equally wide, and each touches one wind sector, so
-- every way §5 gives a hurricane its direction (a re-spin until a wind sector comes up, the
-- sector the wedge touches, a uniform draw of eight) picks each direction with probability
-- 1/8: one uniform spinner "hdir" serves them all, and `roll hurricane` then `roll W`
-- forces a hurricane from W. The simple spinner has one hurricane sector, last of W.SECTORS:
-- the sector it touches going clockwise is the first, N, so `adjacent_sector` needs no draw.

local M = require("pirates.map")

local W = {}

W.CALM, W.HURRICANE = 8, 16

local DIR = {}
for d = 0, 7 do DIR[M.DIRS[d]] = d end
W.DIR = DIR

-- The spinner's ten outcomes and their weights for the switch values `sw` (a table with
-- spinner, w_dir, w_calm, w_hurricane); an error when the widths do not add up to 45°.
W.SECTORS = { "N", "NE", "E", "SE", "S", "SW", "W", "NW", "calm", "hurricane" }

function W.weights(sw)
  if sw.spinner == "simple" then return { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 } end
  local total = sw.w_dir + sw.w_calm + sw.w_hurricane
  if total ~= 45 then
    error(string.format("spinner widths: w_dir + w_calm + w_hurricane = %d + %d + %d = %d, must be 45",
      sw.w_dir, sw.w_calm, sw.w_hurricane, total), 0)
  end
  local d = sw.w_dir
  return { d, d, d, d, d, d, d, d, 8 * sw.w_calm, 8 * sw.w_hurricane }
end

-- The weights for the switch values a game plays with (its props).
function W.weights_of(G)
  local spinner, d, c, h = G:get("sw_spinner", "sw_w_dir", "sw_w_calm", "sw_w_hurricane")
  return W.weights({ spinner = spinner, w_dir = d, w_calm = c, w_hurricane = h })
end

-- The spinner of §5 as declared at load; a game's status passes the weights of its own
-- switch values (a position's `set` lines may change them).
function W.spin(sw)
  return { kind = "spinner", sectors = W.SECTORS, weights = W.weights(sw) }
end

W.HDIR = { kind = "spinner", sectors = { "N", "NE", "E", "SE", "S", "SW", "W", "NW" } }

-- hurricane_direction=adjacent_sector (§5): the direction the hurricane sector of `spinner`
-- always gives, or nil where the wedge that came up decides (the dial: drawn from "hdir").
function W.adjacent_direction(spinner)
  if spinner == "simple" then return DIR[W.SECTORS[1]] end
  return nil
end

function W.is_wind(wx) return wx ~= nil and wx < 8 end
function W.is_hurricane(wx) return wx ~= nil and wx >= W.HURRICANE end

function W.text(wx)
  if wx == nil then return "unspun" end
  if wx == W.CALM then return "calm" end
  if wx >= W.HURRICANE then return "hurricane " .. M.DIRS[wx - W.HURRICANE] end
  return "wind " .. M.DIRS[wx]
end

-- Reads "unspun", "calm", "wind NE", "hurricane W"; nil if malformed.
function W.parse(text)
  local t = text:lower():gsub("^%s+", ""):gsub("%s+$", "")
  if t == "unspun" then return false end
  if t == "calm" then return W.CALM end
  local kind, d = t:match("^(%a+)%s+(%a+)$")
  d = d and DIR[d:upper()]
  if kind == "wind" and d then return d end
  if kind == "hurricane" and d then return W.HURRICANE + d end
  return nil
end

return W
