-- The Chaupar position text (spec §17): import, with errors naming the line, and export. A
-- position is written at a decision point or before a throw; import(export(p)) = p.
--
-- Beyond §17, two optional lines keep a long-dice throw that is part played: `entered <n>`
-- (pieces entered with it so far) and `used <n>` (dice spent); `killed S E …` lists the
-- colours that have captured (for kill_before_home), `bonus` marks cowrie_last_square's 1-step
-- move, and `start <colour>` the colour that started (turn_unit=team orders turns from it).

local B = require("chaupar.board")
local T = require("chaupar.throws")
local R = require("chaupar.rules")
local P = require("chaupar.pieces")
local U = require("chaupar.turns")
local M = require("chaupar.moves")
local O = require("chaupar.order")
local SWITCHES = require("chaupar.switches")

local X = {}

local function fail(n, msg) error("position line " .. n .. ": " .. msg, 0) end

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

-- Parses a colour line's items into route indices; returns indices, home, wait (or nil).
local function colour_items(G, n, dir, c, text)
  local at, home, wait = {}, 0, nil
  for raw in (text .. ","):gmatch("([^,]*),") do
    local item = trim(raw)
    if item ~= "" then
      local h = item:match("^home%s+(%d+)$")
      local w = item:match("^wait%s+(%d+)$")
      if h then
        home = home + tonumber(h)
      elseif w then
        wait = tonumber(w)
      else
        local sq, k = item:match("^(%S+)%s+x(%d+)$")
        if not sq then sq, k = item, "1" end
        k = tonumber(k)
        if k < 1 then fail(n, "'" .. item .. "': x" .. k .. " is not a piece count") end
        local i, why = B.parse_index(G, dir, c, sq)
        if not i then fail(n, B.COLOURS[c] .. ": " .. why) end
        for _ = 1, k do at[#at + 1] = i end
      end
    end
  end
  if #at + home > 4 then
    fail(n, B.COLOURS[c] .. " has " .. (#at + home) .. " pieces (a colour has 4)")
  end
  if wait and wait ~= 4 - #at - home then
    fail(n, string.format("%s: wait %d, but %d pieces are listed on the board and home",
      B.COLOURS[c], wait, #at + home))
  end
  return at, home
end

-- Checks that no square holds opposing pieces the rules could not have left together (§10–§12).
local function check_sharing(V, sw)
  if sw.block_model == "immune_pairs" then return nil end
  for q = 1, B.SQUARES do
    local team = nil
    for c = 1, 4 do
      local list = V.on[c][q]
      local n = 0
      if list then for _, i in ipairs(list) do n = n + M.count(V, c, i) end end
      if n > 0 then
        if team and team ~= B.TEAM[c] and not M.shared(V, q) then
          return B.NAME[q] .. " holds pieces of both teams"
        end
        team = team or B.TEAM[c]
      end
    end
  end
  return nil
end

local function throw_values(n, sw, words)
  local impl = T.IMPLEMENTS[sw.implement]
  local out = {}
  for _, w in ipairs(words) do
    local v = tonumber(w)
    if not v or math.type(v) ~= "integer" then fail(n, "throw: '" .. w .. "' is not a number") end
    out[#out + 1] = v
  end
  if sw.implement == "cowries" then
    local values = T.schedule(sw)
    if #out ~= 1 then fail(n, "throw: cowries give one value, not " .. #out) end
    for _, v in ipairs(values) do if v == out[1] then return out end end
    fail(n, "throw: cowries cannot give " .. out[1] .. " (values: " .. table.concat(values, ", ") .. ")")
  end
  if #out < 1 or #out > impl.count then
    fail(n, "throw: " .. sw.implement .. " has " .. impl.count .. " dice, not " .. #out .. " values")
  end
  for _, v in ipairs(out) do
    local ok = false
    for _, f in ipairs(impl.faces) do if f == v then ok = true end end
    if not ok then
      fail(n, "throw: " .. v .. " is not a face of " .. sw.implement .. " (" .. table.concat(impl.faces, "-") .. ")")
    end
  end
  return out
end

-- Switches fixed when the rules load (the shells' randomizer and the number of players).
local FIXED = { cowrie_p = true, cowrie_schedule = true, cowrie_values = true, cowrie_graces = true }

function X.import(G, text)
  local lines, n = {}, 0
  for raw in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    local s = trim(raw:gsub("#.*$", ""))
    if s ~= "" then lines[#lines + 1] = { n = n, s = s } end
  end
  if #lines == 0 or not lines[1].s:match("^chaupar%s+1$") then
    fail(lines[1] and lines[1].n or 1, "a position starts with 'chaupar 1'")
  end
  local colours, start, turn, throw, extra, bound, entered, used, killed, bonus = {}, nil, nil, nil, 0, nil, 0, 0, {}, false
  for k = 2, #lines do
    local ln, s = lines[k].n, lines[k].s
    local word, rest = s:match("^(%S+)%s*(.*)$")
    local colour = word:match("^([SENW]):$")
    if colour then
      if colours[colour] then fail(ln, "a second line for " .. colour) end
      colours[colour] = { n = ln, text = rest }
    elseif word == "implement" then
      if not T.IMPLEMENTS[rest] then fail(ln, "implement must be dice2, dice3 or cowries, not '" .. rest .. "'") end
      R.set(G, "implement", rest)
    elseif word == "seats" then
      if tonumber(rest) ~= G:seats() then
        fail(ln, "seats " .. rest .. ": this game has " .. G:seats() .. " players (setup chaupar --players " .. rest .. " …)")
      end
    elseif word == "set" then
      local key, value = rest:match("^([%w_]+)%s*=%s*(%S+)$")
      if not key then fail(ln, "expected set <switch>=<value>") end
      if key == "implement" or key == "seats" then fail(ln, "write '" .. key .. " " .. value .. "' on its own line") end
      if FIXED[key] and SWITCHES[key] then
        local was = G:switch(key)
        local why = R.set(G, key, value)
        if why then fail(ln, why) end
        local now = R.read(G)[key]
        if tostring(now) ~= (type(was) == "table" and table.concat(was, ",") or tostring(was)) then
          fail(ln, "set " .. key .. ": the shells are fixed when the rules load (new/setup chaupar --set " .. key .. "=" .. value .. ")")
        end
      else
        local why = R.set(G, key, value)
        if why then fail(ln, why) end
      end
    elseif word == "turn" or word == "start" then
      local c = B.COLOUR[rest]
      if not c then fail(ln, word .. " must be S, E, N or W, not '" .. rest .. "'") end
      if word == "turn" then turn = c else start = c end
    elseif word == "throw" then
      throw = { n = ln, words = {} }
      for w in rest:gmatch("%S+") do throw.words[#throw.words + 1] = w end
    elseif word == "extra" or word == "entered" or word == "used" then
      local v = tonumber(rest)
      if not v or math.type(v) ~= "integer" or v < 0 then fail(ln, word .. " takes a whole number ≥ 0") end
      if word == "extra" then extra = v elseif word == "entered" then entered = v else used = v end
    elseif word == "bound" then
      bound = { n = ln, square = rest }
    elseif word == "killed" then
      for w in rest:gmatch("%S+") do
        if not B.COLOUR[w] then fail(ln, "killed: '" .. w .. "' is not a colour") end
        killed[B.COLOUR[w]] = true
      end
    elseif word == "bonus" then
      bonus = true
    else
      fail(ln, "unknown line '" .. s .. "'")
    end
  end
  local sw = R.read(G)
  local dir = sw.direction
  local board = {}
  for c = 1, 4 do
    local line = colours[B.COLOURS[c]]
    local at, home = {}, 0
    if line then at, home = colour_items(G, line.n, dir, c, line.text) end
    for _ = 1, home do at[#at + 1] = B.HOME end
    for k = 1, 4 do
      local p = 4 * (c - 1) + k
      board[p] = at[k] or 0
      P.move(G, p, c, board[p], dir)
    end
  end
  P.save(G, board)
  local V = U.read_view(G, sw)
  local why = check_sharing(V, sw)
  if why then fail(lines[1].n, why) end
  for c = 1, 4 do
    if V.home[c] + V.home[B.PARTNER[c]] == 8 then fail(lines[1].n, "this position is over: " .. B.COLOURS[c] .. "'s team is home") end
  end
  G:set("killed", { killed[1] or false, killed[2] or false, killed[3] or false, killed[4] or false })
  G:set("contenders", nil, "tscores", nil, "tnext", nil, "result", nil, "scores", nil)
  if not turn then fail(lines[#lines].n, "the position needs a 'turn' line") end
  U.start(G, sw, V, turn, start)
  if throw then
    local values = throw_values(throw.n, sw, throw.words)
    U.begin_throw(G, sw, sw.implement == "cowries" and { values[1] } or values, V)
    if sw.implement == "cowries" then
      G:set("extra", G:get("extra") + extra)
      if bonus then G:set("phase", "bonus") end
    else
      G:set("entries", entered, "used", used)
    end
  elseif entered > 0 or used > 0 then
    fail(lines[#lines].n, "entered and used describe a throw: add a 'throw' line")
  else
    G:set("extra", extra)
  end
  if bound then
    if sw.implement ~= "cowries" then fail(bound.n, "bound is for cowries") end
    -- the piece of the colour to move (or, with two_player_throw=shared, its partner's)
    local mover = G:get("mover") or turn
    local p, why2 = nil, nil
    for _, c in ipairs(sw.two_player_throw == "shared" and { mover, B.PARTNER[mover] } or { mover }) do
      local i, e = B.parse_index(G, dir, c, bound.square)
      why2 = why2 or e
      for q = 4 * c - 3, 4 * c do if i and not p and V.at[q] == i then p = q end end
    end
    if not p and why2 then fail(bound.n, "bound: " .. why2) end
    if not p then fail(bound.n, "bound: no " .. B.COLOURS[mover] .. " piece on " .. bound.square) end
    G:set("bound", p)
  end
  U.settle(G, sw) -- on the board and turn read afresh: the lines above set turn props
end

local function colour_line(V, c)
  local items, i = {}, 1
  while i <= B.LAST do
    local k = M.count(V, c, i)
    if k > 0 then
      local name = B.index_name(V.sw.direction, c, i)
      items[#items + 1] = k == 1 and name or (name .. " x" .. k)
    end
    i = i + 1
  end
  items[#items + 1] = "home " .. V.home[c]
  items[#items + 1] = "wait " .. V.wait[c]
  return B.COLOURS[c] .. ": " .. table.concat(items, ", ")
end

local function literal(v)
  if type(v) == "table" then
    local t = {}
    for i, x in ipairs(v) do t[i] = tostring(x) end
    return table.concat(t, ",")
  end
  if type(v) == "boolean" then return v and "true" or "false" end
  return tostring(v)
end

function X.export(G)
  local sw = R.read(G)
  local V = M.view(G, sw)
  local out = { "chaupar 1", "implement " .. sw.implement, "seats " .. G:seats() }
  for _, name in ipairs(R.NAMES) do
    if name ~= "implement" and name ~= "seats" and literal(sw[name]) ~= literal(SWITCHES[name].default) then
      out[#out + 1] = "set " .. name .. "=" .. literal(sw[name])
    end
  end
  local phase, turn = G:get("phase"), O.turn(G)
  if phase == "throwoff" then
    out[#out + 1] = "# the throw-off is not over: this position starts with S to throw"
    turn = 1
  end
  if phase == "over" then out[#out + 1] = "# the game is over: " .. tostring(G:get("result")) end
  out[#out + 1] = "turn " .. B.COLOURS[turn or 1]
  local start = O.start(G)
  if sw.turn_unit == "team" and start ~= turn then out[#out + 1] = "start " .. B.COLOURS[start] end
  if phase == "act" then
    local key, entries, used = G:get("dice", "entries", "used")
    out[#out + 1] = "throw " .. T.text(key)
    if entries > 0 then out[#out + 1] = "entered " .. entries end
    if used > 0 then out[#out + 1] = "used " .. used end
  elseif phase == "value" or phase == "bonus" then
    local v, extra, bound, grace = G:get("value", "extra", "bound", "grace")
    out[#out + 1] = "throw " .. v
    if grace then extra = extra - 1 end
    if extra > 0 then out[#out + 1] = "extra " .. extra end
    if phase == "bonus" then
      out[#out + 1] = "bonus"
    elseif bound ~= 0 then
      out[#out + 1] = "bound " .. B.index_name(V.sw.direction, (bound - 1) // 4 + 1, V.at[bound])
    end
  elseif phase == "throw" then
    local extra, bound = G:get("extra", "bound")
    if (extra or 0) > 0 then out[#out + 1] = "extra " .. extra end
    if (bound or 0) ~= 0 then
      out[#out + 1] = "bound " .. B.index_name(V.sw.direction, (bound - 1) // 4 + 1, V.at[bound])
    end
  end
  local killed = {}
  for c = 1, 4 do if V.killed and V.killed[c] then killed[#killed + 1] = B.COLOURS[c] end end
  if #killed > 0 then out[#out + 1] = "killed " .. table.concat(killed, " ") end
  for c = 1, 4 do out[#out + 1] = colour_line(V, c) end
  return table.concat(out, "\n") .. "\n"
end

return X
