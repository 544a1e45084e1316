//! Random four-player Jackal games (a thousand at the full soak size) finish: no script error, no limit hit, no stall
//! (issue requirement; the invariant checks themselves run in jackal_invariants.rs). The games
//! are split over two threads, each with its own rules state.

use crate::common;

use std::rc::Rc;

use tortuga::script::{LoadOptions, Rules};
use tortuga::sim::{Starter, random_playout};

/// Games at the full soak size.
const FULL: u64 = 1000;
const THREADS: u64 = 2;

#[test]
fn random_four_player_games_finish() {
    // Ten at least: the length check below is on the average game.
    let games = common::soak(FULL).max(10);
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            std::thread::spawn(move || {
                let rules = Rc::new(
                    Rules::load(&common::rules(), "jackal", &LoadOptions::default())
                        .expect("jackal loads"),
                );
                let mut starter = Starter::new(rules, 4);
                let mut decisions = 0;
                for seed in (t * games / THREADS)..((t + 1) * games / THREADS) {
                    let p = random_playout(&mut starter, 50_000 + seed, 60_000)
                        .unwrap_or_else(|e| panic!("seed {}: {e:#}", 50_000 + seed));
                    assert_eq!(p.scores.len(), 4, "seed {}: {p:?}", 50_000 + seed);
                    decisions += p.decisions;
                }
                decisions
            })
        })
        .collect();
    let decisions: u64 = workers
        .into_iter()
        .map(|w| w.join().expect("a worker"))
        .sum();
    println!("{games} games, {decisions} decisions");
    assert!(
        decisions > games * 100,
        "games this short cannot have been played out"
    );
}
