-- Spec §7.2: GNU Backgammon Match IDs. The gnubg manual's example and IDs gnubg prints decode
-- to their fields and encode back; PositionID:MatchID exports and imports a whole game state
-- (cube, owner, score, match length, Crawford, side on roll, dice, a double or beaver waiting)
-- at every step of random games; IDs setup cannot take are refused saying why.

local match_id = require("backgammon.match_id")
local position = require("backgammon.position")
local F = require("flow_support")
local S = require("bg_support")

local function fields(t)
  local all = { cube_log = 0, cube_owner = 3, on_roll = 0, crawford = 0, state = 1, turn = 0, doubled = 0,
    resigned = 0, die1 = 0, die2 = 0, length = 0, score0 = 0, score1 = 0, no_jacoby = 0 }
  for k, v in pairs(t) do all[k] = v end
  return all
end

local KNOWN = {
  -- The manual's example: a 9-point match at 2-4, player 0 holds a 2-cube, player 1 rolled 52.
  { "QYkqASAAIAAA", fields({ cube_log = 1, cube_owner = 0, on_roll = 1, turn = 1, die1 = 5, die2 = 2,
    length = 9, score0 = 2, score1 = 4 }) },
  -- A new money game, player 1 to roll or double.
  { "cAkAAAAAAAAA", fields({ on_roll = 1, turn = 1 }) },
  -- Before any game: nothing set but the centred cube.
  { "MAAAAAAAAAAA", fields({ state = 0 }) },
  -- A 7-point match at 3-4, player 1 rolled 66; a 3-point match at 0-0, player 1 rolled 66.
  { "cAn7ADAAIAAA", fields({ on_roll = 1, turn = 1, die1 = 6, die2 = 6, length = 7, score0 = 3, score1 = 4 }) },
  { "cAl7AAAAAAAA", fields({ on_roll = 1, turn = 1, die1 = 6, die2 = 6, length = 3 }) },
}

for _, case in ipairs(KNOWN) do
  local id, want = case[1], case[2]
  local got = match_id.decode(id)
  for k, v in pairs(want) do
    assert(got[k] == v, string.format("%s: %s is %d, want %d", id, k, got[k], v))
  end
  assert(match_id.encode(want) == id, id .. " encodes back to " .. match_id.encode(want))
end

