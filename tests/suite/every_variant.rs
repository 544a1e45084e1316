//! Every game and every variant file shipped in `rules/` loads and plays a whole random game:
//! a house rule that stacks on a hook the game no longer has, or a variant naming a switch no
//! rule reads, fails here rather than in a user's study.

use crate::common;

use std::rc::Rc;

use tortuga::script::ruleset::rules::{games, variants};
use tortuga::script::{LoadOptions, Rules};
use tortuga::sim::{Starter, random_playout};

#[test]
fn every_shipped_variant_loads_and_plays_a_game_to_its_end() {
    let root = common::rules();
    let mut played = 0;
    for game in games(&root) {
        let mut names = vec![None];
        names.extend(variants(&root, &game).into_iter().map(Some));
        for variant in names {
            let which = format!("{game} {}", variant.as_deref().unwrap_or("default"));
            let opts = LoadOptions {
                variant: variant.clone(),
                ..LoadOptions::default()
            };
            let rules =
                Rules::load(&root, &game, &opts).unwrap_or_else(|e| panic!("{which} loads: {e:#}"));
            let seats = rules.seats.default;
            let mut starter = Starter::new(Rc::new(rules), seats);
            let playout = random_playout(&mut starter, 7, 100_000)
                .unwrap_or_else(|e| panic!("{which} plays: {e:#}"));
            assert!(playout.decisions > 0, "{which}: a game with no decision");
            played += 1;
        }
    }
    assert!(played >= 25, "the four games and their variants: {played}");
}
