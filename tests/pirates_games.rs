//! Random Pirates games: the invariants after every step (never two ships on one sea cell,
//! no ship on land, damage below sinking, the golden secret never in a pirate's view before
//! the reveal), and a thousand random games of each shipped variant finishing without a script
//! error, a limit hit or a stall.

mod common;

use std::rc::Rc;

use tortuga::kernel::rng::Stream;
use tortuga::script::{LoadOptions, Rules};
use tortuga::session::{Game, Status};
use tortuga::sim::{Starter, random_playout};

const MAX_STEPS: u64 = 50_000;

/// A variant, switch values and a player count.
type Case = (&'static str, &'static [(&'static str, &'static str)], u32);

fn rules(variant: &str, sets: &[(&str, &str)]) -> Rc<Rules> {
    let overrides = sets
        .iter()
        .map(|(k, v)| tortuga::script::variant::parse_assignment(&format!("{k}={v}")).unwrap())
        .collect();
    let opts = LoadOptions {
        variant: Some(variant.to_string()),
        overrides,
        ..LoadOptions::default()
    };
    Rc::new(Rules::load(&common::rules(), "pirates", &opts).expect("pirates loads"))
}

fn play(rules: &Rc<Rules>, seats: u32, seed: u64) {
    let mut game = Game::new(rules.clone(), seats, seed).expect("setup");
    let mut bot = Stream::new(seed, "bots");
    for steps in 0..MAX_STEPS {
        let problems = game.text_hook("invariant", ()).expect("invariant");
        assert!(problems.is_empty(), "seed {seed} step {steps}: {problems}");
        match game.status().expect("status").clone() {
            Status::Over { .. } => return,
            Status::Chance(..) => {
                game.resolve_chance(None)
                    .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e:#}"));
            }
            Status::Decision { count, .. } => {
                let i = bot.below(count as u64) as usize;
                game.apply(i)
                    .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e:#}"));
            }
        }
    }
    panic!("seed {seed}: no end after {MAX_STEPS} steps");
}

#[test]
fn random_games_keep_the_invariants() {
    let cases: &[Case] = &[
        ("author", &[("max_rounds", "25")], 2),
        ("printed", &[("max_rounds", "25")], 3),
        (
            "author",
            &[
                ("max_rounds", "15"),
                ("spin_scope", "per_ship"),
                ("spinner", "simple"),
            ],
            5,
        ),
        (
            "author",
            &[
                ("max_rounds", "15"),
                ("hurricane_direction", "opponent_choice"),
                ("turn_order", "alternate"),
            ],
            4,
        ),
        (
            "author",
            &[
                ("max_rounds", "15"),
                ("trophy_mode", "transfer"),
                ("w_dir", "25"),
                ("w_hurricane", "15"),
            ],
            9,
        ),
        (
            "printed",
            &[
                ("max_rounds", "15"),
                ("current_chain", "on"),
                ("current_timing", "start_of_turn"),
                ("golden_choice", "random"),
            ],
            6,
        ),
    ];
    for (k, (variant, sets, seats)) in cases.iter().enumerate() {
        let r = rules(variant, sets);
        for seed in 0..3 {
            play(&r, *seats, 100 * k as u64 + seed);
        }
    }
}

/// A thousand random games of a shipped variant, 30 rounds at most, each finishing with a
/// result (no script error, limit or stall on the way).
fn a_thousand_games_finish(variant: &str) {
    let mut starter = Starter::new(rules(variant, &[("max_rounds", "30")]), 2);
    let mut decisions = 0;
    for seed in 0..1000 {
        let p = random_playout(&mut starter, seed, MAX_STEPS)
            .unwrap_or_else(|e| panic!("{variant} seed {seed}: {e:#}"));
        assert_eq!(p.scores.iter().sum::<f64>(), 1.0, "{variant} seed {seed}");
        decisions += p.decisions;
    }
    assert!(
        decisions > 50_000,
        "{variant}: games this short cannot have been played out"
    );
}

#[test]
fn the_shipped_variants_are_the_three_played_below() {
    let mut shipped = tortuga::script::rules::variants(&common::rules(), "pirates");
    shipped.sort();
    assert_eq!(shipped, ["author", "author_without_respin", "printed"]);
}

#[test]
fn a_thousand_author_games_finish() {
    a_thousand_games_finish("author");
}

#[test]
fn a_thousand_author_without_respin_games_finish() {
    a_thousand_games_finish("author_without_respin");
}

#[test]
fn a_thousand_printed_games_finish() {
    a_thousand_games_finish("printed");
}
