-- Backgammon position keys: 64-bit Zobrist hashing of a mover-oriented board, used to list
-- one entry per distinct resulting position (spec §4 rule 4).
--
-- Z[p * 32 + v + 16] is the random word for "point p holds the signed count v", with p in
-- 0..25 (0 = the mover's off tray, 25 = the mover's bar) and v in -15..15. The table is built
-- once at load time from a fixed splitmix64 stream and never changed afterwards.

local Z = {}
local state = 0x2545F4914F6CDD1D
for i = 1, 26 * 32 do
  state = state + 0x9E3779B97F4A7C15
  local z = state
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  Z[i] = z ~ (z >> 31)
end

return Z
