-- {Title}: the game table of docs/lua-api.md. Write its spec (shared/specs/{game}.md) and name
-- its sections in these headers. A race to `goal`: the player to move throws the die (or
-- passes) and moves that far along the track; the first to reach the goal wins. `advance`
-- is the game's own hook (documented in hooks.toml), for house rules to stack on.

local function goal(G) return G:switch("goal") end

local function status(G)
  local winner = G:get("winner")
  if winner then
    local scores = {}
    for s = 1, G:seats() do scores[s] = s == winner and 1 or 0 end
    return { over = true, scores = scores, result = G:seat_name(winner) .. " wins" }
  end
  if G:get("throwing") then return { chance = "die" } end
  return { actor = G:current(), options = { "throw", "pass" }, prompt = G:seat_name(G:current()) .. " to play" }
end

local function apply(G, option)
  if option == "throw" then
    G:set("throwing", true)
  else
    G:advance()
  end
  return status(G)
end

local function chance(G, _, outcome)
  local s = G:current()
  local at = math.min(goal(G), G:player_get(s, "at") + hook.advance(G, s, outcome[1]))
  G:player_set(s, "at", at)
  G:set("throwing", nil)
  G:log(G:seat_name(s) .. " throws " .. outcome[1] .. " and reaches " .. at)
  if at == goal(G) then G:set("winner", s) else G:advance() end
  return status(G)
end

local function render(G)
  local lines = {}
  for s = 1, G:seats() do
    local mark = s == G:current() and " *" or ""
    lines[s] = G:seat_name(s) .. " " .. G:player_get(s, "at") .. "/" .. goal(G) .. mark
  end
  return table.concat(lines, "\n")
end

-- The position: each seat's square, then the seat to move ("3 5 / 1").
local function export(G)
  local at = {}
  for s = 1, G:seats() do at[s] = G:player_get(s, "at") end
  return table.concat(at, " ") .. " / " .. G:current()
end

local function import(G, text)
  local squares, current = text:match("^([%d ]+)/%s*(%d+)%s*$")
  if not squares then error("a position is the squares, '/', then the seat to move: " .. text, 0) end
  local s = 0
  for n in squares:gmatch("%d+") do
    s = s + 1
    if s > G:seats() or tonumber(n) > goal(G) then error("position: square " .. n .. " of seat " .. s .. " is off the track", 0) end
    G:player_set(s, "at", tonumber(n))
  end
  if s ~= G:seats() then error("position: " .. s .. " squares for " .. G:seats() .. " seats", 0) end
  G:set_current(tonumber(current))
end

return {
  name = "{game}",
  title = "{Title}",
  seats = { min = 2, max = 4, default = 2, names = { "A", "B", "C", "D" } },
  variant = "standard",
  switches = {
    goal = { default = 20, min = 1, help = "the square that wins" },
  },
  randomizers = {
    die = { kind = "dice", faces = { 1, 2, 3, 4, 5, 6 } },
  },
  hooks = {
    setup = function(G) for s = 1, G:seats() do G:player_set(s, "at", 0) end end,
    status = status,
    apply = apply,
    chance = chance,
    render = render,
    export = export,
    import = import,
    eval = function(G, seat) return G:player_get(seat, "at") end,
    invariant = function(G)
      for s = 1, G:seats() do
        local at = G:player_get(s, "at")
        if at < 0 or at > goal(G) then return G:seat_name(s) .. " is off the track at " .. at end
      end
    end,
    advance = function(G, seat, thrown) return thrown end,
  },
}
