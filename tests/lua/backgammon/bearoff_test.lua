-- Spec §11.2 (B20): the OpenSpiel bear-off positions, in §7.1 JSON, give exactly the listed
-- canonical moves.

local S = require("bg_support")
local position = require("backgammon.position")

local CASES = {
  { "BearOffFurthestFirst", 5, 5,
    '{"board":[2,1,0,0,0,-2,0,0,0,-1,0,0,0,0,-1,-2,0,0,0,0,-1,-6,-2,0],"bar":[0,0],"off":[12,0],"on_roll":"o"}',
    { "2/off 1/off(2)" } },
  { "NormalBearOffSituation", 6, 1,
    '{"board":[9,1,2,2,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-7],"bar":[0,0],"off":[0,8]}',
    { "6/off", "6/off 1/off", "6/off 2/1", "6/off 3/2", "6/off 4/3" } },
  { "NormalBearOffSituation2", 4, 4,
    '{"board":[-1,9,2,3,0,1,-1,0,0,0,0,0,-1,0,0,0,0,0,0,0,-2,0,-2,-8],"bar":[0,0],"off":[0,0]}',
    { "6/2 4/off(3)" } },
  { "BearOffOutsideHome", 6, 1,
    '{"board":[-1,9,2,2,0,1,1,0,0,0,0,0,-1,0,0,0,0,0,0,0,-3,0,-2,-8],"bar":[0,0],"off":[0,0]}',
    { "7/1* 2/1", "7/1* 3/2", "7/1* 4/3", "7/1* 6/5", "7/1*/off", "7/off" } },
  { "DoublesBearOffOutsideHome", 4, 4,
    '{"board":[2,-2,3,3,2,3,0,2,0,0,0,-1,-1,-1,0,0,-1,0,-2,-1,-2,0,-2,-2],"bar":[0,0],"off":[0,0]}',
    { "8/4 8/off 5/1", "8/4(2) 5/1(2)", "8/off(2)" } },
}

for _, case in ipairs(CASES) do
  local name, d1, d2, text, want = case[1], case[2], case[3], case[4], case[5]
  local b = position.mover_board(position.decode(text))
  S.same(S.labels(b, d1, d2), want, name)
  assert(S.count(b, d1, d2) == #want, name .. ": fast generator count " .. S.count(b, d1, d2))
end
