//! Random Pirates games: the invariants after every step (never two ships on one sea cell,
//! no ship on land, damage below sinking, the golden secret never in a pirate's view before
//! the reveal), and random games of each shipped variant (a thousand at the full soak size) finishing without a script
//! error, a limit hit or a stall.

use crate::common;

use std::rc::Rc;

use tortuga::kernel::rng::Stream;
use tortuga::script::{LoadOptions, Rules};
use tortuga::session::status::describe_status;
use tortuga::session::{Game, Status};
use tortuga::sim::{Starter, random_playout};

const MAX_STEPS: u64 = 50_000;

/// Random games played under the invariants (each step checked), at the full soak size.
const GAMES_UNDER_INVARIANTS: u64 = 200;

fn rules(variant: &str, sets: &[(&str, &str)]) -> Rc<Rules> {
    let overrides = sets
        .iter()
        .map(|(k, v)| {
            tortuga::script::ruleset::variant::parse_assignment(&format!("{k}={v}")).unwrap()
        })
        .collect();
    let opts = LoadOptions {
        variant: Some(variant.to_string()),
        overrides,
        ..LoadOptions::default()
    };
    Rc::new(Rules::load(&common::rules(), "pirates", &opts).expect("pirates loads"))
}

fn play(rules: &Rc<Rules>, seats: u32, seed: u64, case: &str) {
    let mut game = Game::new(rules.clone(), seats, seed).expect("setup");
    let mut bot = Stream::new(seed, "bots");
    for steps in 0..MAX_STEPS {
        let problems = game.text_hook("invariant", ()).expect("invariant");
        assert!(
            problems.is_empty(),
            "{case}, seed {seed} step {steps}: {problems}"
        );
        match game.status().expect("status").clone() {
            Status::Over { .. } => return,
            Status::Chance(..) => {
                game.resolve_chance(None)
                    .unwrap_or_else(|e| panic!("{case}, seed {seed} step {steps}: {e:#}"));
            }
            Status::Decision { count, .. } => {
                let i = bot.below(count as u64) as usize;
                game.apply(i)
                    .unwrap_or_else(|e| panic!("{case}, seed {seed} step {steps}: {e:#}"));
            }
        }
    }
    panic!("{case}, seed {seed}: no end after {MAX_STEPS} steps");
}

/// One random game, step by step: the state's fingerprint and what it waits for after every
/// step. `keeping`: whether the rules may use the view they kept from the last event
/// (`G:kept`), or must read the board afresh every time.
fn trace(rules: &Rc<Rules>, seats: u32, seed: u64, keeping: bool) -> Vec<String> {
    let mut game = Game::new(rules.clone(), seats, seed).expect("setup");
    game.with_state_mut(|s| s.keeping = keeping);
    let mut bot = Stream::new(seed, "bots");
    let mut trace = Vec::new();
    for steps in 0..MAX_STEPS {
        let status = game.status().expect("status").clone();
        trace.push(format!(
            "{} {}",
            describe_status(&status),
            game.with_state(|s| s.fingerprint())
        ));
        match status {
            Status::Over { .. } => return trace,
            Status::Chance(..) => {
                game.resolve_chance(None)
                    .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e:#}"));
            }
            Status::Decision { count, .. } => {
                game.apply(bot.below(count as u64) as usize)
                    .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e:#}"));
            }
        }
    }
    panic!("seed {seed}: no end after {MAX_STEPS} steps");
}

/// A variant, a player count and switch values.
type Case<'a> = (&'a str, u32, &'a [(&'a str, &'a str)]);

/// The view an event keeps for the next (`G:kept`: the map, the switches, the ships, each
/// ship's moves) is an optimisation only: the same games, step by step, when every event
/// reads the board afresh — under the shipped variants and the switches that change how
/// ships move, spin, carry and fire.
#[test]
fn kept_views_change_no_game() {
    let cases: [Case; 6] = [
        ("author", 2, &[]),
        ("printed", 3, &[]),
        ("author_without_respin", 5, &[("max_rounds", "30")]),
        (
            "author",
            4,
            &[
                ("spin_scope", "per_ship"),
                ("current_timing", "start_of_turn"),
                ("max_rounds", "30"),
            ],
        ),
        (
            "author",
            2,
            &[
                ("current_chain", "on"),
                ("against_current", "start_on_tip"),
                ("corner_cutting", "any_land"),
            ],
        ),
        (
            "printed",
            2,
            &[
                ("shots_per_turn", "per_ship"),
                ("fire_timing", "after_only"),
                ("neutral_ports_open_to_spain", "on"),
            ],
        ),
    ];
    let games = cases
        .iter()
        .enumerate()
        .flat_map(|(k, case)| (0..2).map(move |s| (case, 100 * k as u64 + s)));
    for ((variant, seats, sets), seed) in common::soak_pick(games) {
        let r = rules(variant, sets);
        assert_eq!(
            trace(&r, *seats, seed, true),
            trace(&r, *seats, seed, false),
            "{variant} {seats} players {sets:?} seed {seed}"
        );
    }
}

/// Random games under random rules, property-style: game k draws from its own seed a shipped
/// variant, a player count (2–9) and, for each switch with a list of values, its default or a
/// value of the list; 20 rounds at most, so that a combination without an early end stops.
#[test]
fn random_games_under_random_switches_keep_the_invariants() {
    let dir = common::rules();
    let mut variants = tortuga::script::ruleset::rules::variants(&dir, "pirates");
    variants.sort();
    let switches = rules("printed", &[]).switch_defs.clone();
    for k in 0..common::soak(GAMES_UNDER_INVARIANTS) {
        let mut draw = Stream::new(k, "case");
        let variant = &variants[draw.below(variants.len() as u64) as usize];
        let seats = 2 + draw.below(8) as u32;
        let mut sets = vec![("max_rounds".to_string(), "20".to_string())];
        for def in switches.iter().filter(|d| !d.values.is_empty()) {
            if draw.below(2) == 1 {
                let v = &def.values[draw.below(def.values.len() as u64) as usize];
                sets.push((def.name.clone(), v.to_literal()));
            }
        }
        let sets: Vec<(&str, &str)> = sets.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let r = rules(variant, &sets);
        play(&r, seats, k, &format!("{variant} {seats} players {sets:?}"));
    }
}

/// Random games of a shipped variant as shipped (no round cap), a thousand at the full soak
/// size, each finishing with a result by the rules' own ends (no script error, limit or stall
/// on the way).
fn random_games_finish(variant: &str) {
    let mut starter = Starter::new(rules(variant, &[]), 2);
    let mut decisions = 0;
    // Ten at least: the length check below is on the average game.
    let games = common::soak(1000).max(10);
    for seed in 0..games {
        let p = random_playout(&mut starter, seed, MAX_STEPS)
            .unwrap_or_else(|e| panic!("{variant} seed {seed}: {e:#}"));
        assert_eq!(p.scores.iter().sum::<f64>(), 1.0, "{variant} seed {seed}");
        decisions += p.decisions;
    }
    assert!(
        decisions > 50 * games,
        "{variant}: games this short cannot have been played out"
    );
}

#[test]
fn the_shipped_variants_are_the_three_played_below() {
    let mut shipped = tortuga::script::ruleset::rules::variants(&common::rules(), "pirates");
    shipped.sort();
    assert_eq!(shipped, ["author", "author_without_respin", "printed"]);
}

#[test]
fn random_author_games_finish() {
    random_games_finish("author");
}

#[test]
fn random_author_without_respin_games_finish() {
    random_games_finish("author_without_respin");
}

#[test]
fn random_printed_games_finish() {
    random_games_finish("printed");
}
