//! Chaupar positions (§17), typed moves (§16) and the board: impossible positions and bad
//! input are refused with a message naming what is wrong and where, and nothing changes.

use crate::chaupar;
use crate::common;

use chaupar::{C, pos};

#[test]
fn impossible_positions_are_refused() {
    let cases = [
        ("S: N.m3", "N.m3 is not on S's path"),
        ("S: E.l1 x3, S.m2, home 1", "S has 5 pieces"),
        ("S: E.l4 / E: E.l4", "E.l4 holds pieces of both teams"),
        ("S: E.l4, wait 2", "S: wait 2, but 1 pieces are listed"),
        ("throw 3 4 5", "3 is not a face of dice3"),
        ("throw 6 6 6 6", "dice3 has 3 dice, not 4 values"),
        ("implement cowries / throw 7", "cowries cannot give 7"),
        (
            "set castle_set=fortress",
            "switch castle_set cannot be 'fortress'",
        ),
        ("set colour=blue", "unknown switch 'colour'"),
        ("S: S.x9", "no square S.x9"),
        ("S: @90", "@90 is not a route index"),
        ("turn Q", "turn must be S, E, N or W"),
        (
            "implement dice3 / bound S.m1 / throw 6",
            "bound is for cowries",
        ),
        ("set cowrie_p=0.3", "fixed when the rules load"),
        ("seats 2 / seats 3", "this game has"),
        ("fly away", "unknown line 'fly away'"),
    ];
    for (body, want) in cases {
        let e = C::refused(&pos(body));
        assert!(e.contains(want), "{body}: {e}");
        assert!(e.contains("position line"), "{body}: no line in {e}");
    }
    let e = C::refused("chess 1\nturn S\n");
    assert!(e.contains("starts with 'chaupar 1'"), "{e}");
}

#[test]
fn bad_input_to_a_game_in_play_changes_nothing() {
    // a game in play, S to act on 6 2 5 with a piece waiting (so the 6 must enter)
    let mut c = C::at("throw 6 2 5 / S: E.l1, home 2");
    let before = common::fingerprint(&c.repl);
    let refused = [
        // impossible positions: off the colour's path, five pieces, a block of mixed teams
        ("S: W.m3", "position line 2: S: W.m3 is not on S's path"),
        ("N: N.l2 x4, home 1", "position line 2: N has 5 pieces"),
        ("E: N.r2 x2 / N: N.r2", "N.r2 holds pieces of both teams"),
        // a throw value the implement cannot produce
        (
            "implement dice2 / throw 2 3",
            "position line 3: throw: 2 is not a face of dice2",
        ),
        ("implement cowries / throw 1", "cowries cannot give 1"),
    ];
    for (body, want) in refused {
        let e = c.fails(&format!("setup chaupar {}", pos(body)));
        assert!(e.contains(want), "{body}: {e}");
        assert_eq!(common::fingerprint(&c.repl), before, "{body}");
    }
    // an illegal split: the 6 moved instead of entering, or dice the throw does not hold
    for (typed, want) in [
        ("move E.l1 x1 6", "not possible now"),
        ("E.l1 2+5+6", "not possible now"),
        ("6+6", "not possible now"),
        ("E.l1 x2 2", "not possible now"),
    ] {
        let e = c.fails(&format!("play {typed}"));
        assert!(e.contains(want), "{typed}: {e}");
        assert_eq!(common::fingerprint(&c.repl), before, "{typed}");
    }
    // a forced throw the dice cannot show, once the turn has passed to a throw
    c.play("enter 6");
    c.play("move S.m6 x1 2+5 to S.r4");
    assert!(c.waiting_for_throw());
    let before = common::fingerprint(&c.repl);
    let e = c.fails("roll 3 4 5");
    assert!(e.contains("3 is not a face"), "{e}");
    let e = c.fails("roll 6 6");
    assert!(e.contains("needs 3 values"), "{e}");
    assert_eq!(common::fingerprint(&c.repl), before);
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut c = C::at("implement dice2 / throw 4 6 / S: E.l4");
    let before = common::fingerprint(&c.repl);
    let e = c.fails("play move E.l4 x1 4+6");
    assert!(e.contains("not possible now"), "{e}");
    let e = c.fails("play S.m9");
    assert!(e.contains("no square S.m9"), "{e}");
    let e = c.fails("play N.l1");
    assert!(e.contains("not possible"), "{e}");
    assert_eq!(common::fingerprint(&c.repl), before);
}

#[test]
fn typed_moves_are_forgiving() {
    let mut c = C::at("implement dice2 / throw 4 6 / S: E.l4");
    c.play("e.l4 6");
    assert_eq!(c.colour("S"), "S.m4, E.r8, home 0, wait 2");
    let mut c = C::at("implement dice2 / throw 4 6 / S: E.l4");
    c.play("ENTER");
    c.play("E.l4 to E.r8");
    assert_eq!(c.colour("S"), "S.m4, E.r8, home 0, wait 2");
    let mut c = C::at("implement cowries / S: E.l4 x2");
    c.roll("5");
    let e = c.fails("play E.l4");
    assert!(e.contains("could be"), "{e}");
    c.play("e.l4 x2");
    assert_eq!(c.colour("S"), "E.m8 x2, home 0, wait 2");
    let mut c = C::at("implement dice2 / throw 3 6 / S: S.m3', E.l1, home 2");
    c.play("s.m3' home");
    assert_eq!(c.colour("S"), "E.l7, home 3, wait 0");
}

#[test]
fn the_board_shows_the_cross() {
    let mut c = C::setup(
        "chaupar 1\nturn S\nthrow 6 6 2\nS: E.l4, N.r3 x2, home 1, wait 0\nE: S.r2, wait 3\nN: N.m5', W.l7\nW: E.m8, N.r1, S.m8 x2\n",
    );
    let board = c.run("show");
    let rows: Vec<&str> = board.lines().collect();
    // the south arm's outer row: S.l8, S.m8, S.r8, with W's pair on the castle S.m8
    assert!(rows.iter().any(|r| r.contains("*W2")), "{board}");
    // N's piece on its homeward middle column
    assert!(board.contains("N'"), "{board}");
    assert!(board.contains("N2") || board.contains("S2"), "{board}");
    assert!(board.contains("waiting: S 0  E 3  N 2  W 0"), "{board}");
    assert!(board.contains("home: S 1  E 0  N 0  W 0"), "{board}");
    assert!(board.contains("S (yellow) to play 6 6 2"), "{board}");
    assert_eq!(
        rows.iter().filter(|r| r.contains("::::")).count(),
        3,
        "{board}"
    );
}
