//! The whirlpool (rules/jackal/tiles/whirlpool.lua), a tile with a randomizer of its own: a
//! pirate stopping on it is swept to the sea cell that randomizer draws, and arrives there as
//! after any move. The variant `whirlpool` deals two into the deck.

mod common;
mod jackal;

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
