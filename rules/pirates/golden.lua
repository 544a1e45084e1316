-- The golden galleon (spec §4, §13, §14): a kernel secret "golden" (the ship's piece id),
-- seen by Spain's players until it is revealed; the side that owned it at the start (prop
-- "gold_side", for recapture); the wins it brings; the end of the game.

local B = require("pirates.board")
local P = require("pirates.players")

local Gd = {}

-- The golden ship's piece id, or nil when there is none (a test position may have none).
-- Only the referee's hooks (apply, chance) may call it before the reveal.
function Gd.id(G)
  if not G:get("gold") then return nil end
  local p = G:secret_get("golden")
  if not G:exists(p) then return nil end
  return p
end

-- Whether the current view may know which ship is golden.
function Gd.visible(G)
  return G:get("gold") and G:can_see("golden")
end

-- The piece ids of the galleons on the board: where the golden ship may be, as far as anyone
-- who does not know it can tell (the secret's domain).
local function galleons(G)
  local out = {}
  for _, s in ipairs(B.ships(G)) do
    if s.kind == "galleon" then out[#out + 1] = s.p end
  end
  return out
end

-- Makes piece p the golden ship, seen by Spain (or by everyone when `revealed`).
function Gd.set(G, p, revealed)
  local domain = galleons(G)
  if #domain == 0 then domain = { p } end
  G:secret_set("golden", p, P.spanish_seats(G), domain)
  -- A golden brigantine comes only from a pirate's trophy claim (§15 transfer).
  G:set("gold", true, "gold_rev", false, "gold_side", B.ship(G, p).kind == "galleon" and "spain" or "pirate")
  if revealed then Gd.reveal(G) end
end

-- A galleon left the board (sunk or wrecked): until the reveal, the golden ship is one of the
-- galleons still afloat, which everyone can see, so a bot that resamples the secret for a
-- pirate (the secret's domain) never picks a ship that is gone (§4).
function Gd.narrow(G)
  if not G:get("gold") or G:get("gold_rev") then return end
  local p = G:secret_get("golden")
  if G:exists(p) then G:secret_set("golden", p, P.spanish_seats(G), galleons(G)) end
end

function Gd.reveal(G, why)
  if not G:get("gold") or G:get("gold_rev") then return end
  G:secret_reveal("golden")
  G:set("gold_rev", true)
  local p = G:secret_get("golden")
  if G:exists(p) then
    G:log(B.ship(G, p).id .. " is the golden galleon" .. (why and " (" .. why .. ")" or ""))
  end
end

-- Ends the game: `side` wins ("spain", "pirate") or nil for a draw.
function Gd.finish(G, side, result)
  if G:get("phase") == "over" then return end
  local scores = {}
  for seat = 1, G:seats() do
    scores[seat] = side == nil and 0.5 or (P.side(G, seat) == side and 1 or 0)
  end
  G:set("phase", "over", "scores", scores, "result", result)
  Gd.reveal(G, "the game is over")
  G:log(result)
end

-- The wins of §13 for the golden ship where it stands now.
function Gd.check_win(G)
  local p = Gd.id(G)
  if not p or G:get("phase") == "over" then return end
  local s = B.ship(G, p)
  if s.der then return end
  if not Gd.is_goal(G, s.side, s.pos) then return end
  if s.side == "spain" then
    Gd.reveal(G, "it entered Cadiz")
    G:stat("golden_to_cadiz")
    Gd.finish(G, "spain", "Spain wins: the golden galleon " .. s.id .. " reached Cadiz")
  else
    Gd.finish(G, "pirate", "the pirates win: the golden galleon " .. s.id .. " reached a pirate base")
  end
end

-- Whether cell pos is where the golden ship, held by `side`, wins (§13): Cadiz for Spain; for
-- the pirates a base, under pirate_goal=nearest_base the one fixed at the capture.
---@param G G
---@param side string
---@param pos integer
---@return boolean
function Gd.is_goal(G, side, pos)
  local ch = G:get("grid"):sub(pos + 1, pos + 1)
  if side == "spain" then return ch == "C" end
  if side ~= "pirate" or not ch:match("^[1-6]$") then return false end
  local goal = G:get("goal_base")
  return G:get("sw_pirate_goal") == "any_base" or goal == nil or goal == pos
end

-- The early end of §14: a side with no ship left while the other side holds the golden ship.
function Gd.check_early_end(G)
  if G:get("sw_early_end") ~= "on" or G:get("phase") == "over" then return end
  local p = Gd.id(G)
  if not p then return end
  local holder = B.ship(G, p).side
  if holder == "none" then return end
  local count = { spain = 0, pirate = 0 }
  for _, s in ipairs(B.ships(G)) do
    if not s.der then count[s.side] = count[s.side] + 1 end
  end
  for _, side in ipairs({ "spain", "pirate" }) do
    if count[side] == 0 and holder ~= side then
      Gd.finish(G, holder, (holder == "spain" and "Spain wins" or "the pirates win")
        .. ": the other side has no ship left")
      return
    end
  end
end

return Gd
