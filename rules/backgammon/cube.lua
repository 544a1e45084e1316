-- Backgammon doubling cube (spec §6): who may double (centred or own cube, not the Crawford
-- game, below `cube_limit`, switch `cube`), the answers take / drop / beaver (switch
-- `beavers`, money play only) and the beaver's take / drop.
--
-- Props: cube (value), cube_owner (0 = centred, else the owning seat), phase "doubled" (the
-- opponent answers the current player's double) and "beavered" (the doubler answers a beaver).

local C = {}

local NAMES = { "X", "O" }

-- Cube value and owner (0 = centred).
function C.state(G)
  return G:get("cube") or 1, G:get("cube_owner") or 0
end

-- True when `seat` may offer a double now (at his turn, before rolling).
function C.may_double(G, seat)
  if not switches.cube or G:get("crawford") then return false end
  local value, owner = C.state(G)
  local limit = switches.cube_limit
  return (owner == 0 or owner == seat) and (limit == 0 or value < limit)
end

-- True when the opponent of the doubler may beaver.
function C.may_beaver(G)
  if not switches.beavers or (G:get("match_length") or 0) > 0 then return false end
  local value = C.state(G)
  local limit = switches.cube_limit
  return limit == 0 or value * 4 <= limit
end

-- Why cube action `word` is not open to the player to act now: a sentence, or nil when
-- nothing in the cube's rules forbids it (it may still not be his turn to act).
---@param G G
---@param word string
---@return string?
function C.why_not(G, word)
  if word == "double" then
    if not switches.cube then return "the cube is off in this game (switch cube)" end
    if G:get("crawford") then return "no doubling in the Crawford game" end
    local value, owner = C.state(G)
    if owner ~= 0 and owner ~= G:current() then return "the cube is on the other side" end
    local limit = switches.cube_limit
    if limit ~= 0 and value >= limit then return "the cube is at its limit (cube_limit " .. limit .. ")" end
  elseif word == "beaver" then
    if (G:get("match_length") or 0) > 0 then return "no beavers in match play" end
    if not switches.beavers then return "beavers are off in this game (switch beavers)" end
  end
  return nil
end

-- The answers to a double.
function C.answers(G)
  if C.may_beaver(G) then return { "take", "drop", "beaver" } end
  return { "take", "drop" }
end

function C.double(G, seat)
  G:stat("doubles")
  G:set("phase", "doubled")
  G:log(string.format("%s doubles to %d", NAMES[seat], C.state(G) * 2))
end

-- The cube is multiplied by `factor` and owned by the doubler's opponent; the doubler rolls.
local function turn_cube(G, seat, factor)
  local value = C.state(G) * factor
  G:set("cube", value)
  G:set("cube_owner", 3 - seat)
  G:set("phase", "roll")
  return value
end

-- The doubler's opponent takes: the cube doubles and he owns it.
function C.take(G, seat)
  G:log(string.format("%s takes; cube %d", NAMES[3 - seat], turn_cube(G, seat, 2)))
end

-- The doubler's opponent beavers: he takes and redoubles, keeping the cube.
function C.beaver(G, seat)
  G:set("phase", "beavered")
  G:log(string.format("%s beavers to %d", NAMES[3 - seat], C.state(G) * 4))
end

-- The doubler takes the beaver: cube x4, owned by the beaverer.
function C.take_beaver(G, seat)
  G:log(string.format("%s takes the beaver; cube %d", NAMES[seat], turn_cube(G, seat, 4)))
end

return C
