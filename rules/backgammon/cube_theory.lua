-- Backgammon cube theory for the bots (spec §6): what a position is worth to a seat with the
-- cube where it is, from cubeless chances ("estimates": an evaluation's win, gammon and
-- backgammon probabilities), so that every bot doubles, takes and drops by one model.
--
-- Money play: Janowski's interpolation ("Take-Points in Money Games", 1993). Between the dead
-- cube's equity (the cubeless one) and the live cube's, a piecewise-linear curve through the
-- take point and the cash point, weighted by the cube's efficiency X.
-- Match play: the same curve in match-winning chances, its points read from a match equity
-- table (met/kazaross_xg2.txt), with Crawford and post-Crawford scores.
--
-- A cube is dead for a side that cannot use it: the Crawford game, the switch `cube` off,
-- `cube_limit` reached, or, in a match, a cube already worth what that side needs. A double
-- of a dead cube is worth a hair less than not doubling, so no bot ever doubles past what
-- the match needs.

---@class Estimate
---@field win number chance that the seat wins
---@field win_gammon number? chance that it wins a gammon or a backgammon
---@field win_backgammon number? chance that it wins a backgammon
---@field lose_gammon number? chance that it loses a gammon or a backgammon
---@field lose_backgammon number? chance that it loses a backgammon

local CT = {}

-- The cube's efficiency: the share of the live cube's value a real cube keeps (gnubg's
-- default for contact positions).
CT.X = 0.68

-- What a pointless double costs against not doubling: more than the bots' tolerance for ties.
local HAIR = 1e-6

