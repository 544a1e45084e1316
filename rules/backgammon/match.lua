-- Backgammon results and matches (spec §6): single / gammon / backgammon (switches `scoring`,
-- `jacoby`), dropped doubles, the money total, matches to `match_length` points with the
-- Crawford game (switch `crawford`), and draws by `turn_cap` (§8).
--
-- Props: score ({X, O}: match score or money total), match_length, crawford (this game is the
-- Crawford game), crawford_used (the Crawford game has been reached), game (number), and at
-- the end phase "over" with final (scores), result (text) and dropped (ended by a dropped
-- double, for the Match ID).

local layout = require("backgammon.layout")

local M = {}

local NAMES = { "X", "O" }
local KIND_NAMES = { "a single game", "a gammon", "a backgammon" }

-- True when the next game is the Crawford game: the first game after a player first
-- reaches length - 1.
function M.next_is_crawford(length, score, rule_on, used)
  if not rule_on or used or length == 0 then return false end
  return score[1] == length - 1 or score[2] == length - 1
end

local function plural(n) return n == 1 and "1 point" or (n .. " points") end

-- Resets checkers (hook.starting_layout), cube and dice for a new game of the match.
function M.new_game(G)
  layout.place_side(G, 1, hook.starting_layout(G, 1))
  layout.place_side(G, 2, hook.starting_layout(G, 2))
  G:set("cube", 1)
  G:set("cube_owner", 0)
  G:set("turns", 0)
  G:set("game", (G:get("game") or 1) + 1)
  G:set("phase", "opening")
end

local function end_session(G, final, text, dropped)
  G:set("final", final)
  G:set("dropped", dropped)
  G:set("result", text)
  G:set("phase", "over")
  G:log(text)
end

-- Books `points` for `winner` (`how` describes the win; `dropped` when a double was
-- dropped) and ends the session or starts the next game of the match.
function M.finish(G, winner, points, how, dropped)
  -- counter for `sim`: how many games ended with the cube at each value
  if switches.cube then G:stat("games ended at cube " .. (G:get("cube") or 1)) end
  local score = G:get("score") or { 0, 0 }
  score[winner] = score[winner] + points
  G:set("score", score)
  local length = G:get("match_length") or 0
  local text = string.format("%s wins %s: %s; X %d - O %d", NAMES[winner], how, plural(points),
    score[1], score[2])
  if length == 0 then return end_session(G, score, text, dropped) end
  if score[winner] >= length then
    return end_session(G, score, string.format("%s; %s wins the %d-point match", text, NAMES[winner], length),
      dropped)
  end
  local crawford = M.next_is_crawford(length, score, switches.crawford, G:get("crawford_used"))
  G:set("crawford", crawford)
  if crawford then G:set("crawford_used", true) end
  G:log(text .. (crawford and "; the next game is the Crawford game" or ""))
  M.new_game(G)
end

-- `winner` has borne off all his checkers: the kind of win and its points come from the
-- hooks win_kind and points (rules.lua).
function M.win(G, winner)
  local kind = hook.win_kind(G, layout.side(G, 3 - winner))
  local points, counted = hook.points(G, kind, G:get("cube") or 1)
  -- counters for `sim`: gammons won on the board, and those that counted as such
  if kind >= 2 then G:stat("gammons") end
  if counted >= 2 then G:stat("gammons_scored") end
  if kind >= 3 then G:stat("backgammons") end
  if counted >= 3 then G:stat("backgammons_scored") end
  M.finish(G, winner, points, KIND_NAMES[counted])
end

-- The player answering a double (or a beaver) drops: `winner` gets `points` as a single game.
function M.drop(G, winner, points)
  M.finish(G, winner, points, "as " .. NAMES[3 - winner] .. " drops", true)
end

-- `turn_cap` reached: the game is drawn and the session ends.
function M.draw(G, turns)
  end_session(G, G:get("score") or { 0, 0 }, string.format("drawn after %d turns (turn cap)", turns))
end

return M
