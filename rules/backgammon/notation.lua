-- Backgammon move notation (spec §9): the canonical output form of a move (rules 1-6) and
-- the forgiving input parser (explicit steps, chains, merged paths, "(k)", optional "*",
-- bar/off in any case, 25/0) with its "same move", "ambiguous" and "illegal" outcomes.
--
-- Moves are given as arrays of step codes (see movegen.lua), on mover-oriented boards.

local movegen = require("backgammon.movegen")

local N = {}

local function point_name(p)
  if p == 25 then return "bar" elseif p == 0 then return "off" end
  return tostring(p)
end

-- True when label a is preferred to b (§9 rule 6: shortest, then smallest in byte order).
function N.better(a, b)
  if b == nil then return true end
  if #a ~= #b then return #a < #b end
  return a < b
end

-- Steps sorted in descending order (§9 rule 1): arrays f, t and the set of points hit.
local function sorted_steps(codes, n)
  local f, t, hit = {}, {}, {}
  for i = 1, n do
    local c = codes[i]
    local fi, ti = c >> 6, (c >> 1) & 31
    if c & 1 == 1 then hit[ti] = true end
    local j = i - 1
    while j >= 1 and (f[j] < fi or (f[j] == fi and t[j] < ti)) do
      f[j + 1], t[j + 1] = f[j], t[j]
      j = j - 1
    end
    f[j + 1], t[j + 1] = fi, ti
  end
  return f, t, hit
end

