-- Pirates' inputs for the learned evaluation (`tortuga train`, the `learned` bot), seen from
-- `seat`: what decides the chase for the golden galleon (§11–§14) in a few numbers. Whether the
-- seat knows which ship is golden and whether it is revealed; which side holds it and how far
-- it still has to go to its holder's goal (Cadiz for Spain, a pirate base for the pirates); its
-- holes; the galleons, brigantines and holes of each side; how near the seat's ships are to the
-- enemy and each side's to the golden ship; how many shots at an enemy each side has; the
-- round; whose turn it is; and the greedy bot's own measure (eval.lua). Everything is read in
-- the seat's view: before the reveal a pirate does not know which galleon is golden, and the
-- Spanish galleon nearest Cadiz stands for it (the secret is read only when visible).

local B = require("pirates.board")
local E = require("pirates.eval")
local Gd = require("pirates.golden")
local P = require("pirates.players")

local F = {}

local NEAR = 12 -- ship-to-ship distances count up to this many cells

-- Chebyshev distance between cells a and b of a board w cells wide (§2).
---@param w integer
---@param a integer
---@param b integer
---@return integer
local function distance(w, a, b)
  return math.max(math.abs(a % w - b % w), math.abs(a // w - b // w))
end

-- The distance from cell a to the nearest of `cells` (`far` when there is none).
---@param w integer
---@param a integer
---@param cells integer[]
---@param far integer
---@return integer
local function nearest(w, a, cells, far)
  local best = far
  for i = 1, #cells do
    local d = distance(w, a, cells[i])
    if d < best then best = d end
  end
  return best
end

-- The cells where a golden ship held by `side` would win (Gd.is_goal): among the ports.
---@param G G
---@param side string
---@return integer[]
local function goals(G, side)
  local out = {}
  for _, port in ipairs(B.ports(G)) do
    if Gd.is_goal(G, side, port.pos) then out[#out + 1] = port.pos end
  end
  return out
end

---@param G G
---@param seat Seat
---@return number[]
function F.features(G, seat)
  local mine = P.side(G, seat)
  local w, grid = G:get("w"), G:get("grid")
  -- the ships of each side still sailing (derelicts belong to nobody)
  local ships = {}
  for _, s in ipairs(B.ships(G)) do
    if not s.der and s.side ~= "none" then ships[#ships + 1] = s end
  end
  local count = { mine = { galleon = 0, brig = 0 }, theirs = { galleon = 0, brig = 0 } }
  local holes = { mine = 0, theirs = 0 }
  for _, s in ipairs(ships) do
    local who = s.side == mine and "mine" or "theirs"
    count[who][s.kind] = count[who][s.kind] + 1
    holes[who] = holes[who] + s.holes
  end
  -- the golden ship as the seat knows it, else the Spanish galleon nearest Cadiz (until the
  -- reveal, Spain holds it)
  local known = Gd.visible(G) and true or false
  local golden = nil
  if known then
    local p = Gd.id(G)
    if p then golden = B.ship(G, p) end
  elseif G:get("gold") then
    local cadiz, best = goals(G, "spain"), nil
    for _, s in ipairs(ships) do
      if s.side == "spain" and s.kind == "galleon" then
        local d = nearest(w, s.pos, cadiz, w)
        if best == nil or d < best then golden, best = s, d end
      end
    end
  end
  local held_mine, held_theirs, progress_mine, progress_theirs, golden_holes = 0, 0, 0, 0, 0
  local mine_to_golden, theirs_to_golden = NEAR, NEAR
  if golden then
    golden_holes = golden.holes / (B.SINK[golden.kind] - 1)
    if golden.side ~= "none" then
      local way = math.min(nearest(w, golden.pos, goals(G, golden.side), w), w)
      if golden.side == mine then
        held_mine, progress_mine = 1, 1 - way / w
      else
        held_theirs, progress_theirs = 1, 1 - way / w
      end
    end
    for _, s in ipairs(ships) do
      if s.p ~= golden.p then
        local d = distance(w, s.pos, golden.pos)
        if s.side == mine then
          mine_to_golden = math.min(mine_to_golden, d)
        else
          theirs_to_golden = math.min(theirs_to_golden, d)
        end
      end
    end
  end
  -- how near the seat's ships are to the enemy, and each side's shots it could fire (pairs of
  -- its ship and an enemy ship, both at sea, in the shooter's range, §11)
  local to_enemy, in_range = NEAR, { mine = 0, theirs = 0 }
  local function at_sea(s) return grid:sub(s.pos + 1, s.pos + 1) == "." end
  for _, s in ipairs(ships) do
    local who = s.side == mine and "mine" or "theirs"
    for _, t in ipairs(ships) do
      if t.side ~= s.side then
        local d = distance(w, s.pos, t.pos)
        if who == "mine" then to_enemy = math.min(to_enemy, d) end
        if d <= B.RANGE[s.kind] and at_sea(s) and at_sea(t) then
          in_range[who] = in_range[who] + 1
        end
      end
    end
  end
  local round = G:get("round") or 0
  local e = E.eval(G, seat)
  local e8 = e / 8
  return {
    known and 1 or 0,
    G:get("gold_rev") and 1 or 0,
    held_mine,
    held_theirs,
    progress_mine,
    progress_theirs,
    golden_holes,
    count.mine.galleon / 3,
    count.mine.brig / 6,
    count.theirs.galleon / 3,
    count.theirs.brig / 6,
    holes.mine / 6,
    holes.theirs / 6,
    to_enemy / NEAR,
    mine_to_golden / NEAR,
    theirs_to_golden / NEAR,
    math.min(in_range.mine, 6) / 6,
    math.min(in_range.theirs, 6) / 6,
    round / (round + 50),
    G:current() == seat and 1 or 0,
    e / (1 + math.abs(e)),
    e8 / (1 + math.abs(e8)),
  }
end

return F
