-- Jackal actions (§3, §4.1, §13): the options of a team's turn with their labels, and what
-- applying each one starts.
--
-- Option tables: { label, a = "move" | "ship" | "revive" | "give" | "rum" | "cave" | "pass"
-- | "end", … } with the fields each kind needs. A move (most options) is listed as an integer
-- (see M.move_option), which the kernel hands back as it is: no table is built for the
-- options nobody picks; M.option turns it into its table.

local B = require("jackal.board")
local C = require("jackal.core")
local H = require("jackal.chain")

local M = {}

local IS_LAND = B.IS_LAND

-- The order a team's characters are listed in: the natives, then W1, W2, … (keys of labels).
local ORDER = { Ben = 10, Fri = 11, Mis = 12 }
for t = 1, 4 do
  for k = 1, 3 do ORDER[B.LETTER[t] .. k] = t * 100 + k end
end

local function listed_before(a, b) return ORDER[a.label] < ORDER[b.label] end

-- A move of character piece ch to cell `to`: spinner step `step` (nil: the one it lands on),
-- motion type `type` ("step" or "flight"), carrying item piece `item` (nil: none), spending a
-- rum bottle when `rum`. Bits: ch 0-15, to 16-23, step 24-27, type 28-29, item 32-47, rum 48.
local TYPES = { "step", "flight" }
local TYPE_CODE = { step = 1, flight = 2 }

local function move_option(ch, to, step, type, item, rum)
  return ch | (to << 16) | ((step or 0) << 24) | (TYPE_CODE[type] << 28) | ((item or 0) << 32)
    | ((rum and 1 or 0) << 48)
end

-- The table of option opt: { a = "move", ch, to, step, type, item, rum } for a move.
function M.option(opt)
  if math.type(opt) ~= "integer" then return opt end
  local step, item = (opt >> 24) & 15, (opt >> 32) & 0xFFFF
  return { a = "move", ch = opt & 0xFFFF, to = (opt >> 16) & 255, step = step > 0 and step or nil,
           type = TYPES[(opt >> 28) & 3], item = item > 0 and item or nil,
           rum = (opt >> 48) & 1 == 1 or nil }
end

-- Where a character is, as labels write it: E5, E5:2, G1 (a ship), A5 (swimming), cave.
function M.where_label(G, c)
  if c.loc == B.UNDER then return "cave" end
  if c.loc < 1 or c.loc > 169 then return "-" end
  local s = B.name(c.loc)
  if (c.step or 0) > 0 then s = s .. ":" .. c.step end
  return s
end

-- Whether c can act in its team's turn (§3).
function M.can_act(c)
  return C.alive(c) and c.team ~= 0 and c.drunk <= 0 and c.newb <= 0
end

