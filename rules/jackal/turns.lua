-- Jackal turns (§3, §9, §10): seating, the end of an action and of a turn, automatic passes,
-- rounds and stalls, the end of the game and the score.

local B = require("jackal.board")
local C = require("jackal.core")
local M = require("jackal.moves")
local H = require("jackal.chain")

local T = {}

------------------------------------------------------------------------------------------
-- Seating (§10)
--
-- Teams are seated in turn order W, Y, B, R (those in play). Team i of that order is played by
-- seat ((i-1) mod seats) + 1: with as many seats as teams, one each; two seats and four teams
-- give P1 = white+black and P2 = yellow+red. Sides: with seating "2v2" or "duo", white+black
-- against yellow+red; with "ffa", the teams of one seat form a side. Seats with no team idle.

function T.seat_teams(G, teams)
  local n = G:seats()
  local seating = C.sw(G, "seating")
  local ctrl, sides = { 0, 0, 0, 0 }, { 0, 0, 0, 0 }
  for i = 1, #teams do
    local t = teams[i]
    ctrl[t] = (i - 1) % n + 1
    if seating == "ffa" then
      sides[t] = ctrl[t]
    else
      sides[t] = (t == 1 or t == 3) and 1 or 2
    end
  end
  G:set("teams", teams)
  G:set("ctrl", ctrl)
  G:set("sides", sides)
  -- the kernel's notion of teams, for reports
  for s = 1, n do
    for t = 1, 4 do
      if ctrl[t] == s then G:set_team(s, sides[t]) end
    end
  end
  -- the teams as the kernel's play units, so that a colour names its seat (`show yellow`)
  local units = {}
  for i = 1, #teams do
    local t = teams[i]
    units[i] = { name = B.TEAMS[t], seat = ctrl[t], team = sides[t] }
  end
  G:set_units(units)
end

