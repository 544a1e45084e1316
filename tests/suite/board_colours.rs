//! Backgammon's and Chaupar's boards in colour, as Jackal's and Pirates' are: each side's
//! pieces painted in its colour when the REPL paints, and no tag left when it does not
//! (`NO_COLOR`, not a terminal, scripts).

use crate::common;

use tortuga::repl::Repl;

/// The board `show` prints after `commands`, painted or not.
fn board(color: bool, commands: &[&str]) -> String {
    let mut repl = Repl::new(&common::rules(), color);
    common::run(&mut repl, commands);
    common::run(&mut repl, &["show"])
}

#[test]
fn backgammon_paints_x_yellow_and_o_cyan() {
    let painted = board(true, &["new backgammon --seed 1"]);
    assert!(painted.contains("\x1b[33m\x1b[1mX\x1b[0m"), "{painted:?}");
    assert!(painted.contains("\x1b[36m\x1b[1mO\x1b[0m"), "{painted:?}");
    let plain = board(false, &["new backgammon --seed 1"]);
    assert!(!plain.contains('\x1b') && !plain.contains("{/}"), "{plain}");
    assert!(plain.contains("| X           O    |"), "{plain}");
}

#[test]
fn chaupar_paints_each_colour() {
    let moves = ["new chaupar --seed 1", "roll --all", "play 1"];
    let painted = board(true, &moves);
    for (tag, colour) in [("33", "S"), ("31", "E"), ("90", "N"), ("32", "W")] {
        let want = format!("\x1b[{tag}m\x1b[1m{colour}\x1b[0m");
        assert!(painted.contains(&want), "{colour}: {painted:?}");
    }
    let plain = board(false, &moves);
    assert!(!plain.contains('\x1b') && !plain.contains("{/}"), "{plain}");
    // the painted board keeps the plain one's columns
    assert_eq!(strip_escapes(&painted), plain);
}

/// `text` without its ANSI escapes.
fn strip_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
