//! Jackal scenarios J66–J85 (spec §15): caves, earthquake, lighthouse, grass, caramba,
//! galleon, Ben Gunn, Friday, the missionary and rum.

use crate::jackal;

use jackal::{J, pos};

#[test]
fn j66_cave_swap_when_the_second_cave_opens() {
    let mut j = J::new(&pos("tiles C4=#cv J9=#cv\nW1 C5\nB1 J10\n"));
    j.play("W1 C5->C4");
    assert_eq!(j.place("W1"), "lost:C4");
    j.until("black");
    j.play("B1 J10->J9");
    assert_eq!(j.place("W1"), "J9");
    assert_eq!(j.place("B1"), "C4");
}

#[test]
fn j67_blocked_exit() {
    let mut j = J::new(&pos("tiles C4=cv J9=cv\nB1 J9\nW1 C5\n"));
    j.play("W1 C5->C4");
    assert_eq!(j.place("W1"), "lost:C4");
    j.until("black");
    j.play("B1 J9->J10");
    j.until("white");
    assert!(j.has("W1 cave->J9"));
    j.play("W1 cave->J9");
    assert_eq!(j.place("W1"), "J9");
}

#[test]
fn j68_cave_exit_choice() {
    let mut j = J::new(&pos("tiles C4=cv J9=cv F11=cv\nW1 C5\n"));
    j.play("W1 C5->C4");
    assert!(
        j.status().contains("which cave to come out of"),
        "{}",
        j.status()
    );
    assert_eq!(j.moves(), ["F11", "J9"]);
    j.play("F11");
    assert_eq!(j.place("W1"), "F11");
    j.until("white");
    assert_eq!(j.moves_of("W1 ").len(), 8, "{:?}", j.moves_of("W1 "));
}

#[test]
fn j69_coin_through_the_cave() {
    let mut j = J::new(&pos("tiles C4=cv J9=cv\nW1 C5\ncoins C5=1\n"));
    j.play("W1 C5->C4 +coin");
    assert_eq!(j.place("W1"), "J9");
    assert_eq!(j.coins_at("J9"), 1);
    assert_eq!(j.coins_at("C5"), 0);
}

#[test]
fn j70_take_the_coin_of_the_one_you_hit() {
    let mut j = J::new(&pos("tiles C4=cv J9=cv\nB1 J9\nW1 J10\ncoins J9=1\n"));
    j.play("W1 J10->J9");
    assert_eq!(j.place("B1"), "ship");
    assert!(
        j.status()
            .contains("whether to take the coin into the cave"),
        "{}",
        j.status()
    );
    j.play("take");
    assert_eq!(j.place("W1"), "C4");
    assert_eq!(j.coins_at("C4"), 1);
    assert_eq!(j.coins_at("J9"), 0);
}

#[test]
fn j71_earthquake() {
    let mut j = J::new(&pos("tiles E5=#eq C3=#. K9=cr\nW1 D5\ncoins F6=1\n"));
    j.play("W1 D5->E5");
    assert!(
        j.status().contains("which tile the earthquake moves"),
        "{}",
        j.status()
    );
    let m = j.moves();
    assert!(!m.contains(&"E5".to_string()) && !m.contains(&"F6".to_string()));
    assert!(m.contains(&"C3".to_string()) && m.contains(&"K9".to_string()));
    j.play("C3");
    assert!(
        j.status().contains("where the earthquake moves it"),
        "{}",
        j.status()
    );
    assert!(!j.moves().contains(&"C3".to_string()));
    j.play("K9");
    assert_eq!(j.token("C3"), "cr");
    assert_eq!(j.token("K9"), "#.");
    assert_eq!(j.token("E5"), "eq-");
}

#[test]
fn a_peeked_tile_stays_known_when_the_earthquake_moves_it() {
    for variant in ["peek4", "peek4_permute"] {
        peeked_then_quake(variant);
    }
}

fn peeked_then_quake(variant: &str) {
    let mut j = J::new(&pos(&format!(
        "set lighthouse={variant}\ntiles E5=#lh C3=#cr E7=eq\nW1 D5\nY1 D7\n"
    )));
    j.play("W1 D5->E5");
    // C3 was the only closed tile: white has looked at it, and it stays closed
    assert_eq!(j.lua("table.concat(G:secret_get('seen_W'), ',')"), "C3");
    assert_eq!(j.token("C3"), "#cr");
    assert_eq!(j.turn(), "yellow");
    j.play("Y1 D7->E7");
    j.play("C3");
    j.play("F3");
    assert_eq!(j.token("F3"), "#cr");
    assert_eq!(j.token("C3"), ".");
    // what white knows moved with the tile, and is still white's secret only
    assert_eq!(j.lua("table.concat(G:secret_get('seen_W'), ',')"), "F3");
    assert_eq!(j.lua("G:can_see('seen_W', 1)"), "true");
    assert_eq!(j.lua("G:can_see('seen_W', 2)"), "false");
    let text = j.export();
    assert!(text.lines().any(|l| l == "seen white=F3"), "{text}");
    let mut k = J::new(&text);
    assert_eq!(k.export(), text);
}

