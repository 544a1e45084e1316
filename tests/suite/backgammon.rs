//! Backgammon: the scenario checklist of the spec (B01–B35), through the REPL and the machine
//! interface, from positions in the spec's JSON with forced dice.

use crate::common;

use std::rc::Rc;

use common::{fails, repl, rules, run};
use serde_json::Value as Json;
use tortuga::repl::{Repl, machine_moves};
use tortuga::script::{LoadOptions, Rules};

const START: &str =
    r#"{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0]}"#;

/// A position from "P{13:1, 2:-2}" style points (X positive), X on roll; unlisted checkers off.
fn pos(points: &[(usize, i32)], bar: [i32; 2]) -> String {
    let mut board = [0i32; 24];
    for &(p, n) in points {
        board[p - 1] = n;
    }
    let x: i32 = board.iter().filter(|&&n| n > 0).sum::<i32>() + bar[0];
    let o: i32 = -board.iter().filter(|&&n| n < 0).sum::<i32>() + bar[1];
    format!(
        r#"{{"board":{:?},"bar":[{},{}],"off":[{},{}]}}"#,
        board.to_vec(),
        bar[0],
        bar[1],
        15 - x,
        15 - o
    )
}

fn load() -> Rc<Rules> {
    Rc::new(Rules::load(&rules(), "backgammon", &LoadOptions::default()).expect("backgammon loads"))
}

/// The machine interface's entries as (move, position JSON).
fn interface(position: &str, dice: &str) -> Vec<(String, Json)> {
    let out =
        machine_moves(load(), position, Some(dice), false).unwrap_or_else(|e| panic!("{e:#}"));
    let list: Vec<Json> = serde_json::from_str(&out).expect("one JSON array");
    list.into_iter()
        .map(|e| {
            (
                e["move"].as_str().unwrap().to_string(),
                e["position"].clone(),
            )
        })
        .collect()
}

fn moves(position: &str, dice: &str) -> Vec<String> {
    interface(position, dice)
        .into_iter()
        .map(|(m, _)| m)
        .collect()
}

