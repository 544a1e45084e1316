//! Random Chaupar games: the invariants after every step (16 pieces, four a colour, none lost
//! or duplicated; each on its colour's route and moving only forward along it or back to the
//! Charkoni when captured, or round again past X.l8 with kill_before_home=round; no square
//! holding both teams where the rules forbid it), and random games of each implement, and of
//! the Pachisi readings (a thousand each at the full soak size), finishing without a script error, a limit hit or a stall.

use crate::common;

use std::rc::Rc;

use tortuga::kernel::rng::Stream;
use tortuga::script::{LoadOptions, Rules};
use tortuga::session::{Game, Status};
use tortuga::sim::{Starter, random_playout};

const MAX_STEPS: u64 = 100_000;

fn rules(sets: &[(&str, &str)]) -> Rc<Rules> {
    common::load("chaupar", sets)
}

/// The 16 route indices (0 waiting, 84 home): the bytes of prop "at" (pieces.lua).
fn board(game: &Game) -> Vec<i64> {
    game.with_state(|s| match s.props.get("at") {
        Some(tortuga::kernel::Value::Str(v)) => v.bytes().map(i64::from).collect(),
        other => panic!("no board: {other:?}"),
    })
}

/// Whether a piece may go from route index a to b in one step: forward, back to the Charkoni
/// when captured, or (`round`: kill_before_home=round) from the last lap squares past X.l8
/// (index 75) onto X.m8 (index 8) and on, at most a cowrie's 25 steps.
fn step_allowed(a: i64, b: i64, round: bool) -> bool {
    b >= a || (b == 0 && a < 84) || (round && (51..=75).contains(&a) && (8..=32).contains(&b))
}

/// Whether a game's scores are a result: one team's seats win, or with kill_before_home=on a
/// draw (a board where nothing can move again).
fn a_result(scores: &[f64], seats: u32, draws: bool) -> bool {
    let wins = scores.iter().filter(|&&s| s == 1.0).count() as u32;
    wins == seats / 2 || (draws && scores.iter().all(|&s| s == 0.0))
}

/// Plays one random game, checking the invariants after every step; returns the board after
/// every step. `keeping`: whether the rules may use the view they kept from the last event
/// (`G:kept`), or must read the board afresh every time.
fn play(rules: &Rc<Rules>, seats: u32, seed: u64, keeping: bool) -> Vec<Vec<i64>> {
    let kill = rules
        .switches
        .get("kill_before_home")
        .map(|v| v.to_string());
    let round = kill.as_deref() == Some("round");
    let draws = kill.as_deref() == Some("on");
    let mut game = Game::new(rules.clone(), seats, seed).expect("setup");
    game.with_state_mut(|s| {
        s.logging = false;
        s.keeping = keeping;
    });
    let mut bot = Stream::new(seed, "bots");
    let mut before = board(&game);
    let mut trace = vec![before.clone()];
    for steps in 0..MAX_STEPS {
        let problems = game.text_hook("check", ()).expect("check");
        assert!(problems.is_empty(), "seed {seed} step {steps}: {problems}");
        let now = board(&game);
        assert_eq!(now.len(), 16);
        for (p, (&a, &b)) in before.iter().zip(&now).enumerate() {
            assert!(
                step_allowed(a, b, round),
                "seed {seed} step {steps}: piece {} went from {a} to {b}",
                p + 1
            );
        }
        before = now.clone();
        trace.push(now);
        match game.status().expect("status").clone() {
            Status::Over { scores, .. } => {
                assert!(a_result(&scores, seats, draws), "seed {seed}: {scores:?}");
                return trace;
            }
            Status::Chance(..) => {
                game.resolve_chance(None)
                    .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e:#}"));
            }
            Status::Decision { count, .. } => {
                assert!(
                    count >= 2,
                    "seed {seed} step {steps}: a single option is played at once"
                );
                let i = bot.below(count as u64) as usize;
                game.apply(i)
                    .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e:#}"));
            }
        }
    }
    panic!("seed {seed}: no end after {MAX_STEPS} steps");
}

