//! Jackal scenarios J01–J16 (spec §15): setup, turns, ships and the sea.

use crate::common;
use crate::jackal;

use jackal::{J, pos};

#[test]
fn j01_new_game() {
    let mut j = J::fresh("--seed 1");
    let text = j.export();
    let closed = text
        .lines()
        .skip_while(|l| *l != "board")
        .skip(2)
        .take(11)
        .flat_map(|l| l.split_whitespace().skip(1))
        .filter(|t| *t == "#")
        .count();
    assert_eq!(closed, 117, "{text}");
    for corner in ["B2", "L2", "B12", "L12"] {
        assert_eq!(j.token(corner), "~");
    }
    assert!(
        text.contains("ships white=G1 yellow=A7 black=G13 red=M7"),
        "{text}"
    );
    for p in [
        "W1", "W2", "W3", "Y1", "Y2", "Y3", "B1", "B2", "B3", "R1", "R2", "R3",
    ] {
        assert_eq!(j.place(p), "ship");
    }
    assert_eq!(j.turn(), "white");
    assert_eq!(j.lua("G:bag_count('deck')"), "117");
    // the deck holds the TI counts of §7
    let counts = j.lua(
        "local n = {} for _, t in ipairs(G:bag_items('deck')) do n[t] = (n[t] or 0) + 1 end \
         return n.empty .. ' ' .. n.a1 .. ' ' .. n.s2 .. ' ' .. n.ic .. ' ' .. n.c1 .. ' ' .. n.cv .. ' ' .. n.r1 .. ' ' .. n.jg",
    );
    assert_eq!(counts, "18 3 5 6 5 4 3 3");
    assert_eq!(j.lua("require('jackal.turns').gold_in_play(G)"), "40");
    for t in ["white", "yellow", "black", "red"] {
        assert_eq!(j.bottles(t), 0);
    }
}

#[test]
fn j01_classic_pack() {
    let mut j = J::fresh("--seed 1 --set pack=classic");
    assert_eq!(j.lua("require('jackal.turns').gold_in_play(G)"), "37");
    assert_eq!(j.lua("G:bag_count('deck')"), "117");
}

#[test]
fn j02_opening_options() {
    let mut j = J::fresh("--seed 1");
    assert_eq!(
        j.moves(),
        [
            "W1 G1->G2",
            "W2 G1->G2",
            "W3 G1->G2",
            "ship G1->F1",
            "ship G1->H1"
        ]
    );
}

#[test]
fn j03_turn_order() {
    let mut j = J::fresh("--seed 1");
    let mut order = vec![j.turn()];
    for _ in 0..4 {
        let first = j
            .moves()
            .into_iter()
            .find(|m| m.starts_with("ship"))
            .unwrap();
        j.play(&first);
        order.push(j.turn());
    }
    assert_eq!(order, ["white", "yellow", "black", "red", "white"]);

    let mut j = J::new(&pos("ships white=G1 black=G13\n"));
    let mut order = vec![j.turn()];
    for _ in 0..2 {
        let first = j
            .moves()
            .into_iter()
            .find(|m| m.starts_with("ship"))
            .unwrap();
        j.play(&first);
        order.push(j.turn());
    }
    assert_eq!(order, ["white", "black", "white"]);
}

#[test]
fn j04_ship_lane_ends() {
    let mut j = J::new(&pos("ships white=C1 yellow=A7 black=G13 red=M7\n"));
    assert_eq!(j.moves_of("ship"), ["ship C1->D1"]);
    let mut j = J::new(&pos(
        "set ship_range=full_side\nships white=C1 yellow=A7 black=G13 red=M7\n",
    ));
    assert_eq!(j.moves_of("ship"), ["ship C1->B1", "ship C1->D1"]);
}

#[test]
fn j05_empty_ship_cannot_sail() {
    let mut j = J::new(&pos("W1 E5\nW2 F5\nW3 G5\n"));
    assert!(j.moves_of("ship").is_empty(), "{:?}", j.moves());
    assert!(!j.moves().is_empty());
}

#[test]
fn j06_landing_only_in_front() {
    let mut j = J::new(&pos(
        "ships white=E1 yellow=A7 black=G13 red=M7\nW2 D5\nW3 D6\n",
    ));
    assert_eq!(j.moves_of("W1 "), ["W1 E1->E2"]);
}

#[test]
fn j07_boarding_from_beside_the_ship() {
    let mut j = J::new(&pos("W1 F2\nW2 G3\n"));
    assert!(j.has("W1 F2->G1"));
    assert!(!j.moves_of("W2 ").iter().any(|m| m.ends_with("->G1")));
}

#[test]
fn j08_bank_a_coin() {
    let mut j = J::new(&pos("W1 F2\ncoins F2=1\n"));
    j.play("W1 F2->G1 +coin");
    assert_eq!(j.place("W1"), "ship");
    assert_eq!(j.banked("white"), 1);
    assert_eq!(j.coins_at("F2"), 0);
}

#[test]
fn j09_swimming_moves() {
    let mut j = J::new(&pos("W1 D1\n"));
    assert_eq!(j.moves_of("W1 "), ["W1 D1->C1", "W1 D1->E1"]);
    let mut j = J::new(&pos("W1 C1\n"));
    assert_eq!(j.moves_of("W1 "), ["W1 C1->B2", "W1 C1->B1", "W1 C1->D1"]);
}

