//! Jackal scenarios J17–J35 (spec §15): flips, arrows, ice, horse, crocodile and loops.

use crate::jackal;

use jackal::{J, pos};

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn j17_flip_a_fixed_closed_tile() {
    let mut j = J::new(&pos("tiles G3=#.\nW1 G2\n"));
    assert_eq!(j.token("G3"), "#.");
    j.play("W1 G2->G3");
    assert_eq!(j.token("G3"), ".");
    assert_eq!(j.place("W1"), "G3");
    assert_eq!(j.turn(), "yellow");
}

#[test]
fn j17_flip_draws_from_the_deck() {
    // An undetermined closed tile waits for the deck; forcing the draw picks the tile.
    let mut j = J::new(&pos("tiles G3=#\nW1 G2\ndeck cr*1 .*1\n"));
    j.play("W1 G2->G3");
    assert!(j.status().starts_with("waiting for deck"), "{}", j.status());
    j.roll("empty");
    assert_eq!(j.token("G3"), ".");
    assert_eq!(j.place("W1"), "G3");
    assert_eq!(j.lua("G:bag_count('deck')"), "1");
}

#[test]
fn j18_no_coin_onto_a_closed_tile() {
    let mut j = J::new(&pos("tiles F5=#.\nW1 E5\ncoins E5=1\n"));
    assert!(!j.has("W1 E5->F5 +coin"));
    assert!(j.has("W1 E5->F5"));
    assert!(j.has("W1 E5->F6 +coin"));
}

#[test]
fn j19_single_arrow() {
    let mut j = J::new(&pos("tiles E4=a1E\nW1 E3\n"));
    j.play("W1 E3->E4");
    assert_eq!(j.place("W1"), "F4");
    assert_eq!(j.turn(), "yellow");
}

#[test]
fn j20_arrow_exit_choice() {
    let mut j = J::new(&pos("tiles E4=a4E\nW1 E3\n"));
    j.play("W1 E3->E4");
    assert!(
        j.status().contains("which arrow to follow"),
        "{}",
        j.status()
    );
    assert_eq!(j.moves(), ["D4", "F4"]);
    j.play("D4");
    assert_eq!(j.place("W1"), "D4");

    let mut j = J::new(&pos("tiles E4=a4E F4=ft\nW1 E3\nB1 F4\n"));
    j.play("W1 E3->E4");
    assert_eq!(j.place("W1"), "D4");
    assert_eq!(j.turn(), "yellow");

    let mut j = J::new(&pos("tiles E4=a1E F4=ft\nW1 E3\nB1 F4\n"));
    j.play("W1 E3->E4");
    assert_eq!(j.place("W1"), "dead");
}

#[test]
fn j21_arrow_exits() {
    let mut j = J::new(&pos(""));
    let cases = [
        ("a1N", "N"),
        ("a1E", "E"),
        ("a1S", "S"),
        ("a1W", "W"),
        ("a2NE", "NE"),
        ("a2SE", "SE"),
        ("a2SW", "SW"),
        ("a2NW", "NW"),
        ("a3NE", "NE SW"),
        ("a3NW", "SE NW"),
        ("a4N", "N S"),
        ("a4E", "E W"),
        ("a5NW", "E S NW"),
        ("a5NE", "NE S W"),
        ("a5SE", "N SE W"),
        ("a5SW", "N E SW"),
        ("a6", "N E S W"),
        ("a7", "NE SE SW NW"),
    ];
    for (label, exits) in cases {
        let got = j.lua(&format!(
            "local A = require('jackal.arrows') local B = require('jackal.board') \
             local k, r = A.parse('{label}') local out = {{}} \
             for i, d in ipairs(A.exits(k, r)) do out[i] = B.DIRS[d][3] end \
             return table.concat(out, ' ')"
        ));
        assert_eq!(got, exits, "{label}");
    }
    // a5NW turned one quarter clockwise is a5NE: exits S, W, NE
    let got = j.lua(
        "local A = require('jackal.arrows') local k, r = A.parse('a5NW') return A.code(k, r + 1)",
    );
    assert_eq!(got, "a5NE");
    // a tile placed at F6 sends W1 along each exit
    let mut j = J::new(&pos("tiles F6=a5NW\nW1 F5\n"));
    j.play("W1 F5->F6");
    assert_eq!(j.moves(), ["E7", "G6", "F5"]);
}

#[test]
fn j22_arrow_into_the_sea() {
    let mut j = J::new(&pos("tiles B5=a1W\nW1 C5\ncoins C5=1\n"));
    j.play("W1 C5->B5 +coin");
    assert_eq!(j.place("W1"), "A5");
    assert_eq!(j.lost(), 1);
    assert_eq!(j.coins_at("C5"), 0);
}

#[test]
fn j23_arrow_onto_own_ship() {
    let mut j = J::new(&pos("tiles G2=a1S\nW1 G3\ncoins G3=1\n"));
    j.play("W1 G3->G2 +coin");
    assert_eq!(j.place("W1"), "ship");
    assert_eq!(j.banked("white"), 1);
}

#[test]
fn j24_arrow_onto_an_enemy_ship() {
    let mut j = J::new(&pos("tiles G12=a1N\nW1 F11\n"));
    j.play("W1 F11->G12");
    assert_eq!(j.place("W1"), "dead");
}