/// A REPL on the given position with the dice rolled.
fn at(position: &str, dice: [u8; 2]) -> Repl {
    let with_dice = position.replacen('{', &format!(r#"{{"dice":[{},{}],"#, dice[0], dice[1]), 1);
    let mut r = repl(&rules());
    run(&mut r, &[&format!("setup backgammon {with_dice}")]);
    r
}

fn labels(r: &mut Repl) -> Vec<String> {
    run(r, &["moves"])
        .lines()
        .map(|l| l.split_once(". ").map_or(l, |(_, m)| m).trim().to_string())
        .collect()
}

#[test]
fn b01_start_position_and_id() {
    let mut r = repl(&rules());
    let out = run(&mut r, &["new backgammon --seed 1"]);
    assert!(out.contains("167"), "pip counts shown:\n{out}");
    assert_eq!(
        run(&mut r, &["position id"]),
        "4HPwATDgc/ABMA:cAgAAAAAAAAE",
        "before the opening roll gnubg's Match ID says no game has started (and the Jacoby rule is off)"
    );
    let json: Json = serde_json::from_str(&run(&mut r, &["position"])).unwrap();
    let start: Json = serde_json::from_str(START).unwrap();
    assert_eq!(json["board"], start["board"]);
}

#[test]
fn b02_opening_roll() {
    let mut r = repl(&rules());
    run(&mut r, &["new backgammon --seed 1", "roll 5 3"]);
    assert_eq!(labels(&mut r).len(), 9);
    run(&mut r, &["new backgammon --seed 1", "roll 3 5"]);
    assert!(
        run(&mut r, &["show"]).contains("O"),
        "O moves first with 5-3"
    );
    assert_eq!(labels(&mut r).len(), 9);
    run(&mut r, &["new backgammon --seed 1"]);
    let out = run(&mut r, &["roll 4 4"]);
    assert!(
        out.contains("waiting for opening"),
        "a tie rolls again:\n{out}"
    );
}

#[test]
fn b03_opening_counts_and_lists() {
    let expected = [
        ("11", 42),
        ("12", 15),
        ("13", 16),
        ("14", 14),
        ("15", 8),
        ("16", 10),
        ("22", 75),
        ("23", 17),
        ("24", 18),
        ("25", 8),
        ("26", 14),
        ("33", 73),
        ("34", 17),
        ("35", 9),
        ("36", 14),
        ("44", 52),
        ("45", 9),
        ("46", 14),
        ("55", 4),
        ("56", 7),
        ("66", 11),
    ];
    let mut total = 0;
    for (dice, n) in expected {
        let got = moves(START, dice);
        assert_eq!(got.len(), n, "roll {dice}: {got:?}");
        let mut sorted = got.clone();
        sorted.sort();
        assert_eq!(got, sorted, "sorted by move");
        total += got.len();
    }
    assert_eq!(total, 447);
    let lists: [(&str, &str); 5] = [
        (
            "21",
            "13/10, 13/11 6/5, 13/11 8/7, 24/21, 24/22 6/5, 24/22 8/7, 24/23 13/11, 24/23 24/22, 24/23 6/4, 24/23 8/6, 6/3, 6/5 6/4, 8/5, 8/7 6/4, 8/7 8/6",
        ),
        (
            "31",
            "13/10 6/5, 13/10 8/7, 13/9, 24/20, 24/21 6/5, 24/21 8/7, 24/23 13/10, 24/23 24/21, 24/23 6/3, 24/23 8/5, 6/2, 6/5 6/3, 8/4, 8/5 6/5, 8/7 6/3, 8/7 8/5",
        ),
        (
            "65",
            "13/2, 13/7 8/3, 13/8 13/7, 24/13, 24/18 13/8, 24/18 8/3, 8/3 8/2",
        ),
        ("55", "13/3 8/3(2), 13/3(2), 13/8(2) 13/3, 13/8(4)"),
        (
            "66",
            "13/7 8/2(3), 13/7(2) 8/2(2), 13/7(3) 8/2, 13/7(4), 24/18 13/7 8/2(2), 24/18 13/7(2) 8/2, 24/18 13/7(3), 24/18 8/2(3), 24/18(2) 13/7 8/2, 24/18(2) 13/7(2), 24/18(2) 8/2(2)",
        ),
    ];
    for (dice, list) in lists {
        assert_eq!(moves(START, dice).join(", "), list, "roll {dice}");
    }
}

#[test]
fn b04_both_dice_must_be_played() {
    let mut r = at(START, [3, 1]);
    assert!(fails(&mut r, "play 8/5").contains("8/5"));
    run(&mut r, &["play 8/5 6/5"]);
}

/// B08: X on the bar against O's closed board (X has one checker off).
const SHUTOUT: &[(usize, i32)] = &[
    (6, 5),
    (8, 3),
    (13, 5),
    (18, -3),
    (19, -2),
    (20, -2),
    (21, -2),
    (22, -2),
    (23, -2),
    (24, -2),
];

/// Points, bar, dice, the expected moves (`*`: B12's membership check).
type Case = (
    &'static [(usize, i32)],
    [i32; 2],
    &'static str,
    &'static str,
);

#[test]
fn b05_to_b19_forced_play_bar_and_bear_off() {
    let cases: [Case; 15] = [
        (
            &[(13, 1), (1, 4), (3, 5), (4, 5), (2, -2), (19, -13)],
            [0, 0],
            "65",
            "13/7",
        ),
        (
            &[(13, 1), (1, 4), (3, 5), (4, 5), (2, -2), (7, -2), (19, -11)],
            [0, 0],
            "65",
            "13/8",
        ),
        (
            &[
                (6, 5),
                (8, 3),
                (13, 5),
                (24, 1),
                (1, -2),
                (12, -5),
                (17, -4),
                (19, -2),
                (20, -2),
            ],
            [1, 0],
            "65",
            "",
        ),
        (
            &[
                (6, 5),
                (8, 3),
                (13, 5),
                (1, -2),
                (12, -5),
                (17, -3),
                (19, -5),
            ],
            [2, 0],
            "43",
            "bar/22 bar/21",
        ),
        (
            &[
                (6, 5),
                (8, 3),
                (13, 5),
                (1, -2),
                (12, -5),
                (17, -3),
                (19, -3),
                (21, -2),
            ],
            [2, 0],
            "43",
            "bar/22",
        ),
        (
            &[
                (6, 5),
                (8, 3),
                (13, 5),
                (1, -1),
                (12, -5),
                (17, -3),
                (19, -5),
                (22, -1),
            ],
            [1, 0],
            "53",
            "bar/20 13/10, bar/20 6/3, bar/20 8/5, bar/22* 13/8, bar/22* 6/1*, bar/22* 8/3",
        ),
        (
            &[
                (24, 2),
                (13, 5),
                (8, 3),
                (6, 5),
                (18, -1),
                (1, -2),
                (12, -5),
                (17, -2),
                (19, -5),
            ],
            [0, 0],
            "65",
            "*",
        ),
        (
            &[(13, 1), (1, 5), (2, 5), (3, 4), (5, -2), (19, -13)],
            [0, 0],
            "44",
            "13/9",
        ),
        (
            &[(13, 1), (2, 7), (3, 7), (1, -2), (19, -13)],
            [0, 0],
            "44",
            "13/5",
        ),
        (&[(3, 1), (2, 1), (24, -15)], [0, 0], "65", "3/off 2/off"),
        (&[(6, 1), (2, 1), (24, -15)], [0, 0], "44", "6/off 2/off"),
        (&[(2, 1), (24, -15)], [0, 0], "61", "2/off"),
        (&[(7, 1), (1, 2), (24, -15)], [0, 0], "61", "7/off"),
        (
            &[
                (1, 3),
                (2, 3),
                (3, 3),
                (4, 2),
                (5, 2),
                (6, 1),
                (19, -13),
                (24, -2),
            ],
            [1, 0],
            "62",
            "bar/17",
        ),
        (SHUTOUT, [1, 0], "11", ""),
    ];
    for (points, bar, dice, expected) in cases {
        let p = pos(points, bar);
        let got = moves(&p, dice);
        if expected == "*" {
            assert_eq!(got.len(), 7, "B12 {got:?}");
            for m in ["24/18*/13", "24/18* 13/8", "24/18* 8/3"] {
                assert!(got.iter().any(|g| g == m), "B12 lacks {m}: {got:?}");
            }
        } else {
            assert_eq!(got.join(", "), expected, "{p} dice {dice}");
        }
    }
}

#[test]
fn b08_shutout_passes_every_roll() {
    let p = pos(SHUTOUT, [1, 0]);
    for a in 1..=6 {
        for b in a..=6 {
            let got = interface(&p, &format!("{a}{b}"));
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].0, "", "roll {a}{b}");
        }
    }
    let mut r = at(&p, [6, 5]);
    let shown = run(&mut r, &["show"]).to_lowercase();
    assert!(
        shown.contains("shutout") || shown.contains("closed board"),
        "{shown}"
    );
}