#[test]
fn j10_swimmer_boards() {
    let mut j = J::new(&pos("W1 F1\n"));
    j.play("W1 F1->G1");
    assert_eq!(j.place("W1"), "ship");
}

#[test]
fn j11_ship_picks_up_a_swimmer() {
    let mut j = J::new(&pos("W1 F1\nW3 E5\n"));
    j.play("ship G1->F1");
    assert_eq!(j.place("W1"), "ship");
    assert_eq!(j.place("W2"), "ship");
    assert!(j.export().contains("white=F1"));
}

#[test]
fn j12_ship_runs_down_an_enemy_swimmer() {
    let mut j = J::new(&pos("B1 F1\n"));
    j.play("ship G1->F1");
    assert_eq!(j.place("B1"), "dead");
}

#[test]
fn j13_swimming_onto_an_enemy_ship() {
    let mut j = J::new(&pos("W1 A6\n"));
    assert!(j.has("W1 A6->A7"));
    j.play("W1 A6->A7");
    assert_eq!(j.place("W1"), "dead");
}

#[test]
fn j14_hit_in_the_sea_kills() {
    let mut j = J::new(&pos("W1 D1\nB1 C1\n"));
    j.play("W1 D1->C1");
    assert_eq!(j.place("B1"), "dead");
    assert_eq!(j.place("W1"), "C1");
}

#[test]
fn j15_no_jump_into_the_sea() {
    let mut j = J::new(&pos("W1 B5\n"));
    assert_eq!(
        j.moves_of("W1 "),
        [
            "W1 B5->B6",
            "W1 B5->C6",
            "W1 B5->C5",
            "W1 B5->B4",
            "W1 B5->C4"
        ]
    );
}

#[test]
fn j16_automatic_pass() {
    let mut j = J::new(&pos("tiles E5=tr\nW1 E5 trapped\nW2 dead\nW3 dead\n"));
    assert_eq!(j.turn(), "yellow");
    assert!(j.log().contains("white: pass"), "{}", j.log());
}

/// `setup` takes the seat count from the position: a three-team position starts three
/// seats, two players sharing four teams are written `players 2` and set up as two; an
/// explicit --players that disagrees with that line is refused, naming it.
#[test]
fn setup_takes_the_seat_count_from_the_position() {
    let mut r = common::repl(&common::rules());
    let seats = |r: &mut tortuga::repl::Repl| common::run(r, &["lua G:seats()"]);
    common::run(&mut r, &["new jackal --players 3 --seed 3"]);
    let three = common::run(&mut r, &["position"]);
    common::run(&mut r, &["new jackal --players 2 --seed 3"]);
    let two = common::run(&mut r, &["position"]);
    assert!(two.contains("\nplayers 2\n"), "{two}");
    assert!(
        !three.contains("players"),
        "one seat a team needs no line:\n{three}"
    );

    common::run(&mut r, &[&format!("setup jackal {three}")]);
    assert_eq!(seats(&mut r), "3");
    common::run(&mut r, &[&format!("setup jackal {two}")]);
    assert_eq!(seats(&mut r), "2");
    assert_eq!(common::run(&mut r, &["position"]), two, "round trip");
    let e = common::fails(&mut r, &format!("setup jackal --players 3 {two}"));
    assert!(
        e.contains("position line 2: the position is for 2 players, this game has 3"),
        "{e}"
    );
}

/// A step that turns a tile up leaves its draw to `roll`, at the prompt as in a script:
/// `undo` takes back the draw alone, and a `roll` queued before the step forces the tile.
#[test]
fn a_step_that_turns_a_tile_up_waits_for_roll() {
    let mut r = common::repl(&common::rules());
    common::run(&mut r, &["new jackal --seed 3"]);
    let out = common::run(&mut r, &["W1 G1 -> G2"]);
    assert!(out.starts_with("played W1 G1->G2\n"), "{out}");
    assert!(out.contains("waiting for deck"), "{out}");
    let drawn = common::run(&mut r, &["roll"]);
    assert!(drawn.contains("W1 turns up a cave at G2"), "{drawn}");
    let undone = common::run(&mut r, &["undo"]);
    assert!(undone.contains("waiting for deck"), "{undone}");
    let forced = common::run(&mut r, &["undo", "roll jg", "W1 G1 -> G2"]);
    assert!(forced.contains("W1 turns up a jungle at G2"), "{forced}");
}

/// `position` in the middle of a move says why it cannot be written (the format holds a turn
/// boundary) and what to do; `position current` shows it as it stands; once the move is
/// finished the text exports and `setup` takes it.
#[test]
fn position_mid_move_says_why_it_cannot_be_set_up() {
    let mut r = common::repl(&common::rules());
    common::run(&mut r, &["new jackal --seed 3", "W1 G1 -> G2"]);
    let e = common::fails(&mut r, "position");
    assert!(
        e.contains("white's move is not finished (it waits for a draw: turning up G2)")
            && e.contains("`undo`"),
        "{e}"
    );
    assert!(common::run(&mut r, &["position current"]).starts_with("jackal 1\n"));
    common::run(&mut r, &["roll jg"]);
    let text = common::run(&mut r, &["position"]);
    common::run(&mut r, &[&format!("setup jackal {text}")]);
    assert_eq!(common::run(&mut r, &["position"]), text);
}
