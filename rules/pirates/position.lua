-- The position text of spec §18 (`position`, `setup pirates <<END`): export in a view (the
-- golden flag only where the viewer may see it), and import with a refusal naming the line
-- and the reason for a malformed or impossible position (two ships on one sea cell, a ship
-- on land, damage beyond sinking, a golden brigantine outside the trophy's transfer mode).

local B = require("pirates.board")
local M = require("pirates.map")
local P = require("pirates.players")
local W = require("pirates.weather")
local Gd = require("pirates.golden")
local T = require("pirates.turns")
local SWITCHES = require("pirates.switches")

local X = {}

X.HOUSE = { "shipwreck_respin", "golden_wreck_trophy", "brigantine_row_upwind", "move_fewer_or_stay" }

-- The switches the game copies into props "sw_<name>", named literally so that the kernel
-- sees that they are read (docs/lua-api.md, Variants).
local NAMES = { "against_current", "corner_cutting", "current_chain", "current_timing", "early_end",
  "fire_in_hurricane", "fire_timing", "golden_choice", "hurricane_direction", "map", "max_rounds",
  "neutral_ports_open_to_spain", "pirate_goal", "recapture", "salvo", "salvo_hits", "shot_wedge",
  "shots_per_turn", "spin_scope", "spinner", "trophy_mode", "turn_order", "w_calm", "w_dir", "w_hurricane" }
assert(#NAMES == #sorted_keys(SWITCHES), "every switch is copied into the props")

-- The board of a parsed map and the switch values the game plays with (props "sw_<name>").
function X.init(G, map, name, lines, sets)
  B.create(G, map, name, lines)
  for _, k in ipairs(NAMES) do
    local v = G:switch(k)
    if sets and sets[k] ~= nil then v = sets[k] end
    G:set("sw_" .. k, v)
  end
  for _, h in ipairs(X.HOUSE) do G:set("off_" .. h, false) end
  W.weights({ spinner = G:get("sw_spinner"), w_dir = G:get("sw_w_dir"), w_calm = G:get("sw_w_calm"),
    w_hurricane = G:get("sw_w_hurricane") })
  local n = G:seats()
  G:set("nspain", G:get("nspain") or B.SPLIT[n][1], "gold", false, "gold_rev", false, "shots", 0)
end

-- Whether `list` holds `name`.
---@param list string[]
---@param name string
---@return boolean
local function holds(list, name)
  for _, x in ipairs(list) do if x == name then return true end end
  return false
end

-- Whether a house rule is loaded and not switched off by a position's `house -name` line.
function X.house_on(G, name)
  return not G:get("off_" .. name) and holds(hook.house_rules(G), name)
end

local function pos_text(G, pos)
  local name = B.port_name(G, pos)
  if name then return (name:gsub(" ", "_")) end
  local w = G:get("w")
  return string.format("(%d,%d)", pos % w, pos // w)
end

function X.export(G)
  local out = { "pirates 1" }
  local name = G:get("map")
  if name == "inline" then
    out[#out + 1] = "map inline"
    for _, l in ipairs(G:get("map_lines")) do out[#out + 1] = l end
    out[#out + 1] = "end"
  else
    out[#out + 1] = "map " .. name
  end
  local on = {}
  for _, h in ipairs(X.HOUSE) do on[#on + 1] = X.house_on(G, h) end
  local any = on[1] or on[2] or on[3] or on[4]
  out[#out + 1] = "variant " .. (any and "author" or "printed")
  if any then
    for i, h in ipairs(X.HOUSE) do if not on[i] then out[#out + 1] = "house -" .. h end end
  end
  -- the other house rules loaded, which a position names but does not switch
  for _, name in ipairs(hook.house_rules(G)) do
    if not holds(X.HOUSE, name) then out[#out + 1] = "house +" .. name end
  end
  for _, k in ipairs(NAMES) do
    local v = G:get("sw_" .. k)
    if k ~= "map" and v ~= SWITCHES[k].default then out[#out + 1] = "set " .. k .. "=" .. tostring(v) end
  end
  local players = {}
  for seat = 1, G:seats() do players[seat] = P.name(G, seat) .. "=" .. P.side(G, seat) end
  out[#out + 1] = "players " .. table.concat(players, " ")
  local phase = G:get("phase")
  out[#out + 1] = "turn " .. P.name(G, P.current(G))
  out[#out + 1] = "round " .. G:get("round")
  local wx = G:get("wx")
  out[#out + 1] = "weather " .. W.text(wx or nil)
  if phase == "over" then out[#out + 1] = "# over: " .. G:get("result") end
  out[#out + 1] = "golden " .. (G:get("gold_rev") and "revealed" or "hidden")
  local gold = Gd.visible(G) and G:secret_get("golden") or nil
  for _, s in ipairs(B.ships(G)) do
    local line = string.format("ship %s %s %s %s %s holes=%d", s.id, s.kind, s.side,
      s.der and "-" or P.name(G, s.seat), pos_text(G, s.pos), s.holes)
    if gold == s.p then line = line .. " golden" end
    if s.moved then line = line .. " moved" end
    if s.fired then line = line .. " fired" end
    if s.rep then line = line .. " repairing" end
    if s.frozen then line = line .. " frozen" end
    if s.der then line = line .. " derelict" end
    if s.wx then line = line .. " weather=" .. W.text(s.wx):gsub(" ", "_") end
    out[#out + 1] = line
  end
  return table.concat(out, "\n") .. "\n"
end

-- Import ------------------------------------------------------------------------------------

local function parse_value(k, text, fail)
  local def = SWITCHES[k]
  if not def then fail("unknown switch '" .. k .. "'") end
  local v = text
  if type(def.default) == "number" then
    v = tonumber(text)
    if not v or v ~= math.floor(v) then fail("switch " .. k .. " takes a whole number, not '" .. text .. "'") end
    v = math.tointeger(v)
    if (def.min and v < def.min) or (def.max and v > def.max) then fail("switch " .. k .. "=" .. text .. " is out of range") end
  elseif def.values then
    local ok = false
    for _, x in ipairs(def.values) do ok = ok or x == v end
    if not ok then fail("switch " .. k .. " is one of " .. table.concat(def.values, ", ") .. ", not '" .. text .. "'") end
  end
  return v
end

-- Reads the header lines; returns the parsed header and the ship lines.
local function read(G, text)
  local lines = {}
  for l in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = (l:gsub("\r$", "")) end
  local h = { sets = {}, house = {}, ships = {} }
  local i = 1
  local function fail(msg) error("position line " .. i .. ": " .. msg, 0) end
  local function content(l) return (l:gsub("#.*$", ""):gsub("^%s+", ""):gsub("%s+$", "")) end
  while i <= #lines do
    local l = content(lines[i])
    local word, rest = l:match("^(%S+)%s*(.-)$")
    if l == "" then
      -- blank or comment
    elseif word == "pirates" then
      if rest ~= "1" then fail("format version " .. rest .. " is not supported (pirates 1)") end
      h.header = true
    elseif not h.header then
      fail("a position starts with 'pirates 1'")
    elseif word == "map" and rest == "inline" then
      local start, block = i + 1, {}
      i = i + 1
      while i <= #lines and lines[i]:gsub("%s+$", "") ~= "end" do
        block[#block + 1] = lines[i]
        i = i + 1
      end
      if i > #lines then fail("'map inline' without 'end'") end
      h.map = M.parse(block, function(line, col, reason)
        error(string.format("position line %d:%d: %s", start + line - 1, col, reason), 0)
      end)
      h.map_name, h.map_lines = "inline", block
    elseif word == "map" then
      local ok, map = pcall(M.load, rest)
      if not ok then fail(map) end
      h.map, h.map_name = map, rest:gsub("^pirates%-", "")
    elseif word == "variant" then
      if rest ~= "author" and rest ~= "printed" then fail("variant is author or printed, not '" .. rest .. "'") end
      h.variant = rest
    elseif word == "house" then
      for t in rest:gmatch("%S+") do
        local sign, name = t:match("^([+-])([%w_]+)$")
        local mode = t:match("^golden_wreck_trophy=(%w+)$")
        if mode then
          h.sets.trophy_mode = parse_value("trophy_mode", mode, fail)
        elseif sign then
          local loaded = hook.house_rules(G)
          -- any other house rule is named as it is loaded (it stacks its name on house_rules)
          if not holds(X.HOUSE, name) then
            if not holds(loaded, name) then
              fail("house rule '" .. name .. "' is not loaded (start with --house " .. name .. "; loaded: "
                .. (#loaded > 0 and table.concat(loaded, ", ") or "none") .. ")")
            end
            if sign == "-" then
              fail("house rule '" .. name .. "' is switched off by starting without it; a position turns off only "
                .. table.concat(X.HOUSE, ", "))
            end
          end
          h.house[#h.house + 1] = { name = name, on = sign == "+" }
        else
          fail("house takes +name, -name or golden_wreck_trophy=control|transfer, not '" .. t .. "'")
        end
      end
    elseif word == "set" then
      local k, v = rest:match("^([%w_]+)=(%S+)$")
      if not k then fail("set takes switch=value") end
      if k == "map" then fail("the map is given by the 'map' line") end
      h.sets[k] = parse_value(k, v, fail)
      if k == "spinner" or k:match("^w_") then h.spinner_line = i end
    elseif word == "players" then
      h.players = {}
      for id, side in rest:gmatch("(%S+)=(%S+)") do h.players[#h.players + 1] = { id = id, side = side, line = i } end
      if #h.players == 0 then fail("players lists id=side pairs") end
    elseif word == "turn" or word == "round" or word == "weather" or word == "golden" then
      h[word], h[word .. "_line"] = rest, i
    elseif word == "ship" then
      h.ships[#h.ships + 1] = { text = rest, line = i }
    else
      fail("unknown line '" .. word .. "'")
    end
    i = i + 1
  end
  if not h.header then error("position line 1: a position starts with 'pirates 1'", 0) end
  if not h.map then error("position: no 'map' line", 0) end
  if h.spinner_line then
    -- The spinner the set lines make, with the game's values for the switches they leave.
    local sw = {}
    for _, k in ipairs({ "spinner", "w_dir", "w_calm", "w_hurricane" }) do sw[k] = h.sets[k] or G:switch(k) end
    local ok, err = pcall(W.weights, sw)
    if not ok then error("position line " .. h.spinner_line .. ": " .. err, 0) end
  end
  return h
end

local function check_players(G, h)
  local fail = function(msg) error("position line " .. (h.players and h.players[1].line or 1) .. ": " .. msg, 0) end
  if not h.players then fail("no 'players' line") end
  if #h.players ~= G:seats() then
    fail(string.format("%d players listed for a game of %d (use --players %d)", #h.players, G:seats(), #h.players))
  end
  local s = 0
  for _, pl in ipairs(h.players) do if pl.side == "spain" then s = s + 1 end end
  if s ~= B.SPLIT[#h.players][1] then
    fail(string.format("%d players are %d Spanish and %d pirates (§1)", #h.players, B.SPLIT[#h.players][1],
      B.SPLIT[#h.players][2]))
  end
  for k, pl in ipairs(h.players) do
    local want = k <= s and ("S" .. k) or ("P" .. (k - s))
    local side = k <= s and "spain" or "pirate"
    if pl.id:upper() ~= want or pl.side ~= side then
      fail(string.format("player %d is %s=%s (players are S1…Ss=spain then P1…Pp=pirate)", k, want, side))
    end
  end
  return s
end

local function ship_pos(G, text, w, h, fail)
  local c, r = text:match("^%((%d+),(%d+)%)$")
  if c then
    c, r = tonumber(c), tonumber(r)
    if c >= w or r >= h then fail(string.format("(%d,%d) is off the map", c, r)) end
    return r * w + c
  end
  local found
  local grid = G:get("grid")
  for _, port in ipairs(B.ports(G)) do
    local ch = grid:sub(port.pos + 1, port.pos + 1)
    if port.name:gsub(" ", "_"):lower() == text:lower() then return port.pos end
    if ch == text and ch:match("^[VC1-6]$") then
      if found then fail("port '" .. text .. "' is not unique on this map") end
      found = port.pos
    end
  end
  if found then return found end
  fail("unknown place '" .. text .. "' (a cell (c,r), a port letter V, C, 1-6 or a port name)")
end

local SHIP_FLAGS = { golden = true, moved = true, fired = true, repairing = true, frozen = true, derelict = true }

local function add_ships(G, h)
  local w, hh, grid = G:get("w", "h", "grid")
  local neutral = G:get("sw_neutral_ports_open_to_spain") == "on"
  local seen, at_sea, gold = {}, {}, nil
  for _, sl in ipairs(h.ships) do
    local fail = function(msg) error("position line " .. sl.line .. ": " .. msg, 0) end
    local words = {}
    for t in sl.text:gmatch("%S+") do words[#words + 1] = t end
    local id, kind, side, holder, where, holes = table.unpack(words, 1, 6)
    if not holes then fail("ship <id> <galleon|brig> <side> <holder> <pos> holes=<n> [flags]") end
    id = id:upper()
    local want = kind == "galleon" and "^G[1-3]$" or kind == "brig" and "^B[1-6]$"
    if not want then fail("ship type is galleon or brig, not '" .. kind .. "'") end
    if not id:match(want) then fail("a " .. kind .. " is named " .. (kind == "galleon" and "G1-G3" or "B1-B6") .. ", not " .. id) end
    if seen[id] then fail(id .. " is listed twice") end
    seen[id] = true
    local flags = {}
    local wx
    for k = 7, #words do
      local f = words[k]
      local wtext = f:match("^weather=(.+)$")
      if wtext then
        wx = W.parse(wtext:gsub("_", " "))
        if not wx then fail("unknown weather '" .. wtext .. "'") end
      elseif not SHIP_FLAGS[f] then
        fail("unknown flag '" .. f .. "' (golden, moved, fired, repairing, frozen, derelict)")
      else
        flags[f] = true
      end
    end
    local seat = 0
    if side == "none" or flags.derelict then
      if side ~= "none" or holder ~= "-" or not flags.derelict then
        fail("a derelict has side none, holder - and the flag derelict")
      end
    else
      if side ~= "spain" and side ~= "pirate" then fail("side is spain, pirate or none, not '" .. side .. "'") end
      seat = P.seat(G, holder)
      if not seat then fail("unknown holder '" .. holder .. "'") end
      if P.side(G, seat) ~= side then fail(holder .. " is not on the side " .. side) end
    end
    local n = tonumber(holes:match("^holes=(%d+)$") or "")
    if not n then fail("expected holes=<n>, not '" .. holes .. "'") end
    if n >= B.SINK[kind] then
      fail(string.format("%s has %d holes: a %s sinks at %d", id, n, kind, B.SINK[kind]))
    end
    local pos = ship_pos(G, where, w, hh, fail)
    local ch = grid:sub(pos + 1, pos + 1)
    if ch == "#" then fail(id .. " stands on land at " .. where) end
    if ch ~= "." and side ~= "none" and not B.may_enter(ch, side, neutral) then
      fail(id .. " is in a port its side may not enter")
    end
    if ch == "." then
      if at_sea[pos] then fail(id .. " and " .. at_sea[pos] .. " are both on the sea cell " .. where) end
      at_sea[pos] = id
    end
    if flags.golden then
      if gold then fail("two golden ships") end
      if kind == "brig" and G:get("sw_trophy_mode") ~= "transfer" then
        fail("a golden brigantine needs house golden_wreck_trophy=transfer")
      end
    end
    local p = B.add(G, id, kind, seat, side, pos, n)
    B.update(G, p, "wx", wx or nil, "moved", flags.moved, "fired", flags.fired, "rep", flags.repairing,
      "frozen", flags.frozen, "der", flags.derelict)
    if flags.golden then gold = p end
    if flags.derelict then G:set("derelict", true) end
  end
  return gold
end

function X.import(G, text)
  local h = read(G, text)
  for _, p in ipairs(G:get("ships") or {}) do B.remove(G, p) end
  local lines = h.map_name == "inline" and h.map_lines or nil
  G:set("nspain", check_players(G, h))
  local ok, err = pcall(X.init, G, h.map, h.map_name, lines, h.sets)
  if not ok then error("position: " .. tostring(err), 0) end
  local loaded = hook.house_rules(G)
  local want = {}
  for _, name in ipairs(X.HOUSE) do want[name] = h.variant ~= "printed" end
  for _, t in ipairs(h.house) do want[t.name] = t.on end
  for _, name in ipairs(X.HOUSE) do
    if want[name] and not holds(loaded, name) then
      error("position: house rule " .. name .. " is not loaded (start with --variant author)", 0)
    end
    G:set("off_" .. name, not want[name])
  end
  local gold = add_ships(G, h)
  local seat = P.seat(G, h.turn or "S1")
  if not seat then error("position line " .. (h.turn_line or 1) .. ": unknown player '" .. tostring(h.turn) .. "'", 0) end
  local round = tonumber(h.round or "1")
  if not round or round < 1 then error("position line " .. (h.round_line or 1) .. ": round is a number ≥ 1", 0) end
  P.start(G, seat, math.tointeger(round))
  local wx = W.parse(h.weather or "unspun")
  if wx == nil then error("position line " .. (h.weather_line or 1) .. ": unknown weather '" .. h.weather .. "'", 0) end
  G:set("phase", "play", "wx", wx)
  if wx == false and G:get("sw_spin_scope") == "per_turn" then T.ask_weather(G, 0) end
  if h.golden and h.golden ~= "hidden" and h.golden ~= "revealed" then
    error("position line " .. h.golden_line .. ": golden is hidden or revealed", 0)
  end
  if gold then Gd.set(G, gold, h.golden == "revealed") end
  for _, s in ipairs(B.ships(G)) do
    if s.fired then G:set("shots", 1) end
  end
end

return X