#[test]
fn b11_hit_sends_to_the_bar() {
    let p = pos(
        &[
            (6, 5),
            (8, 3),
            (13, 5),
            (1, -1),
            (12, -5),
            (17, -3),
            (19, -5),
            (22, -1),
        ],
        [1, 0],
    );
    let after = interface(&p, "53")
        .into_iter()
        .find(|(m, _)| m == "bar/22* 13/8")
        .unwrap()
        .1;
    assert_eq!(after["bar"], serde_json::json!([0, 1]));
}

#[test]
fn b17_the_last_checker_ends_the_game() {
    let p = pos(&[(2, 1), (24, -15)], [0, 0]);
    let mut r = at(&p, [6, 1]);
    let out = run(&mut r, &["play 2/1/off"]);
    assert!(out.contains("game over"), "{out}");
}

#[test]
fn b20_openspiel_bear_off_positions() {
    let cases = [
        (
            r#"{"board":[2,1,0,0,0,-2,0,0,0,-1,0,0,0,0,-1,-2,0,0,0,0,-1,-6,-2,0],"bar":[0,0],"off":[12,0],"on_roll":"o"}"#,
            "55",
            "2/off 1/off(2)",
        ),
        (
            r#"{"board":[9,1,2,2,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-7],"bar":[0,0],"off":[0,8]}"#,
            "61",
            "6/off, 6/off 1/off, 6/off 2/1, 6/off 3/2, 6/off 4/3",
        ),
        (
            r#"{"board":[-1,9,2,3,0,1,-1,0,0,0,0,0,-1,0,0,0,0,0,0,0,-2,0,-2,-8],"bar":[0,0],"off":[0,0]}"#,
            "44",
            "6/2 4/off(3)",
        ),
        (
            r#"{"board":[-1,9,2,2,0,1,1,0,0,0,0,0,-1,0,0,0,0,0,0,0,-3,0,-2,-8],"bar":[0,0],"off":[0,0]}"#,
            "61",
            "7/1* 2/1, 7/1* 3/2, 7/1* 4/3, 7/1* 6/5, 7/1*/off, 7/off",
        ),
        (
            r#"{"board":[2,-2,3,3,2,3,0,2,0,0,0,-1,-1,-1,0,0,-1,0,-2,-1,-2,0,-2,-2],"bar":[0,0],"off":[0,0]}"#,
            "44",
            "8/4 8/off 5/1, 8/4(2) 5/1(2), 8/off(2)",
        ),
    ];
    for (p, dice, expected) in cases {
        assert_eq!(moves(p, dice).join(", "), expected, "{p}");
    }
}