-- Items c may take along from where it stands: one per kind.
local function carry_choices(G, V, c)
  if C.sober_mis(c) or c.loc == B.UNDER or not B.is_land(c.loc) then return {} end
  local items = C.items_here(V, c.loc, c.step)
  if #items == 0 then return items end
  local out, seen = {}, {}
  C.sort_few(items, function(a, b) return a.id < b.id end)
  for i = 1, #items do
    local it = items[i]
    if not seen[it.kind] then
      seen[it.kind] = true
      out[#out + 1] = it
    end
  end
  C.sort_few(out, function(a, b) return a.kind < b.kind end)
  return out
end

-- Whether c may arrive at t (step `step`) carrying an item as a first step (§4.1): onto a
-- ship, or where the may_carry hook allows.
local function carry_ok(G, V, c, t, step)
  return C.ship_team(V.ships, t) ~= nil or hook.may_carry(G, V, c, t, step)
end

-- forced_coin_blocked = "move_illegal": follows the forced chain a carried item would take
-- from the first target t (open tiles only, by how each sends the mover on, its transit
-- hook's word; a choice, a closed tile's effect or the chain's end stop the look-ahead) and says whether it meets a cell that would
-- send the item back (may_carry).
local function item_chain_ok(G, V, c, from, t)
  local fx, fy = B.xy(from)
  local tx, ty = B.xy(t)
  local dx, dy = tx - fx, ty - fy
  local prev, seen = from, {}
  for _ = 1, 40 do
    if C.ship_team(V.ships, t) or B.is_sea(t) then return true end
    if not hook.may_carry(G, V, c, t, C.vsteps(V, t) > 1 and 1 or 0) then return false end
    local key = t .. ":" .. dx .. ":" .. dy
    if seen[key] then return true end
    seen[key] = true
    local nt
    local how = C.th(C.vt(V, t), "transit", G, t)
    if how == "repeat" then
      nt = B.add(t, dx, dy)
    elseif how == "back" then
      nt, dx, dy = prev, -dx, -dy
    elseif how == "arrow" then
      local ex = C.th(C.vt(V, t), "exits", G, t)
      if #ex ~= 1 then return true end
      local d = B.DIRS[ex[1]]
      dx, dy = d[1], d[2]
      nt = B.add(t, dx, dy)
    else
      return true
    end
    if not nt then return true end
    prev, t = t, nt
  end
  return true
end

-- The step c lands on when moving to t: spinners put you on step 1 (Friday: the last).
local function arrival_step(V, c, t)
  local n = C.vsteps(V, t)
  if n <= 1 then return 0 end
  return c.who == "fri" and n or 1
end

-- Whether a move of c to the open tile at land cell t would end where he may not stop
-- (may_stop; a tile that sends him on decides where the move ends).
local function stops_short(G, V, c, t)
  local tile = C.vt(V, t)
  return tile ~= nil and not C.th(tile, "transit", G, t) and not hook.may_stop(G, V, c, t)
end

-- Whether a sober missionary stands with c on land (on a spinner: on c's step): a move
-- starting there hits nobody (§4.1).
local function tamed(V, c)
  if not IS_LAND[c.loc] then return false end
  local here = V.at[c.loc]
  for i = 1, #here do
    local o = here[i]
    if o.id ~= c.id and (c.step == 0 or o.step == c.step) and C.sober_mis(o) then return true end
  end
  return false
end

-- Appends the options of c moving to each cell of `targets` with motion type `type` (nil:
-- "step") and spinner step `step` (nil: the step it lands on), spending a rum bottle when
-- `rum` (labelled by M.label when read).
local function add_moves(G, V, c, targets, out, rum, type, step)
  local items = carry_choices(G, V, c)
  local peaceful = tamed(V, c)
  local strict = #items > 0 and C.vsw(V, "forced_coin_blocked") == "move_illegal"
  local may_enter = hook.may_enter
  -- The rules' own may_stop refuses only the tiles that send him on, where no move ends:
  -- while nobody overrides it, stops_short has nothing to refuse.
  local picky = hook.may_stop ~= C.may_stop
  local plain = move_option(c.id, 0, step, type or "step", nil, rum) -- to cell t: plain | t << 16
  for i = 1, #targets do
    local t = targets[i]
    local st = step or arrival_step(V, c, t)
    local ok = may_enter(G, V, c, t, st)
    if ok and IS_LAND[t] then
      if peaceful and #C.would_hit(G, V, c, t, st) > 0 then ok = false end
      if ok and picky and stops_short(G, V, c, t) then ok = false end
    end
    if ok then
      out[#out + 1] = plain | (t << 16)
      if #items > 0 and carry_ok(G, V, c, t, st)
        and (not strict or type == "flight" or item_chain_ok(G, V, c, c.loc, t)) then
        for k = 1, #items do
          out[#out + 1] = move_option(c.id, t, step, type or "step", items[k].id, rum)
        end
      end
    end
  end
end

-- Ordinary first steps from a land cell: land neighbours and ship cells (§4.1).
local function land_steps(V, l)
  if B.INLAND[l] then return B.neighbours(l) end -- (a static list: add_moves only reads it)
  local out = {}
  local n = B.neighbours(l)
  for i = 1, #n do
    local t = n[i]
    if IS_LAND[t] or C.ship_team(V.ships, t) then out[#out + 1] = t end
  end
  return out
end

local function swim_steps(V, l)
  local out = {}
  local n = C.vsw(V, "swim_moves") == "orthogonal" and B.orthogonal(l) or B.neighbours(l)
  for i = 1, #n do
    if B.is_sea(n[i]) then out[#out + 1] = n[i] end
  end
  return out
end

-- Whether team t may use rum now (not during a shifted turn, §7.6).
local function rum_ok(V, t)
  if V.shifted then return false end
  return (C.bottles_for(V.G, t, V)) > 0
end

-- The rum options of a trapped or spinning character (§8, switch `rum_timing`): a step to a
-- neighbour spending a bottle, or freeing it in place as a free action.
local function add_rum_options(G, V, c, out, rum_mode)
  if rum_mode == "with_move" then
    add_moves(G, V, c, land_steps(V, c.loc), out, true)
  elseif rum_mode == "free_action" then
    out[#out + 1] = { label = c.label .. " +rum", a = "rum", ch = c.id }
  end
end

-- The options of character c (team t's turn); `rum`: whether his team may use rum now.
local function char_options(G, V, c, out, rum)
  if c.loc == B.UNDER then
    local exits = C.ph("cave_exits", G, c, c.lost) or {}
    for i = 1, #exits do
      out[#out + 1] = { label = c.label .. " cave->" .. exits[i], a = "cave", ch = c.id, to = B.parse(exits[i]) }
    end
    return
  end
  if c.trap then
    if rum and C.vsw(V, "trap_release") == "friend_or_bottle" then
      add_rum_options(G, V, c, out, C.vsw(V, "rum_timing"))
    end
    return
  end
  local st = C.ship_team(V.ships, c.loc)
  if st then
    local f = B.front(st, c.loc)
    if f then add_moves(G, V, c, { f }, out) end
    return
  end
  if B.is_sea(c.loc) then
    add_moves(G, V, c, swim_steps(V, c.loc), out)
    return
  end
  local tile = C.vt(V, c.loc)
  if C.th(tile, "first_moves", G, c.loc, c) == "flight" then
    add_moves(G, V, c, C.flight_cells(G, c.loc, c), out, nil, "flight")
    return
  end
  local n = C.vsteps(V, c.loc)
  if n > 1 and c.step > 0 and c.step < n then
    add_moves(G, V, c, { c.loc }, out, nil, nil, c.step + 1)
    if rum then add_rum_options(G, V, c, out, C.vsw(V, "rum_timing")) end
    return
  end
  add_moves(G, V, c, land_steps(V, c.loc), out)
end

-- Whether a fighter of team t is aboard the ship at l.
local function crewed(V, l, t)
  local aboard = V.at[l]
  if not aboard then return false end
  for i = 1, #aboard do
    if aboard[i].team == t and C.fighter(aboard[i]) then return true end
  end
  return false
end

-- Whether team u's ship may sail onto sea cell `to`: no sober enemy missionary there, nor an
-- ally unless ships pick swimmers up (ship_pickup).
local function may_sail_to(V, u, to, pickup)
  local there = V.at[to]
  if not there then return true end
  for j = 1, #there do
    local o = there[j]
    if C.enemy_in(V.sides, u, o.team) and C.sober_mis(o) then return false end
    if not pickup and C.allied_in(V.sides, u, o.team) then return false end
  end
  return true
end

-- Ship moves of team t (§4.6).
local function ship_options(G, V, t, out)
  local range = C.vsw(V, "ship_range")
  local pickup = C.vsw(V, "ship_pickup")
  for u = 1, 4 do
    local l = V.ships[u]
    if l ~= 0 and (u == t or (C.vsw(V, "allied_ship_sail") and C.allied_in(V.sides, t, u))) then
      if crewed(V, l, t) then
        local i, lane = B.on_lane(u, l, range)
        local targets = {}
        if i then
          if lane[i - 1] then targets[#targets + 1] = lane[i - 1] end
          if lane[i + 1] then targets[#targets + 1] = lane[i + 1] end
        end
        C.sort_few(targets, B.before)
        for k = 1, #targets do
          local to = targets[k]
          if may_sail_to(V, u, to, pickup) then
            out[#out + 1] = { a = "ship", team = u, from = l, to = to }
          end
        end
      end
    end
  end
end

-- Living fighters (or ordinary pirates) of team t, for the revival limit (§6).
local function living(V, t, pirates_only)
  local n = 0
  for i = 1, #V.chars do
    local c = V.chars[i]
    if c.team == t and C.alive(c) and (pirates_only and c.who == "pirate" or not pirates_only and C.fighter(c)) then
      n = n + 1
    end
  end
  return n
end

-- The dead pirates team t may revive: its own (and its allies', respawn_allies), while their
-- team has fewer than three living fighters (or pirates, respawn_limit).
local function revivable(V, t)
  local out = {}
  local pirates_only = C.vsw(V, "respawn_limit") == "pirates"
  for j = 1, #V.chars do
    local d = V.chars[j]
    if d.who == "pirate" and d.loc == B.DEAD
      and (d.team == t or (C.vsw(V, "respawn_allies") and C.allied_in(V.sides, t, d.team)))
      and living(V, d.team, pirates_only) < 3 then
      out[#out + 1] = d
    end
  end
  return out
end

-- The pirates among `mine` (the characters of a team that can act, in the view's order) who
-- stand on a tile that revives (§6), in that order; nil when none does.
local function revivers(G, V, mine)
  local out
  for i = 1, #mine do
    local c = mine[i]
    if c.who == "pirate" and not c.trap and IS_LAND[c.loc] and C.th(C.vt(V, c.loc), "revive", G, c.loc) then
      out = out or {}
      out[#out + 1] = c
    end
  end
  return out
end

-- Revivals (§6): each of team t's `revivers` (nil: none) brings back a dead pirate.
local function revive_options(V, t, out, revivers)
  if not revivers then return end
  local dead = revivable(V, t)
  for i = 1, #revivers do
    local c = revivers[i]
    for j = 1, #dead do
      local d = dead[j]
      out[#out + 1] = { label = c.label .. " revive " .. d.label, a = "revive", ch = c.id, dead = d.id }
    end
  end
end

-- Natives team t may give rum to (§8): Friday or a sober missionary next to one of t's
-- characters (the caller knows that t may use rum now).
local function give_options(V, t, out)
  for i = 1, #V.chars do
    local n = V.chars[i]
    if (n.who == "fri" or C.sober_mis(n)) and C.alive(n) and B.is_cell(n.loc) then
      local near = false
      for j = 1, #V.chars do
        local g = V.chars[j]
        if g.id ~= n.id and g.team == t and B.is_cell(g.loc) and (g.loc == n.loc or B.adjacent(g.loc, n.loc)) then
          near = true
        end
      end
      if near then out[#out + 1] = { label = "give-rum " .. n.label, a = "give", ch = n.id } end
    end
  end
end

-- Every legal action of team t, in a stable order (with `any`, stops at the first found).
function M.actions(G, t, V, any)
  V = V or C.view(G)
  local out = {}
  local mine = {}
  for i = 1, #V.chars do
    local c = V.chars[i]
    if c.team == t and M.can_act(c) then mine[#mine + 1] = c end
  end
  local revive = revivers(G, V, mine)
  C.sort_few(mine, listed_before)
  local rum = rum_ok(V, t)
  for i = 1, #mine do
    char_options(G, V, mine[i], out, rum)
    if any and #out > 0 then return out end
  end
  ship_options(G, V, t, out)
  revive_options(V, t, out, revive)
  if rum and C.vsw(V, "rum_timing") ~= "end_of_turn" then give_options(V, t, out) end
  return out
end

-- Free actions after the main action (give rum; end-of-turn rum), with view V.
function M.post_actions(G, t, V)
  local out = {}
  if not rum_ok(V, t) then return out end
  give_options(V, t, out)
  if C.vsw(V, "rum_timing") == "end_of_turn" then
    for i = 1, #V.chars do
      local c = V.chars[i]
      if c.team == t and C.alive(c) and (c.trap or (c.step > 0 and c.step < C.steps(G, c.loc))) then
        out[#out + 1] = { label = c.label .. " +rum", a = "rum", ch = c.id }
      end
    end
  end
  return out
end

-- The label of a move or ship option (built only when someone reads it, §13): "W1 E5->E6",
-- "W1 E5->E6 +coin", "W1 E5:2->E5:3", "W1 E5->E6 +rum", "ship G1->H1".
function M.label(G, opt)
  opt = M.option(opt)
  if opt.a == "ship" then return "ship " .. B.name(opt.from) .. "->" .. B.name(opt.to) end
  local c = C.char(G, opt.ch)
  local to = B.name(opt.to)
  if opt.step then to = to .. ":" .. opt.step end
  local s = c.label .. " " .. M.where_label(G, c) .. "->" .. to
  if opt.item then s = s .. " +" .. G:kind(opt.item) end
  if opt.rum then s = s .. " +rum" end
  return s
end

-- Typed text read forgivingly (the game's parse hook): case and the spaces around "->" do not
-- matter, and the cell a character leaves may be left out ("R2 I9" for "R2 I10->I9", "ship
-- F1" for "ship G1->F1"), as long as the text names exactly one of `options`.
local function typed_form(text)
  return (text:upper():gsub("%s*%->%s*", "->"):gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
end

function M.parse(G, text, options)
  local typed, found = typed_form(text), {}
  for i, o in ipairs(options or {}) do
    local label = type(o) == "string" and o or (type(o) == "table" and o.label) or M.label(G, o)
    local long = typed_form(label)
    local short = long:gsub(" [^ ]*%->", " ")
    if typed == long or typed == short then found[#found + 1] = { i, label } end
  end
  if #found == 1 then return found[1][1] end
  if #found == 0 then error(string.format("%q is not a legal option here (`moves` lists them)", text), 0) end
  local names = {}
  for k, f in ipairs(found) do names[k] = f[2] end
  error(string.format("%q could be %s: type one of them", text, table.concat(names, " or ")), 0)
end

------------------------------------------------------------------------------------------
-- Applying actions

-- A ship sails; view V follows.
local function sail(G, V, opt)
  local ships = V.ships
  local from = ships[opt.team]
  ships[opt.team] = opt.to
  G:set("ships", ships)
  local there, aboard = C.occupants(V, opt.to), C.occupants(V, from)
  for i = 1, #there do
    local c = there[i]
    if C.enemy_in(V.sides, opt.team, c.team) then C.kill(G, c, "lost", "run down by a ship", V) end
  end
  for i = 1, #aboard do C.place(G, aboard[i], opt.to, 0, V) end
  G:stat("sails")
end

-- A rum bottle used as a free action (rum_timing free_action / end_of_turn, §8).
local function free_rum(G, c)
  C.spend_bottle(G, c.team)
  if c.trap then
    C.flag(G, c.id, "trap", false)
    G:log(c.label .. " drinks and is free")
    return
  end
  local n = C.steps(G, c.loc)
  local V = C.view(G)
  local victims = C.would_hit(G, V, c, c.loc, n)
  for i = 1, #victims do C.hit(G, V, victims[i], c) end
  C.place(G, c, c.loc, n)
  G:log(c.label .. " drinks and jumps to step " .. n)
end

-- Applies an action option. Returns "free" when the team acts again, "chain" and the status
-- that follows when a move started (nil: its steps wait on the pending stack), or "done"
-- and the view of the state when the action is over (nil when not known). `at_once`: nothing
-- stacked on the apply hook acts after it (see chain.lua).
function M.apply(G, opt, at_once)
  local a = opt.a
  if a == "pass" then
    local V = C.view(G)
    G:log(C.team_name(G:get("turn")) .. " passes")
    return "done", V
  end
  if a == "ship" then
    local V = C.view(G)
    sail(G, V, opt)
    return "done", V
  end
  if a == "revive" then
    local c, d = C.char(G, opt.ch), C.char(G, opt.dead)
    C.place(G, d, c.loc, 0)
    if C.sw(G, "newborn_skips_turn") then C.flag(G, d.id, "newb", 2) end
    G:log(d.label .. " is revived on " .. B.name(c.loc))
    return "done"
  end
  if a == "give" then
    local n = C.char(G, opt.ch)
    C.spend_bottle(G, G:get("turn"))
    require("jackal.native").drink(G, n)
    return "free"
  end
  if a == "rum" then
    free_rum(G, C.char(G, opt.ch))
    return "free"
  end
  if a == "cave" then
    local c = C.char(G, opt.ch)
    C.ph("emerge", G, c, opt.to)
    return "done"
  end
  if a == "move" then
    local V = C.view(G)
    local c = C.vchar(V, opt.ch)
    if opt.rum then
      C.spend_bottle(G, c.team)
      C.flag(G, c.id, "trap", false)
      c.trap = false
      G:log(c.label .. " drinks a bottle of rum")
    end
    if opt.type == "flight" then
      C.spend(G, c.loc)
    end
    local m = C.motion(c.loc, opt.to, opt.type)
    m.step = opt.step
    return "chain", H.start(G, V, c, opt.item or 0, m, at_once)
  end
  error("unknown action " .. tostring(a))
end

return M
