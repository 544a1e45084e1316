-- Backgammon's inputs for the learned evaluation (`tortuga train`, the `learned` bot): the 198
-- of Tesauro's TD-Gammon, seen from `seat`. For each of the 24 points in the seat's own
-- numbering, four for the seat's checkers there and four for the opponent's (n >= 1, n >= 2,
-- n >= 3, and (n - 3) / 2 above three); then each side's checkers on the bar, halved, and
-- borne off, fifteenths; then whether the seat is to play next and whether the opponent is.
-- And what the evaluation learns to estimate from them: the outcomes below.

local layout = require("backgammon.layout")

local F = {}

-- Appends the four units of n checkers on one point to `out` from index i + 1.
local function units(out, i, n)
  out[i + 1] = n >= 1 and 1 or 0
  out[i + 2] = n >= 2 and 1 or 0
  out[i + 3] = n >= 3 and 1 or 0
  out[i + 4] = n > 3 and (n - 3) / 2 or 0
end

function F.features(G, seat)
  local b = layout.board(G, seat)
  local theirs = layout.side(G, 3 - seat)
  local out = {}
  for p = 1, 24 do
    local n = b[p]
    units(out, 8 * (p - 1), n > 0 and n or 0)
    units(out, 8 * (p - 1) + 4, n < 0 and -n or 0)
  end
  local next_seat = G:current()
  out[193], out[194] = b[25] / 2, theirs[25] / 2
  out[195], out[196] = b[0] / 15, theirs[0] / 15
  out[197] = next_seat == seat and 1 or 0
  out[198] = next_seat == 3 - seat and 1 or 0
  return out
end

-- What the learned evaluation estimates (the game table's `outcomes`): gnubg's five outputs,
-- a gammon counting backgammons too, as cube_theory.lua reads them.
F.OUTCOMES = { "win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon" }

-- Their values for `seat` once the session is over: who won (a draw by `turn_cap` is half a
-- win each), and the kind of the last game's win on the board (a dropped double wins single).
---@param G G
---@param seat Seat
---@return table<string, number>
function F.outcome(G, seat)
  local final = G:get("final")
  local length = G:get("match_length") or 0
  local mine, theirs = final[seat], final[3 - seat]
  local won = length > 0 and mine >= length or length == 0 and mine > theirs
  local lost = length > 0 and theirs >= length or length == 0 and theirs > mine
  if not won and not lost then
    return { win = 0.5, win_gammon = 0, win_backgammon = 0, lose_gammon = 0, lose_backgammon = 0 }
  end
  local loser = won and 3 - seat or seat
  local kind = G:get("dropped") and 1 or hook.win_kind(G, layout.side(G, loser))
  local function is(x) return x and 1 or 0 end
  return {
    win = is(won),
    win_gammon = is(won and kind >= 2),
    win_backgammon = is(won and kind >= 3),
    lose_gammon = is(lost and kind >= 2),
    lose_backgammon = is(lost and kind >= 3),
  }
end

return F
