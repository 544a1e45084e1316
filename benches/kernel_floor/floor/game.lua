-- Floor: what the kernel costs per decision when the rules do almost nothing. Each turn is a
-- chance event (two dice, ignored) and then a decision among three options, as in backgammon's
-- turn; the game ends after 90 decisions. `tortuga --rules benches/kernel_floor bench floor`
-- prints the µs per decision that any game pays before its rules do any work: set it beside a
-- game's own figure to see how much of that is kernel and how much is rules.

local THROW = { chance = "dice" }
local OPTIONS = { 1, 2, 3 }
local PROMPTS = { "A to play", "B to play" }
local LENGTH = 90

local function decision(G)
  local seat = G:current()
  return { actor = seat, options = OPTIONS, prompt = PROMPTS[seat] }
end

local function status(G)
  if G:get("played") >= LENGTH then return { over = true, scores = { 1, 0 }, result = "A wins" } end
  if G:get("throwing") then return THROW end
  return decision(G)
end

-- Any option: count it and pass the turn, whose dice fall next.
local function apply(G)
  G:set("throwing", true, "played", G:get("played") + 1)
  G:advance()
  return THROW
end

local function chance(G)
  G:set("throwing", false)
  if G:get("played") >= LENGTH then return status(G) end
  return decision(G)
end

return {
  name = "floor",
  title = "Kernel floor (a benchmark fixture)",
  seats = { min = 2, max = 2, default = 2, names = { "A", "B" } },
  switches = {},
  randomizers = { dice = { kind = "dice", faces = { 1, 2, 3, 4, 5, 6 }, count = 2 } },
  hooks = {
    setup = function(G) G:set("played", 0, "throwing", true) end,
    status = status,
    apply = apply,
    chance = chance,
    render = function(G) return G:get("played") .. " decisions played" end,
  },
}
