//! Simulations start games from a copy of the first game's setup when that setup owes nothing
//! to the seed; those games must be the very games a fresh setup gives.

use crate::common;

use std::rc::Rc;

use tortuga::script::{LoadOptions, Rules};
use tortuga::sim::{Starter, random_playout};

fn same_games_as_fresh_setups(game: &str, seats: u32, seeds: std::ops::Range<u64>) -> bool {
    let rules = Rc::new(Rules::load(&common::rules(), game, &LoadOptions::default()).unwrap());
    let mut shared = Starter::new(rules.clone(), seats);
    for seed in seeds {
        let copied = random_playout(&mut shared, seed, 1_000_000).unwrap();
        let fresh = random_playout(&mut Starter::new(rules.clone(), seats), seed, 1_000_000);
        assert_eq!(copied, fresh.unwrap(), "{game}, seed {seed}");
    }
    shared.copies_setup()
}

#[test]
fn backgammon_games_from_a_copied_setup_are_the_fresh_games() {
    assert!(
        same_games_as_fresh_setups("backgammon", 2, 1..40),
        "backgammon's setup draws nothing: later games copy it"
    );
}

#[test]
fn jackal_games_from_a_starter_are_the_fresh_games() {
    same_games_as_fresh_setups("jackal", 2, 7..9);
}
