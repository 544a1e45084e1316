//! The house tiles of rules/jackal/tiles/ that no box holds, each dealt by a variant of its
//! own: the whirlpool (a randomizer of its own sweeps a pirate to a sea cell), the
//! teleporters (a pirate stopping on one is carried to the other) and the toll bridge (it
//! costs a banked coin, paid to the team that plays next).

use crate::jackal;

use jackal::{J, pos};

/// W1 steps from D5 onto the whirlpool at E5 and the draw is forced to sea cell `k`.
fn swept(k: u32) -> J {
    let mut j = J::new(&pos("tiles E5=whirlpool\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert!(
        j.status().starts_with("waiting for whirlpool"),
        "{}",
        j.status()
    );
    j.roll(&k.to_string());
    j
}

#[test]
fn the_whirlpool_sweeps_a_pirate_to_the_drawn_sea_cell() {
    // Sea cells in reading order: A13 is the first, M13 the thirteenth.
    let mut j = swept(0);
    assert_eq!(j.place("W1"), "A13");
    assert!(
        j.log().contains("W1 is swept from E5 to A13"),
        "{}",
        j.log()
    );
    let mut j = swept(12);
    assert_eq!(j.place("W1"), "M13");
}

#[test]
fn swept_onto_his_own_ship_he_boards_it() {
    // 13 + 4 + 18 + 4 sea cells come before row 1; G1, the white ship, is the 7th of that row.
    let mut j = swept(45);
    assert_eq!(j.place("W1"), "ship");
}

#[test]
fn an_empty_tile_leaves_him_where_he_stepped() {
    let mut j = J::new(&pos("tiles E5=.\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "E5");
}

#[test]
fn a_draw_the_whirlpool_cannot_make_is_refused() {
    let mut j = J::new(&pos("tiles E5=whirlpool\nW1 D5\n"));
    j.play("W1 D5->E5");
    let e = j
        .try_run("roll 52")
        .expect_err("52 is not a sea cell's index");
    assert!(e.contains("52"), "{e}");
    j.roll("3");
    assert_eq!(j.place("W1"), "D13");
}

#[test]
fn the_variant_deals_two_whirlpools_and_the_box_none() {
    let mut j = J::fresh("--variant whirlpool");
    assert_eq!(j.lua("require('jackal.packs').counts(G).whirlpool"), "2");
    assert_eq!(j.lua("require('jackal.packs').counts(G).empty"), "16");
    let mut j = J::fresh("");
    assert_eq!(
        j.lua("require('jackal.packs').counts(G).whirlpool or 0"),
        "0"
    );
}

#[test]
fn a_teleporter_carries_a_pirate_to_the_other_one() {
    let mut j = J::new(&pos("tiles E5=teleporter H8=teleporter\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "H8");
    assert!(
        j.log().contains("W1 is teleported from E5 to H8"),
        "{}",
        j.log()
    );
}

#[test]
fn a_teleporter_waits_while_the_other_lies_face_down() {
    let mut j = J::new(&pos("tiles E5=teleporter H8=#teleporter\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "E5");
}

#[test]
fn a_teleported_pirate_hits_the_enemy_at_the_other_end() {
    let mut j = J::new(&pos("tiles E5=teleporter H8=teleporter\nW1 D5\nB1 H8\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "H8");
    assert_eq!(j.place("B1"), "ship");
}

#[test]
fn the_variant_deals_a_pair_of_teleporters() {
    let mut j = J::fresh("--variant teleporters");
    assert_eq!(j.lua("require('jackal.packs').counts(G).teleporter"), "2");
}

#[test]
fn a_toll_bridge_is_closed_to_a_team_with_an_empty_hold() {
    let mut j = J::new(&pos("tiles E5=toll_bridge\nW1 D5\n"));
    assert!(!j.has("W1 D5->E5"), "{:?}", j.moves_of("W1 "));
    assert!(j.has("W1 D5->E6"));
}

#[test]
fn crossing_a_toll_bridge_pays_a_coin_to_the_next_team() {
    let mut j = J::new(&pos("tiles E5=toll_bridge\nbanked white=2\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "E5");
    assert_eq!(j.banked("white"), 1);
    assert_eq!(j.banked("yellow"), 1);
    assert!(
        j.log().contains("W1 pays a coin of toll to yellow"),
        "{}",
        j.log()
    );
}

#[test]
fn turning_up_a_toll_bridge_with_an_empty_hold_kills_as_a_forbidden_cell() {
    let mut j = J::new(&pos("tiles E5=#toll_bridge\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "dead");
}

#[test]
fn the_variant_deals_two_toll_bridges() {
    let mut j = J::fresh("--variant toll_bridge");
    assert_eq!(j.lua("require('jackal.packs').counts(G).toll_bridge"), "2");
}