#[test]
fn b21_b22_gammon_backgammon_single() {
    let finish = |points: &[(usize, i32)], bar: [i32; 2]| {
        let mut r = at(&pos(points, bar), [2, 1]);
        run(&mut r, &["play 1/off"])
    };
    let gammon = finish(&[(1, 1), (18, -15)], [0, 0]);
    assert!(gammon.contains("X 2"), "{gammon}");
    let backgammon = finish(&[(1, 1), (18, -14), (5, -1)], [0, 0]);
    assert!(backgammon.contains("X 3"), "{backgammon}");
    let on_bar = finish(&[(1, 1), (18, -14)], [0, 1]);
    assert!(on_bar.contains("X 3"), "{on_bar}");
    let single = finish(&[(1, 1), (18, -14)], [0, 0]);
    assert!(single.contains("X 1"), "{single}");
}

/// True when the game waits for the dice without a cube decision first.
fn straight_to_dice(r: &mut Repl) -> bool {
    run(r, &["moves"]).starts_with("waiting for dice")
}

#[test]
fn b23_to_b25_the_cube() {
    let mut r = repl(&rules());
    // X opens, O rolls and plays: X is to act at the start of his turn.
    run(
        &mut r,
        &[
            "new backgammon --seed 1",
            "roll 3 1",
            "play 8/5 6/5",
            "play roll",
            "roll 6 5",
            "play 24/13",
        ],
    );
    assert_eq!(labels(&mut r), ["roll", "double"]);
    run(&mut r, &["play double"]);
    assert_eq!(labels(&mut r), ["take", "drop"]);
    run(&mut r, &["play take"]);
    let json: Json = serde_json::from_str(&run(&mut r, &["position"])).unwrap();
    assert_eq!(json["cube"]["value"], 2);
    // X rolls on; at O's turn O may redouble, at X's next turn X may not.
    run(&mut r, &["roll 2 1", "play 1"]);
    assert_eq!(labels(&mut r), ["roll", "double"], "O owns the cube");
    run(&mut r, &["play roll", "roll 4 2", "play 1"]);
    assert!(straight_to_dice(&mut r), "X does not own the cube");
    // B24: after rolling, no double.
    run(&mut r, &["roll 3 3"]);
    assert!(fails(&mut r, "play double").contains("double"));
    // B25: X doubles from 1, O drops → X +1 as a single.
    run(
        &mut r,
        &[
            "new backgammon --seed 1",
            "roll 3 1",
            "play 8/5 6/5",
            "play roll",
            "roll 6 5",
            "play 24/13",
        ],
    );
    let out = run(&mut r, &["play double", "play drop"]);
    assert!(out.contains("game over") && out.contains("X 1"), "{out}");
}

#[test]
fn b27_beavers() {
    let mut r = repl(&rules());
    run(
        &mut r,
        &[
            "new backgammon --seed 1 --set beavers=true",
            "roll 3 1",
            "play 8/5 6/5",
            "play roll",
            "roll 6 5",
            "play 24/13",
            "play double",
        ],
    );
    assert!(labels(&mut r).contains(&"beaver".to_string()));
    run(&mut r, &["play beaver"]);
    assert_eq!(labels(&mut r), ["take", "drop"]);
    let out = run(&mut r, &["play drop"]);
    assert!(out.contains("O 2"), "{out}");
}

