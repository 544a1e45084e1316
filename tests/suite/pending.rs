//! The kernel's pending decisions (continuations), on the fixture game `ferry`: a turn waits
//! for a wave (chance), then for a pier (a decision asked for when reached, auto-answered when
//! single, replaced by a fallback when empty), then ends.

use crate::common;

use common::{fails, fingerprint, fixtures, repl, run, scratch_rules};
use tortuga::repl::Repl;

fn ferry(extra: &str) -> Repl {
    let mut r = repl(&fixtures());
    run(&mut r, &[&format!("new ferry --seed 3 {extra}")]);
    r
}

#[test]
fn a_move_waits_for_a_chance_event_then_a_decision_and_pending_shows_why() {
    let mut r = ferry("");
    run(&mut r, &["play sail"]);
    // In players' words; the hooks and their arguments for rule authors.
    assert_eq!(
        run(&mut r, &["pending"]),
        "1. A sails: waits for chance 'wave'\n\
         2. the turn ends after the crossing: runs next"
    );
    assert_eq!(
        run(&mut r, &["pending --hooks"]),
        "1. waved(1) — A sails: waits for chance 'wave'\n\
         2. turn_over() — the turn ends after the crossing: runs next"
    );
    let out = run(&mut r, &["roll 3"]);
    assert!(out.contains("A: which pier? — 3 options"), "{out}");
    assert!(
        run(&mut r, &["pending"]).starts_with("1. A docks: waits for A to choose among p2, p3, p4")
    );
    assert!(
        run(&mut r, &["pending --hooks"])
            .starts_with("1. dock(1, 3) — A docks: waits for seat 1 to choose among p2, p3, p4")
    );
    run(&mut r, &["play p4"]);
    assert_eq!(run(&mut r, &["pending"]), "nothing pending");
    assert_eq!(run(&mut r, &["position"]), "4,1");
    assert!(run(&mut r, &["show"]).contains("B to play"));
}

#[test]
fn undo_and_replay_work_at_every_waiting_point() {
    let mut r = ferry("");
    let start = fingerprint(&r);
    run(&mut r, &["play sail"]);
    let at_wave = fingerprint(&r);
    run(&mut r, &["roll 2"]);
    let at_pier = fingerprint(&r);
    run(&mut r, &["undo"]);
    assert_eq!(fingerprint(&r), at_wave);
    assert!(run(&mut r, &["pending"]).contains("waits for chance 'wave'"));
    run(&mut r, &["redo"]);
    assert_eq!(fingerprint(&r), at_pier);
    run(&mut r, &["undo", "undo"]);
    assert_eq!(fingerprint(&r), start);

    // Saved in the middle of a move, loaded again: the same stack.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ferry.sav");
    let file = file.to_str().unwrap();
    run(&mut r, &["play sail", "roll 2", &format!("save {file}")]);
    let mut b = repl(&fixtures());
    run(&mut b, &[&format!("load {file}")]);
    assert_eq!(fingerprint(&b), at_pier);
    assert_eq!(run(&mut b, &["pending"]), run(&mut r, &["pending"]));
}

#[test]
fn a_single_option_is_taken_and_none_runs_the_fallback() {
    let mut r = ferry("");
    // A wave of 1 leaves one pier: taken without asking.
    run(&mut r, &["play sail", "roll 1"]);
    assert!(run(&mut r, &["log 2"]).contains("A docks: p2 (the only option)"));
    assert_eq!(run(&mut r, &["position"]), "2,1");
    // B's pier p2 is taken by A: no option, so B capsizes (the declared fallback).
    run(&mut r, &["play sail", "roll 1"]);
    let log = run(&mut r, &["log 3"]);
    // One event: the decision that had no option and what its fallback did instead.
    assert!(
        log.lines()
            .any(|l| l == "B docks — nothing to choose, so B capsizes"),
        "{log}"
    );
    assert!(!log.contains("(nothing to choose)"), "{log}");
    assert!(run(&mut r, &["show"]).contains("A to play"));
}

#[test]
fn a_house_rule_stacks_on_a_continuation_across_a_chance_event() {
    let mut r = ferry("--variant calm");
    run(&mut r, &["play sail", "roll 1"]);
    assert!(run(&mut r, &["pending --hooks"]).starts_with("1. waved(1, true) — A sails again"));
    run(&mut r, &["roll 1"]);
    // Thrown again once only: this 1 is sailed.
    assert_eq!(run(&mut r, &["position"]), "2,1");
    assert_eq!(run(&mut r, &["pending"]), "nothing pending");
    assert!(run(&mut r, &["rules waved"]).contains("calm_seas"));
}

