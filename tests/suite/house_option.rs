//! `new --house RULE`: one house rule switched on beyond the variant's, for every game with a
//! `house/` folder; the game's origin records it, so a save loads and replays with it.

use crate::common;

use common::{fails, repl, rules, run};

/// Pirates as printed, S1's first turn with the wind from E: the options offered.
fn printed_moves(house: &str) -> String {
    let mut r = repl(&rules());
    run(
        &mut r,
        &[
            &format!("new pirates --variant printed --seed 5 {house}"),
            "play G1",
            "roll E",
            "moves",
        ],
    )
}

#[test]
fn a_house_rule_switched_on_alone_changes_the_printed_rules() {
    // move_fewer_or_stay: a ship may stop short of the wind's full distance.
    assert!(!printed_moves("").contains("move G3 N 1"));
    let with = printed_moves("--house move_fewer_or_stay");
    assert!(with.contains("move G3 N 1"), "{with}");
    assert!(with.contains("move G3 N 2"), "{with}");
}

#[test]
fn the_rules_list_the_house_rule_on_its_hooks_and_a_save_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("h.sav");
    let file = file.display();
    let mut r = repl(&rules());
    run(
        &mut r,
        &["new pirates --variant printed --house shipwreck_respin --seed 5"],
    );
    let stack = run(&mut r, &["rules drive_ashore"]);
    assert!(stack.contains("house/shipwreck_respin.lua"), "{stack}");
    run(&mut r, &["play G1", "roll E", &format!("save {file}")]);
    let text = std::fs::read_to_string(dir.path().join("h.sav")).unwrap();
    assert!(
        text.contains("\nvariant printed\nhouse shipwreck_respin\n"),
        "{text}"
    );

    let mut other = repl(&rules());
    run(&mut other, &["new pirates --variant printed --seed 5"]);
    let plain = run(&mut other, &["rules drive_ashore"]);
    assert!(!plain.contains("shipwreck_respin"), "{plain}");
    let loaded = run(&mut other, &[&format!("load {file}")]);
    assert!(loaded.contains("2 steps"), "{loaded}");
    assert!(run(&mut other, &["rules drive_ashore"]).contains("house/shipwreck_respin.lua"));
    run(&mut other, &[&format!("replay {file}")]);
    assert!(run(&mut other, &["rules drive_ashore"]).contains("house/shipwreck_respin.lua"));
}

#[test]
fn an_unknown_house_rule_is_refused_with_the_ones_the_game_has() {
    let mut r = repl(&rules());
    let e = fails(&mut r, "new pirates --variant printed --house shipwreck");
    assert_eq!(
        e,
        "--house shipwreck: pirates has no house rule 'shipwreck' (house rules: \
         brigantine_row_upwind, golden_wreck_trophy, move_fewer_or_stay, shipwreck_respin)"
    );
    let e = fails(&mut r, "new backgammon --house shipwreck_respin");
    assert!(
        e.contains(
            "backgammon has no house rule 'shipwreck_respin' (house rules: automatic_doubles,"
        ),
        "{e}"
    );
}
