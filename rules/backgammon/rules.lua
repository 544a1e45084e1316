-- Backgammon's rules as named hooks (spec §1, §3-§6): the game table lists each of these
-- under `hooks`, game code calls them through `hook`, and a house rule overrides one by name
-- and receives the rule below it as `base`. Boards `b` are oriented to the mover (see
-- movegen.lua): b[1..24] his points (his checkers positive, the opponent's negative), b[25]
-- his bar, b[0] his borne-off checkers, and while a move is searched b.safe, the blots of
-- the board before the move he may not hit (R.start); a side is one player's checkers in
-- his own numbering ([0] off, [25] bar).
--
-- moves.lua builds the legal moves from these hooks alone; movegen.lua computes the same
-- moves much faster while the hooks it assumes are these, or are overridden only in ways it
-- follows: fewer times a double, blots that may not be hit (R.fast_dice, R.shield).

local layout = require("backgammon.layout")

local R = {}

-- §1 (switch `start`): the side `seat` starts with. Every new game of a match asks again.
function R.starting_layout(G, seat)
  return layout.start_side(switches.start)
end

-- §3: the dice a roll of d1, d2 lets the mover play: each once, a double four times.
function R.dice_to_play(G, d1, d2)
  if d1 == d2 then return { d1, d1, d1, d1 } end
  return { d1, d2 }
end

-- §3: whether the mover may hit the lone opposing checker on his point `to`: always.
-- It is judged on the board before the move `b`: both move generators ask it once for each
-- blot there (R.shield) and keep the answer for every step of the move (R.start), so an
-- override may read all of `b`, the mover's checkers too, though a move shifts them.
function R.may_hit(G, b, to)
  return true
end

-- §3 (switch `max_per_point`): whether a checker may land on point `to`: not when two or more
-- opposing checkers hold it, on a lone one only if it may be hit (as judged before the move:
-- b.safe, or `b` is the board before the move), not beyond the point limit.
function R.may_land(G, b, to)
  local v = b[to]
  if v < -1 then return false end
  if v == -1 then
    local safe = b.safe
    if safe then return safe & 1 << to == 0 end
    return hook.may_hit(G, b, to)
  end
  if v == 0 then return true end
  local cap = switches.max_per_point
  return cap == 0 or v < cap
end

-- §5: whether die `die` may bear off the checker on point `from`: all the mover's checkers
-- are home (points 1-6 or off, none on the bar), and the die is exact, or larger while no
-- checker stands above `from`.
function R.may_bear_off(G, b, from, die)
  if from > die then return false end
  for p = 7, 25 do
    if b[p] > 0 then return false end
  end
  if from == die then return true end
  for p = from + 1, 6 do
    if b[p] > 0 then return false end
  end
  return true
end

-- §3: where die `die` takes a checker from `from` (25 = the bar): a point, 0 for off, or nil
-- when the step is not allowed. Checkers on the bar must enter before any other moves.
function R.step(G, b, from, die)
  if b[25] > 0 and from ~= 25 then return nil end
  local to = from - die
  if to >= 1 then
    if hook.may_land(G, b, to) then return to end
    return nil
  end
  if hook.may_bear_off(G, b, from, die) then return 0 end
  return nil
end

-- A move as moves.lua gives it to forced_play: how many dice it plays, and the first die.
function R.length(pack) return pack >> 48 end
function R.first_die(pack) return pack >> 44 & 15 end

-- §4: which of every sequence of steps (`moves`, for the dice `dice`) are legal: those that
-- play the most dice; of a non-double of which only one die can be played, the larger if
-- it can be.
function R.forced_play(G, moves, dice)
  local most = 0
  for _, m in ipairs(moves) do most = math.max(most, R.length(m)) end
  local larger = dice[1] ~= dice[2] and most == 1 and math.max(dice[1], dice[2])
  local out, with_larger = {}, {}
  for _, m in ipairs(moves) do
    if R.length(m) == most then
      out[#out + 1] = m
      if R.first_die(m) == larger then with_larger[#with_larger + 1] = m end
    end
  end
  if #with_larger > 0 then return with_larger end
  return out
end

-- §6: the kind of a win over the side `loser`: 1 single, 2 gammon (he has borne off none),
-- 3 backgammon (and he still has a checker on the bar or in the winner's home board).
function R.win_kind(G, loser)
  if loser[0] > 0 then return 1 end
  if loser[25] > 0 then return 3 end
  for p = 19, 24 do
    if loser[p] > 0 then return 3 end
  end
  return 2
end

-- §6 (switches `scoring`, `jacoby`): the points a win of `kind` scores with the cube at
-- `cube`, and the kind that counted. Jacoby applies in money play only.
function R.points(G, kind, cube)
  local scoring = switches.scoring
  local money = (G:get("match_length") or 0) == 0
  if scoring == "single" or (money and switches.jacoby and cube == 1) then
    kind = 1
  elseif scoring == "gammons" and kind == 3 then
    kind = 2
  end
  return kind * cube, kind
end

-- The hooks movegen.lua's fast generator assumes to be these: it knows no point limit, and
-- R.fast_dice and R.shield say which dice it plays and which blots it may not hit.
local ASSUMED = { "step", "may_land", "may_bear_off", "forced_play" }

-- The composed hooks, copied into a plain table once loaded (reading `hook` goes through its
-- read-only view, too dear for the fast paths), and whether every hook of ASSUMED is this
-- file's.
local HOOK, assumed = {}, false
when_loaded(function()
  for _, name in ipairs(sorted_keys(hook)) do HOOK[name] = hook[name] end
  assumed = true
  for i = 1, #ASSUMED do
    if HOOK[ASSUMED[i]] ~= R[ASSUMED[i]] then assumed = false end
  end
end)

-- Whether hook `name` is still the game's own `f` (no house rule overrides it).
---@param name string
---@param f function
---@return boolean
function R.unchanged(name, f) return HOOK[name] == f end

-- How many dice the fast generator plays for the roll d1, d2 so as to give the hooks' moves,
-- or nil when it cannot (moves.lua then builds them from the hooks): the hooks it assumes
-- are this file's, there is no point limit, and dice_to_play gives the dice of this roll, or
-- two to four of a double's value.
function R.fast_dice(G, d1, d2)
  if not assumed or switches.max_per_point ~= 0 then return nil end
  if R.unchanged("dice_to_play", R.dice_to_play) then return d1 == d2 and 4 or 2 end
  local dice = hook.dice_to_play(G, d1, d2)
  if d1 ~= d2 then return #dice == 2 and dice[1] == d1 and dice[2] == d2 and 2 or nil end
  for i = 1, #dice do
    if dice[i] ~= d1 then return nil end
  end
  return #dice >= 2 and #dice <= 4 and #dice or nil
end

-- The lone opposing checkers of `b` (mask `blots`: bit p for point p) the mover may not hit
-- in a move from `b`: hook.may_hit asked once for each (see R.may_hit); 0 while may_hit is
-- this file's.
function R.shield(G, b, blots)
  if R.unchanged("may_hit", R.may_hit) then return 0 end
  local shield = 0
  for p = 1, 24 do
    if blots & (1 << p) ~= 0 and not hook.may_hit(G, b, p) then shield = shield | 1 << p end
  end
  return shield
end

-- The lone opposing checkers of `b`, as a mask (bit p: point p).
function R.blots(b)
  local blots = 0
  for p = 1, 24 do
    if b[p] == -1 then blots = blots | 1 << p end
  end
  return blots
end

-- The board a move from `b` plays its steps on: a copy of `b` whose `safe` (R.shield) keeps
-- may_hit's answers on `b` for every step (R.may_land), as the fast generator keeps them.
function R.start(G, b)
  local board = { safe = R.shield(G, b, R.blots(b)) }
  for p = 0, 25 do board[p] = b[p] end
  return board
end

-- Checkers per side: those of the starting layout.
function R.checkers(G)
  local side, n = hook.starting_layout(G, 1), 0
  for p = 0, 25 do n = n + side[p] end
  return n
end

return R
