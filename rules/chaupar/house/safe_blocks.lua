-- House rule "safe blocks" (Parcheesi's blockade): a block of two or more pieces of one colour
-- cannot be captured wherever it stands, so no opposing unit may land on it (spec §10 capture
-- by rank: a pair no longer takes a pair; §12: a block is as safe as a piece on a castle).
-- Passing blocks is unchanged (§10 block_passing). It holds where pieces form blocks
-- (block_model=stack). Stacks on `safe`: a lone piece is as safe as the rules below say.
return {
  name = "safe_blocks",
  help = "a block of two or more cannot be captured: no opponent may land on it",
  hooks = {
    safe = function(base, sw, o, q, k)
      return (k >= 2 and sw.block_model == "stack") or base(sw, o, q, k)
    end,
  },
}