#[test]
fn b28_b29_match_and_crawford() {
    let finish = r#"{"board":[1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-14,0,0,0,0,0,0],"bar":[0,0],"off":[14,1],"dice":[2,1],"match":{"length":5,"score":[3,2],"crawford":false}}"#;
    let mut r = repl(&rules());
    let out = run(
        &mut r,
        &[&format!("setup backgammon {finish}"), "play 1/off"],
    );
    assert!(!out.contains("game over"), "the match goes on:\n{out}");
    run(&mut r, &["roll 3 1"]);
    let json: Json = serde_json::from_str(&run(&mut r, &["position"])).unwrap();
    let score = &json["match"]["score"];
    assert!(
        score == &serde_json::json!([4, 2]) || score == &serde_json::json!([2, 4]),
        "{json}"
    );
    assert_eq!(json["match"]["crawford"], true);
    // In the Crawford game nobody may double.
    run(&mut r, &["play 1"]);
    assert!(straight_to_dice(&mut r));
    // B29: a gammon from 3–2 wins the 5-point match.
    let gammon = finish.replace("[14,1]", "[14,0]").replace("-14", "-15");
    let out = run(
        &mut r,
        &[&format!("setup backgammon {gammon}"), "play 1/off"],
    );
    assert!(out.contains("game over"), "{out}");
}

#[test]
fn b30_cube_limit() {
    let p = r#"{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0],"cube":{"value":64,"owner":"me"}}"#;
    let mut r = repl(&rules());
    run(
        &mut r,
        &[&format!("setup backgammon --set cube_limit=64 {p}")],
    );
    assert!(straight_to_dice(&mut r));
    run(&mut r, &[&format!("setup backgammon {p}")]);
    assert_eq!(labels(&mut r), ["roll", "double"]);
}

#[test]
fn b31_position_ids() {
    let cases = [
        ("4HPwATDgc/ABMA", START),
        (
            "mGfwATDgc/ABMA",
            r#"{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-2,0,-4,0,-2,0,0,2],"bar":[0,0],"off":[0,0]}"#,
        ),
        (
            "/38AAADg/wcAQA",
            r#"{"board":[0,0,0,0,0,14,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15],"bar":[1,0],"off":[0,0]}"#,
        ),
        (
            "zGbiIYCYD3gALA",
            r#"{"board":[1,0,0,2,0,5,0,-1,0,0,0,-4,4,0,-1,0,-2,0,-2,-2,0,-2,0,2],"bar":[1,0],"off":[0,1]}"#,
        ),
    ];
    for (id, json) in cases {
        let mut r = repl(&rules());
        run(&mut r, &[&format!("setup backgammon {id}")]);
        let got: Json = serde_json::from_str(&run(&mut r, &["position"])).unwrap();
        let want: Json = serde_json::from_str(json).unwrap();
        for k in ["board", "bar", "off"] {
            assert_eq!(got[k], want[k], "{id} {k}");
        }
        run(&mut r, &[&format!("setup backgammon {json}")]);
        assert_eq!(
            run(&mut r, &["position id"]),
            format!("{id}:cAkAAAAAAAAE"),
            "X to roll or double in a money game, cube centred, the Jacoby rule off"
        );
    }
}

/// A new money game in which O doubles at his first turn: X answers.
const O_DOUBLES: [&str; 4] = [
    "new backgammon --seed 1",
    "roll 3 1",
    "play 8/5 6/5",
    "double",
];

