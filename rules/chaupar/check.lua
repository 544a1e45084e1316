-- Invariants for fuzzing (issue 13): 16 pieces, four a colour, each waiting, home or on a
-- square of its own colour's route at the index the board and the kernel record; no square
-- holding opposing pieces the rules forbid together.

local B = require("chaupar.board")
local R = require("chaupar.rules")
local P = require("chaupar.pieces")
local M = require("chaupar.moves")

local K = {}

function K.problems(G)
  local out = {}
  local sw = R.read(G)
  local dir = sw.direction
  local pieces = G:pieces()
  if #pieces ~= 16 then out[#out + 1] = #pieces .. " pieces, want 16" end
  local at = P.board(G)
  for p = 1, 16 do
    local c = (p - 1) // 4 + 1
    if G:kind(p) ~= B.COLOURS[c] then out[#out + 1] = "piece " .. p .. " is not " .. B.COLOURS[c] end
    local i, loc = at[p], G:where(p)
    if P.recorded(G, p, c, dir) ~= i then out[#out + 1] = "piece " .. p .. ": the board and the kernel's route position disagree" end
    if i == 0 then
      if loc ~= B.WAIT[c] then out[#out + 1] = "piece " .. p .. " waits outside the Charkoni" end
    elseif i == B.HOME then
      if loc ~= B.HOME_ZONE[c] then out[#out + 1] = "piece " .. p .. " is home but not in the Charkoni" end
    elseif B.ROUTE[dir][c][i] ~= loc then
      out[#out + 1] = "piece " .. p .. " at index " .. tostring(i) .. " is not on its route's square"
    end
  end
  if sw.block_model ~= "immune_pairs" then
    local V = M.view(G, sw)
    for q = 1, B.SQUARES do
      local teams = {}
      for _, p in ipairs(G:at(q)) do teams[B.TEAM[(p - 1) // 4 + 1]] = true end
      if teams[1] and teams[2] and not M.shared(V, q) then
        out[#out + 1] = B.NAME[q] .. " holds pieces of both teams"
      end
    end
  end
  return out
end

function K.check(G) return table.concat(K.problems(G), "\n") end

return K