/// The fixture with `from` replaced by `to` in game.lua.
fn edited(from: &str, to: &str) -> (tempfile::TempDir, Repl) {
    let dir = scratch_rules();
    let file = dir.path().join("rules/ferry/game.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(from));
    std::fs::write(&file, text.replacen(from, to, 1)).unwrap();
    let mut r = repl(&dir.path().join("rules"));
    run(&mut r, &["new ferry --seed 3"]);
    (dir, r)
}

#[test]
fn a_continuation_naming_a_missing_hook_is_an_error_and_changes_nothing() {
    let (_dir, mut r) = edited("hook = \"waved\"", "hook = \"wavedd\"");
    let before = fingerprint(&r);
    let e = fails(&mut r, "play sail");
    assert!(
        e.contains("rules/ferry/game.lua:")
            && e.contains("hook names the hook 'wavedd', which no rule file defines"),
        "{e}"
    );
    assert_eq!(fingerprint(&r), before);
    assert!(run(&mut r, &["show"]).contains("A to play"));
}

#[test]
fn a_decision_with_no_options_and_no_fallback_is_an_error() {
    let (_dir, mut r) = edited("auto = true, none = \"capsize\",", "auto = true,");
    run(&mut r, &["play sail", "roll 1", "play sail"]);
    let before = fingerprint(&r);
    let e = fails(&mut r, "roll 1");
    assert!(
        e.contains("a decision with no options and no fallback"),
        "{e}"
    );
    assert_eq!(fingerprint(&r), before);
}

#[test]
fn a_pending_chance_takes_the_parameters_a_status_would_give() {
    let (_dir, mut r) = edited("chance = \"wave\",", "chance = \"wave\", faces = { 2 },");
    run(&mut r, &["play sail"]);
    let out = run(&mut r, &["roll"]);
    assert!(out.starts_with("wave 2"), "{out}");
    assert!(run(&mut r, &["moves"]).contains("p3"));
    // Parameters the randomizer does not take are refused, naming the continuation.
    let (_dir, mut r) = edited(
        "chance = \"wave\",",
        "chance = \"wave\", weights = { 1, 2, 3 },",
    );
    let e = fails(&mut r, "play sail");
    assert!(
        e.contains("waved: chance 'wave': a dice randomizer takes no 'weights'"),
        "{e}"
    );
    assert!(run(&mut r, &["show"]).contains("A to play"));
}

#[test]
fn what_a_continuation_holds_is_seen_only_by_its_seen_by_seats() {
    let (_dir, mut r) = edited(
        "why = G:seat_name(s) .. \" docks\"",
        "why = G:seat_name(s) .. \" docks\", seen_by = {}",
    );
    run(&mut r, &["play sail", "roll 3", "as B"]);
    assert_eq!(
        run(&mut r, &["pending --hooks"]).lines().next().unwrap(),
        "1. dock(…) — A docks: waits for seat 1 to choose (hidden from you)"
    );
    assert_eq!(
        run(&mut r, &["pending"]).lines().next().unwrap(),
        "1. A docks: waits for A to choose (hidden from you)"
    );
    assert!(run(&mut r, &["show"]).contains("A to decide (hidden from you)"));
    assert_eq!(run(&mut r, &["lua G:pending()[2].args"]), "nil");
    assert_eq!(
        run(&mut r, &["lua G:pending()[1].why"]),
        "the turn ends after the crossing"
    );
    // The actor sees its own decision; so does the referee.
    run(&mut r, &["as A"]);
    assert!(run(&mut r, &["pending --hooks"]).contains("dock(1, 3)"));
    assert_eq!(run(&mut r, &["lua G:pending()[2].args[2]"]), "3");
    run(&mut r, &["play p3", "as B"]);
    let log = run(&mut r, &["log"]);
    assert!(!log.contains("A: p3"), "B does not read A's choice: {log}");
    run(&mut r, &["as referee"]);
    assert!(run(&mut r, &["log"]).contains("A: p3"));
}

#[test]
fn an_ask_hook_only_reads_and_a_query_cannot_push() {
    let (_dir, mut r) = edited(
        "local options = {}",
        "local options = {}\n      G:set(\"asked\", true)",
    );
    run(&mut r, &["play sail"]);
    let before = fingerprint(&r);
    let e = fails(&mut r, "roll 3");
    assert!(
        e.contains("rules/ferry/game.lua:") && e.contains("read-only"),
        "{e}"
    );
    assert_eq!(fingerprint(&r), before);
    let mut r = ferry("");
    let before = fingerprint(&r);
    let e = fails(&mut r, "lua G:push({ hook = \"turn_over\" })");
    assert!(e.contains("lua:1:") && e.contains("read-only"), "{e}");
    assert_eq!(fingerprint(&r), before);
}

/// A game's own continuations read in players' words: Jackal's draw of a face-down tile names
/// the cell, not `chain.drawn(…)`; steps that say nothing are counted, named by `--hooks`.
#[test]
fn jackal_pending_speaks_without_identifiers() {
    let mut r = repl(&common::rules());
    run(&mut r, &["new jackal --seed 3", "play W1 G1->G2"]);
    assert_eq!(
        run(&mut r, &["pending"]),
        "1. turning up G2: waits for chance 'deck'\n\
         then 2 steps of the rules (`pending --hooks` names them)"
    );
    let hooks = run(&mut r, &["pending --hooks"]);
    assert!(hooks.starts_with("1. chain.drawn("), "{hooks}");
    assert_eq!(hooks.lines().count(), 3, "{hooks}");
}
