-- Backgammon machine interface (spec §10): `moves --position <p> [--dice <d>] --json` lists
-- one entry per distinct resulting position, sorted by canonical move in byte order, each with
-- the position after the move in the input's orientation (§7.1, or the X-oriented oracle form
-- with --absolute).

local position = require("backgammon.position")
local movegen = require("backgammon.movegen")
local notation = require("backgammon.notation")

local M = {}

local function parse_dice(text)
  if type(text) ~= "string" or not text:match("^[1-6][1-6]$") then
    error(string.format("dice: expected two digits 1-6 such as 31 or 66, got %s",
      type(text) == "string" and string.format("%q", text) or tostring(text)), 0)
  end
  return tonumber(text:sub(1, 1)), tonumber(text:sub(2, 2))
end

-- JSON of the position after a move: sides me/opp in the input's orientation.
local function position_json(pos, me, opp, absolute)
  if not absolute then return position.board_json(me, opp) end
  local next_on_roll = pos.on_roll == "x" and "o" or "x"
  if pos.on_roll == "x" then return position.absolute_json(me, opp, next_on_roll) end
  return position.absolute_json(opp, me, next_on_roll)
end

local function entry_json(label, body)
  return string.format('{"move":"%s","position":%s}', label, body)
end

-- args = { position = text, dice = "31" or nil, absolute = bool }; returns one JSON line.
-- opts: checkers (per side, default 15), max_per_point (default 0 = no limit), search (a
-- function(b, d1, d2) giving every legal step set as movegen.search does; default: that).
function M.moves(args, opts)
  if type(args) ~= "table" then error("moves: expected { position = …, dice = … }", 0) end
  opts = opts or {}
  local n = opts.checkers or 15
  local pos = position.decode(args.position, { absolute = args.absolute, checkers = n })
  local d1, d2
  if args.dice ~= nil then
    d1, d2 = parse_dice(args.dice)
  elseif pos.dice then
    d1, d2 = pos.dice[1], pos.dice[2]
  else
    error("dice: none given (use --dice, e.g. --dice 31, or a \"dice\" field in the JSON)", 0)
  end
  if pos.me[0] == n or pos.opp[0] == n then return "[]" end
  local b = position.mover_board(pos)
  local c = opts.search and opts.search(b, d1, d2)
  local list = notation.entries(b, d1, d2, opts.max_per_point or 0, c)
  if #list == 0 then
    return "[" .. entry_json("", position_json(pos, pos.me, pos.opp, args.absolute)) .. "]"
  end
  table.sort(list, function(a, c) return a.label < c.label end)
  local out = {}
  for i, e in ipairs(list) do
    local t = movegen.copy(b)
    local hits = movegen.apply(t, e.codes, e.len)
    local me, opp = position.sides_after(pos, t, hits)
    out[i] = entry_json(e.label, position_json(pos, me, opp, args.absolute))
  end
  return "[" .. table.concat(out, ",") .. "]"
end

return M
