//! The Jackal board in the terminal, and the demo script.

use crate::common;
use crate::jackal;

use jackal::{J, pos};
use tortuga::repl::Repl;

#[test]
fn the_board_shows_tiles_people_items_and_a_legend() {
    let mut j = J::new(&pos(
        "tiles E5=tr F5=a5NE G5=#. H5=s3 C3=pl-\nW1 E5 trapped\nW2 H5:2\nB1 D4\nB2 D4\ncoins D4=2\ntreasure C6\nbottles black=2\nbanked white=3\n",
    ));
    let board = j.run("show");
    let lines: Vec<&str> = board.lines().collect();
    assert!(lines[0].contains("A    B    C"), "{board}");
    // row 5: trap, the arrow turned as it lies, a closed tile, a spinner
    let row5 = lines.iter().position(|l| l.starts_with(" 5")).unwrap();
    assert!(lines[row5].contains('⊗') && lines[row5].contains('⇗') && lines[row5].contains('░'));
    // the trapped pirate lies down (lower case); W2 on step 2
    assert!(lines[row5 + 1].contains("w1"), "{}", lines[row5 + 1]);
    assert!(lines[row5 + 1].contains("W2:2"), "{}", lines[row5 + 1]);
    // two black pirates on D4 with two coins
    let row4 = lines.iter().position(|l| l.starts_with(" 4")).unwrap();
    assert!(lines[row4].contains("●2"), "{}", lines[row4]);
    assert!(lines[row4 + 1].contains("B12"), "{}", lines[row4 + 1]);
    assert!(board.contains('$'));
    // ships and crews
    let row1 = lines.iter().position(|l| l.starts_with(" 1")).unwrap();
    assert!(lines[row1].contains("[W]") && lines[row1 + 1].contains("W3"));
    assert!(board.contains("gold: white 3"), "{board}");
    assert!(board.contains("black 0 rum 2"), "{board}");
    assert!(board.contains("white to play ·"), "{board}");
    assert!(board.contains("W1 trapped at E5"), "{board}");
    // no colour tags left when colour is off
    assert!(!board.contains("{/}"));
}

#[test]
fn colour_marks_teams() {
    let mut repl = Repl::new(&common::rules(), true);
    common::run(
        &mut repl,
        &[&format!("setup jackal {}", pos("W1 E5\nB1 D4\n"))],
    );
    let board = common::run(&mut repl, &["show"]);
    assert!(
        board.contains("\x1b[31m") || board.contains("\x1b[34m"),
        "{board:?}"
    );
}

#[test]
fn the_demo_script_runs() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/jackal_demo.txt"),
    )
    .unwrap();
    let mut repl = Repl::new(&common::rules(), false);
    let mut out = String::new();
    repl.run_script(&text, |s| {
        out.push_str(s);
        out.push('\n');
    })
    .unwrap_or_else(|(line, e)| panic!("line {line}: {e}"));
    assert!(out.contains("W1 F6"), "{out}");
    assert!(out.contains("G4  ") || out.contains("cr"), "{out}");
}

/// A seat is shown by the colours it plays, and the colours, the seat so shown and its
/// declared name all name it wherever a seat is asked for: with two players P1 plays white
/// and black, P2 yellow and red; `as black` views as white+black, `show yellow` draws P2's
/// board, and the log and `auto` name the seat by its colours.
#[test]
fn a_colour_names_the_seat_that_plays_it() {
    let mut r = common::repl(&common::rules());
    common::run(&mut r, &["new jackal --players 2 --seed 2"]);
    assert_eq!(common::run(&mut r, &["as black"]), "viewing as white+black");
    assert_eq!(common::run(&mut r, &["as P1"]), "viewing as white+black");
    common::run(&mut r, &["as referee"]);
    let yellow = common::run(&mut r, &["show yellow"]);
    assert_eq!(yellow, common::run(&mut r, &["show P2"]));
    assert_eq!(yellow, common::run(&mut r, &["show yellow+red"]));
    let e = common::fails(&mut r, "show green");
    assert!(
        e.contains("no seat 'green'") && e.contains("white+black, yellow+red"),
        "{e}"
    );
    assert_eq!(
        common::run(&mut r, &["bot P2 greedy"]),
        "yellow+red: greedy bot (`auto` lets it play)"
    );
    let auto = common::run(&mut r, &["auto 4"]);
    assert!(
        auto.contains("white+black: ") && auto.contains("yellow+red: "),
        "{auto}"
    );
    assert!(!auto.contains("P1") && !auto.contains("P2"), "{auto}");
    assert!(common::run(&mut r, &["log"]).contains("yellow+red: "));
}
