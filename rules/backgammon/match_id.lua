-- GNU Backgammon Match ID (spec §7.2; the gnubg manual, "A technical description of the Match
-- ID"): a 66-bit key of the cube, its owner, the player on roll, the Crawford flag, the game
-- state, the player to decide, a double offered, a resignation offered, the dice, the match
-- length and both scores, and a 67th bit gnubg sets when the Jacoby rule is off (its default
-- money game has it on), as 12 Base64 characters. Fields are numbers, least significant bit
-- first; players are gnubg's 0 (O) and 1 (X); a cube owner 3 is the centre.

local base64 = require("backgammon.base64")

local M = {}

-- The key's fields in order, with their widths in bits.
local FIELDS = {
  { "cube_log", 4 }, { "cube_owner", 2 }, { "on_roll", 1 }, { "crawford", 1 }, { "state", 3 },
  { "turn", 1 }, { "doubled", 1 }, { "resigned", 2 }, { "die1", 3 }, { "die2", 3 },
  { "length", 15 }, { "score0", 15 }, { "score1", 15 }, { "no_jacoby", 1 },
}

-- Game states (bits 9-11).
M.NONE, M.PLAYING, M.OVER, M.RESIGNED, M.DROPPED = 0, 1, 2, 3, 4

-- The Match ID of `fields` (every field of FIELDS, an integer that fits its width).
function M.encode(fields)
  local bytes = { 0, 0, 0, 0, 0, 0, 0, 0, 0 }
  local k = 0
  for _, f in ipairs(FIELDS) do
    local name, width = f[1], f[2]
    local v = fields[name]
    if v < 0 or v >= 1 << width then
      error(string.format("Match ID: %s %d does not fit in %d bits", name, v, width), 0)
    end
    for b = 0, width - 1 do
      if (v >> b) & 1 == 1 then bytes[(k >> 3) + 1] = bytes[(k >> 3) + 1] | (1 << (k & 7)) end
      k = k + 1
    end
  end
  return base64.encode(bytes)
end

-- The fields of a Match ID (the key's last five bits, outside the 67, are ignored).
function M.decode(id)
  local bytes = base64.decode(id, 12, "Match ID")
  local fields, k = {}, 0
  for _, f in ipairs(FIELDS) do
    local v = 0
    for b = 0, f[2] - 1 do
      v = v | (((bytes[(k >> 3) + 1] >> (k & 7)) & 1) << b)
      k = k + 1
    end
    fields[f[1]] = v
  end
  return fields
end

return M