-- The manual's example through the position: X (player 1) on roll with 5-2, O owns the cube.
local pos = position.decode("vzsAAFhu2xFABA:QYkqASAAIAAA")
assert(pos.on_roll == "x" and pos.dice[1] == 5 and pos.dice[2] == 2, "on roll with 5-2")
assert(pos.cube.value == 2 and pos.cube.owner == "opp", "O's 2-cube")
assert(pos.match.length == 9 and pos.match.score[1] == 4 and pos.match.score[2] == 2, "X 4, O 2 of 9")
-- gnubg now sets the Jacoby bit in a match (the manual's ID predates it; reading ignores it there)
assert(position.to_id(pos) .. ":" .. position.match_id(pos) == "vzsAAFhu2xFABA:QYkqASAAIAAE", "encodes back")
assert(pos.jacoby == nil, "a match says nothing of Jacoby")
-- In money play the bit is the Jacoby rule: clear (gnubg's default) is on, set is off; the
-- larger die is written first.
assert(position.decode("4HPwATDgc/ABMA:cAkAAAAAAAAA").jacoby == true, "Jacoby on")
assert(position.decode("4HPwATDgc/ABMA:cAkAAAAAAAAE").jacoby == false, "Jacoby off")
local rolled = position.decode("4HPwATDgc/ABMA:cAkAAAAAAAAE")
rolled.dice, rolled.phase = { 2, 5 }, "move"
assert(match_id.decode(position.match_id(rolled)).die1 == 5, "larger die first")

-- Every field's bits land where the manual says: a field at its largest, the others zero.
for _, f in ipairs({ { "cube_log", 15 }, { "cube_owner", 3 }, { "on_roll", 1 }, { "crawford", 1 }, { "state", 7 },
  { "turn", 1 }, { "doubled", 1 }, { "resigned", 3 }, { "die1", 7 }, { "die2", 7 }, { "length", 32767 },
  { "score0", 32767 }, { "score1", 32767 }, { "no_jacoby", 1 } }) do
  local t = fields({ cube_owner = 0, state = 0 })
  t[f[1]] = f[2]
  local back = match_id.decode(match_id.encode(t))
  for k, v in pairs(t) do assert(back[k] == v, f[1] .. ": " .. k .. " reads " .. back[k]) end
end

-- Round trips at every step of random games with the cube, beavers and matches: the state
-- set up from an exported ID exports the same ID, the same JSON and the same options.
local function labels(G)
  local st = hook.status(G)
  if not st.options then return st.chance or "over" end
  local out = {}
  for i, o in ipairs(st.options) do out[i] = hook.label(G, o) end
  return table.concat(out, " ")
end

local trips, phases = 0, {}
local function round_trip(G, switches)
  local id = hook.export(G, "id")
  local phase = G:get("phase")
  if phase == "over" then
    local ok, e = pcall(hook.import, F.new(switches), id)
    assert(not ok and e:find("over", 1, true) or e:find("dropped", 1, true), id .. ": a finished game: " .. tostring(e))
    return
  end
  local H = F.new(switches)
  hook.import(H, id)
  assert(hook.export(H, "id") == id, id .. " sets up a state exporting " .. hook.export(H, "id"))
  -- gnubg writes the larger die first, so a roll comes back in that order
  local function sorted_dice(json)
    return (json:gsub('"dice":%[(%d),(%d)%]', function(a, b)
      return string.format('"dice":[%d,%d]', math.max(a, b), math.min(a, b))
    end))
  end
  assert(sorted_dice(hook.export(H)) == sorted_dice(hook.export(G)), id .. ": JSON " .. hook.export(H) .. " vs " .. hook.export(G))
  -- gnubg rolls as the player decides to: a roll chosen but not yet drawn reads as the
  -- decision before it.
  if phase == "roll" then return end
  assert(labels(H) == labels(G), id .. ": options " .. labels(H) .. " vs " .. labels(G))
  trips, phases[phase] = trips + 1, true
end

local function play(switches, seed)
  local G = F.new(switches)
  local rnd = S.random(seed)
  for _ = 1, 400 do
    round_trip(G, switches)
    local st = hook.status(G)
    if st.over then return end
    if st.chance then
      hook.chance(G, st.chance, { rnd(6), rnd(6) })
    else
      hook.apply(G, st.options[rnd(#st.options)])
    end
  end
end

-- (A cube limit keeps the random players' cube within the Match ID's 15 bits.)
local LIMIT = 1 << 12
for seed = 1, 6 do play({ beavers = true, cube_limit = LIMIT }, seed) end
for seed = 1, 6 do play({ match_length = 5, cube_limit = LIMIT }, seed) end
for seed = 1, 3 do play({ match_length = 3, start = "hyper", cube_limit = LIMIT }, seed) end
assert(trips > 500, "round trips: " .. trips)
for _, p in ipairs({ "opening", "start", "move", "doubled", "beavered" }) do
  assert(phases[p], "no round trip in phase " .. p)
end

-- A cube past the Match ID's 15 bits is refused with the limit.
local big = position.decode("4HPwATDgc/ABMA")
big.cube = { value = 1 << 16, owner = "me" }
local ok, e = pcall(position.match_id, big)
assert(not ok and e:find("at most 32768", 1, true), "a 65536-cube: " .. tostring(e))

-- IDs setup cannot take say why.
local function refuses(mid, says)
  local ok, e = pcall(position.decode, "4HPwATDgc/ABMA:" .. mid)
  assert(not ok and e:find(says, 1, true), mid .. ": " .. tostring(e))
end
refuses(match_id.encode(fields({ resigned = 1 })), "resignation")
refuses(match_id.encode(fields({ state = 2 })), "is over")
refuses(match_id.encode(fields({ state = 4 })), "dropped double")
refuses(match_id.encode(fields({ die1 = 7, die2 = 1 })), "dice 7-1")
refuses(match_id.encode(fields({ cube_owner = 2 })), "cube owner 2")
refuses(match_id.encode(fields({ turn = 1 })), "no double is offered")
refuses(match_id.encode(fields({ length = 5, score0 = 5 })), "already wins")
refuses(match_id.encode(fields({ cube_log = 1 })), "has an owner")
refuses("cAkAAAAAAAA", "12 characters")
refuses("cAkAAAAAAAA!", "not Base64")
