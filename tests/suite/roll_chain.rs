//! `roll` with the values of several chance events in a row (`roll hurricane W`: the spin, then
//! the hurricane's direction it asks for) forces them one after another when the values split
//! over those events one way only; pending now or queued for the events to come.

use crate::common;

use common::{fails, fingerprint, repl, rules, run};
use tortuga::repl::Repl;

/// Pirates as printed with the golden galleon chosen: S1's weather spin is pending.
fn at_spin() -> Repl {
    let mut r = repl(&rules());
    run(
        &mut r,
        &["new pirates --variant printed --seed 3", "play G1"],
    );
    r
}

#[test]
fn one_roll_forces_a_hurricane_and_its_direction() {
    let mut r = at_spin();
    let out = run(&mut r, &["roll hurricane W"]);
    assert_eq!(
        out,
        "hurricane from W\nS1 to act (hurricane W) — 1 option (`moves`)"
    );
    // Two events, as two commands would have made.
    let mut two = at_spin();
    run(&mut two, &["roll hurricane", "roll W"]);
    assert_eq!(fingerprint(&r), fingerprint(&two));
    run(&mut r, &["undo"]);
    assert!(run(&mut r, &["pending"]).contains("waits for chance 'hdir'"));
}

#[test]
fn values_rolled_before_the_spin_is_asked_are_queued_one_event_each() {
    let mut r = repl(&rules());
    run(&mut r, &["new pirates --variant printed --seed 3"]);
    let out = run(&mut r, &["roll hurricane W"]);
    assert!(
        out.starts_with("queued for the next chance event: hurricane; W\n"),
        "{out}"
    );
    let out = run(&mut r, &["play G1"]);
    assert!(out.contains("S1 to act (hurricane W)"), "{out}");
}

#[test]
fn values_no_chain_of_events_takes_are_refused_and_nothing_changes() {
    let mut r = at_spin();
    let before = fingerprint(&r);
    // A wind from W asks for no second spin.
    // The refusal is the pending event's own: the values fit neither it nor a chain.
    assert_eq!(
        fails(&mut r, "roll W hurricane"),
        "spin takes one sector name"
    );
    assert_eq!(fingerprint(&r), before);
    assert!(run(&mut r, &["pending"]).contains("waits for chance 'spin'"));
}
