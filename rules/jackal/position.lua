-- The Jackal position text format (§14): import (with errors naming the line and cell) and
-- export. A position is written at a turn boundary; load(export(p)) = p.

local A = require("jackal.arrows")
local B = require("jackal.board")
local C = require("jackal.core")
local H = require("jackal.chain")
local P = require("jackal.packs")
local T = require("jackal.turns")
local SW = require("jackal.switches")

local X = {}

------------------------------------------------------------------------------------------
-- Tokens

-- Parses a land tile token. Returns { t, o, r, x } (t nil for "#"), or nil and a message.
function X.parse_token(tok)
  if tok == "#" then return { closed = true } end
  local closed = false
  local s = tok
  if string.sub(s, 1, 1) == "#" then
    closed = true
    s = string.sub(s, 2)
  end
  local spent = false
  if not closed and string.sub(s, -1) == "-" then
    spent = true
    s = string.sub(s, 1, -2)
  end
  local name, r
  local kind, rot = A.parse(s)
  if kind then
    name, r = kind, rot
    if r == nil and not closed then
      return nil, "'" .. tok .. "' needs an orientation (" .. A.code(kind, 0) .. ", " .. A.code(kind, 1) .. " …)"
    end
  elseif string.match(s, "^a%d") or string.match(s, "^gu") then
    return nil, "unknown tile or orientation '" .. tok .. "'"
  else
    name = P.name(s)
    if not tiles[name] then return nil, "unknown tile token '" .. tok .. "'" end
    if C.th(name, "rotations") then
      return nil, "'" .. tok .. "' needs an orientation"
    end
  end
  if spent and not C.th(name, "one_shot") then
    return nil, "'" .. tok .. "': only one-shot tiles can be spent"
  end
  return { t = name, o = not closed, r = r, x = spent or nil, closed = closed }
end

------------------------------------------------------------------------------------------
-- Import

local function fail(n, msg) error("position line " .. n .. ": " .. msg, 0) end

