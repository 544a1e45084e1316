-- Backgammon results and matches (spec §6): single / gammon / backgammon (switches `scoring`,
-- `jacoby`), dropped doubles, the money total, matches to `match_length` points with the
-- Crawford game (switch `crawford`), and draws by `turn_cap` (§8).
--
-- Props: score ({X, O}: match score or money total), match_length, crawford (this game is the
-- Crawford game), crawford_used (the Crawford game has been reached), game (number), and at
-- the end phase "over" with final (scores) and result (text).

local layout = require("backgammon.layout")

local M = {}

local NAMES = { "X", "O" }
local KIND_NAMES = { "a single game", "a gammon", "a backgammon" }

-- 1 single, 2 gammon (the loser has borne off none), 3 backgammon (and he still has a checker
-- on the bar or in the winner's home board). `loser`: his side in own numbering ([0] off).
function M.kind(loser)
  if loser[0] > 0 then return 1 end
  if loser[25] > 0 then return 3 end
  for p = 19, 24 do
    if loser[p] > 0 then return 3 end
  end
  return 2
end

-- Points for a win of `kind` with the cube at `cube`; `jacoby` = the Jacoby rule applies.
-- Returns the points and the kind that counted.
function M.points(kind, cube, scoring, jacoby)
  if scoring == "single" or (jacoby and cube == 1) then
    kind = 1
  elseif scoring == "gammons" and kind == 3 then
    kind = 2
  end
  return kind * cube, kind
end

-- True when the next game is the Crawford game: the first game after a player first
-- reaches length - 1.
function M.next_is_crawford(length, score, rule_on, used)
  if not rule_on or used or length == 0 then return false end
  return score[1] == length - 1 or score[2] == length - 1
end

local function plural(n) return n == 1 and "1 point" or (n .. " points") end

-- Resets checkers, cube and dice for a new game of the match.
function M.new_game(G)
  local start = layout.start_side(G:switch("start"))
  layout.place_side(G, 1, start)
  layout.place_side(G, 2, start)
  G:set("cube", 1)
  G:set("cube_owner", 0)
  G:set("turns", 0)
  G:set("game", (G:get("game") or 1) + 1)
  G:set("phase", "opening")
end

local function end_session(G, final, text)
  G:set("final", final)
  G:set("result", text)
  G:set("phase", "over")
  G:log(text)
end

-- Books `points` for `winner` (`how` describes the win) and ends the session or starts the
-- next game of the match.
function M.finish(G, winner, points, how)
  local score = G:get("score") or { 0, 0 }
  score[winner] = score[winner] + points
  G:set("score", score)
  local length = G:get("match_length") or 0
  local text = string.format("%s wins %s: %s; X %d - O %d", NAMES[winner], how, plural(points),
    score[1], score[2])
  if length == 0 then return end_session(G, score, text) end
  if score[winner] >= length then
    return end_session(G, score, string.format("%s; %s wins the %d-point match", text, NAMES[winner], length))
  end
  local crawford = M.next_is_crawford(length, score, G:switch("crawford"), G:get("crawford_used"))
  G:set("crawford", crawford)
  if crawford then G:set("crawford_used", true) end
  G:log(text .. (crawford and "; the next game is the Crawford game" or ""))
  M.new_game(G)
end

-- `winner` has borne off all his checkers.
function M.win(G, winner)
  local kind = M.kind(layout.side(G, 3 - winner))
  local cube = G:get("cube") or 1
  local money = (G:get("match_length") or 0) == 0
  local points, counted = M.points(kind, cube, G:switch("scoring"), money and G:switch("jacoby"))
  -- counters for `sim`: gammons won on the board, and those that counted as such
  if kind >= 2 then G:stat("gammons") end
  if counted >= 2 then G:stat("gammons_scored") end
  M.finish(G, winner, points, KIND_NAMES[counted])
end

-- The player answering a double (or a beaver) drops: `winner` gets `points` as a single game.
function M.drop(G, winner, points)
  M.finish(G, winner, points, "as " .. NAMES[3 - winner] .. " drops")
end

-- `turn_cap` reached: the game is drawn and the session ends.
function M.draw(G, turns)
  end_session(G, G:get("score") or { 0, 0 }, string.format("drawn after %d turns (turn cap)", turns))
end

return M
