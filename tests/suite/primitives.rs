//! The kernel's primitives for turn units, routes, links, grids, piece removal, table props
//! and bulk reads, checked from Lua (the game
//! tests/fixtures/primitives/rules/prims runs one check per `case` switch in its setup) and
//! across undo, save and replay.

use crate::common;

use std::path::PathBuf;

use common::{fails, repl, run};

fn rules() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/primitives/rules")
}

/// Runs the Lua check `case` (it raises an error naming what went wrong).
fn check(case: &str) {
    let mut r = repl(&rules());
    run(&mut r, &[&format!("new prims --seed 1 --set case={case}")]);
}

#[test]
fn without_units_every_seat_is_a_unit() {
    check("seats_are_units");
}

#[test]
fn units_take_turns_for_their_controllers_with_extra_turns_and_skips() {
    check("units");
}

#[test]
fn bad_units_are_errors_that_change_nothing() {
    check("bad_units");
}

#[test]
fn a_route_that_passes_a_cell_twice_counts_pieces_at_their_own_position() {
    check("routes");
}

#[test]
fn bad_route_calls_are_errors() {
    check("bad_routes");
}

#[test]
fn links_run_both_ways_or_one_way() {
    check("links");
}

#[test]
fn grid_neighbours_and_distances() {
    check("grids");
}

#[test]
fn a_removed_piece_is_gone_and_its_id_is_not_reused() {
    check("removal");
}

#[test]
fn props_hold_string_keyed_tables() {
    check("maps");
}

#[test]
fn many_pieces_props_in_one_call() {
    check("bulk");
}

#[test]
fn units_and_track_positions_survive_undo_save_and_load() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.sav");
    let mut r = repl(&rules());
    run(&mut r, &["new prims --seed 1 --set colours=true"]);
    let show = |r: &mut tortuga::repl::Repl| run(r, &["lua hook.render(G)"]).trim().to_string();
    assert_eq!(show(&mut r), "S at nil");
    run(&mut r, &["play advance", "play put 4"]);
    assert_eq!(show(&mut r), "E at 4");
    run(&mut r, &["play skip next"]);
    assert_eq!(show(&mut r), "W at 4", "N skipped");
    run(&mut r, &["undo"]);
    assert_eq!(show(&mut r), "E at 4");
    run(&mut r, &["undo"]);
    assert_eq!(show(&mut r), "E at nil");
    run(
        &mut r,
        &["redo", "play extra", &format!("save {}", save.display())],
    );
    assert_eq!(show(&mut r), "E at 4");
    let mut other = repl(&rules());
    run(&mut other, &[&format!("load {}", save.display())]);
    assert_eq!(show(&mut other), "E at 4");
    run(&mut other, &["play advance"]);
    assert_eq!(
        show(&mut other),
        "N at 4",
        "the extra turn was used up before the save"
    );
    assert!(fails(&mut other, "play nothing").contains("nothing"));
}