/// Switch sets that together exercise every rule of the spec.
const CASES: &[&[(&str, &str)]] = &[
    &[],
    &[("implement", "dice2")],
    &[("implement", "cowries")],
    &[
        ("implement", "cowries"),
        ("capture_extra_throw", "on"),
        ("cowrie_last_square", "bonus_one"),
    ],
    &[
        ("block_model", "immune_pairs"),
        ("castle_function", "shared"),
    ],
    &[
        ("block_model", "none"),
        ("direction", "cw"),
        ("turn_order", "cw"),
    ],
    &[
        ("block_passing", "all"),
        ("block_form_by", "team"),
        ("blocks_split", "off"),
    ],
    &[
        ("start", "ain_akbari"),
        ("kill_before_home", "on"),
        ("exact_finish", "off"),
    ],
    &[
        ("entry_compulsory", "maximal"),
        ("triple_stack_bonus", "on"),
        ("turn_unit", "team"),
    ],
    &[
        ("forced_play", "free"),
        ("entry_compulsory", "off"),
        ("multi_entry", "off"),
    ],
    &[("finished_plays_partner", "off"), ("castle_set", "pachih8")],
    &[
        ("kill_before_home", "round"),
        ("implement", "dice2"),
        ("sum_touches_intermediate", "true"),
    ],
    &[("kill_before_home", "round"), ("implement", "cowries")],
    &[("implement", "dice3"), ("two_player_throw", "shared")],
    &[("implement", "dice2"), ("two_player_throw", "shared")],
    &[("implement", "cowries"), ("two_player_throw", "shared")],
];

/// Seats for game `seed` of a case: two players where the case says the throw is shared, and
/// in every third game.
fn seats(sets: &[(&str, &str)], seed: u64) -> u32 {
    if seed % 3 == 2 || sets.contains(&("two_player_throw", "shared")) {
        2
    } else {
        4
    }
}

#[test]
fn random_games_keep_the_invariants() {
    let games = CASES
        .iter()
        .enumerate()
        .flat_map(|(k, sets)| (0..3).map(move |s| (*sets, 1000 * k as u64 + s)));
    for (sets, seed) in common::soak_pick(games) {
        play(&rules(sets), seats(sets, seed), seed, true);
    }
}

/// The view an event keeps for the next (`G:kept`) is an optimisation only: the same games,
/// step by step, when every event reads the board afresh.
#[test]
fn kept_views_change_no_game() {
    let games = CASES.iter().enumerate();
    for (k, sets) in common::soak_pick(games) {
        let r = rules(sets);
        let seed = 7000 + k as u64;
        let n = seats(sets, seed);
        assert_eq!(
            play(&r, n, seed, true),
            play(&r, n, seed, false),
            "{sets:?}"
        );
    }
}

/// Chaupar's rules with a shipped variant.
fn variant(name: &str) -> Rc<Rules> {
    let opts = LoadOptions {
        variant: Some(name.into()),
        ..LoadOptions::default()
    };
    Rc::new(Rules::load(&common::rules(), "chaupar", &opts).expect("the variant loads"))
}

/// The implements of the printed rules, each played with the defaults otherwise.
const IMPLEMENTS: [&str; 3] = ["dice3", "dice2", "cowries"];

/// Random games of each implement and of every shipped variant end, neither stalled (back
/// where they were a thousand steps before) nor cut at the turn cap: the Pachisi readings'
/// capture-before-home once left games where nothing could move, and a study stopped at
/// game 439.
#[test]
fn random_games_of_each_implement_and_variant_finish() {
    // Ten at least: the length check below is on the average game.
    let games = common::soak(1000).max(10);
    let mut cases: Vec<String> = IMPLEMENTS.iter().map(|i| i.to_string()).collect();
    cases.extend(tortuga::script::ruleset::rules::variants(
        &common::rules(),
        "chaupar",
    ));
    assert!(cases.len() > 10, "every variant: {cases:?}");
    let workers: Vec<_> = cases
        .into_iter()
        .map(|case| {
            std::thread::spawn(move || {
                // the rules are loaded on the thread that plays them
                let load = if IMPLEMENTS.contains(&case.as_str()) {
                    rules(&[("implement", case.as_str())])
                } else {
                    variant(&case)
                };
                let mut starter = Starter::new(load, 4);
                let mut decisions = 0;
                for seed in 0..games {
                    let p = random_playout(&mut starter, seed, MAX_STEPS)
                        .unwrap_or_else(|e| panic!("{case} seed {seed}: {e:#}"));
                    assert_eq!(p.cut, None, "{case} seed {seed}: {}", p.result);
                    assert_eq!(p.scores.iter().sum::<f64>(), 2.0, "{case} seed {seed}");
                    decisions += p.decisions;
                }
                (case, decisions)
            })
        })
        .collect();
    for w in workers {
        let (case, decisions) = w.join().expect("a worker");
        println!("{case}: {games} games, {decisions} decisions");
        assert!(
            decisions > 100 * games,
            "{case}: games this short cannot have been played out"
        );
    }
}