#[test]
fn j72_lighthouse() {
    let mut j = J::new(&pos(
        "tiles E5=#lh C3=#gr C4=#fr C5=#r2 C6=#c1\nW1 D5\nY1 D4\n",
    ));
    j.play("W1 D5->E5");
    assert!(
        j.status().contains("which tiles the lighthouse shows"),
        "{}",
        j.status()
    );
    assert_eq!(j.moves(), ["C6", "C5", "C4", "C3"]);
    j.play("C3");
    j.play("C4");
    j.play("C5");
    // the last pick has one option left: answered by itself
    for c in ["C3", "C4", "C5", "C6"] {
        assert!(!j.token(c).starts_with('#'), "{c} {}", j.token(c));
    }
    assert_eq!(j.token("C4"), "fr");
    assert_eq!(j.token("C5"), "r2");
    assert_eq!(j.bottles("white"), 0);
    assert_eq!(j.coins_at("C6"), 1);
    assert_eq!(j.place("Fri"), "none");
    // grass: yellow's turn is played by black's player
    assert_eq!(j.turn(), "yellow");
    assert_eq!(j.lua("G:current()"), "3");
    j.play("Y1 D4->C4");
    assert_eq!(j.char_line("Fri").unwrap(), "Fri Y C4");
    assert_eq!(j.token("C4"), "fr-");
}