#[test]
fn j25_loop_of_two_arrows() {
    let mut j = J::new(&pos("tiles E4=a1E F4=a1W\nW1 E3\ncoins E3=1\n"));
    j.play("W1 E3->E4 +coin");
    assert_eq!(j.place("W1"), "dead");
    assert_eq!(j.coins_at("E3"), 1);
    assert_eq!(j.lost(), 0);
}

#[test]
fn j26_arrow_at_a_crocodile_is_a_loop() {
    let mut j = J::new(&pos("tiles E4=a1E F4=cr\nW1 E3\n"));
    j.play("W1 E3->E4");
    assert_eq!(j.place("W1"), "dead");
}

#[test]
fn j27_arrow_ice_arrow() {
    let mut j = J::new(&pos("tiles E4=a1N E5=ic E6=a1E\nW1 D4\ncoins D4=1\n"));
    j.play("W1 D4->E4 +coin");
    assert_eq!(j.place("W1"), "F6");
    assert_eq!(j.coins_at("F6"), 1);
    assert_eq!(j.turn(), "yellow");
}

#[test]
fn j28_ice_repeats_the_step() {
    let mut j = J::new(&pos("tiles E5=ic\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "F5");
    let mut j = J::new(&pos("tiles E5=ic F5=ic\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "G5");
    let mut j = J::new(&pos("tiles E5=ic\nW1 D4\n"));
    j.play("W1 D4->E5");
    assert_eq!(j.place("W1"), "F6");
}

#[test]
fn j29_ice_into_the_sea() {
    let mut j = J::new(&pos("tiles B5=ic\nW1 C5\ncoins C5=1\n"));
    j.play("W1 C5->B5 +coin");
    assert_eq!(j.place("W1"), "A5");
    assert_eq!(j.lost(), 1);
}

#[test]
fn j30_ice_then_crocodile() {
    let mut j = J::new(&pos("tiles E5=ic F5=cr\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "D5");
    assert_eq!(j.turn(), "yellow");
}

#[test]
fn j31_knight_flips_only_its_landing() {
    let mut j = J::new(&pos("tiles E4=hs D6=#. F6=#. E5=#. F5=#.\nW1 E3\n"));
    j.play("W1 E3->E4");
    assert!(j.status().contains("where to jump"), "{}", j.status());
    assert_eq!(
        sorted(j.moves()),
        sorted(
            ["C3", "C5", "D2", "D6", "F2", "F6", "G3", "G5"]
                .map(String::from)
                .to_vec()
        )
    );
    j.play("F6");
    assert_eq!(j.place("W1"), "F6");
    assert_eq!(j.token("F6"), ".");
    assert_eq!(j.token("E5"), "#.");
    assert_eq!(j.token("F5"), "#.");
    assert_eq!(j.token("D6"), "#.");
}

#[test]
fn j32_ice_after_a_knight_jump() {
    let mut j = J::new(&pos("tiles E4=hs F6=ic\nW1 E3\n"));
    j.play("W1 E3->E4");
    j.play("F6");
    assert!(j.status().contains("where to jump"), "{}", j.status());
    assert_eq!(
        sorted(j.moves()),
        sorted(
            ["D5", "D7", "E4", "E8", "G4", "G8", "H5", "H7"]
                .map(String::from)
                .to_vec()
        )
    );
    j.play("G8");
    assert_eq!(j.place("W1"), "G8");

    let mut j = J::new(&pos(
        "set ice_after_horse=same_vector\ntiles E4=hs F6=ic\nW1 E3\n",
    ));
    j.play("W1 E3->E4");
    j.play("F6");
    assert_eq!(j.place("W1"), "G8");
    assert_eq!(j.turn(), "yellow");
}

#[test]
fn j33_knight_onto_the_ship_or_into_the_sea() {
    let body = "ships white=D1 yellow=A7 black=G13 red=M7\ntiles C3=hs\nW1 C4\ncoins C4=1\n";
    let mut j = J::new(&pos(body));
    j.play("W1 C4->C3 +coin");
    let m = j.moves();
    for t in ["A2", "A4", "B1", "D1"] {
        assert!(m.iter().any(|x| x == t), "{t} in {m:?}");
    }
    j.play("D1");
    assert_eq!(j.place("W1"), "ship");
    assert_eq!(j.banked("white"), 1);

    let mut j = J::new(&pos(body));
    j.play("W1 C4->C3 +coin");
    j.play("A4");
    assert_eq!(j.place("W1"), "A4");
    assert_eq!(j.lost(), 1);
}

#[test]
fn j34_crocodile_sends_back() {
    let mut j = J::new(&pos("tiles E4=cr\nW1 E3\n"));
    j.play("W1 E3->E4");
    assert_eq!(j.place("W1"), "E3");
    assert_eq!(j.turn(), "yellow");

    let mut j = J::new(&pos("tiles G2=cr\n"));
    j.play("W1 G1->G2");
    assert_eq!(j.place("W1"), "ship");
    assert_eq!(j.turn(), "yellow");
}

#[test]
fn j35_crocodile_back_to_the_spinner_start() {
    let mut j = J::new(&pos("tiles E5=s2 E6=cr\nW1 E5:2\n"));
    j.play("W1 E5:2->E6");
    assert_eq!(j.place("W1"), "E5:1");
}
