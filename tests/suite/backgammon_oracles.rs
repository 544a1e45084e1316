//! Differential tests of backgammon move generation on positions from seeded random games: the
//! Lua rules (through the machine interface) against the independent native generator in
//! `benches/native/`, and both against OpenSpiel's backgammon through
//! `tests/oracle/openspiel_oracle.py`.
//!
//! The OpenSpiel comparisons need a Python with `open-spiel` in `TORTUGA_ORACLE_PYTHON` (CI
//! installs one); without it they are reported as ignored, and the Lua/native comparison still
//! runs.

#[path = "../../benches/native/backgammon.rs"]
mod backgammon;

use crate::common;

use backgammon::{Position, Rng};
use serde_json::Value as Json;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::rc::Rc;
use tortuga::repl::{Repl, machine_moves};
use tortuga::script::{LoadOptions, Rules};

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
fn ask_oracle(cases: &[Case]) -> Vec<Vec<Position>> {
    let input: String = cases
        .iter()
        .map(|c| to_json(&c.pos, Some(c.dice)) + "\n")
        .collect();
    common::ask_oracle("openspiel_oracle.py", input)
        .iter()
        .map(|l| parse_positions(l))
        .collect()
}

fn describe(set: &BTreeSet<Position>) -> String {
    set.iter()
        .map(|p| format!("    {}\n", to_json(p, None)))
        .collect()
}

/// Asserts that the cases cover every kind of position the rules treat specially.
fn assert_kinds(cases: &[Case], answers: &[Vec<Position>]) {
    let count = |f: &dyn Fn(&Case, &[Position]) -> bool| {
        cases.iter().zip(answers).filter(|(c, n)| f(c, n)).count()
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
}

fn native_answers(cases: &[Case]) -> Vec<Vec<Position>> {
    cases
        .iter()
        .map(|c| backgammon::successors(&c.pos, c.dice.0, c.dice.1))
        .collect()
}

#[test]
#[cfg_attr(
    not(oracle),
    ignore = "needs TORTUGA_ORACLE_PYTHON: a Python with open-spiel (.ci/run makes one)"
)]
fn native_moves_match_openspiel() {
    let cases = random_cases(0x6f72_6163_6c65, POSITIONS);
    let natives = native_answers(&cases);
    assert_kinds(&cases, &natives);
    let answers = ask_oracle(&cases);
    compare(&cases, &natives, &answers, ("native", "openspiel"));
}

/// Positions the Lua rules are compared on with the native generator, at the full soak size
/// (never fewer than the oracle's).
const LUA_POSITIONS: usize = 10_000;

fn from_json(j: &Json) -> Position {
    let n = |v: &Json| v.as_i64().expect("an integer");
    let mut board = [0i8; 24];
    for (b, v) in board.iter_mut().zip(j["board"].as_array().expect("board")) {
        *b = n(v) as i8;
    }
    Position {
        board,
        bar: [n(&j["bar"][0]) as u8, n(&j["bar"][1]) as u8],
        off: [n(&j["off"][0]) as u8, n(&j["off"][1]) as u8],
    }
}

/// The Lua rules' answer for one case: (move, resulting position) entries.
fn lua_moves(rules: &Rc<Rules>, case: &Case) -> Vec<(String, Position)> {
    let dice = format!("{}{}", case.dice.0, case.dice.1);
    let out = machine_moves(rules.clone(), &to_json(&case.pos, None), Some(&dice), false)
        .unwrap_or_else(|e| panic!("{}: {e:#}", to_json(&case.pos, Some(case.dice))));
    let list: Vec<Json> = serde_json::from_str(&out).expect("a JSON array");
    list.iter()
        .map(|e| {
            (
                e["move"].as_str().expect("move").to_string(),
                from_json(&e["position"]),
            )
        })
        .collect()
}

fn backgammon_rules() -> Rc<Rules> {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules");
    Rc::new(Rules::load(&dir, "backgammon", &LoadOptions::default()).expect("rules load"))
}

/// Compares two answers per case; panics with the first disagreements.
fn compare(cases: &[Case], ours: &[Vec<Position>], theirs: &[Vec<Position>], names: (&str, &str)) {
    let mut report = String::new();
    let mut failures = 0;
    for ((case, a), b) in cases.iter().zip(ours).zip(theirs) {
        let a: BTreeSet<Position> = a.iter().copied().collect();
        let b: BTreeSet<Position> = b.iter().copied().collect();
        if a != b {
            failures += 1;
            if failures <= 5 {
                write!(
                    report,
                    "position {} dice {}-{}\n  {} ({}):\n{}  {} ({}):\n{}",
                    to_json(&case.pos, None),
                    case.dice.0,
                    case.dice.1,
                    names.0,
                    a.len(),
                    describe(&a),
                    names.1,
                    b.len(),
                    describe(&b)
                )
                .unwrap();
            }
        }
    }
    assert!(
        failures == 0,
        "{failures} of {} positions disagree:\n{report}",
        cases.len()
    );
}

#[test]
fn lua_moves_match_the_native_generator() {
    let rules = backgammon_rules();
    let count = common::soak(LUA_POSITIONS as u64).max(POSITIONS as u64);
    let cases = random_cases(0x6c75_6121, count as usize);
    let lua: Vec<Vec<Position>> = cases
        .iter()
        .map(|c| lua_moves(&rules, c).into_iter().map(|(_, p)| p).collect())
        .collect();
    let native = native_answers(&cases);
    assert_kinds(&cases, &native);
    compare(&cases, &lua, &native, ("lua", "native"));
}

#[test]
#[cfg_attr(
    not(oracle),
    ignore = "needs TORTUGA_ORACLE_PYTHON: a Python with open-spiel (.ci/run makes one)"
)]
fn lua_moves_match_openspiel() {
    let rules = backgammon_rules();
    let cases = random_cases(0x6f73_6c75, 3_000);
    let lua: Vec<Vec<Position>> = cases
        .iter()
        .map(|c| lua_moves(&rules, c).into_iter().map(|(_, p)| p).collect())
        .collect();
    assert_kinds(&cases, &lua);
    let oracle = ask_oracle(&cases);
    compare(&cases, &lua, &oracle, ("lua", "openspiel"));
}

/// Every `move` the machine interface prints, typed with `play`, gives its position (spec §10),
/// on 120 positions at the full soak size.
#[test]
fn printed_moves_play_back_to_their_positions() {
    let rules = backgammon_rules();
    let mut repl = Repl::new(
        &std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules"),
        false,
    );
    let mut checked = 0;
    let positions = common::soak(120) as usize;
    for case in random_cases(0x706c_6179, positions)
        .iter()
        .filter(|c| !c.pos.is_over())
    {
        let setup = format!("setup backgammon {}", to_json(&case.pos, Some(case.dice)));
        for (label, expected) in lua_moves(&rules, case) {
            if label.is_empty() {
                continue;
            }
            repl.handle_line(&setup).expect("setup");
            repl.handle_line(&format!("play {label}"))
                .unwrap_or_else(|e| panic!("{setup}\nplay {label}: {e:#}"));
            let exported: Json =
                serde_json::from_str(&repl.handle_line("position").expect("export")).expect("JSON");
            // After the move O is on roll (unless the game ended): turn it back to the mover.
            let mut got = from_json(&exported);
            if exported["on_roll"] == "o" {
                got = backgammon::flip(&got);
            }
            assert_eq!(
                to_json(&got, None),
                to_json(&expected, None),
                "{setup}\nplay {label}"
            );
            checked += 1;
        }
    }
    assert!(checked > 4 * positions, "only {checked} moves checked");
}
