//! Simulations take their steps in the kernel's loop inside Lua (`Game::play_steps`, see
//! src/session/driven.rs) until the watch must look again. That loop must take the very steps
//! the kernel's ordinary path takes one at a time: the same options, the same draws, the same
//! states, the same errors, and each hook under a budget of its own.

use crate::common;

use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use tortuga::kernel::rng::Stream;
use tortuga::script::{Budget, LoadOptions, Rules};
use tortuga::session::Status;
use tortuga::sim::{Starter, random_playout, random_playout_with};

/// Plays game `seed` to the end, `room` steps at a time at most, with one uniform bot; returns
/// what decides the game (and its counters) after each call, with the steps taken by then.
fn play(rules: &Rc<Rules>, seats: u32, seed: u64, room: u64) -> Vec<(u64, String)> {
    let mut game = Starter::new(rules.clone(), seats).start(seed).unwrap();
    game.transactional = false;
    game.check_returned_status = false;
    let mut bot = Stream::new(seed, "bots");
    let mut choose = |_, count: usize| Ok(bot.below(count as u64) as usize);
    let (mut steps, mut states) = (0, Vec::new());
    while !matches!(game.status().unwrap(), Status::Over { .. }) {
        assert!(steps < 20_000, "seed {seed}: no end");
        let taken = game.play_steps(room, &mut choose).unwrap();
        assert!(
            (1..=room).contains(&taken.steps()),
            "{taken:?} in a room of {room}"
        );
        steps += taken.steps();
        let state = game.with_state(|s| format!("{}{:?}", s.fingerprint(), s.stats));
        states.push((steps, state));
    }
    states
}

/// The loop's games, handed back every `room` steps, are the one-step games: at every hand-back
/// the state is the state one step at a time reaches after as many steps.
fn same_games(rules: Rc<Rules>, seats: u32, seeds: std::ops::Range<u64>) {
    let game = rules.game.clone();
    for seed in seeds {
        let one = play(&rules, seats, seed, 1);
        for room in [7, 1000] {
            let driven = play(&rules, seats, seed, room);
            assert_eq!(
                driven.last().unwrap().0,
                one.last().unwrap().0,
                "{game} seed {seed}"
            );
            for (steps, state) in &driven {
                let (_, expected) = &one[*steps as usize - 1];
                assert!(
                    state == expected,
                    "{game} seed {seed}, room {room}: states differ after {steps} steps"
                );
            }
        }
    }
}

#[test]
fn backgammon_games_are_the_one_step_games() {
    same_games(common::load("backgammon", &[]), 2, 1..6);
    same_games(common::load("backgammon", &[("cube", "false")]), 2, 6..9);
}

#[test]
fn backgammon_house_rule_games_are_the_one_step_games() {
    let rules = common::load_from(&common::rules(), "backgammon", &[], &["doubles_thrice"]);
    same_games(rules, 2, 1..4);
}

#[test]
fn chaupar_games_are_the_one_step_games() {
    same_games(common::load("chaupar", &[]), 4, 1..3);
    same_games(
        common::load("chaupar", &[("implement", "cowries")]),
        4,
        3..4,
    );
}

#[test]
fn pirates_games_are_the_one_step_games() {
    same_games(common::load("pirates", &[]), 2, 1..3);
}

#[test]
fn jackal_games_are_the_one_step_games() {
    same_games(common::load("jackal", &[]), 2, 1..2);
    same_games(common::load("jackal", &[]), 4, 2..3);
}

/// The kernel-floor benchmark game in a scratch folder, its rules patched (`from` → `to`).
fn floor(from: &str, to: &str, budget: Budget) -> (tempfile::TempDir, Rc<Rules>) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("rules");
    common::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/kernel_floor"),
        &root,
    );
    let file = root.join("floor/game.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    let patched = text.replace(from, to);
    assert_ne!(text, patched, "the patch applies");
    std::fs::write(&file, patched).unwrap();
    let opts = LoadOptions {
        budget,
        ..LoadOptions::default()
    };
    let rules = Rc::new(Rules::load(&root, "floor", &opts).unwrap());
    (dir, rules)
}

/// The error of a playout of the floor game patched (`from` → `to`): it names `want`, and
/// reads the same in the loop as one step at a time.
fn same_error(from: &str, to: &str, budget: Budget, want: &str) -> String {
    let (_dir, rules) = floor(from, to, budget);
    let driven = random_playout(&mut Starter::new(rules.clone(), 2), 1, 10_000);
    let one = random_playout_with(&mut Starter::new(rules.clone(), 2), 1, 10_000, |_| Ok(()));
    let driven = format!("{:#}", driven.unwrap_err());
    assert!(driven.contains(want), "{driven}");
    assert_eq!(driven, format!("{:#}", one.unwrap_err()));
    driven
}

#[test]
fn an_error_in_a_hook_reads_the_same_in_the_loop() {
    let e = same_error(
        "local function apply(G)\n",
        "local function apply(G)\n  if G:get(\"played\") == 41 then error(\"no move 42\") end\n",
        Budget::default(),
        "no move 42",
    );
    assert!(e.contains("floor/game.lua:"), "{e}");
}

#[test]
fn a_malformed_status_in_the_loop_is_reported_as_the_kernel_reports_it() {
    same_error(
        "  return { actor = seat, options = OPTIONS, prompt = PROMPTS[seat] }",
        "  if G:get(\"played\") == 30 then return { actor = seat, options = {} } end\n  return { actor = seat, options = OPTIONS, prompt = PROMPTS[seat] }",
        Budget::default(),
        "no options",
    );
}

/// Each `apply` runs a loop of about a millisecond or two; a game of 90 runs far longer than
/// the time limit of 60 ms, which each hook must meet on its own, in the loop as from the
/// kernel.
#[test]
fn each_hook_in_the_loop_has_a_budget_of_its_own() {
    let budget = Budget {
        wall: Duration::from_millis(60),
        ..Budget::default()
    };
    let (_dir, rules) = floor(
        "local function apply(G)\n",
        "local function apply(G)\n  for _ = 1, 200000 do end\n",
        budget.clone(),
    );
    let p = random_playout(&mut Starter::new(rules.clone(), 2), 1, 10_000).unwrap();
    assert_eq!(p.decisions, 90);
    same_error(
        "local function apply(G)\n",
        "local function apply(G)\n  if G:get(\"played\") == 50 then while true do end end\n",
        budget,
        "time limit exceeded",
    );
}
