-- Spec §11.1: the opening position, X on roll: distinct resulting positions for each of the
-- 21 rolls (total 447) and the five canonical lists in output order (B03).

local S = require("bg_support")

local COUNTS = {
  ["11"] = 42, ["12"] = 15, ["13"] = 16, ["14"] = 14, ["15"] = 8, ["16"] = 10, ["22"] = 75,
  ["23"] = 17, ["24"] = 18, ["25"] = 8, ["26"] = 14, ["33"] = 73, ["34"] = 17, ["35"] = 9,
  ["36"] = 14, ["44"] = 52, ["45"] = 9, ["46"] = 14, ["55"] = 4, ["56"] = 7, ["66"] = 11,
}

local LISTS = {
  ["21"] = { "13/10", "13/11 6/5", "13/11 8/7", "24/21", "24/22 6/5", "24/22 8/7", "24/23 13/11",
    "24/23 24/22", "24/23 6/4", "24/23 8/6", "6/3", "6/5 6/4", "8/5", "8/7 6/4", "8/7 8/6" },
  ["31"] = { "13/10 6/5", "13/10 8/7", "13/9", "24/20", "24/21 6/5", "24/21 8/7", "24/23 13/10",
    "24/23 24/21", "24/23 6/3", "24/23 8/5", "6/2", "6/5 6/3", "8/4", "8/5 6/5", "8/7 6/3", "8/7 8/5" },
  ["65"] = { "13/2", "13/7 8/3", "13/8 13/7", "24/13", "24/18 13/8", "24/18 8/3", "8/3 8/2" },
  ["55"] = { "13/3 8/3(2)", "13/3(2)", "13/8(2) 13/3", "13/8(4)" },
  ["66"] = { "13/7 8/2(3)", "13/7(2) 8/2(2)", "13/7(3) 8/2", "13/7(4)", "24/18 13/7 8/2(2)",
    "24/18 13/7(2) 8/2", "24/18 13/7(3)", "24/18 8/2(3)", "24/18(2) 13/7 8/2", "24/18(2) 13/7(2)",
    "24/18(2) 8/2(2)" },
}

local total = 0
for a = 1, 6 do
  for b = a, 6 do
    local board = S.board(S.START)
    local fast = S.count(board, b, a)
    local labels = S.labels(board, a, b)
    local want = COUNTS[a .. b]
    assert(fast == want, string.format("roll %d-%d: %d positions, want %d", b, a, fast, want))
    assert(#labels == want, string.format("roll %d-%d: %d labelled moves, want %d", b, a, #labels, want))
    local seen = {}
    for _, l in ipairs(labels) do
      assert(not seen[l], string.format("roll %d-%d: label %q twice", b, a, l))
      seen[l] = true
    end
    total = total + fast
  end
end
assert(total == 447, "total over the 21 rolls: " .. total .. ", want 447")

for roll, want in pairs(LISTS) do
  local d1, d2 = tonumber(roll:sub(1, 1)), tonumber(roll:sub(2, 2))
  S.same(S.labels(S.board(S.START), d1, d2), want, "opening " .. roll)
end
