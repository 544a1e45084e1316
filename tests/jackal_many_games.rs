//! A thousand random four-player Jackal games finish: no script error, no limit hit, no stall
//! (issue requirement; the invariant checks themselves run in jackal_invariants.rs). The games
//! are split over two threads, each with its own rules state.

mod common;

use std::rc::Rc;

use tortuga::script::{LoadOptions, Rules};
use tortuga::sim::{Starter, random_playout};

const GAMES: u64 = 1000;
const THREADS: u64 = 2;

#[test]
fn a_thousand_four_player_games_finish() {
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            std::thread::spawn(move || {
                let rules = Rc::new(
                    Rules::load(&common::rules(), "jackal", &LoadOptions::default())
                        .expect("jackal loads"),
                );
                let mut starter = Starter::new(rules, 4);
                let mut decisions = 0;
                for seed in (t * GAMES / THREADS)..((t + 1) * GAMES / THREADS) {
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
    println!("{GAMES} games, {decisions} decisions");
    assert!(
        decisions > GAMES * 100,
        "games this short cannot have been played out"
    );
}
