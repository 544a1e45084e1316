//! Values rules keep from one event to the next (`G:keep`, `G:kept`), on the fixture game
//! `tally`: the kernel hands a kept value back only for the very state it was kept for, only
//! as the referee, only to a hook that changes the game, and never after an invocation failed
//! part-way.

use crate::common;

use common::{fails, fixtures, repl, run};
use tortuga::repl::Repl;

fn tally() -> Repl {
    let mut r = repl(&fixtures());
    run(&mut r, &["new tally --seed 1"]);
    r
}

/// The last `n` lines of the log.
fn log(r: &mut Repl, n: usize) -> String {
    run(r, &[&format!("log {n}")])
}

#[test]
fn the_next_event_finds_what_the_last_kept() {
    let mut r = tally();
    run(&mut r, &["play add"]);
    assert!(log(&mut r, 2).contains("built 0"), "{}", log(&mut r, 2));
    run(&mut r, &["play add"]);
    assert!(log(&mut r, 2).contains("kept 1"), "{}", log(&mut r, 2));
    // a chance event in between changes nothing the rules kept
    run(&mut r, &["play roll", "roll 3"]);
    assert!(log(&mut r, 2).contains("kept 2"), "{}", log(&mut r, 2));
    run(&mut r, &["play add"]);
    assert!(log(&mut r, 2).contains("kept 5"), "{}", log(&mut r, 2));
}

#[test]
fn any_change_after_the_keep_undo_or_a_copy_forgets_it() {
    let mut r = tally();
    run(&mut r, &["play add", "play stale", "play add"]);
    assert!(log(&mut r, 2).contains("built 1"), "{}", log(&mut r, 2));
    run(&mut r, &["play add", "undo", "play add"]);
    assert!(log(&mut r, 2).contains("built 2"), "{}", log(&mut r, 2));
    // the REPL's `lua` works on a copy of the state
    assert_eq!(run(&mut r, &["lua G:kept('board')"]), "nil");
}

#[test]
fn a_value_kept_with_its_properties_outlives_other_changes_only() {
    let mut r = tally();
    // "note" keeps the table with property n, then changes another one: still kept
    run(&mut r, &["play add", "play note", "play add"]);
    assert!(log(&mut r, 2).contains("kept 1"), "{}", log(&mut r, 2));
    run(&mut r, &["play note", "play roll"]);
    assert!(log(&mut r, 2).contains("kept 2"), "{}", log(&mut r, 2));
    // "bump" changes n itself after keeping: the next event builds it again
    run(&mut r, &["roll 1", "play bump", "play add"]);
    assert!(log(&mut r, 2).contains("built 4"), "{}", log(&mut r, 2));
    // undo makes a copy: nothing kept applies to it, whatever its properties hold
    run(&mut r, &["play note", "undo", "play add"]);
    assert!(log(&mut r, 2).contains("built 5"), "{}", log(&mut r, 2));
}

#[test]
fn a_failed_event_leaves_nothing_kept() {
    let mut r = tally();
    run(&mut r, &["play add", "play add"]);
    assert!(fails(&mut r, "play fail").contains("the tally refuses"));
    run(&mut r, &["play add"]);
    assert!(log(&mut r, 2).contains("built 2"), "{}", log(&mut r, 2));
}

/// The fixture's `render` adds 1000 to the kept table when it is handed one: shown between
/// events, it would change the count the next event finds while the state stayed the same.
#[test]
fn a_query_cannot_change_a_game_through_what_was_kept() {
    let mut quiet = tally();
    let mut shown = tally();
    for r in [&mut quiet, &mut shown] {
        run(r, &["play add"]);
    }
    for n in 1..=3 {
        let board = run(&mut shown, &["show"]);
        assert!(
            board.contains(&format!("count {n}, nothing kept")),
            "{board}"
        );
        run(&mut shown, &["play add"]);
        run(&mut quiet, &["play add"]);
    }
    assert!(
        log(&mut shown, 2).contains("kept 3"),
        "{}",
        log(&mut shown, 2)
    );
    assert_eq!(run(&mut shown, &["position"]), "4");
    assert_eq!(
        run(&mut shown, &["position"]),
        run(&mut quiet, &["position"])
    );
}

#[test]
fn only_a_changing_hook_reads_and_keeps() {
    let mut r = tally();
    run(&mut r, &["play add", "play add"]);
    assert!(run(&mut r, &["show"]).contains("nothing kept"));
    run(&mut r, &["as B"]);
    assert!(run(&mut r, &["show"]).contains("nothing kept"));
    run(&mut r, &["as referee"]);
    let e = fails(&mut r, "lua G:keep('board', 1)");
    assert!(e.contains("cannot keep"), "{e}");
    let e = fails(&mut r, &format!("lua G:keep('{}', 1)", "x".repeat(65)));
    assert!(e.contains("1 to 64 bytes"), "{e}");
}

#[test]
fn with_keeping_off_every_event_builds() {
    let mut r = tally();
    r.session
        .as_mut()
        .expect("a game")
        .game
        .with_state_mut(|s| s.keeping = false);
    run(&mut r, &["play add", "play add"]);
    assert!(log(&mut r, 2).contains("built 1"), "{}", log(&mut r, 2));
}
