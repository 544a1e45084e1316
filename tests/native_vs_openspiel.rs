//! The native move generator against OpenSpiel's backgammon, through
//! `tests/oracle/openspiel_oracle.py`, on positions from seeded random games.
//!
//! Needs a Python with `open-spiel` in `TORTUGA_ORACLE_PYTHON`; without it the
//! comparison is skipped (the generator's own unit tests still run).

#[path = "../benches/native/backgammon.rs"]
mod backgammon;

use backgammon::{Position, Rng};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::{Command, Stdio};

/// Positions sent to the oracle.
const POSITIONS: usize = 3000;
/// Each kind of position the comparison must include at least this often.
const MIN_PER_KIND: usize = 20;

struct Case {
    pos: Position,
    dice: (u8, u8),
}

/// Turn starts of uniform-random games, with the roll actually played there,
/// and each finished game's last position (which has no moves) with a roll.
fn random_cases(seed: u64, count: usize) -> Vec<Case> {
    let mut rng = Rng::new(seed);
    let mut cases = Vec::with_capacity(count);
    'games: loop {
        let mut pos = Position::START;
        let mut dice = loop {
            let (a, b) = (rng.die(), rng.die());
            if a != b {
                break (a, b);
            }
        };
        loop {
            cases.push(Case { pos, dice });
            if cases.len() == count {
                break 'games;
            }
            let options = backgammon::successors(&pos, dice.0, dice.1);
            let pick = options[rng.below(options.len() as u32) as usize];
            pos = backgammon::flip(&pick);
            dice = (rng.die(), rng.die());
            if pick.is_over() {
                cases.push(Case { pos, dice });
                if cases.len() == count {
                    break 'games;
                }
                continue 'games;
            }
        }
    }
    cases
}

fn to_json(pos: &Position, dice: Option<(u8, u8)>) -> String {
    let board: Vec<String> = pos.board.iter().map(i8::to_string).collect();
    let mut out = format!(
        "{{\"board\":[{}],\"bar\":[{},{}],\"off\":[{},{}]",
        board.join(","),
        pos.bar[0],
        pos.bar[1],
        pos.off[0],
        pos.off[1]
    );
    if let Some((a, b)) = dice {
        write!(out, ",\"dice\":[{a},{b}]").unwrap();
    }
    out.push('}');
    out
}

/// Reads one oracle line: a JSON array of `{"board","bar","off"}` objects,
/// whose integers come in exactly that order.
fn parse_positions(line: &str) -> Vec<Position> {
    let mut numbers = Vec::new();
    let mut current: Option<i32> = None;
    let mut negative = false;
    for ch in line.chars() {
        if let Some(d) = ch.to_digit(10) {
            current = Some(current.unwrap_or(0) * 10 + d as i32);
        } else {
            if let Some(n) = current.take() {
                numbers.push(if negative { -n } else { n });
            }
            negative = ch == '-';
        }
    }
    assert!(current.is_none(), "oracle line not closed: {line}");
    assert_eq!(numbers.len() % 28, 0, "oracle line: {line}");
    assert_eq!(
        line.matches("\"board\"").count(),
        numbers.len() / 28,
        "oracle line: {line}"
    );
    numbers
        .chunks(28)
        .map(|n| {
            let mut board = [0i8; 24];
            for (b, &v) in board.iter_mut().zip(n) {
                *b = v as i8;
            }
            Position {
                board,
                bar: [n[24] as u8, n[25] as u8],
                off: [n[26] as u8, n[27] as u8],
            }
        })
        .collect()
}

/// Runs the oracle once over every case, batched through one process.
fn ask_oracle(python: &str, cases: &[Case]) -> Vec<Vec<Position>> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/oracle/openspiel_oracle.py"
    );
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {python}: {e}"));
    let input: String = cases
        .iter()
        .map(|c| to_json(&c.pos, Some(c.dice)) + "\n")
        .collect();
    let mut stdin = child.stdin.take().expect("oracle stdin");
    // Write from a thread: the oracle answers while it reads, and a full
    // stdout pipe would otherwise block both sides.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("oracle output");
    writer.join().unwrap().expect("writing to the oracle");
    assert!(
        output.status.success(),
        "oracle failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("utf-8 from the oracle");
    let answers: Vec<Vec<Position>> = stdout.lines().map(parse_positions).collect();
    assert_eq!(answers.len(), cases.len(), "one oracle line per position");
    answers
}

fn describe(set: &BTreeSet<Position>) -> String {
    set.iter()
        .map(|p| format!("    {}\n", to_json(p, None)))
        .collect()
}

#[test]
fn native_moves_match_openspiel() {
    let Some(python) = std::env::var_os("TORTUGA_ORACLE_PYTHON") else {
        println!("skipped: set TORTUGA_ORACLE_PYTHON to a python with open-spiel");
        return;
    };
    let python = python.to_string_lossy().into_owned();
    let cases = random_cases(0x6f72_6163_6c65, POSITIONS);

    let natives: Vec<Vec<Position>> = cases
        .iter()
        .map(|c| backgammon::successors(&c.pos, c.dice.0, c.dice.1))
        .collect();
    let count = |f: &dyn Fn(&Case, &[Position]) -> bool| {
        cases.iter().zip(&natives).filter(|(c, n)| f(c, n)).count()
    };
    let kinds = [
        ("doubles", count(&|c, _| c.dice.0 == c.dice.1)),
        ("bar entries", count(&|c, _| c.pos.bar[0] > 0)),
        (
            "bear-offs",
            count(&|c, n| n.iter().any(|p| p.off[0] > c.pos.off[0])),
        ),
        ("passes", count(&|c, n| n == [c.pos])),
        (
            "hits",
            count(&|c, n| n.iter().any(|p| p.bar[1] > c.pos.bar[1])),
        ),
        ("game ends", count(&|_, n| n.iter().any(Position::is_over))),
        ("finished games", count(&|c, _| c.pos.is_over())),
    ];
    println!("{} positions: {kinds:?}", cases.len());
    for (kind, n) in kinds {
        assert!(n >= MIN_PER_KIND, "only {n} positions with {kind}");
    }

    let answers = ask_oracle(&python, &cases);
    let mut report = String::new();
    let mut failures = 0;
    for ((case, native), oracle) in cases.iter().zip(&natives).zip(&answers) {
        let native: BTreeSet<Position> = native.iter().copied().collect();
        let oracle: BTreeSet<Position> = oracle.iter().copied().collect();
        if native != oracle {
            failures += 1;
            if failures <= 5 {
                write!(
                    report,
                    "position {}\ndice {}-{}\n  native ({}):\n{}  openspiel ({}):\n{}",
                    to_json(&case.pos, None),
                    case.dice.0,
                    case.dice.1,
                    native.len(),
                    describe(&native),
                    oracle.len(),
                    describe(&oracle)
                )
                .unwrap();
            }
        }
    }
    assert!(
        failures == 0,
        "{failures} of {} positions disagree; the first ones:\n{report}",
        cases.len()
    );
}