-- The teams a new game uses (switch teams; three seats take the first three).
function T.default_teams(G)
  local names = C.sw(G, "teams")
  local out, seen = {}, {}
  for i = 1, #names do
    local t = B.TEAM_OF[names[i]]
    if not t then error("switch teams: unknown team '" .. tostring(names[i]) .. "'", 0) end
    if seen[t] then error("switch teams: '" .. names[i] .. "' twice", 0) end
    seen[t] = true
  end
  for t = 1, 4 do if seen[t] then out[#out + 1] = t end end
  if C.sw(G, "seating") == "ffa" and G:seats() == 3 and #out > 3 then
    out = { out[1], out[2], out[3] }
  end
  if #out < 2 then error("switch teams: at least two teams", 0) end
  return out
end

-- The team that starts a round: first_team, or the next one in play after it (`teams`: the
-- teams in play, when the caller has read them; V: a view of the state, when known).
function T.first_team(G, teams, V)
  teams = teams or G:get("teams")
  local f = B.TEAM_OF[V and C.vsw(V, "first_team") or C.sw(G, "first_team")]
  for k = 0, 3 do
    local t = (f - 1 + k) % 4 + 1
    if C.contains(teams, t) then return t end
  end
  return teams[1]
end

------------------------------------------------------------------------------------------
-- Gold (§9)

-- Gold hidden in the deck and on closed cells whose identity is fixed.
function T.hidden_gold(G)
  local n = 0
  local deck = G:bag_items("deck")
  for i = 1, #deck do n = n + (C.th(deck[i], "gold") or 0) end
  -- one read of every land cell: a cell with no prop is closed and not yet drawn (C.cell)
  local cells = G:cells_get(B.LAND, "c")
  for i = 1, #B.LAND do
    local v = cells[i]
    if v and v & 128 == 0 then
      local t = C.tile(G, B.LAND[i])
      if t then n = n + (C.th(t, "gold") or 0) end
    end
  end
  return n
end

-- Gold lying on the island or held underground (or carried in a move).
function T.loose_gold(G)
  local n = 0
  n = n + #G:pieces(nil, "coin") * C.VALUE.coin + #G:pieces(nil, "treasure") * C.VALUE.treasure
  return n
end

function T.banked(G)
  local b = G:get("bank")
  return b[1] + b[2] + b[3] + b[4]
end

function T.gold_in_play(G)
  return T.hidden_gold(G) + T.loose_gold(G)
end

------------------------------------------------------------------------------------------
-- The end (§9)

-- Side scores: sides in order of their first team, with their gold and teams.
function T.side_scores(G)
  local teams, sides, bank = G:get("teams"), G:get("sides"), G:get("bank")
  local out, index = {}, {}
  for i = 1, #teams do
    local t = teams[i]
    local s = sides[t]
    if not index[s] then
      out[#out + 1] = { side = s, gold = 0, teams = {}, living = 0 }
      index[s] = out[#out]
    end
    local e = index[s]
    e.gold = e.gold + bank[t]
    e.teams[#e.teams + 1] = B.TEAMS[t]
  end
  local V = C.view(G)
  for i = 1, #V.chars do
    local c = V.chars[i]
    if c.team ~= 0 and C.alive(c) and index[sides[c.team]] then
      local e = index[sides[c.team]]
      e.living = e.living + 1
    end
  end
  return out
end

function T.finish(G, why)
  local list = T.side_scores(G)
  local tb = C.sw(G, "tiebreak")
  local best = -1
  for i = 1, #list do if list[i].gold > best then best = list[i].gold end end
  local winners = {}
  for i = 1, #list do if list[i].gold == best then winners[#winners + 1] = list[i] end end
  if #winners > 1 and tb == "living" then
    local most = -1
    for i = 1, #winners do if winners[i].living > most then most = winners[i].living end end
    local w2 = {}
    for i = 1, #winners do if winners[i].living == most then w2[#w2 + 1] = winners[i] end end
    winners = w2
  end
  local golds = {}
  for i = 1, #list do golds[i] = list[i].gold end
  table.sort(golds, function(a, b) return a > b end)
  local figures = {}
  for i = 1, #golds do figures[i] = tostring(golds[i]) end
  local result
  if #winners == 1 then
    local names = table.concat(winners[1].teams, "+")
    result = names .. (#winners[1].teams > 1 and " win " or " wins ") .. table.concat(figures, "–")
  else
    local names = {}
    for i = 1, #winners do names[i] = table.concat(winners[i].teams, "+") end
    result = "shared win: " .. table.concat(names, ", ") .. " " .. table.concat(figures, "–")
  end
  if why then result = result .. " (" .. why .. ")" end
  -- scores per seat: the gold of the side its teams play for
  local ctrl, sides = G:get("ctrl"), G:get("sides")
  local scores = {}
  for s = 1, G:seats() do
    scores[s] = 0
    for t = 1, 4 do
      if ctrl[t] == s then
        for i = 1, #list do if list[i].side == sides[t] then scores[s] = list[i].gold end end
      end
    end
  end
  G:set("phase", "over")
  G:set("result", result)
  G:set("scores", scores)
  G:log("game over: " .. result)
end

-- Ends the game if an end condition of §9 holds (checked after every action that banked or
-- lost gold; a test board that never had gold does not end by gold). V: the view of the state.
function T.check_over(G, V)
  local rule = C.vsw(V, "game_end")
  local act, gold_out = G:get("act", "gold_out")
  if rule == "all_open" and act then
    local all = true
    for i = 1, #B.LAND do if not C.is_open(G, B.LAND[i]) then all = false; break end end
    if all then T.finish(G, "every tile is open"); return true end
  end
  if not gold_out then return false end
  G:set("gold_out", nil)
  local left = T.gold_in_play(G)
  if left == 0 then
    T.finish(G)
    return true
  end
  if rule == "decided" or rule == "first_to" then
    local list = T.side_scores(G)
    table.sort(list, function(a, b) return a.gold > b.gold end)
    if rule == "decided" and #list > 1 and list[1].gold > list[2].gold + left then
      T.finish(G, "decided")
      return true
    end
    if rule == "first_to" and list[1].gold >= C.vsw(V, "first_to_n") then
      T.finish(G)
      return true
    end
  end
  return false
end

------------------------------------------------------------------------------------------
-- Turns

-- V: the view of the state (it follows).
local function tick(G, t, V)
  -- drunkenness and the newborn's wait wear off at the end of the team's turn
  for i = 1, #V.chars do
    local c = V.chars[i]
    if c.team == t then
      if c.drunk > 0 then
        c.drunk = c.drunk - 1
        C.flag(G, c.id, "drunk", c.drunk)
      end
      if c.newb > 0 then
        c.newb = c.newb - 1
        C.flag(G, c.id, "newb", c.newb)
      end
    end
  end
  if V.shifted then
    G:set("grass", math.max(0, (G:get("grass") or 0) - 1))
  end
end

-- Makes team t of `teams` (the teams in play) the one to act (no automatic pass here); view
-- V, when given, follows. Returns the seat that plays the turn.
function T.set_turn(G, t, teams, V)
  local grass, ctrl = G:get("grass", "ctrl")
  local shifted = (grass or 0) > 0
  G:set("turn", t, "shifted", shifted, "phase", "action")
  if V then V.shifted = shifted end
  local seat = C.control(ctrl, teams, shifted, t)
  -- The team's own unit, unless another seat plays it this turn (grass shifts control).
  if ctrl[t] == seat then
    G:set_unit(B.TEAMS[t])
  else
    G:set_current(seat)
  end
  return seat
end

-- The options of team t in phase `phase` with view V: its free actions after the main action
-- ("post"), else its actions.
local function options_in(G, t, V, phase)
  if phase == "post" then return M.post_actions(G, t, V) end
  return M.actions(G, t, V)
end

-- The decision of team t, played by seat `actor`, in phase `phase` ("action" or "post"):
-- options `opts`, and "end" after the main action ("pass" when an action phase has none).
-- V: a view of the state.
local function decision_of(V, t, actor, phase, opts)
  local who = B.TEAMS[t] .. " to play" .. C.played_by(C.vseat_name(V, actor), t)
  if phase == "post" then
    opts[#opts + 1] = { label = "end", a = "end" }
    return { actor = actor, options = opts, prompt = who .. ": free actions, or end" }
  end
  if #opts == 0 then opts = { { label = "pass", a = "pass" } } end
  return { actor = actor, options = opts, prompt = who }
end

-- The decision of the team whose turn it is: its actions, or its free actions and "end" after
-- the main action. `opts` are those options when the caller has already listed them with
-- view V.
function T.decision(G, opts, V)
  local t, phase = G:get("turn", "phase")
  if not opts then
    -- The status hook reads the state afresh: in interactive play the kernel compares it with
    -- the status an action returned, which comes from the view carried along the move.
    V = C.read_view(G)
    opts = options_in(G, t, V, phase)
  end
  return decision_of(V, t, C.controller(G, t), phase, opts)
end

-- Starts the turn of team t of `teams` (the teams in play; nil: the team in prop "turn" and
-- the prop teams): passes automatically while it has no action. Returns the decision that
-- follows (nil when the game ended). V: the view of the state, when known.
function T.begin(G, V, teams, t)
  if not teams then teams, t = G:get("teams", "turn") end
  for passes = 1, #teams do
    local seat = T.set_turn(G, t, teams, V)
    V = V or C.view(G)
    local opts = M.actions(G, t, V)
    if #opts > 0 then
      C.keep_view(G, V) -- for the action that follows
      return decision_of(V, t, seat, "action", opts)
    end
    G:log(C.team_name(t) .. ": pass")
    if passes == #teams then break end -- every team passed in a row
    tick(G, t, V)
    t = T.next_team(G, V, teams, t)
    if not t then return nil end
  end
  T.finish(G, "nobody can act")
end

-- Moves "turn" from team t to the next one of `teams`, counting rounds and stalls. Returns
-- that team, nil when the game ended. V: the view of the state.
function T.next_team(G, V, teams, t)
  local nt = C.team_after(teams, t) or teams[1 % #teams + 1]
  if nt == T.first_team(G, teams, V) then
    local round, act, stall = G:get("round", "act", "stall")
    stall = act and 0 or (stall or 0) + 1
    G:set("round", (round or 1) + 1, "stall", stall, "act", false)
    G:stat("rounds")
    local limit = C.vsw(V, "stall_rounds")
    if limit > 0 and stall >= limit then
      T.finish(G, "no progress in " .. limit .. " rounds")
      return nil
    end
  end
  G:set("turn", nt)
  return nt
end

-- The team's turn is over. Returns the decision that follows (nil when the game ended). V:
-- the view of the state.
function T.end_turn(G, V)
  local teams, t = G:get("teams", "turn")
  tick(G, t, V)
  local nt = T.next_team(G, V, teams, t)
  if not nt then return nil end
  return T.begin(G, V, teams, nt)
end

-- The main action is over (its chain ended): free actions may follow, then the turn ends.
-- Returns the decision that follows (nil when the game ended).
function T.action_done(G, V)
  H.clear_move(G)
  -- the move changed the cells; a move that waited ends here without a view
  if V then C.forget_cells(V) else V = C.view(G) end
  if T.check_over(G, V) then return nil end
  local t = G:get("turn")
  local free = M.post_actions(G, t, V)
  if #free > 0 then
    G:set("phase", "post")
    C.keep_view(G, V) -- for "end"
    return T.decision(G, free, V)
  end
  return T.end_turn(G, V)
end

-- After a free action: the team acts again, or its turn ends when nothing is left to do.
function T.free_done(G)
  local t = G:get("turn")
  local V = C.view(G)
  local opts = options_in(G, t, V, G:get("phase"))
  if #opts == 0 then return T.end_turn(G, V) end
  return T.decision(G, opts, V)
end

return T