/// `position id` prints gnubg's PositionID:MatchID, and `setup` of it gives back the whole
/// state: a 2-cube O owns, a 9-point match at X 4 - O 2, X on roll with 5-2 (the gnubg
/// manual's Match ID), and an offered double waiting for its answer. The manual's ID has the
/// Jacoby bit clear, which a match ignores; gnubg now writes it set in a match, as `position
/// id` does.
#[test]
fn gnubg_position_and_match_ids_round_trip_a_game_state() {
    let mut r = repl(&rules());
    let id = "vzsAAFhu2xFABA:QYkqASAAIAAE";
    let manual = "vzsAAFhu2xFABA:QYkqASAAIAAA";
    let out = run(&mut r, &[&format!("setup backgammon {manual}")]);
    assert!(out.contains("X to play 5-2"), "{out}");
    assert_eq!(run(&mut r, &["position id"]), id);
    let out = run(&mut r, &[&format!("setup backgammon {id}")]);
    assert!(out.contains("X to play 5-2"), "{out}");
    assert!(out.contains("9-point match: X 4 - O 2"), "{out}");
    let json: Json = serde_json::from_str(&run(&mut r, &["position"])).unwrap();
    assert_eq!(json["cube"]["value"], 2);
    assert_eq!(json["cube"]["owner"], "opp");
    assert_eq!(json["match"]["score"], serde_json::json!([4, 2]));
    assert_eq!(run(&mut r, &["position id"]), id);

    run(&mut r, &O_DOUBLES);
    let doubled = run(&mut r, &["position id"]);
    assert_eq!(doubled, "sGfwATDgc/ABMA:MBkAAAAAAAAE");
    let out = run(&mut r, &[&format!("setup backgammon {doubled}")]);
    assert!(out.contains("X: take or drop at 2"), "{out}");
    assert!(run(&mut r, &["take"]).contains("cube 2"));

    let e = fails(&mut r, "setup backgammon 4HPwATDgc/ABMA:cAkAAAAAAAA");
    assert!(e.contains("a Match ID has 12 characters"), "{e}");
}

#[test]
fn b32_move_input() {
    let mut r = at(START, [2, 2]);
    run(
        &mut r,
        &["play 13/11 11/9 6/4(2)", "undo", "play 13/9 6/4(2)"],
    );
    let slashes = run(&mut r, &["position"]);
    // a dash reads as a slash, as many players type it
    run(&mut r, &["undo", "play 13-9 6-4(2)"]);
    assert_eq!(run(&mut r, &["position"]), slashes);
    let p = pos(
        &[
            (24, 2),
            (13, 5),
            (8, 3),
            (6, 5),
            (1, -2),
            (12, -5),
            (17, -3),
            (19, -3),
            (21, -1),
            (23, -1),
        ],
        [0, 0],
    );
    assert_eq!(moves(&p, "31").len(), 17);
    let mut r = at(&p, [3, 1]);
    assert!(fails(&mut r, "play 24/20").contains("ambiguous"));
    run(&mut r, &["play 24/21*/20"]);
}

#[test]
fn b33_prime_and_blot_are_reported() {
    let p = pos(
        &[
            (4, 2),
            (5, 2),
            (6, 2),
            (7, 2),
            (8, 2),
            (9, 2),
            (13, 3),
            (2, -1),
            (19, -14),
        ],
        [0, 0],
    );
    let mut r = at(&p, [2, 1]);
    let shown = run(&mut r, &["show"]).to_lowercase();
    assert!(shown.contains("prime"), "{shown}");
    assert!(shown.contains("blot"), "{shown}");
}