#[test]
fn j73_ben_gunn() {
    let mut j = J::new(&pos("tiles E5=#bg\nW1 D5\nB1 F5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.char_line("Ben").unwrap(), "Ben W E5");
    j.until("white");
    let ben = j.moves_of("Ben ");
    assert!(!ben.is_empty());
    j.play("W1 E5->E4");
    j.until("black");
    j.play("B1 F5->E5");
    assert_eq!(j.place("Ben"), "ship");
}

#[test]
fn j74_galleon() {
    let mut j = J::new(&pos("tiles F2=#gl\nW1 F3\n"));
    j.play("W1 F3->F2");
    assert!(j.export().contains("treasure F2"), "{}", j.export());
    j.until("white");
    j.play("W1 F2->G1 +treasure");
    assert_eq!(j.banked("white"), 3);
}

#[test]
fn j75_caramba() {
    let mut j = J::new(&pos("tiles E5=#ca\nW1 D5\nB1 H8\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "E5");
    assert_eq!(j.place("B1"), "H8");
    let mut j = J::new(&pos(
        "set caramba=all_to_ships\ntiles E5=#ca\nW1 D5\nB1 H8\nY2 A3\n",
    ));
    j.play("W1 D5->E5");
    assert_eq!(j.place("W1"), "ship");
    assert_eq!(j.place("B1"), "ship");
    assert_eq!(j.place("Y2"), "A3", "swimmers stay");
}

#[test]
fn j76_grass_shifts_control_for_a_round() {
    let mut j = J::new(&pos("tiles E5=#gr\nW1 D5\n"));
    j.play("W1 D5->E5");
    let mut seen = vec![];
    for _ in 0..5 {
        seen.push(format!("{} {}", j.turn(), j.lua("G:current()")));
        let m = j.moves();
        let pick = m.iter().find(|l| l.starts_with("ship")).unwrap().clone();
        j.play(&pick);
    }
    assert_eq!(
        seen,
        ["yellow 3", "black 4", "red 1", "white 2", "yellow 2"]
    );
}

#[test]
fn j76_no_rum_during_a_shifted_turn() {
    let mut j = J::new(&pos(
        "tiles E5=#gr G5=tr\nW1 D5\nY1 G5 trapped\nbottles yellow=1\n",
    ));
    j.play("W1 D5->E5");
    assert_eq!(j.turn(), "yellow");
    assert!(
        !j.moves().iter().any(|m| m.contains("+rum")),
        "{:?}",
        j.moves()
    );
}

#[test]
fn j77_friday_changes_sides() {
    let mut j = J::new(&pos("tiles E5=#fr\nW1 D5\nB1 F5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.char_line("Fri").unwrap(), "Fri W E5");
    j.until("black");
    j.play("B1 F5->E5");
    assert_eq!(j.place("W1"), "ship");
    assert_eq!(j.char_line("Fri").unwrap(), "Fri B E5");
    assert_eq!(j.place("B1"), "E5");
}

#[test]
fn j78_friday_is_immune() {
    let mut j = J::new(&pos("tiles E5=cn\nFri W D5\n"));
    j.play("Fri D5->E5");
    assert_eq!(j.place("Fri"), "E5");
    let mut j = J::new(&pos("tiles E5=tr\nFri W D5\n"));
    j.play("Fri D5->E5");
    assert_eq!(j.char_line("Fri").unwrap(), "Fri W E5");
    let mut j = J::new(&pos("tiles E5=s5\nFri W D5\n"));
    j.play("Fri D5->E5");
    assert_eq!(j.place("Fri"), "E5:5");
    j.until("white");
    assert!(j.has("Fri E5:5->E6"));
}

#[test]
fn j79_attacking_friday_on_the_cannibal() {
    let mut j = J::new(&pos("turn black\ntiles E5=cn\nFri W E5\nB1 D5\n"));
    j.play("B1 D5->E5");
    assert_eq!(j.place("B1"), "dead");
    assert_eq!(j.char_line("Fri").unwrap(), "Fri W E5");
}

#[test]
fn j80_friday_finds_rum() {
    let mut j = J::new(&pos("tiles E5=#r3\nFri W D5\n"));
    j.play("Fri D5->E5");
    assert_eq!(j.place("Fri"), "gone");
    assert_eq!(j.bottles("white"), 2);
}

#[test]
fn j81_give_rum_to_friday() {
    let mut j = J::new(&pos("turn black\nFri W E5\nB1 F6\nbottles black=1\n"));
    j.play("give-rum Fri");
    assert_eq!(j.place("Fri"), "gone");
    assert_eq!(j.bottles("black"), 0);
    assert_eq!(j.turn(), "black", "giving rum is a free action");
}

#[test]
fn j82_friday_meets_the_missionary() {
    let mut j = J::new(&pos("Fri W D5\nMis Y E5\n"));
    j.play("Fri D5->E5");
    assert_eq!(j.place("Fri"), "gone");
    assert_eq!(j.place("Mis"), "gone");
}

#[test]
fn j83_the_missionary_protects_and_is_protected() {
    let mut j = J::new(&pos("turn black\nMis W E5\nW1 E5\nB1 F5\n"));
    assert!(!j.moves_of("B1 ").iter().any(|m| m.ends_with("->E5")));
    let mut j = J::new(&pos("Mis W D5\nB1 E5\n"));
    assert!(!j.has("Mis D5->E5"));
    let mut j = J::new(&pos("Mis W D5\ncoins D5=1\n"));
    assert!(j.has("Mis D5->E5"));
    assert!(
        !j.moves()
            .iter()
            .any(|m| m.starts_with("Mis") && m.contains("+coin"))
    );
}

#[test]
fn j84_rum_converts_the_missionary() {
    let mut j = J::new(&pos(
        "Mis W E5\nW1 F5\nbottles white=1\ncoins E5=1\nB1 E6\n",
    ));
    j.play("give-rum Mis");
    assert_eq!(j.bottles("white"), 0);
    assert!(j.char_line("Mis").unwrap().contains("converted"));
    assert!(j.has("Mis E5->D5 +coin"));
    // as a fighter he hits
    j.play("Mis E5->E6");
    assert_eq!(j.place("B1"), "ship");
    // and can be hit
    let mut j = J::new(&pos("turn black\nMis W E5 converted\nB1 E6\n"));
    j.play("B1 E6->E5");
    assert_eq!(j.place("Mis"), "ship");
}

#[test]
fn j85_rum_bottles() {
    let mut j = J::new(&pos("tiles E5=#r2\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.bottles("white"), 2);
    let body = "tiles G5=tr J5=s4\nW2 G5 trapped\nW3 J5:1\nbottles white=2\n";
    let mut j = J::new(&pos(body));
    j.play("W2 G5->H5 +rum");
    assert_eq!(j.place("W2"), "H5");
    assert_eq!(j.bottles("white"), 1);
    j.until("white");
    j.play("W3 J5:1->J6 +rum");
    assert_eq!(j.place("W3"), "J6");
    assert_eq!(j.bottles("white"), 0);
}

#[test]
fn the_missionary_protects_only_his_spinner_step() {
    let mut j = J::new(&pos(
        "set seating=2v2\nturn yellow\ntiles D11=s4\nY2 D11:1\nMis R D11:3\nB3 D11:2\n",
    ));
    j.play("Y2 D11:1->D11:2");
    assert_eq!(j.place("B3"), "ship");
    // sharing his step, a pirate cannot attack
    let mut j = J::new(&pos(
        "set seating=2v2\nturn yellow\ntiles D11=s4\nY2 D11:1\nMis R D11:1\nB3 D11:2\n",
    ));
    assert!(!j.has("Y2 D11:1->D11:2"));
    let mut j = J::new(&pos(
        "turn black\ntiles D11=s4\nY2 D11:2\nMis Y D11:2\nB3 D11:1\n",
    ));
    assert!(
        !j.has("B3 D11:1->D11:2"),
        "strict: no entering the missionary's step"
    );
}
