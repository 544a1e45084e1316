-- Golitsyn's «Пираты»: the game table of docs/lua-api.md for shared/specs/pirates.md — three
-- Spanish galleons, one secretly carrying the gold, sail from Vera Cruz to Cadiz by the wind
-- of a spinner, and six pirate brigantines hunt them.
--
-- Modules: map (the map file format §2), board (the board and ships in the kernel §1–§2),
-- players (sides and turn order §1), weather (the spinner §5), sail (sailing, rowing, drift,
-- currents §7–§10), combat (gunfire, sinking, capture §11–§13), golden (the secret and the
-- wins §4, §13–§14), turns (a turn and its decisions §6, §17), position (the text format
-- §18), notation (typed moves), render (the coloured map), picture (the map as shapes for
-- `show --svg`), check (invariants), eval (the greedy bot's view). House rules (§15) are in house/.

local B = require("pirates.board")
local M = require("pirates.map")
local P = require("pirates.players")
local T = require("pirates.turns")
local W = require("pirates.weather")
local X = require("pirates.position")
local N = require("pirates.notation")
local D = require("pirates.render")
local PIC = require("pirates.picture")
local K = require("pirates.check")
local E = require("pirates.eval")
local Fe = require("pirates.features")
local SWITCHES = require("pirates.switches")

-- A new game (§3): the map of switch `map`, all galleons in Vera Cruz, Bn on base n.
local function setup(G)
  local name = G:switch("map")
  local map, fail = M.load(name)
  M.check_full(map, fail)
  X.init(G, map, name)
  local n = G:seats()
  local s, p = B.SPLIT[n][1], B.SPLIT[n][2]
  local at = {}
  for _, port in ipairs(map.ports) do at[port.ch] = port.row * map.w + port.col end
  for k = 1, 3 do B.add(G, "G" .. k, "galleon", (k - 1) % s + 1, "spain", at.V) end
  for k = 1, 6 do B.add(G, "B" .. k, "brig", s + (k - 1) % p + 1, "pirate", at[tostring(k)]) end
  G:set("phase", "golden")
  P.start(G, 1, 1)
end

local hooks = {
  setup = setup,
  status = T.status,
  apply = T.apply,
  chance = T.chance,
  label = T.label,
  parse = N.parse,
  render = D.render,
  legend = D.legend,
  picture = PIC.draw,
  export = X.export,
  import = X.import,
  invariant = K.invariant,
  eval = E.eval,
  -- features(G, seat) -> numbers: the learned evaluation's inputs (features.lua).
  features = Fe.features,
  house_rules = function(G) return {} end,
}
for name, f in pairs(T.hooks) do hooks[name] = f end

return {
  name = "pirates",
  title = "Pirates (Пираты, V. M. Golitsyn)",
  -- Players are named by side (§1): S1…Ss then P1…Pp, split as B.SPLIT says.
  seats = { min = 2, max = 9, default = 2, names = function(n)
    local names = {}
    for i = 1, n do names[i] = i <= B.SPLIT[n][1] and "S" .. i or "P" .. (i - B.SPLIT[n][1]) end
    return names
  end },
  variant = "author",
  switches = SWITCHES,
  -- what the counters `sim` reports count (G:stat)
  counters = {
    shipwrecks = "ships wrecked",
    golden_to_cadiz = "games the golden galleon reached Cadiz",
    golden_wrecked = "games the golden galleon was wrecked",
  },
  randomizers = {
    spin = W.spin,
    hdir = W.HDIR,
    golden = { kind = "spinner", sectors = { "G1", "G2", "G3" }, secret = true },
  },
  hooks = hooks,
  bench = { max_rounds = 60 },
  -- How `tortuga train` learns Pirates unless told otherwise: long games need a long trace and a
  -- small step, and hand-made inputs a linear part (docs/bots.md).
  training = { alpha = 0.01, lambda = 0.97, linear = true, max_steps = 3000 },
}
