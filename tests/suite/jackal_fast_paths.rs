//! Jackal's shortcuts change no game. A move's steps hand over to each other within one call,
//! with one view of the characters carried along (chain.lua), and a decision's view is kept for
//! the action that follows (`G:keep`): the same random games, step by step, when every event
//! reads the board afresh (kept values off), and when a house rule stacks on a step of the
//! chain, so that every step goes through the kernel's pending stack as written; and when a
//! house rule stacks on may_stop, so that every move asks it (the rules' own is not asked where
//! it cannot refuse).

use crate::common;

use std::rc::Rc;

use tortuga::kernel::rng::Stream;
use tortuga::script::Rules;
use tortuga::session::{Game, Status};

const MAX_STEPS: usize = 60_000;

/// A house rule that stacks on chain.land and changes nothing, so the chain's steps cannot
/// hand over to each other (a house rule could act between two of them).
const PASS_THROUGH: &str = r#"-- House rule for a test: stacks on chain.land, changes nothing.
return {
  name = "pass_through",
  help = "stacks on chain.land and changes nothing",
  hooks = {
    ["chain.land"] = function(base, G) return base(G) end,
  },
}
"#;

/// A house rule that stacks on may_stop and changes nothing: the move generator and the chain
/// ask it at every move then.
const ASKED_TO_STOP: &str = r#"-- House rule for a test: stacks on may_stop, changes nothing.
return {
  name = "asked_to_stop",
  help = "stacks on may_stop and changes nothing",
  hooks = {
    may_stop = function(base, G, V, c, l) return base(G, V, c, l) end,
  },
}
"#;

/// Plays one random game; returns the state after every step and the log at the end.
/// `keeping`: whether the rules may use what they kept (`G:kept`).
fn play(rules: &Rc<Rules>, seats: u32, seed: u64, keeping: bool) -> (Vec<String>, String) {
    let mut game = Game::new(rules.clone(), seats, seed).expect("setup");
    game.with_state_mut(|s| s.keeping = keeping);
    let mut bot = Stream::new(seed, "bots");
    let mut trace = Vec::new();
    for step in 0..MAX_STEPS {
        trace.push(game.with_state(|s| s.fingerprint()));
        let status = game
            .status()
            .unwrap_or_else(|e| panic!("seed {seed} step {step}: {e:#}"))
            .clone();
        match status {
            Status::Over { .. } => {
                let log = game.with_state(|s| {
                    s.log
                        .iter()
                        .map(|l| format!("{l:?}"))
                        .collect::<Vec<_>>()
                        .join("\n")
                });
                return (trace, log);
            }
            Status::Chance(..) => {
                game.resolve_chance(None)
                    .unwrap_or_else(|e| panic!("seed {seed} step {step}: {e:#}"));
            }
            Status::Decision { count, .. } => {
                let i = bot.below(count as u64) as usize;
                game.apply(i)
                    .unwrap_or_else(|e| panic!("seed {seed} step {step}: {e:#}"));
            }
        }
    }
    panic!("seed {seed}: no end after {MAX_STEPS} steps")
}

/// Switch sets whose games take the less common ways through the chain.
const CASES: &[&[(&str, &str)]] = &[
    &[],
    &[("pack", "classic")],
    &[
        ("seating", "2v2"),
        ("plane_deferred", "false"),
        ("ice_after_horse", "same_vector"),
        ("rum_timing", "free_action"),
        ("loop_rule", "fourth_visit"),
        ("caramba", "all_to_ships"),
    ],
    &[
        ("lighthouse", "peek4_permute"),
        ("cave_model", "swap"),
        ("forced_coin_blocked", "move_illegal"),
        ("newborn_skips_turn", "true"),
        ("rum_timing", "end_of_turn"),
    ],
];

/// The games a comparison plays, as (switches, seed): two of each case at the full soak size,
/// seeds from `first_seed`.
fn games(first_seed: u64) -> Vec<(&'static [(&'static str, &'static str)], u64)> {
    let all = CASES
        .iter()
        .enumerate()
        .flat_map(|(k, sets)| (0..2).map(move |s| (*sets, first_seed + 100 * k as u64 + s)));
    common::soak_pick(all)
}

fn seats(seed: u64) -> u32 {
    if seed.is_multiple_of(2) { 4 } else { 2 }
}

#[test]
fn kept_views_change_no_game() {
    for (sets, seed) in games(0) {
        let r = common::load("jackal", sets);
        same_games(
            play(&r, seats(seed), seed, true),
            play(&r, seats(seed), seed, false),
            &format!("{sets:?} seed {seed}"),
        );
    }
}

/// Two plays of one game: the same states step by step, and the same log.
fn same_games(a: (Vec<String>, String), b: (Vec<String>, String), what: &str) {
    if let Some(step) = (0..a.0.len().min(b.0.len())).find(|&i| a.0[i] != b.0[i]) {
        panic!("{what}: the games part at step {step}");
    }
    assert_eq!(a.0.len(), b.0.len(), "{what}: games of different length");
    if let Some((x, y)) = a.1.lines().zip(b.1.lines()).find(|(x, y)| x != y) {
        panic!("{what}: the logs differ: {x} / {y}");
    }
    assert!(a.1 == b.1, "{what}: the logs differ in length");
}

/// The same random games (seeds from `first_seed`) with and without the test's house rule
/// `name` (source `rule`), which changes nothing but the way the rules go.
fn same_with_house_rule(name: &str, rule: &str, first_seed: u64) {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(&common::rules(), dir.path());
    std::fs::write(dir.path().join(format!("jackal/house/{name}.lua")), rule).expect("house rule");
    for (sets, seed) in games(first_seed) {
        let without = common::load_from(dir.path(), "jackal", sets, &[]);
        let with = common::load_from(dir.path(), "jackal", sets, &[name]);
        same_games(
            play(&without, seats(seed), seed, true),
            play(&with, seats(seed), seed, true),
            &format!("{sets:?} seed {seed}"),
        );
    }
}

#[test]
fn steps_handed_over_at_once_play_as_pushed_steps() {
    same_with_house_rule("pass_through", PASS_THROUGH, 500);
}

#[test]
fn may_stop_asked_at_every_move_plays_as_the_shortcut() {
    same_with_house_rule("asked_to_stop", ASKED_TO_STOP, 900);
}
