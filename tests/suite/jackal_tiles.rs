//! Jackal scenarios J36–J65 (spec §15): spinners, trap, cannibal, fortresses, chests, plane,
//! balloon, cannon, rum barrel, jungle and items.

use crate::jackal;

use jackal::{J, pos};

#[test]
fn j36_spinner_steps() {
    let mut j = J::new(&pos("tiles E5=s3\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "E5:1");
    j.until("white");
    assert_eq!(j.moves_of("W1 "), ["W1 E5:1->E5:2"]);
    j.play("W1 E5:1->E5:2");
    j.until("white");
    assert_eq!(j.moves_of("W1 "), ["W1 E5:2->E5:3"]);
    j.play("W1 E5:2->E5:3");
    j.until("white");
    assert_eq!(
        j.moves_of("W1 "),
        [
            "W1 E5:3->D6",
            "W1 E5:3->E6",
            "W1 E5:3->F6",
            "W1 E5:3->D5",
            "W1 E5:3->F5",
            "W1 E5:3->D4",
            "W1 E5:3->E4",
            "W1 E5:3->F4"
        ]
    );
}

#[test]
fn j37_hit_one_step_ahead() {
    let mut j = J::new(&pos("tiles E5=s3\nW1 E5:1\nB1 E5:2\n"));
    j.play("W1 E5:1->E5:2");
    assert_eq!(j.place("B1"), "ship");
    assert_eq!(j.place("W1"), "E5:2");
}

#[test]
fn j38_no_hit_backwards() {
    let mut j = J::new(&pos("tiles E5=s3\nW1 E5:3\nB1 E5:2\n"));
    assert!(!j.moves_of("W1 ").iter().any(|m| m.contains("E5:2")));
    j.until("black");
    j.play("B1 E5:2->E5:3");
    assert_eq!(j.place("W1"), "ship");
    assert_eq!(j.place("B1"), "E5:3");
}

#[test]
fn j39_entering_hits_step_one() {
    let mut j = J::new(&pos("tiles E5=s4\nB1 E5:1\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("B1"), "ship");
    assert_eq!(j.place("W1"), "E5:1");
}

#[test]
fn j40_coins_move_step_by_step() {
    let mut j = J::new(&pos("tiles E5=s2\nW1 E5:1\ncoins E5:1=1\n"));
    j.play("W1 E5:1->E5:2 +coin");
    assert_eq!(j.coins_at("E5:2"), 1);
    assert_eq!(j.coins_at("E5:1"), 0);

    let mut j = J::new(&pos("tiles E5=s2\nW1 E5:1\nB1 E5:2\ncoins E5:1=1\n"));
    assert!(!j.has("W1 E5:1->E5:2 +coin"));
    j.play("W1 E5:1->E5:2");
    assert_eq!(j.place("B1"), "ship");
    assert_eq!(j.coins_at("E5:1"), 1);
}

#[test]
fn j41_trap_and_rescue() {
    let mut j = J::new(&pos("tiles E5=tr\nW1 D5\nW2 F5\n"));
    j.play("W1 D5->E5");
    assert!(j.char_line("W1").unwrap().contains("trapped"));
    j.until("white");
    assert!(j.moves_of("W1 ").is_empty(), "{:?}", j.moves());
    j.play("W2 F5->E5");
    assert!(!j.char_line("W1").unwrap().contains("trapped"));
    assert!(!j.char_line("W2").unwrap().contains("trapped"));
    j.until("white");
    j.play("W2 E5->F5");
    j.until("white");
    j.play("W1 E5->D5");
    j.until("white");
    j.play("W1 D5->E5");
    assert!(j.char_line("W1").unwrap().contains("trapped"));
}

#[test]
fn j42_enemy_hits_the_trapped_and_is_trapped() {
    let mut j = J::new(&pos("turn black\ntiles E5=tr\nW1 E5 trapped\nB1 D5\n"));
    j.play("B1 D5->E5");
    assert_eq!(j.place("W1"), "ship");
    assert!(!j.char_line("W1").is_some_and(|l| l.contains("trapped")));
    assert!(j.char_line("B1").unwrap().contains("trapped"));
}

#[test]
fn j43_cannibal() {
    let mut j = J::new(&pos("tiles E5=cn\nW1 D5\ncoins D5=1\n"));
    j.play("W1 D5->E5 +coin");
    assert_eq!(j.place("W1"), "dead");
    assert_eq!(j.lost(), 1);
}

#[test]
fn j44_fortress() {
    let mut j = J::new(&pos("tiles E5=ft\nB1 E5\nW1 D5\n"));
    assert!(!j.moves_of("W1 ").iter().any(|m| m.contains("->E5")));
    let mut j = J::new(&pos("tiles E6=ft\nW1 D6\ncoins D6=1\n"));
    assert!(j.has("W1 D6->E6"));
    assert!(!j.has("W1 D6->E6 +coin"));
}

#[test]
fn j45_ice_into_an_enemy_fortress() {
    let mut j = J::new(&pos("tiles D5=ic E5=ft\nW1 C5\nB1 E5\ncoins C5=1\n"));
    j.play("W1 C5->D5 +coin");
    assert_eq!(j.place("W1"), "dead");
    assert_eq!(j.coins_at("C5"), 1);
}

#[test]
fn j46_revive() {
    let mut j = J::new(&pos("tiles E5=rf\nW1 E5\nW2 dead\nW3 D4\n"));
    j.play("W1 revive W2");
    assert_eq!(j.place("W2"), "E5");
    assert_eq!(j.turn(), "yellow");
    j.until("white");
    assert!(!j.moves_of("W2 ").is_empty());

    let with_ben = "tiles E5=rf\nW1 E5\nW2 dead\nW3 D4\nBen W D3\n";
    let mut j = J::new(&pos(with_ben));
    assert!(!j.has("W1 revive W2"));
    let mut j = J::new(&pos(&format!("set respawn_limit=pirates\n{with_ben}")));
    assert!(j.has("W1 revive W2"));
    let mut j = J::new(&pos("tiles E5=rf\nW1 E5\nW2 dead\nW3 D4\nMis W D3\n"));
    assert!(j.has("W1 revive W2"));
}

#[test]
fn j46_newborn_skips_a_turn() {
    let mut j = J::new(&pos(
        "set newborn_skips_turn=true\ntiles E5=rf\nW1 E5\nW2 dead\nW3 D4\n",
    ));
    j.play("W1 revive W2");
    j.until("white");
    assert!(j.moves_of("W2 ").is_empty());
    j.play("W3 D4->D3");
    j.until("white");
    assert!(!j.moves_of("W2 ").is_empty());
}

#[test]
fn j47_chest() {
    let mut j = J::new(&pos("tiles E5=#c3\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "E5");
    assert_eq!(j.coins_at("E5"), 3);
}

#[test]
fn j48_plane_flight() {
    let mut j = J::new(&pos("tiles E5=#pl\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert!(j.status().contains("whether to fly now"), "{}", j.status());
    assert_eq!(j.moves(), ["fly", "wait"]);
    j.play("fly");
    assert!(j.status().contains("where to fly"), "{}", j.status());
    let m = j.moves();
    assert_eq!(m.len(), 117, "{m:?}");
    assert!(m.contains(&"G1".to_string()));
    assert!(!m.contains(&"E5".to_string()));
    j.play("K10");
    assert_eq!(j.place("W1"), "K10");
    assert_eq!(j.token("E5"), "pl-");
}

#[test]
fn j49_fly_home_with_a_coin() {
    let mut j = J::new(&pos("tiles E5=pl\nW1 E5\ncoins E5=1\n"));
    j.play("W1 E5->G1 +coin");
    assert_eq!(j.banked("white"), 1);
    assert_eq!(j.token("E5"), "pl-");
}

#[test]
fn j50_wait_on_the_plane() {
    let mut j = J::new(&pos("tiles E5=pl\nW1 D5\nW2 D6\ncoins D6=1\n"));
    j.play("W1 D5->E5");
    j.play("wait");
    assert_eq!(j.place("W1"), "E5");
    j.until("white");
    // flights only: the 116 other land cells and the ship, no coin to take along
    let w1 = j.moves_of("W1 ");
    assert_eq!(w1.len(), 117, "{w1:?}");
    assert!(w1.contains(&"W1 E5->K10".to_string()));
    assert!(w1.contains(&"W1 E5->G1".to_string()));
    j.play("W2 D6->E5 +coin");
    j.play("wait");
    j.until("white");
    assert!(j.has("W1 E5->G1 +coin"));
}

#[test]
fn j51_enemy_hits_the_waiter_and_may_fly() {
    let mut j = J::new(&pos("turn black\ntiles E5=pl\nW1 E5\nB1 D5\n"));
    j.play("B1 D5->E5");
    assert_eq!(j.place("W1"), "ship");
    assert!(j.status().contains("whether to fly now"), "{}", j.status());
}

#[test]
fn j52_flight_onto_ice_and_crocodile() {
    let mut j = J::new(&pos("tiles E5=pl K10=ic\nW1 E5\n"));
    j.play("W1 E5->K10");
    assert!(j.status().contains("where to fly"), "{}", j.status());
    j.play("G1");
    assert_eq!(j.place("W1"), "ship");

    let mut j = J::new(&pos("tiles E5=pl K10=cr\nW1 E5\n"));
    j.play("W1 E5->K10");
    assert_eq!(j.place("W1"), "E5");
    assert_eq!(j.token("E5"), "pl-");
    assert_eq!(j.turn(), "yellow");
}

#[test]
fn j53_balloon() {
    let mut j = J::new(&pos("tiles E5=bl\nW1 D5\ncoins D5=1\n"));
    j.play("W1 D5->E5 +coin");
    assert_eq!(j.place("W1"), "ship");
    assert_eq!(j.banked("white"), 1);

    let mut j = J::new(&pos("set seating=2v2\nturn black\ntiles E5=bl\nB1 D5\n"));
    j.play("B1 D5->E5");
    assert_eq!(j.place("B1"), "ship");
}

#[test]
fn j54_cannon_to_own_ship() {
    let mut j = J::new(&pos("tiles G5=guS\nW1 F5\ncoins F5=1\n"));
    j.play("W1 F5->G5 +coin");
    assert_eq!(j.place("W1"), "ship");
    assert_eq!(j.banked("white"), 1);
}

#[test]
fn j55_cannon_at_an_enemy_ship() {
    let mut j = J::new(&pos("tiles G5=guN\nW1 F5\ncoins F5=1\n"));
    j.play("W1 F5->G5 +coin");
    assert_eq!(j.place("W1"), "dead");
    assert_eq!(j.lost(), 1);
}

#[test]
fn j56_cannon_into_the_sea() {
    let mut j = J::new(&pos("tiles E5=guW\nW1 D4\n"));
    j.play("W1 D4->E5");
    assert_eq!(j.place("W1"), "A5");
}

#[test]
fn j57_cannon_to_a_cut_corner() {
    let mut j = J::new(&pos("tiles C2=guW\nW1 D2\n"));
    j.play("W1 D2->C2");
    assert_eq!(j.place("W1"), "B2");
}

#[test]
fn j58_rum_barrel() {
    let mut j = J::new(&pos("tiles E5=rb\nW1 D5\nW2 D3\n"));
    j.play("W1 D5->E5");
    j.until("white");
    assert!(j.moves_of("W1 ").is_empty(), "{:?}", j.moves());
    assert!(!j.moves_of("W2 ").is_empty());
    j.play("W2 D3->C3");
    j.until("white");
    assert!(!j.moves_of("W1 ").is_empty());
    j.play("W1 E5->D5");
    j.until("white");
    j.play("W1 D5->E5");
    j.until("white");
    assert!(j.moves_of("W1 ").is_empty());
}

#[test]
fn j59_coin_stays_when_the_chain_reaches_a_jungle() {
    let mut j = J::new(&pos("tiles E4=a1N E5=jg\nW1 D4\ncoins D4=1\n"));
    j.play("W1 D4->E4 +coin");
    assert_eq!(j.place("W1"), "E5");
    assert_eq!(j.coins_at("D4"), 1);
}

#[test]
fn j60_coin_stays_when_the_chain_reaches_a_closed_tile() {
    let mut j = J::new(&pos("tiles E4=a1N E5=#.\nW1 D4\ncoins D4=1\n"));
    j.play("W1 D4->E4 +coin");
    assert_eq!(j.token("E5"), ".");
    assert_eq!(j.place("W1"), "E5");
    assert_eq!(j.coins_at("D4"), 1);
}

#[test]
fn j61_jungle_shelters_enemies() {
    let mut j = J::new(&pos("tiles E5=jg\nB1 E5\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "E5");
    assert_eq!(j.place("B1"), "E5");
}

#[test]
fn j62_hit_all_enemies_on_a_cell() {
    let mut j = J::new(&pos("B1 F5\nB2 F5\nW1 E5\ncoins F5=2\n"));
    j.play("W1 E5->F5");
    assert_eq!(j.place("B1"), "ship");
    assert_eq!(j.place("B2"), "ship");
    assert_eq!(j.coins_at("F5"), 2);
    assert_eq!(j.place("W1"), "F5");
}

#[test]
fn j63_no_attack_with_a_coin() {
    let mut j = J::new(&pos("W1 E5\nB1 F5\ncoins E5=1\n"));
    assert!(!j.has("W1 E5->F5 +coin"));
    assert!(j.has("W1 E5->F5"));
}

#[test]
fn j64_stepping_onto_an_enemy_ship() {
    let mut j = J::new(&pos("W1 F12\n"));
    assert!(j.has("W1 F12->G13"));
    j.play("W1 F12->G13");
    assert_eq!(j.place("W1"), "dead");
}

#[test]
fn j65_arrow_into_the_sea_hits_a_swimmer() {
    let mut j = J::new(&pos("tiles B5=a1W\nB1 A5\nW1 C5\n"));
    j.play("W1 C5->B5");
    assert_eq!(j.place("B1"), "dead");
    assert_eq!(j.place("W1"), "A5");
}