---@param path string
---@return number[][] pre, number[] post
local function read_met(path)
  local pre, post = {}, nil
  for n, line in ipairs(data.lines(path)) do
    local word, rest = line:match("^(%a+)%s+(.*)$")
    if word == "pre" or word == "post" then
      local row = {}
      for x in rest:gmatch("%S+") do
        local v = tonumber(x)
        if not v or v < 0 or v > 1 then data.fail(path, n, nil, "not a chance: " .. x) end
        row[#row + 1] = v
      end
      if word == "pre" then pre[#pre + 1] = row else post = row end
    end
  end
  for i, row in ipairs(pre) do
    if #row ~= #pre then data.fail(path, i, nil, "a row of the table needs " .. #pre .. " chances") end
  end
  if not post or #post ~= #pre then data.fail(path, 1, nil, "the post-Crawford row is missing or short") end
  return pre, post
end

local PRE, POST = read_met("met/kazaross_xg2.txt")
local LONGEST = #PRE

-- The chance that a side `a` away wins the match against a side `b` away; `post`: a side one
-- away is past the Crawford game. Beyond the table, the needs are capped at its length.
---@param a integer
---@param b integer
---@param post boolean
---@return number
function CT.met(a, b, post)
  if a <= 0 then return 1 end
  if b <= 0 then return 0 end
  a, b = math.min(a, LONGEST), math.min(b, LONGEST)
  if post and a == 1 then return 1 - POST[b] end
  if post and b == 1 then return POST[a] end
  return PRE[a][b]
end

-- Whether a side one away reads the post-Crawford row: the Crawford game was played, or
-- the rule is off.
local function past_crawford(G) return not switches.crawford or G:get("crawford_used") or false end

-- The chances of each result for `seat`: single, gammon and backgammon wins and losses.
---@param e Estimate
local function results(e)
  local w = math.min(math.max(e.win, 0), 1)
  local wg, wb = e.win_gammon or 0, e.win_backgammon or 0
  local lg, lb = e.lose_gammon or 0, e.lose_backgammon or 0
  return w, { w - wg, wg - wb, wb }, { 1 - w - lg, lg - lb, lb }
end

-- A point on the piecewise-linear curve through `points` ({p, value} with p rising) at p.
local function curve(points, p)
  for i = 2, #points do
    local a, b = points[i - 1], points[i]
    if p <= b[1] or i == #points then
      if b[1] - a[1] < 1e-12 then return b[2] end
      return a[2] + (b[2] - a[2]) * (p - a[1]) / (b[1] - a[1])
    end
  end
  return points[#points][2]
end

local function clamp01(x) return math.min(math.max(x, 0), 1) end

-- The shape of the live cube for `seat`: who may still use it.
local function shape(mine, theirs)
  if mine and theirs then return "centred" elseif mine then return "owned" elseif theirs then return "unavailable" end
  return "dead"
end

-- The live curve's points from the value of a loss, of a cashed loss, of a cash, and of a
-- win, and the take and cash points.
local function live_points(kind, L, lose_cash, cash, W, tp, cp)
  if kind == "centred" then return { { 0, L }, { tp, lose_cash }, { cp, cash }, { 1, W } } end
  if kind == "owned" then return { { 0, L }, { cp, cash }, { 1, W } } end
  return { { 0, L }, { tp, lose_cash }, { 1, W } }
end

-- Money play: `seat`'s equity in points with the cube at `value`, usable by `mine`/`theirs`.
local function money(G, e, value, mine, theirs)
  local w, wins, losses = results(e)
  local W, L = 0, 0
  for kind = 1, 3 do
    local points = hook.points(G, kind, value) / value
    W, L = W + wins[kind] * points, L + losses[kind] * points
  end
  local dead = W - L
  local kind = shape(mine, theirs)
  if kind == "dead" then return value * dead end
  -- average values of a win and of a loss
  W = w > 1e-7 and W / w or 1
  L = w < 1 - 1e-7 and L / (1 - w) or 1
  local tp = clamp01((L - 0.5) / (W + L + 0.5))
  local cp = clamp01((L + 1) / (W + L + 0.5))
  local live = curve(live_points(kind, -L, -1, 1, W, tp, cp), w)
  return value * (CT.X * live + (1 - CT.X) * dead)
end

-- Match play: `seat`'s chance of winning the match, `a` and `b` points away, with the cube
-- at `value`.
local function match(G, e, value, a, b, mine, theirs)
  local w, wins, losses = results(e)
  local post = past_crawford(G)
  -- a game that takes a side to one away for the first time makes the next the Crawford game
  -- (the table's first row); after it, the post-Crawford row
  local function after(x, y) return CT.met(x, y, post) end
  -- the average chance after a win and after a loss of the game with the cube at `c`
  local function ends(c)
    local W, L = 0, 0
    for kind = 1, 3 do
      local points = hook.points(G, kind, c)
      W, L = W + wins[kind] * after(a - points, b), L + losses[kind] * after(a, b - points)
    end
    return w > 1e-7 and W / w or after(a - c, b), w < 1 - 1e-7 and L / (1 - w) or after(a, b - c)
  end
  local W, L = ends(value)
  local dead = w * W + (1 - w) * L
  local kind = shape(mine, theirs)
  if kind == "dead" then return dead end
  local cash, lose_cash = after(a - value, b), after(a, b - value)
  local W2, L2 = ends(2 * value)
  local span = W2 - L2
  local tp = span > 1e-9 and clamp01((lose_cash - L2) / span) or 0
  local cp = span > 1e-9 and clamp01((cash - L2) / span) or 1
  if tp > cp then tp, cp = cp, tp end
  local live = curve(live_points(kind, L, lose_cash, cash, W, tp, cp), w)
  return CT.X * live + (1 - CT.X) * dead
end

-- The needs of `seat` and of its opponent (nil in money play).
local function needs(G, seat)
  local length = G:get("match_length") or 0
  if length == 0 then return nil end
  local score = G:get("score") or { 0, 0 }
  return length - score[seat], length - score[3 - seat]
end

-- Whether a side `need` away (nil: money) may still gain by doubling a cube at `value`.
local function alive(G, value, need)
  if not switches.cube or G:get("crawford") then return false end
  local limit = switches.cube_limit
  if limit > 0 and value * 2 > limit then return false end
  return need == nil or value < need
end

-- `seat`'s worth with the cube at `value` owned by `owner` (0: centred).
local function worth(G, seat, e, value, owner)
  local a, b = needs(G, seat)
  local mine = (owner == 0 or owner == seat) and alive(G, value, a)
  local theirs = (owner == 0 or owner == 3 - seat) and alive(G, value, b)
  if a then return match(G, e, value, a, b, mine, theirs) end
  return money(G, e, value, mine, theirs)
end

-- What `seat` gets when the game ends now with `winner` scoring `points` as a single game.
local function cashed(G, seat, winner, points)
  local a, b = needs(G, seat)
  if not a then return winner == seat and points or -points end
  local post = past_crawford(G)
  if winner == seat then return CT.met(a - points, b, post) end
  return CT.met(a, b - points, post)
end

-- What the game now is worth to `seat`, with the cube where it is, given the cubeless
-- estimate `e` of `seat`'s chances: points in money play, the chance of winning the match in
-- a match. A double waiting for its answer is worth what the answer that suits the answering
-- side gives (a take, a drop or a beaver, judged the same way).
---@param G G
---@param seat Seat
---@param e Estimate
---@return number
function CT.equity(G, seat, e)
  local phase = G:get("phase")
  if phase == "over" then
    local final = G:get("final")
    local length = G:get("match_length") or 0
    if length == 0 then return final[seat] - final[3 - seat] end
    return final[seat] >= length and 1 or 0
  end
  local value, owner = G:get("cube") or 1, G:get("cube_owner") or 0
  if phase ~= "doubled" and phase ~= "beavered" then return worth(G, seat, e, value, owner) end
  local doubler = G:current()
  local taker = 3 - doubler
  local factor = phase == "doubled" and 2 or 4
  local drop_points = phase == "doubled" and value or 2 * value
  -- the side that answers now: the taker after a double, the doubler after a beaver
  local answering = phase == "doubled" and taker or doubler
  local dropped = cashed(G, seat, 3 - answering, drop_points)
  local taken = worth(G, seat, e, value * factor, taker)
  local answer = seat == answering and math.max(dropped, taken) or math.min(dropped, taken)
  local a = needs(G, doubler)
  if phase == "doubled" and seat == doubler and not alive(G, value, a) then answer = answer - HAIR end
  return answer
end

return CT