local function switch_value(n, k, v)
  local def = SW[k]
  if not def then fail(n, "unknown switch '" .. k .. "'") end
  local d = def.default
  local val
  if type(d) == "boolean" then
    if v == "true" then val = true elseif v == "false" then val = false
    else fail(n, "switch " .. k .. " takes true or false, not '" .. v .. "'") end
  elseif type(d) == "number" then
    val = tonumber(v)
    if not val or math.type(val) ~= "integer" then fail(n, "switch " .. k .. " takes a whole number, not '" .. v .. "'") end
    if def.min and val < def.min then fail(n, "switch " .. k .. " = " .. v .. " is below " .. def.min) end
  elseif type(d) == "table" then
    val = {}
    local s = string.gsub(v, "[%[%]\"]", "")
    for w in string.gmatch(s, "[^,]+") do val[#val + 1] = w end
    for i = 1, #val do
      if not B.TEAM_OF[val[i]] or #val[i] == 1 then fail(n, "switch " .. k .. ": unknown team '" .. val[i] .. "'") end
    end
  else
    val = string.gsub(v, "\"", "")
    if def.values and not C.contains(def.values, val) then
      fail(n, "switch " .. k .. " cannot be '" .. val .. "' (allowed: " .. table.concat(def.values, ", ") .. ")")
    end
  end
  return val
end

-- "white=3 black=1" → { [1] = 3, [3] = 1 }
local function team_numbers(n, words, from)
  local out = {}
  for i = from, #words do
    local k, v = string.match(words[i], "^(%a+)=(%-?%d+)$")
    local t = k and B.TEAM_OF[k]
    if not t or #k == 1 then fail(n, "expected team=number, not '" .. words[i] .. "'") end
    out[t] = tonumber(v)
  end
  return out
end

-- "E5" or "E5:2" → loc, step
local function cell_step(n, s)
  local cell, step = string.match(s, "^(%w+):(%d+)$")
  if not cell then cell = s end
  local l = B.parse(cell)
  if not l then fail(n, "'" .. s .. "' is not a cell") end
  return l, tonumber(step) or 0
end

local function words_of(line)
  local w = {}
  for x in string.gmatch(line, "%S+") do w[#w + 1] = x end
  return w
end

local PIRATE = "^([WYBR])([123])$"

function X.import(G, text)
  local lines = {}
  local n = 0
  for raw in string.gmatch(text .. "\n", "([^\n]*)\n") do
    n = n + 1
    local s = string.match(raw, "^%s*(.-)%s*$")
    if s ~= "" and string.sub(s, 1, 1) ~= ";" then lines[#lines + 1] = { n = n, s = s } end
  end
  if #lines == 0 then error("position: empty text", 0) end
  if not string.match(lines[1].s, "^jackal%s+1$") then
    fail(lines[1].n, "the first line must be 'jackal 1', not '" .. lines[1].s .. "'")
  end
  local sets, sets_order = {}, {}
  local pos = { tiles = {}, chars = {}, coins = {}, treasure = nil, deck = nil, board = nil }
  local i = 2
  while i <= #lines do
    local ln = lines[i]
    local w = words_of(ln.s)
    local key = w[1]
    if key == "set" then
      for j = 2, #w do
        local k, v = string.match(w[j], "^([%w_]+)=(.+)$")
        if not k then fail(ln.n, "expected switch=value, not '" .. w[j] .. "'") end
        if sets[k] == nil then sets_order[#sets_order + 1] = k end
        sets[k] = switch_value(ln.n, k, v)
      end
    elseif key == "players" then
      local v = math.tointeger(tonumber(w[2] or ""))
      if not v or #w ~= 2 then fail(ln.n, "players takes one whole number") end
      if v ~= G:seats() then
        fail(ln.n, "the position is for " .. v .. " players, this game has " .. G:seats() ..
          " (setup without --players takes the position's)")
      end
    elseif key == "seed" then
      local v = math.tointeger(tonumber(w[2] or ""))
      if not v or #w ~= 2 then fail(ln.n, "seed takes one whole number") end
      pos.seed = v
    elseif key == "turn" then
      local t = B.TEAM_OF[w[2] or ""]
      if not t or #w[2] == 1 then fail(ln.n, "turn: unknown team '" .. tostring(w[2]) .. "'") end
      pos.turn, pos.turn_line = t, ln.n
      for j = 3, #w do
        local r = string.match(w[j], "^round=(%d+)$")
        if not r then fail(ln.n, "turn: unexpected '" .. w[j] .. "'") end
        pos.round = tonumber(r)
      end
    elseif key == "ships" then
      pos.ships, pos.ships_line = {}, ln.n
      for j = 2, #w do
        local k, v = string.match(w[j], "^(%a+)=(%w+)$")
        local t = k and B.TEAM_OF[k]
        if not t or #k == 1 then fail(ln.n, "expected team=cell, not '" .. w[j] .. "'") end
        local l = B.parse(v)
        if not l then fail(ln.n, "'" .. v .. "' is not a cell") end
        if B.is_land(l) then fail(ln.n, "the " .. k .. " ship is on land at " .. v) end
        pos.ships[t] = l
      end
    elseif key == "banked" then pos.banked = team_numbers(ln.n, w, 2)
    elseif key == "bottles" then pos.bottles = team_numbers(ln.n, w, 2)
    elseif key == "lost" or key == "grass" or key == "stall" then
      local v = tonumber(w[2] or "")
      if not v or #w ~= 2 then fail(ln.n, key .. " takes one number") end
      pos[key] = v
    elseif key == "board" then
      pos.board = {}
      local row = 12
      i = i + 1
      while row >= 2 do
        local bl = lines[i]
        if not bl then fail(ln.n, "board: rows " .. row .. " to 2 are missing") end
        local bw = words_of(bl.s)
        if bw[1] == "B" then
          i = i + 1
        else
          if tonumber(bw[1]) then
            if tonumber(bw[1]) ~= row then fail(bl.n, "board: expected row " .. row .. ", found row " .. bw[1]) end
            table.remove(bw, 1)
          end
          if #bw ~= 11 then
            fail(bl.n, "board row " .. row .. " has " .. #bw .. " tokens, not 11 (columns B to L)")
          end
          for x = 2, 12 do pos.board[B.loc(x, row)] = { tok = bw[x - 1], n = bl.n } end
          row = row - 1
          i = i + 1
        end
      end
      i = i - 1
    elseif key == "fill" then
      if not w[2] then fail(ln.n, "fill takes a token") end
      pos.fill = { tok = w[2], n = ln.n }
    elseif key == "tiles" then
      for j = 2, #w do
        local c, tok = string.match(w[j], "^(%w+)=(.+)$")
        local l = c and B.parse(c)
        if not l then fail(ln.n, "expected cell=token, not '" .. w[j] .. "'") end
        pos.tiles[l] = { tok = tok, n = ln.n }
      end
    elseif key == "coins" then
      for j = 2, #w do
        local c, v = string.match(w[j], "^([%w:]+)=(%d+)$")
        if not c then fail(ln.n, "expected cell=count, not '" .. w[j] .. "'") end
        local l, st = cell_step(ln.n, c)
        pos.coins[#pos.coins + 1] = { l = l, step = st, count = tonumber(v), n = ln.n, name = c }
      end
    elseif key == "treasure" then
      if not w[2] then fail(ln.n, "treasure takes a cell") end
      local l, st = cell_step(ln.n, w[2])
      pos.treasure = { l = l, step = st, n = ln.n, name = w[2] }
    elseif key == "deck" then
      pos.deck = { n = ln.n, auto = (w[2] == nil or w[2] == "auto"), list = {} }
      if not pos.deck.auto then
        for j = 2, #w do
          local code, cnt = string.match(w[j], "^(.-)%*(%d+)$")
          if not code then code, cnt = w[j], "1" end
          local name = P.name(code)
          if not tiles[name] then fail(ln.n, "deck: unknown tile '" .. code .. "'") end
          for _ = 1, tonumber(cnt) do pos.deck.list[#pos.deck.list + 1] = name end
        end
      end
    elseif key == "seen" then
      pos.seen = pos.seen or {}
      for j = 2, #w do
        local k, v = string.match(w[j], "^(%a+)=([%w,]+)$")
        local t = k and B.TEAM_OF[k]
        if not t or #k == 1 then fail(ln.n, "expected team=cells, not '" .. w[j] .. "'") end
        local cells = {}
        for cname in string.gmatch(v, "[^,]+") do
          local l = B.parse(cname)
          if not l or not B.is_land(l) then fail(ln.n, "seen: '" .. cname .. "' is not a land cell") end
          cells[#cells + 1] = l
        end
        pos.seen[#pos.seen + 1] = { t = t, cells = cells, n = ln.n }
      end
    elseif string.match(key, PIRATE) or key == "Ben" or key == "Fri" or key == "Mis" then
      if pos.chars[key] then fail(ln.n, key .. " is listed twice") end
      pos.chars[key] = { w = w, n = ln.n }
    else
      fail(ln.n, "unknown line '" .. ln.s .. "'")
    end
    i = i + 1
  end
  if not pos.turn then error("position: the 'turn' line is missing", 0) end

  -- Switches first: they decide teams, seating and the pack.
  for _, k in ipairs(sets_order) do G:set("sw_" .. k, sets[k]) end
  G:set("set_keys", #sets_order > 0 and sets_order or nil)

  -- Teams and ships
  local teams, ships = {}, { 0, 0, 0, 0 }
  if pos.ships then
    for t = 1, 4 do
      if pos.ships[t] then
        teams[#teams + 1] = t
        if not B.on_lane(t, pos.ships[t], C.sw(G, "ship_range")) then
          fail(pos.ships_line, "the " .. B.TEAMS[t] .. " ship at " .. B.name(pos.ships[t]) ..
            " is not on its lane")
        end
        ships[t] = pos.ships[t]
      end
    end
    if #teams < 2 then fail(pos.ships_line, "at least two ships") end
  else
    teams = T.default_teams(G)
    for _, t in ipairs(teams) do ships[t] = B.SIDES[t].start end
  end
  T.seat_teams(G, teams)
  G:set("ships", ships)
  if ships[pos.turn] == 0 then fail(pos.turn_line, B.TEAMS[pos.turn] .. " is not in play") end

  -- Clear what setup made.
  for _, kind in ipairs({ "char", "coin", "treasure" }) do
    for _, p in ipairs(G:pieces(nil, kind)) do C.discard(G, p) end
  end
  G:set("cs", nil)
  H.clear_move(G, true)

  -- Board
  local undetermined = 0
  local named = {}
  for _, l in ipairs(B.LAND) do
    C.cell_write(G, l, nil, false, nil, false)
    local src = pos.tiles[l] or (pos.board and pos.board[l]) or pos.fill
    if not src then error("position: no 'board' or 'fill' line gives the tile at " .. B.name(l), 0) end
    if src.tok == "~" then fail(src.n, B.name(l) .. ": '~' (sea) is only for the corners B2, L2, B12, L12") end
    local tt, msg = X.parse_token(src.tok)
    if not tt then fail(src.n, B.name(l) .. ": " .. msg) end
    if tt.t then
      C.cell_write(G, l, tt.t, tt.o, tt.r, tt.x)
      named[#named + 1] = tt.t
    else
      undetermined = undetermined + 1
    end
  end
  if pos.board then
    for _, l in ipairs({ B.loc(2, 2), B.loc(12, 2), B.loc(2, 12), B.loc(12, 12) }) do
      local src = pos.board[l]
      if src.tok ~= "~" then fail(src.n, B.name(l) .. " is sea: write '~', not '" .. src.tok .. "'") end
    end
  end
  for _, l in ipairs(B.ALL) do
    local src = pos.tiles[l]
    if src and not B.is_land(l) then fail(src.n, B.name(l) .. " is sea, not land") end
  end

  -- Deck
  local deck
  if pos.deck and not pos.deck.auto then
    deck = pos.deck.list
    if #deck < undetermined then
      fail(pos.deck.n, "the deck has " .. #deck .. " tiles for " .. undetermined .. " closed cells")
    end
  elseif undetermined > 0 then
    local counts = P.counts(G)
    for _, t in ipairs(named) do counts[t] = counts[t] - 1 end
    deck = {}
    for _, name in ipairs(tile_names) do
      if counts[name] < 0 then
        error("position: the board has more '" .. P.code(name) .. "' tiles than the " ..
          C.sw(G, "pack") .. " pack", 0)
      end
      for _ = 1, counts[name] do deck[#deck + 1] = name end
    end
    if #deck ~= undetermined then
      error("position: the deck (pack minus the board) has " .. #deck .. " tiles for " ..
        undetermined .. " closed cells", 0)
    end
  else
    deck = {}
  end
  G:bag("deck", deck, {})
  G:set("deck_list", (pos.deck and not pos.deck.auto) and true or nil)

  -- Characters
  local placed = {}
  local function place_char(label, who, team, spec)
    local p = C.new_char(G, label, team, 0, 0)
    local w, ln = spec and spec.w, spec and spec.n
    local at = who == "pirate" and 2 or 3
    local place = w and w[at] or "ship"
    local loc, step = 0, 0
    if place == "ship" or string.match(place, "^ship:") then
      local owner = team
      if place ~= "ship" then
        owner = B.TEAM_OF[string.sub(place, 6)]
        if not owner or #string.sub(place, 6) == 1 then fail(ln, "unknown ship '" .. place .. "'") end
      end
      if owner == 0 or ships[owner] == 0 then fail(ln or 0, label .. ": no such ship in play") end
      if not C.allied(G, team, owner) then fail(ln, label .. " cannot be aboard an enemy ship") end
      loc = ships[owner]
    elseif place == "dead" then loc = B.DEAD
    elseif place == "gone" then loc = B.GONE
    elseif string.match(place, "^lost:") then
      local cave = B.parse(string.sub(place, 6))
      if not cave then fail(ln, "'" .. place .. "': not a cell") end
      local t = C.open_tile(G, cave)
      if not t or t ~= C.provider("cave_exits") then fail(ln, label .. " lost at " .. B.name(cave) .. ", which is not an open cave") end
      loc = B.UNDER
      G:piece_set(p, "lost", cave)
      local seq = (G:get("lseq") or 0) + 1
      G:set("lseq", seq)
      G:piece_set(p, "lseq", seq)
    else
      loc, step = cell_step(ln, place)
      local st = C.ship_team(ships, loc)
      if st and not C.allied(G, team, st) then fail(ln, label .. " on the enemy ship at " .. place) end
      if B.is_land(loc) then
        if not C.is_open(G, loc) then fail(ln, label .. " stands on the closed tile " .. B.name(loc)) end
        if not hook.may_stop(G, C.read_view(G), C.char(G, p), loc) then
          fail(ln, label .. " cannot stand on " .. H.token(G, loc) .. " at " .. B.name(loc))
        end
        local nsteps = C.steps(G, loc)
        if nsteps > 1 then
          if step == 0 then fail(ln, label .. " on the spinner " .. B.name(loc) .. " needs a step (" .. B.name(loc) .. ":1)") end
          if step > nsteps then fail(ln, B.name(loc) .. " has " .. nsteps .. " steps, not " .. step) end
        elseif step > 0 then
          fail(ln, B.name(loc) .. " is not a spinner")
        end
      elseif step > 0 then
        fail(ln, place .. " is not a spinner")
      end
    end
    C.move_char(G, p, loc, step)
    if w then
      for j = at + 1, #w do
        local f = w[j]
        if f == "trapped" then C.flag(G, p, "trap", true)
        elseif f == "drunk" then C.flag(G, p, "drunk", 1)
        elseif f == "converted" then
          if who ~= "mis" then fail(ln, "only the missionary can be converted") end
          C.flag(G, p, "conv", true)
        elseif f == "newborn" then
          if not C.sw(G, "newborn_skips_turn") then fail(ln, "'newborn' needs newborn_skips_turn") end
          C.flag(G, p, "newb", 1)
        elseif f == "+coin" or f == "+treasure" then
          if loc ~= B.UNDER then fail(ln, f .. " is only for a character lost in a cave") end
          if G:piece_get(p, "held") then fail(ln, label .. " holds more than one item") end
          G:piece_set(p, "held", string.sub(f, 2))
        else
          fail(ln, "unknown flag '" .. f .. "'")
        end
      end
    end
    placed[#placed + 1] = { id = p, label = label, team = team, n = ln or 0 }
    return p
  end
  for _, t in ipairs(teams) do
    for k = 1, 3 do
      local label = B.LETTER[t] .. k
      place_char(label, "pirate", t, pos.chars[label])
    end
  end
  for _, label in ipairs(sorted_keys(pos.chars)) do
    local spec = pos.chars[label]
    local letter = string.match(label, PIRATE)
    if letter then
      if ships[B.TEAM_OF[letter]] == 0 then
        fail(spec.n, label .. ": " .. B.TEAMS[B.TEAM_OF[letter]] .. " is not in play")
      end
    end
  end
  for _, label in ipairs({ "Ben", "Fri", "Mis" }) do
    local spec = pos.chars[label]
    if spec then
      local o = spec.w[2]
      local team = 0
      if o ~= "-" then
        team = B.TEAM_OF[o or ""] or -1
        if team == -1 or #o ~= 1 then fail(spec.n, label .. ": owner must be W, Y, B, R or -, not '" .. tostring(o) .. "'") end
        if ships[team] == 0 then fail(spec.n, label .. ": " .. B.TEAMS[team] .. " is not in play") end
      end
      if not spec.w[3] then fail(spec.n, label .. ": where?") end
      place_char(label, ({ Ben = "ben", Fri = "fri", Mis = "mis" })[label], team, spec)
    end
  end

  -- Items
  local function put(kind, it)
    if not B.is_land(it.l) then fail(it.n, "items cannot lie at " .. it.name .. " (not land)") end
    if not C.accepts_items(G, it.l) then
      local tn = C.tile(G, it.l)
      fail(it.n, it.name .. ": a " .. kind .. " cannot lie on " ..
        (C.is_open(G, it.l) and H.token(G, it.l) or "a closed tile"))
    end
    if C.th(C.tile(G, it.l), "transit", G, it.l) then
      fail(it.n, it.name .. ": a " .. kind .. " cannot lie on " .. H.token(G, it.l))
    end
    local nsteps = C.steps(G, it.l)
    if nsteps > 1 and (it.step < 1 or it.step > nsteps) then fail(it.n, it.name .. ": give the spinner step") end
    if nsteps == 1 and it.step > 0 then fail(it.n, it.name .. " is not a spinner") end
    C.add_items(G, kind, it.l, it.count or 1, it.step)
  end
  for _, it in ipairs(pos.coins) do put("coin", it) end
  if pos.treasure then put("treasure", pos.treasure) end
  for _, pl in ipairs(placed) do
    local held = G:piece_get(pl.id, "held")
    if held then
      G:piece_set(pl.id, "held", nil)
      local it = G:add(held, 0, B.UNDER)
      G:piece_set(it, "holder", pl.id)
    end
  end

  -- Enemies sharing a cell (§5)
  local V = C.view(G)
  for _, c in ipairs(V.chars) do
    if B.is_land(c.loc) or (B.is_sea(c.loc) and not C.ship_team(ships, c.loc)) then
      local jungle = B.is_land(c.loc) and C.is_jungle(G, c.loc)
      local spinner = B.is_land(c.loc) and C.steps(G, c.loc) > 1
      local mis = false
      for _, o in ipairs(V.at[c.loc]) do
        if C.sober_mis(o) and (not spinner or o.step == c.step) then mis = true end
      end
      for _, o in ipairs(V.at[c.loc]) do
        if o.id ~= c.id and C.enemy_in(V.sides, c.team, o.team) and not jungle
          and not (spinner and o.step ~= c.step)
          and not (mis and C.sw(G, "missionary_block") == "classic") then
          local line = 0
          for _, pl in ipairs(placed) do if pl.id == c.id then line = pl.n end end
          fail(line, c.label .. " and " .. o.label .. " are enemies on one cell (" .. B.name(c.loc) .. ")")
        end
      end
    end
  end

  -- Numbers
  local bank, bottles = { 0, 0, 0, 0 }, { 0, 0, 0, 0 }
  for t = 1, 4 do
    bank[t] = pos.banked and pos.banked[t] or 0
    bottles[t] = pos.bottles and pos.bottles[t] or 0
  end
  G:set("bank", bank)
  G:set("bottles", bottles)
  G:set("lost", pos.lost or 0)
  G:set("grass", pos.grass or 0)
  G:set("stall", pos.stall or 0)
  G:set("round", pos.round or 1)
  -- §14 `seed N`: later draws come from streams restarted at N, whatever the session's seed.
  G:set("seed", pos.seed)
  if pos.seed then G:reseed(pos.seed) end
  for _, sn in ipairs(pos.seen or {}) do
    if ships[sn.t] == 0 then fail(sn.n, B.TEAMS[sn.t] .. " is not in play") end
    for _, l in ipairs(sn.cells) do
      if C.is_open(G, l) or not C.tile(G, l) then
        fail(sn.n, "seen: " .. B.name(l) .. " must be a closed tile of known identity (#code)")
      end
      C.ph("seen", G, sn.t, l)
    end
  end
  G:set("act", false)
  G:set("turn", pos.turn)
  -- The turn may start shifted by grass: the count covers this turn too.
  T.begin(G)
end

------------------------------------------------------------------------------------------
-- Export

local function value_text(v)
  if type(v) == "table" then return "[" .. table.concat(v, ",") .. "]" end
  return tostring(v)
end

local function same(a, b)
  if type(a) ~= type(b) then return false end
  if type(a) ~= "table" then return a == b end
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end

local function team_line(key, values, teams)
  local parts = {}
  for _, t in ipairs(teams) do
    if values[t] ~= 0 then parts[#parts + 1] = B.TEAMS[t] .. "=" .. values[t] end
  end
  if #parts == 0 then return nil end
  return key .. " " .. table.concat(parts, " ")
end

function X.place_text(G, V, c)
  if c.loc == B.DEAD then return "dead" end
  if c.loc == B.GONE then return "gone" end
  if c.loc == B.UNDER then return "lost:" .. B.name(c.lost) end
  local st = C.ship_team(V.ships, c.loc)
  if st then
    if st == c.team then return "ship" end
    return "ship:" .. B.TEAMS[st]
  end
  local s = B.name(c.loc)
  if c.step > 0 then s = s .. ":" .. c.step end
  return s
end

-- The number of seats a position is for: its `players` line, else one a team of its
-- `ships` line (nil without either: the game's default).
function X.seats(text)
  local ships
  for line in string.gmatch(text, "[^\n]+") do
    local w = words_of(line)
    if w[1] == "players" then return math.tointeger(tonumber(w[2] or "")) end
    if w[1] == "ships" then ships = #w - 1 end
  end
  return ships
end

-- Closed cells of fixed identity that every seat knows (§14 `export --public`): each seat can
-- read the `seen` secret of some team that has looked at the cell.
local function known_to_all(G)
  local known = {}
  for _, l in ipairs(B.LAND) do known[l] = true end
  for s = 1, G:seats() do
    local sees = {}
    for t = 1, 4 do
      local key = "seen_" .. B.LETTER[t]
      if G:can_see(key, s) then
        for _, name in ipairs(G:secret_get(key)) do sees[B.parse(name)] = true end
      end
    end
    for _, l in ipairs(B.LAND) do known[l] = known[l] and sees[l] or nil end
  end
  return known
end

-- The token of a land cell as the export writes it: with `public`, a closed cell whose
-- identity not everyone knows is plain "#".
local function export_token(G, l, public)
  local tok = H.token(G, l)
  if public and string.sub(tok, 1, 1) == "#" and not public[l] then return "#" end
  return tok
end

local FORMATS = { public = true, ["--public"] = true, current = true }

-- `format` nil: the full position; "public" (§14 `export --public`): what every player may
-- know — closed cells not known to everyone are plain "#", the deck is "auto", `seen` keeps
-- only cells everyone knows, and the seed (which foretells the draws) is left out; "current":
-- the full position also in the middle of a move, as the rules hold it (for inspection).
function X.export(G, format)
  if format ~= nil and not FORMATS[format] then
    error("position: unknown format '" .. tostring(format) .. "' (jackal offers: public, current)", 0)
  end
  -- The format holds a turn boundary: a move still being resolved cannot be written so that
  -- setup takes it.
  local pending = G:pending()
  if #pending > 0 and format ~= "current" then
    local top = pending[#pending]
    local what = top.waits == "chance" and "a draw" or (top.waits == "decision" and "a choice" or "a step")
    error(string.format("position: %s's move is not finished (it waits for %s: %s); setup takes " ..
      "positions between moves: finish it or `undo` (`position current` shows it as it stands)",
      B.TEAMS[G:get("turn")], what, top.why ~= "" and top.why or top.hook), 0)
  end
  local public = (format == "public" or format == "--public") and known_to_all(G) or nil
  local out = { "jackal 1" }
  -- switches that differ from the defaults
  local sets = {}
  for _, k in ipairs(sorted_keys(SW)) do
    local v = C.sw(G, k)
    if not same(v, SW[k].default) then sets[#sets + 1] = k .. "=" .. value_text(v) end
  end
  if #sets > 0 then out[#out + 1] = "set " .. table.concat(sets, " ") end
  -- a seat's view holds neither the seed (it foretells the draws) nor the deck's contents
  local referee = G:viewer() == nil
  if G:get("seed") and not public and referee then out[#out + 1] = "seed " .. G:get("seed") end
  local teams = G:get("teams")
  -- seats that are not one a team (two players sharing four) are written out
  if G:seats() ~= #teams then out[#out + 1] = "players " .. G:seats() end
  out[#out + 1] = "turn " .. B.TEAMS[G:get("turn")] .. " round=" .. (G:get("round") or 1)
  local ships = G:get("ships")
  local sp = {}
  for _, t in ipairs(teams) do sp[#sp + 1] = B.TEAMS[t] .. "=" .. B.name(ships[t]) end
  out[#out + 1] = "ships " .. table.concat(sp, " ")
  out[#out + 1] = team_line("banked", G:get("bank"), teams)
  if (G:get("lost") or 0) ~= 0 then out[#out + 1] = "lost " .. G:get("lost") end
  out[#out + 1] = team_line("bottles", G:get("bottles"), teams)
  if (G:get("grass") or 0) ~= 0 then out[#out + 1] = "grass " .. G:get("grass") end
  if (G:get("stall") or 0) ~= 0 then out[#out + 1] = "stall " .. G:get("stall") end
  out[#out + 1] = "board"
  -- columns as wide as their longest token
  local width = {}
  for x = 2, 12 do
    width[x] = 1
    for y = 2, 12 do width[x] = math.max(width[x], utf8.len(export_token(G, B.loc(x, y), public))) end
  end
  local header = "  "
  for x = 2, 12 do
    header = header .. "  " .. string.sub(B.COLS, x, x) .. string.rep(" ", width[x] - 1)
  end
  out[#out + 1] = (string.gsub(header, "%s+$", ""))
  for y = 12, 2, -1 do
    local row = string.format("%2d", y)
    for x = 2, 12 do
      local tok = export_token(G, B.loc(x, y), public)
      row = row .. "  " .. tok .. string.rep(" ", width[x] - utf8.len(tok))
    end
    out[#out + 1] = (string.gsub(row, "%s+$", ""))
  end
  -- characters that are not simply aboard their own ship at the start
  local V = C.view(G)
  local chars = {}
  for _, c in ipairs(V.chars) do
    if c.loc ~= 0 then chars[#chars + 1] = c end
  end
  local order = { Ben = 20, Fri = 21, Mis = 22 }
  table.sort(chars, function(a, b)
    local ka = order[a.label] or (B.TEAM_OF[string.sub(a.label, 1, 1)] * 4 + tonumber(string.sub(a.label, 2)))
    local kb = order[b.label] or (B.TEAM_OF[string.sub(b.label, 1, 1)] * 4 + tonumber(string.sub(b.label, 2)))
    return ka < kb
  end)
  local held = {}
  local items = C.all_items(G)
  for _, it in ipairs(items) do
    if it.holder then held[it.holder] = it.kind end
  end
  for _, c in ipairs(chars) do
    local place = X.place_text(G, V, c)
    local flags = {}
    if c.trap then flags[#flags + 1] = "trapped" end
    if c.drunk > 0 then flags[#flags + 1] = "drunk" end
    if c.conv then flags[#flags + 1] = "converted" end
    if c.newb > 0 then flags[#flags + 1] = "newborn" end
    if held[c.id] then flags[#flags + 1] = "+" .. held[c.id] end
    local native = c.who ~= "pirate"
    if native or place ~= "ship" or #flags > 0 then
      local owner = native and (" " .. (c.team == 0 and "-" or B.LETTER[c.team])) or ""
      local f = #flags > 0 and (" " .. table.concat(flags, " ")) or ""
      out[#out + 1] = c.label .. owner .. " " .. place .. f
    end
  end
  -- items on the island
  local counts, keys = {}, {}
  local treasure
  for _, it in ipairs(items) do
    if not it.holder and B.is_land(it.loc) then
      local key = B.name(it.loc) .. (it.step > 0 and (":" .. it.step) or "")
      if it.kind == "treasure" then
        treasure = key
      else
        if not counts[key] then
          counts[key] = 0
          keys[#keys + 1] = { key = key, l = it.loc, step = it.step }
        end
        counts[key] = counts[key] + 1
      end
    end
  end
  table.sort(keys, function(a, b)
    if a.l ~= b.l then return B.order(a.l) < B.order(b.l) end
    return a.step < b.step
  end)
  if #keys > 0 then
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = k.key .. "=" .. counts[k.key] end
    out[#out + 1] = "coins " .. table.concat(parts, " ")
  end
  if treasure then out[#out + 1] = "treasure " .. treasure end
  -- the deck
  local deck = referee and G:bag_items("deck") or {}
  if G:get("deck_list") and #deck > 0 and not public then
    local cnt, names = {}, {}
    for _, d in ipairs(deck) do
      if not cnt[d] then cnt[d] = 0; names[#names + 1] = d end
      cnt[d] = cnt[d] + 1
    end
    local parts = {}
    for _, d in ipairs(names) do parts[#parts + 1] = P.code(d) .. "*" .. cnt[d] end
    out[#out + 1] = "deck " .. table.concat(parts, " ")
  else
    out[#out + 1] = "deck auto"
  end
  local seen = {}
  for _, t in ipairs(teams) do
    local list = {}
    local key = "seen_" .. B.LETTER[t]
    for _, name in ipairs(G:can_see(key) and G:secret_get(key) or {}) do
      if not public or public[B.parse(name)] then list[#list + 1] = name end
    end
    if #list > 0 then seen[#seen + 1] = B.TEAMS[t] .. "=" .. table.concat(list, ",") end
  end
  if #seen > 0 then out[#out + 1] = "seen " .. table.concat(seen, " ") end
  local text = {}
  for _, l in ipairs(out) do if l then text[#text + 1] = l end end
  return table.concat(text, "\n") .. "\n"
end

return X
