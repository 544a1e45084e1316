//! `tortuga moves <game> --position P` and the REPL's `moves --position P` for the games
//! without a `machine_moves` hook (issue 16, item 3): a position exported from a real game
//! lists the options the REPL lists there; the variant and house rules given are the rules
//! the listing runs on; bad input is refused with one line naming the problem.

use crate::common;

use std::process::Command;

use serde_json::Value;
use tortuga::repl::Repl;

use common::{fails, repl, rules, run};

/// `tortuga moves <args>` on the shipped rules: its JSON, or its one-line error (exit status 2,
/// nothing on standard output).
fn tortuga_moves(args: &[&str]) -> Result<Value, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_tortuga"))
        .args(["--rules", rules().to_str().unwrap(), "moves"])
        .args(args)
        .output()
        .expect("the binary runs");
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    if out.status.success() {
        assert!(stderr.is_empty(), "{stderr}");
        assert_eq!(stdout.lines().count(), 1, "one line of JSON: {stdout}");
        return Ok(serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}")));
    }
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    Err(stderr.trim_end().to_string())
}

/// The option labels of a decision's JSON.
fn options(answer: &Value) -> Vec<String> {
    assert_eq!(answer["waiting"], "decision", "{answer}");
    answer["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap().to_string())
        .collect()
}

/// The labels the REPL's `moves` lists (numbered lines), or none when it prints a status line.
fn listed(r: &mut Repl) -> Vec<String> {
    let out = run(r, &["moves"]);
    out.lines()
        .filter_map(|l| l.trim_start().split_once(". ").map(|(_, label)| label))
        .map(str::to_string)
        .collect()
}

/// The REPL's `moves --position` on `position`: its JSON.
fn repl_machine(r: &mut Repl, position: &str) -> Value {
    let out = run(r, &[&format!("moves --position \"{position}\"")]);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// A game started with `start` and played by `auto` a step at a time: at every decision whose
/// position exports, the options the REPL lists and the position.
fn decisions(start: &[&str], steps: usize) -> Vec<(Vec<String>, String)> {
    let mut r = repl(&rules());
    run(&mut r, start);
    let mut out = Vec::new();
    for _ in 0..steps {
        let labels = listed(&mut r);
        if !labels.is_empty()
            && let Ok(position) = r.handle_line("position")
        {
            out.push((labels, position));
        }
        run(&mut r, &["auto 1"]);
    }
    out
}

/// `moves --position` on each position of a real game lists the options the game's REPL
/// listed there; `same_order`: in the same order too (else as many, the same labels). Returns
/// the positions.
fn lists_the_repls_options(game: &str, start: &[&str], same_order: bool) -> Vec<String> {
    let found = decisions(start, 30);
    assert!(found.len() >= 10, "{game}: {} decisions", found.len());
    let mut r = repl(&rules());
    run(&mut r, &[&format!("new {game} --seed 1")]);
    for (labels, position) in &found {
        let mut machine = options(&repl_machine(&mut r, position));
        let mut live = labels.clone();
        if !same_order {
            machine.sort();
            live.sort();
        }
        assert_eq!(machine, live, "{game} at\n{position}");
    }
    // The command line takes the same path: the same JSON.
    let (_, position) = &found[found.len() / 2];
    assert_eq!(
        tortuga_moves(&[game, "--position", position]).unwrap(),
        repl_machine(&mut r, position)
    );
    found.into_iter().map(|(_, position)| position).collect()
}

#[test]
fn jackal_positions_list_the_options_of_the_game() {
    lists_the_repls_options("jackal", &["new jackal --seed 7"], true);
}

#[test]
fn pirates_positions_list_the_options_of_the_game() {
    // From after the golden galleon's choice, which the position text does not hold (§18).
    lists_the_repls_options("pirates", &["new pirates --seed 7", "play G2"], true);
}

/// Chaupar lists a throw's moves piece by piece, and the pieces of an imported position come
/// in the text's order, not the order they entered the board in a game: the same options,
/// in the order `setup` of the position lists them.
#[test]
fn chaupar_positions_list_the_options_of_the_game() {
    let positions = lists_the_repls_options("chaupar", &["new chaupar --seed 7"], false);
    let mut r = repl(&rules());
    run(&mut r, &["new chaupar --seed 1"]);
    for position in positions.iter().step_by(5) {
        let mut set_up = repl(&rules());
        run(&mut set_up, &[&format!("setup chaupar {position}")]);
        assert_eq!(
            options(&repl_machine(&mut r, position)),
            listed(&mut set_up),
            "{position}"
        );
    }
}

/// The options of `tortuga moves <game> <options…> --position <position> [--dice <dice>]`.
fn cli_options(game: &str, options: &[&str], position: &str, dice: Option<&str>) -> Vec<String> {
    let mut args = vec![game];
    args.extend(options);
    args.extend(["--position", position]);
    args.extend(dice.iter().flat_map(|d| ["--dice", d]));
    let answer = tortuga_moves(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    self::options(&answer)
}

#[test]
fn jackal_house_rules_on_may_carry_change_the_moves_listed() {
    // W1 on D5 with a coin, B1 on E5 (§15 conventions): where may W1 take the coin?
    let position = "jackal 1\nturn white\nfill .\ncoins D5=1\nW1 D5\nB1 E5\n";
    let carried = |options: &[&str]| -> Vec<String> {
        let mut to: Vec<String> = cli_options("jackal", options, position, None)
            .into_iter()
            .filter_map(|l| {
                l.strip_suffix(" +coin")
                    .map(|m| m["W1 D5->".len()..].to_string())
            })
            .collect();
        to.sort();
        to
    };
    let base = ["C4", "C5", "C6", "D4", "D6", "E4", "E6"];
    assert_eq!(carried(&[]), base);
    // Into the fight on E5 with carry_into_fight; out of B1's reach only with safe_gold.
    let fight = ["C4", "C5", "C6", "D4", "D6", "E4", "E5", "E6"];
    assert_eq!(carried(&["--variant", "carry_into_fight"]), fight);
    assert_eq!(carried(&["--house", "safe_gold"]), ["C4", "C5", "C6"]);
    // Both, in stack order: safe_gold below, carry_into_fight on top.
    assert_eq!(
        carried(&["--variant", "safe_gold", "--house", "carry_into_fight"]),
        ["C4", "C5", "C6", "E5"]
    );
}

#[test]
fn chaupar_house_rules_on_safe_change_the_moves_listed() {
    // A pair on N.r6 may take W's pair on N.r3 with 1+2 (§10), unless blocks are safe.
    let pairs = "chaupar 1\nthrow 2 1 1\nS: N.r6 x2, N.m8\nW: N.r3 x2, N.r1\nturn S\n";
    let base = cli_options("chaupar", &[], pairs, None);
    assert!(
        base.contains(&"move N.r6 x2 1+2 to N.r3".into()),
        "{base:?}"
    );
    let kept: Vec<String> = base
        .into_iter()
        .filter(|m| !m.ends_with("to N.r3"))
        .collect();
    assert_eq!(
        cli_options("chaupar", &["--variant", "safe_blocks"], pairs, None),
        kept
    );
    // E.l5 is a castle of E's arm: it guards W's piece from S's 4, unless castles guard only
    // their own arm. The throw is forced with --dice.
    let castle = "chaupar 1\nimplement cowries\nS: E.l1, S.r6, S.r8, home 1\nW: E.l5\nturn S\n";
    let base = cli_options("chaupar", &[], castle, Some("4"));
    assert_eq!(base, ["move S.r6 x1 4 to S.r2", "move S.r8 x1 4 to S.r4"]);
    let own_arm = cli_options(
        "chaupar",
        &["--house", "own_arm_castles"],
        castle,
        Some("4"),
    );
    assert_eq!(own_arm[0], "move E.l1 x1 4 to E.l5");
    assert_eq!(own_arm[1..], base);
}

/// Pirates' position text names the house rules it is played with (§18): the rules loaded
/// must have them, and then list their moves.
#[test]
fn pirates_house_rules_loaded_are_the_ones_listed() {
    let export = |options: &str| {
        let mut r = repl(&rules());
        run(
            &mut r,
            &[
                &format!("new pirates --variant printed {options} --seed 5"),
                "play G1",
                "roll E",
                "position",
            ],
        )
    };
    let printed = export("");
    let fewer = export("--house move_fewer_or_stay");
    let options = cli_options("pirates", &["--variant", "printed"], &printed, None);
    assert!(options.contains(&"move G1 N 2".into()), "{options:?}");
    assert!(!options.contains(&"move G1 N 1".into()), "{options:?}");
    // move_fewer_or_stay: a ship may stop short of the wind's full distance.
    let house = ["--variant", "printed", "--house", "move_fewer_or_stay"];
    let options = cli_options("pirates", &house, &fewer, None);
    assert!(
        options.contains(&"move G1 N 1".into()) && options.contains(&"move G1 N 2".into()),
        "{options:?}"
    );
    let e = tortuga_moves(&["pirates", "--variant", "printed", "--position", &fewer]).unwrap_err();
    assert!(
        e.contains("house rule move_fewer_or_stay is not loaded"),
        "{e}"
    );
}

#[test]
fn bad_input_is_refused_with_one_line_naming_it() {
    let jackal = "jackal 1\nturn white\nfill .\n";
    let chaupar = "chaupar 1\nimplement cowries\nS: S.r6, S.r8, home 2\nturn S\n";
    let refused = |args: &[&str]| tortuga_moves(args).unwrap_err();
    let cases: [(&[&str], &str); 9] = [
        (
            &["jackal", "--position", "jackal 1\nturn nobody\n"],
            "error: --position: jackal position refused: position line 2",
        ),
        (
            &["pirates", "--position", "pirates 2\n"],
            "error: --position: pirates position refused: position line 1",
        ),
        (
            &["chaupar", "--position", chaupar, "--dice", "9"],
            "error: --dice '9': 9 is not a score of cowries",
        ),
        (
            &["chaupar", "--position", chaupar, "--dice", "4 4"],
            "error: --dice '4 4': cowries takes one value",
        ),
        (
            &["jackal", "--position", jackal, "--dice", "4"],
            "error: --dice '4': this position waits for white's decision, not for a chance event",
        ),
        (
            &["chaupar", "--position", chaupar, "--dice", " "],
            "error: --dice: no outcome given",
        ),
        (
            &["jackal", "--variant", "nope", "--position", jackal],
            "error: jackal has no variant 'nope' (variants: ",
        ),
        (
            &["chaupar", "--house", "nope", "--position", chaupar],
            "error: --house nope: chaupar has no house rule 'nope' (house rules: own_arm_castles, safe_blocks)",
        ),
        (
            &["jackal", "--position", jackal, "--absolute"],
            "error: --absolute: jackal positions have one orientation",
        ),
    ];
    for (args, start) in cases {
        let e = refused(args);
        assert!(e.starts_with(start), "{args:?}: {e}");
    }
    let e = refused(&["jackal", "--position", "@no/such/file"]);
    assert!(e.starts_with("error: --position no/such/file: "), "{e}");
    // The REPL's `moves --position` gives the same errors and keeps its game.
    let mut r = repl(&rules());
    run(&mut r, &["new jackal --seed 3"]);
    let before = listed(&mut r);
    let e = fails(&mut r, &format!("moves --position \"{jackal}\" --dice 4"));
    assert!(
        e.starts_with("--dice '4': this position waits for white's decision"),
        "{e}"
    );
    let e = fails(&mut r, "moves --position \"jackal 1\nturn nobody\"");
    assert!(
        e.starts_with("--position: jackal position refused: position line 2"),
        "{e}"
    );
    assert_eq!(listed(&mut r), before);
}

#[test]
fn a_position_file_reads_as_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("castle.txt");
    let castle = "chaupar 1\nimplement cowries\nS: E.l1, S.r6, S.r8, home 1\nW: E.l5\nturn S\n";
    std::fs::write(&file, castle).unwrap();
    let at = format!("@{}", file.display());
    let answer = tortuga_moves(&["chaupar", "--position", &at]).unwrap();
    assert_eq!(
        answer,
        tortuga_moves(&["chaupar", "--position", castle]).unwrap()
    );
    assert_eq!(answer["waiting"], "chance");
    assert_eq!(answer["chance"], "cowries");
    let mut r = repl(&rules());
    run(&mut r, &["new chaupar --seed 3"]);
    let listed = run(&mut r, &[&format!("moves --position {at} --dice 4")]);
    let listed: Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(options(&listed).len(), 2, "{listed}");
    assert_eq!(listed["actor"]["name"], "S");
}