-- §9 rule 2: chain the sorted steps into checker paths (arrays of points).
local function chain_paths(f, t, n)
  local used, paths = {}, {}
  for i = 1, n do
    if not used[i] then
      used[i] = true
      local path, cur = { f[i], t[i] }, t[i]
      while cur ~= 0 do
        local nxt
        for j = 1, n do
          if not used[j] and f[j] == cur then nxt = j break end
        end
        if not nxt then break end
        used[nxt], cur = true, t[nxt]
        path[#path + 1] = cur
      end
      paths[#paths + 1] = path
    end
  end
  return paths
end

-- §9 rule 3: paths by start, then end, both descending (stable).
local function order_paths(paths)
  for i = 2, #paths do
    local p, j = paths[i], i - 1
    while j >= 1 and (paths[j][1] < p[1] or (paths[j][1] == p[1] and paths[j][#paths[j]] < p[#p])) do
      paths[j + 1] = paths[j]
      j = j - 1
    end
    paths[j + 1] = p
  end
end

-- §9 rule 4: one path as text; `marked` collects the hit points already written.
local function path_text(path, hit, marked)
  local parts = { point_name(path[1]) }
  for k = 2, #path do
    local p = path[k]
    if hit[p] and not marked[p] then
      marked[p] = true
      parts[#parts + 1] = point_name(p) .. "*"
    elseif k == #path then
      parts[#parts + 1] = point_name(p)
    end
  end
  return table.concat(parts, "/")
end

-- The notation of one step set (§9 rules 1-5). The empty string for no step.
function N.format(codes, n)
  n = n or #codes
  local f, t, hit = sorted_steps(codes, n)
  local paths = chain_paths(f, t, n)
  order_paths(paths)
  local marked, out = {}, {}
  local prev, run = nil, 0
  for i = 1, #paths + 1 do
    local s = paths[i] and path_text(paths[i], hit, marked)
    if s ~= prev then
      if prev then out[#out + 1] = run > 1 and (prev .. "(" .. run .. ")") or prev end
      prev, run = s, 1
    else
      run = run + 1
    end
  end
  return table.concat(out, " ")
end

-- One entry per distinct resulting position: { key, label, codes, len }, in search order,
-- and the same entries by key. The label is the canonical notation (§9 rule 6 over every
-- step set reaching the position). `c` is an optional search(b, d1, d2, cap, false) result.
function N.entries(b, d1, d2, cap, c)
  c = c or movegen.search(b, d1, d2, cap, false)
  local by_key, list = {}, {}
  for i = 1, c.cnt do
    local codes, len = movegen.unpack(c.packs[i])
    local key, label = c.keys[i], N.format(codes, len)
    local e = by_key[key]
    if not e then
      e = { key = key, label = label, codes = codes, len = len }
      by_key[key] = e
      list[#list + 1] = e
    elseif N.better(label, e.label) then
      e.label = label
    end
  end
  return list, by_key
end

-- Key of the position that step codes[1..n] reach from `b`.
function N.key_after(b, codes, n)
  local t = movegen.copy(b)
  movegen.apply(t, codes, n)
  return movegen.key(t)
end

-- The canonical notation of the move `codes` (a legal move from `b` with these dice). `c`:
-- an optional search result with every step set (as in N.entries).
function N.label(b, d1, d2, cap, codes, c)
  local target = N.key_after(b, codes, #codes)
  c = c or movegen.search(b, d1, d2, cap, false)
  local best
  for i = 1, c.cnt do
    if c.keys[i] == target then
      local s = N.format(movegen.unpack(c.packs[i]))
      if N.better(s, best) then best = s end
    end
  end
  return best or N.format(codes, #codes)
end

-- Input parsing ----------------------------------------------------------------------------

local function parse_point(word, token)
  if word == "bar" then return 25 elseif word == "off" then return 0 end
  local v = word:match("^%d+$") and tonumber(word)
  if not v or v > 25 then
    error(string.format("bad point %q in %q (points are 1-24, bar or 25, off or 0)", word, token), 0)
  end
  return v
end

-- The points of one path token with their hit marks: pts, stars. A dash reads as a slash
-- (13-9 is 13/9), as many players type it.
local function parse_path(body, token)
  local pts, stars = {}, {}
  for part in (body:gsub("%-", "/") .. "/"):gmatch("([^/]*)/") do
    local word, star = part:match("^(%w+)(%*?)$")
    if not word then error(string.format("cannot read %q in %q", part, token), 0) end
    pts[#pts + 1], stars[#pts + 1] = parse_point(word, token), star == "*"
  end
  if #pts < 2 then error(string.format("%q is not a move: write from/to, e.g. 13/9", token), 0) end
  return pts, stars
end

local function check_path(pts, stars, token)
  if stars[1] then error(string.format("%q: a checker cannot hit where it starts", token), 0) end
  if pts[1] == 0 then error(string.format("%q: a move cannot start off the board", token), 0) end
  for k = 2, #pts do
    local p = pts[k]
    if p == 25 then error(string.format("%q: the bar can only be a starting point", token), 0) end
    if p == 0 and k < #pts then error(string.format("%q: off must be the last point", token), 0) end
    if p >= pts[k - 1] then
      error(string.format("%q: checkers move from higher to lower points", token), 0)
    end
  end
end

-- Parses a typed move into segments { from, to, hit }: each segment is covered by one or
-- more steps of one checker; hit = "*" was written at its end.
function N.parse(text)
  local segs = {}
  for token in text:lower():gmatch("%S+") do
    local body, k = token:match("^(.-)%((%d+)%)$")
    k = tonumber(k) or 1
    body = body or token
    if k < 1 or k > 4 then error(string.format("%q: a count (k) must be 1 to 4", token), 0) end
    local pts, stars = parse_path(body, token)
    check_path(pts, stars, token)
    for _ = 1, k do
      for i = 2, #pts do
        segs[#segs + 1] = { from = pts[i - 1], to = pts[i], hit = stars[i] }
      end
    end
  end
  if #segs == 0 then error("empty move: type the checker moves, e.g. 13/9 6/5", 0) end
  return segs
end

local function cover(segs, si, pos, f, t, n, used)
  local seg = segs[si]
  if not seg then return used == (1 << n) - 1 end
  if pos == seg.to then
    local nxt = segs[si + 1]
    return cover(segs, si + 1, nxt and nxt.from, f, t, n, used)
  end
  for j = 1, n do
    local bit = 1 << (j - 1)
    if used & bit == 0 and f[j] == pos and t[j] >= seg.to then
      if cover(segs, si, t[j], f, t, n, used | bit) then return true end
    end
  end
  return false
end

-- True when the segments describe the step set codes[1..n]: every step belongs to exactly
-- one segment's chain, and every "*" point is hit.
function N.describes(segs, codes, n)
  if #segs > n then return false end
  local f, t, hit = {}, {}, {}
  for i = 1, n do
    local c = codes[i]
    f[i], t[i] = c >> 6, (c >> 1) & 31
    if c & 1 == 1 then hit[t[i]] = true end
  end
  for _, s in ipairs(segs) do
    if s.hit and not hit[s.to] then return false end
  end
  return cover(segs, 1, segs[1].from, f, t, n, 0)
end

local function normalize(text)
  return (text:lower():gsub("^%s+", ""):gsub("%s+$", ""):gsub("%s+", " "))
end

local function dice_text(d1, d2)
  if d2 > d1 then d1, d2 = d2, d1 end
  return d1 .. "-" .. d2
end

-- The distances the dice d1, d2 can cover with one checker: each die, and their sums in
-- the order they can be played (a double up to four times).
local function reaches(d1, d2)
  if d1 == d2 then return { [d1] = true, [2 * d1] = true, [3 * d1] = true, [4 * d1] = true } end
  return { [d1] = true, [d2] = true, [d1 + d2] = true }
end

-- Why segments `segs` (from N.parse) are no legal move on the mover-oriented board b with
-- d1-d2, in the terms of the rules a player knows: a point without his checker, a checker
-- left on the bar, a distance no die makes, more pips than the dice give, a landing point
-- the opponent holds, bearing off with checkers outside. nil when none of these applies.
local function why_illegal(b, d1, d2, segs)
  local dice, reach = dice_text(d1, d2), reaches(d1, d2)
  local total = d1 == d2 and 4 * d1 or d1 + d2
  local arrived, pips, from_bar = {}, 0, 0
  for _, s in ipairs(segs) do
    local seg = point_name(s.from) .. "/" .. point_name(s.to)
    if s.from == 25 then from_bar = from_bar + 1 end
    if not arrived[s.from] and b[s.from] <= 0 then
      return s.from == 25 and "you have no checker on the bar"
        or string.format("%s: you have no checker on %d", seg, s.from)
    end
    local d = s.from - s.to
    if s.to > 0 and not reach[d] then
      return string.format("%s is %d pips: no die or dice of %s make %d", seg, d, dice, d)
    end
    if s.to > 0 and b[s.to] <= -2 then
      return string.format("%s: your opponent holds %d (%d checkers)", seg, s.to, -b[s.to])
    end
    pips = pips + (s.to > 0 and d or 0)
    arrived[s.to] = true
  end
  if b[25] > from_bar then
    for _, s in ipairs(segs) do
      if s.from ~= 25 then
        return string.format("a checker on the bar must enter before %d/%s moves", s.from, point_name(s.to))
      end
    end
  end
  if pips > total then
    return string.format("it moves %d pips and %s gives %d", pips, dice, total)
  end
  for _, s in ipairs(segs) do
    if s.to == 0 then
      local outside = b[25]
      for p = 7, 24 do if b[p] > 0 then outside = outside + b[p] end end
      if outside > 0 then
        return string.format("you bear off only when all your checkers are home (%d are not)", outside)
      end
    end
  end
  return nil
end

-- The move a typed text denotes (§9 input): returns its entry { key, label, codes, len }.
-- Errors: no legal move, illegal, ambiguous (naming the candidates). `c` as in N.label.
function N.resolve(b, d1, d2, cap, text, c)
  local segs = N.parse(text)
  c = c or movegen.search(b, d1, d2, cap, false)
  if c.cnt == 0 then error("no legal move with " .. dice_text(d1, d2) .. ": the turn passes", 0) end
  local _, by_key = N.entries(b, d1, d2, cap, c)
  local found, list = {}, {}
  for i = 1, c.cnt do
    local codes, len = movegen.unpack(c.packs[i])
    local key = c.keys[i]
    if not found[key] and N.describes(segs, codes, len) then
      found[key] = true
      list[#list + 1] = by_key[key]
    end
  end
  if #list == 1 then return list[1] end
  if #list == 0 then
    local why = why_illegal(b, d1, d2, segs)
      or string.format("every legal move here plays %d %s", c.best, c.best == 1 and "die" or "dice")
    error(string.format("illegal move %q with %s: %s", text, dice_text(d1, d2), why), 0)
  end
  local typed, names = normalize(text), {}
  for _, e in ipairs(list) do
    if e.label == typed then return e end
    names[#names + 1] = e.label
  end
  table.sort(names)
  error(string.format("ambiguous move %q with %s: it can mean %s; add \"*\" or an intermediate point",
    text, dice_text(d1, d2), table.concat(names, ", ")), 0)
end

return N