#[test]
fn bad_positions_get_clear_errors() {
    let mut r = repl(&rules());
    run(&mut r, &["new backgammon --seed 1"]);
    let before = run(&mut r, &["position"]);
    for (bad, says) in [
        (r#"{"board":[1],"bar":[0,0],"off":[0,0]}"#, "board"),
        (
            r#"{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,3],"bar":[0,0],"off":[0,0]}"#,
            "15",
        ),
        (
            r#"{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0],"turn":"x"}"#,
            "turn",
        ),
        (
            r#"{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0],"dice":[7,1]}"#,
            "dice",
        ),
        ("4HPwATDgc/AB", "Position ID"),
        ("{\"board\": [", "JSON"),
    ] {
        let e = fails(&mut r, &format!("setup backgammon {bad}"));
        assert!(
            e.to_lowercase().contains(&says.to_lowercase()),
            "{bad}: {e}"
        );
    }
    assert_eq!(run(&mut r, &["position"]), before, "the game survives");
}

#[test]
fn b26_jacoby() {
    // B21's gammon with a centred cube counts as a single under Jacoby…
    let p = pos(&[(1, 1), (18, -15)], [0, 0]).replacen('{', r#"{"dice":[2,1],"#, 1);
    let mut r = repl(&rules());
    let out = run(
        &mut r,
        &[
            &format!("setup backgammon --set jacoby=true {p}"),
            "play 1/off",
        ],
    );
    assert!(out.contains("X 1"), "{out}");
    // …but not once the cube was turned: cube 2 → 2 × 2.
    let turned = p.replacen('{', r#"{"cube":{"value":2,"owner":"opp"},"#, 1);
    let out = run(
        &mut r,
        &[
            &format!("setup backgammon --set jacoby=true {turned}"),
            "play 1/off",
        ],
    );
    assert!(out.contains("X 4"), "{out}");
}

#[test]
fn b28_crawford_off_allows_doubling() {
    let finish = r#"{"board":[1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-14,0,0,0,0,0,0],"bar":[0,0],"off":[14,1],"dice":[2,1],"match":{"length":5,"score":[3,2],"crawford":false}}"#;
    let mut r = repl(&rules());
    run(
        &mut r,
        &[
            &format!("setup backgammon --set crawford=false {finish}"),
            "play 1/off",
            "roll 3 1",
            "play 1",
        ],
    );
    assert_eq!(labels(&mut r), ["roll", "double"]);
}

#[test]
fn b35_same_seed_same_game() {
    let script = ["new backgammon --seed 77 --set cube=false", "auto 120"];
    let mut a = repl(&rules());
    let mut b = repl(&rules());
    run(&mut a, &script);
    run(&mut b, &script);
    let (la, lb) = (run(&mut a, &["log"]), run(&mut b, &["log"]));
    assert!(la.lines().count() > 100, "{la}");
    assert_eq!(la, lb);
    assert_eq!(run(&mut a, &["position"]), run(&mut b, &["position"]));
}

/// Simulations take the status that `chance` and `apply` return; the REPL compares it with
/// the status hook at every step. Whole games in each setting (five at the full soak size) must
/// never disagree.
#[test]
fn returned_statuses_agree_with_the_status_hook_over_whole_games() {
    for (i, setting) in [
        "--set cube=false",
        "",
        "--variant match5",
        "--variant hypergammon",
    ]
    .iter()
    .enumerate()
    {
        for seed in 1..=common::soak(5) {
            let mut r = repl(&rules());
            run(
                &mut r,
                &[&format!(
                    "new backgammon --seed {} {setting}",
                    seed + 10 * i as u64
                )],
            );
            let out = run(&mut r, &["auto 3000"]);
            assert!(
                out.contains("wins") || out.contains("over"),
                "{setting} seed {seed}: {out}"
            );
        }
    }
}

#[test]
fn the_automatic_doubles_house_rule_stacks_on_chance() {
    let mut r = repl(&rules());
    run(
        &mut r,
        &[
            "new backgammon --variant money_automatic --seed 1",
            "roll 4 4",
            "roll 2 2",
            "roll 5 5",
            "roll 6 6",
        ],
    );
    let json: Json = serde_json::from_str(&run(&mut r, &["position"])).unwrap();
    assert_eq!(
        json["cube"]["value"], 8,
        "three ties double to 8, the fourth is capped"
    );
    assert_eq!(json["cube"]["owner"], "center");
    assert_eq!(
        run(&mut r, &["rules chance"]),
        "chance (top first):\n  rules/backgammon/house/automatic_doubles.lua\n  rules/backgammon/game.lua"
    );
    run(&mut r, &["roll 3 1"]);
    assert_eq!(labels(&mut r).len(), 16, "the opening move is unchanged");
    // Without the variant a tie changes nothing.
    run(&mut r, &["new backgammon --seed 1", "roll 4 4"]);
    let json: Json = serde_json::from_str(&run(&mut r, &["position"])).unwrap();
    assert_eq!(json["cube"]["value"], 1);
}

/// `auto`'s uniform-random bot rolls rather than doubles and takes rather than drops (the game
/// table's `auto_prefers`), so a money game is played out on the board; `auto --any` lets it
/// use the cube, and the same seed then doubles and drops the game away.
#[test]
fn auto_keeps_the_random_bot_off_the_cube_unless_any() {
    let mut r = repl(&rules());
    run(&mut r, &O_DOUBLES);
    assert!(run(&mut r, &["auto 1"]).contains("X takes; cube 2"));

    run(&mut r, &["new backgammon --seed 5", "auto"]);
    let log = run(&mut r, &["log"]);
    assert!(!log.contains("doubles") && !log.contains("drops"), "{log}");
    assert!(run(&mut r, &["show"]).contains("wins"), "played to the end");

    run(&mut r, &["new backgammon --seed 5", "auto --any"]);
    assert!(run(&mut r, &["log"]).contains("doubles"));
    assert!(run(&mut r, &["rules"]).contains("auto's random bot takes, when offered: roll, take"));
}
