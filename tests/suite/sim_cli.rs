//! `sim`, `sim-merge`, `check` and `replay` from the command line: a study sharded with GNU
//! parallel merges into the one-run report, a broken rule is caught and its shrunk replay
//! reproduces the failure, and bad input gets a one-line error with nothing written.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

fn tortuga(rules: &Path, args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tortuga"))
        .arg("--rules")
        .arg(rules)
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("tortuga runs")
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The one-line error of a command that must fail, after checking that it wrote nothing.
fn one_line_error(rules: &Path, args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let o = tortuga(rules, args, dir.path());
    assert_eq!(o.status.code(), Some(2), "{args:?} must fail with status 2");
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(o.stdout.is_empty(), "nothing printed on stdout");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{args:?} wrote {left:?}");
    err
}

const STUDY: &[&str] = &[
    "sim",
    "backgammon",
    "--variant",
    "money_jacoby",
    "--vs",
    "money_automatic",
    "--games",
    "40",
    "--seed",
    "9",
];

#[test]
#[cfg_attr(
    not(gnu_parallel),
    ignore = "needs GNU parallel on PATH (apt-get install parallel; .ci/run installs it)"
)]
fn a_study_sharded_with_gnu_parallel_merges_into_the_one_run_report() {
    let dir = tempfile::tempdir().unwrap();
    let rules = common::rules();
    let whole = stdout(&tortuga(&rules, STUDY, dir.path()));
    let study = STUDY.join(" ");
    let o = Command::new("parallel")
        .args(["--halt", "now,fail=1", "-j", "2"])
        .arg(format!(
            "{} --rules {} {study} --shard {{}}/4 --out shard-{{}}.json",
            env!("CARGO_BIN_EXE_tortuga"),
            rules.display()
        ))
        .args([":::", "1", "2", "3", "4"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shards = [
        "shard-3.json",
        "shard-1.json",
        "shard-4.json",
        "shard-2.json",
    ];
    let mut args = vec!["sim-merge"];
    args.extend(shards);
    let merged = stdout(&tortuga(&rules, &args, dir.path()));
    assert_eq!(merged, whole);
    assert!(whole.contains("40 games each"));

    let mut three = vec!["sim-merge"];
    three.extend(&shards[..3]);
    let o = tortuga(&rules, &three, dir.path());
    assert!(String::from_utf8_lossy(&o.stderr).contains("shard 2/4 is missing"));
}

#[test]
fn merging_shards_of_different_studies_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let rules = common::rules();
    let shard = |seed: &str, variant: &str, i: &str, out: &str| {
        let args = [
            "sim",
            "backgammon",
            "--variant",
            variant,
            "--games",
            "6",
            "--seed",
            seed,
            "--shard",
            i,
            "--out",
            out,
        ];
        stdout(&tortuga(&rules, &args, dir.path()));
    };
    shard("1", "money_jacoby", "1/2", "a.json");
    shard("2", "money_jacoby", "2/2", "b.json");
    shard("1", "match5", "2/2", "c.json");
    let refuse = |files: &[&str], want: &str| {
        let mut args = vec!["sim-merge"];
        args.extend(files);
        let o = tortuga(&rules, &args, dir.path());
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(err.contains(want) && err.lines().count() == 1, "{err}");
    };
    refuse(&["a.json", "b.json"], "its seed differs");
    refuse(&["a.json", "c.json"], "its game or variant differs");
    refuse(&["a.json", "a.json"], "shard 1/2 is given twice");

    let mut text = std::fs::read_to_string(dir.path().join("b.json")).unwrap();
    text = text.replace("\"seed\":2", "\"seed\":1");
    let hash_at = text.find("\"hash\":\"").unwrap() + 8;
    text.replace_range(hash_at..hash_at + 4, "0000");
    std::fs::write(dir.path().join("d.json"), text).unwrap();
    refuse(
        &["a.json", "d.json"],
        "d.json: its records or study were altered",
    );
}

/// A shard edited by hand: one line naming the file, never a panic, a hang or a huge
/// allocation.
#[test]
fn crafted_shard_files_are_one_line_errors_naming_the_file() {
    let rules = common::rules();
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "sim",
        "backgammon",
        "--games",
        "6",
        "--shard",
        "1/2",
        "--out",
        "a.json",
    ];
    stdout(&tortuga(&rules, &args, dir.path()));
    let good = std::fs::read_to_string(dir.path().join("a.json")).unwrap();
    let crafted = |name: &str, text: &str, want: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let err = one_line_error(&rules, &["sim-merge", path.to_str().unwrap()]);
        assert!(
            err.contains(&format!("{}: ", path.display())) && err.contains(want),
            "{name}: want '{want}' in: {err}"
        );
    };
    let edit = |from: &str, to: &str| {
        assert!(good.contains(from), "{from} not in {good}");
        good.replacen(from, to, 1)
    };
    crafted(
        "zero.json",
        &edit("\"shard\":[1,2]", "\"shard\":[1,0]"),
        "shard [1,0] is not i of n",
    );
    crafted(
        "huge.json",
        &edit("\"games\":6", "\"games\":18446744073709551615"),
        "holds 3 of its 9223372036854775807 games",
    );
    crafted("cut.json", &good[..good.len() / 2], "not a shard file (EOF");
    let decisions = good.find("\"decisions\":").unwrap() + 12;
    let mut altered = good.clone();
    altered.insert(decisions, '1');
    crafted(
        "altered.json",
        &altered,
        "altered since it was written (digest mismatch)",
    );
    let scores = format!("\"scores\":[{}", "0,".repeat(64));
    crafted(
        "scores.json",
        &edit("\"scores\":[", &scores),
        "expected a list of at most 64 items",
    );
}

#[test]
fn bad_study_input_is_one_line_with_nothing_written() {
    let rules = common::rules();
    let with = |extra: &[&str]| {
        let mut args = vec!["sim", "backgammon", "--svg", "chart.svg"];
        args.extend(extra);
        if !extra.contains(&"--games") {
            args.extend(["--games", "4"]);
        }
        one_line_error(&rules, &args)
    };
    assert!(with(&["--games", "0"]).contains("--games 0"));
    assert!(with(&["--variant", "nope"]).contains("no variant 'nope'"));
    assert!(with(&["--vs", "nope"]).contains("no variant 'nope'"));
    assert!(with(&["--bots", "random,wizard"]).contains("no bot 'wizard'"));
    let typo = with(&["--bots", "greedy:pubval"]);
    assert!(
        typo.contains("no evaluation 'pubval': did you mean pubeval?"),
        "{typo}"
    );
    let none = one_line_error(&rules, &["sim", "chaupar", "--bots", "greedy:pubeval"]);
    assert!(
        none.contains("chaupar declares no evaluations but its own"),
        "{none}"
    );
    let shard = one_line_error(
        &rules,
        &[
            "sim",
            "backgammon",
            "--games",
            "4",
            "--shard",
            "3/2",
            "--out",
            "s.json",
        ],
    );
    assert!(shard.contains("--shard takes i/n"), "{shard}");
    let merge = one_line_error(&rules, &["sim-merge", "missing.json"]);
    assert!(merge.contains("missing.json"), "{merge}");
    let check = one_line_error(&rules, &["check", "backgammon", "--games", "0"]);
    assert!(check.contains("--games 0"), "{check}");
    for command in ["sim", "train", "check"] {
        let args = [command, "backgammon", "--games", "4", "--jobs", "100000"];
        let jobs = one_line_error(&rules, &args);
        assert!(
            jobs.contains("--jobs 100000: this machine runs 1 to "),
            "{jobs}"
        );
    }
}

#[test]
fn check_catches_a_broken_rule_and_its_shrunk_replay_reproduces_it() {
    let rules = common::fixtures();
    let dir = tempfile::tempdir().unwrap();
    for (variant, found) in [(None, "script error"), (Some("leak"), "invariant broken")] {
        let mut args = vec!["check", "broken", "--games", "5", "--seed", "1"];
        if let Some(v) = variant {
            args.extend(["--variant", v]);
        }
        let o = tortuga(&rules, &args, dir.path());
        assert_eq!(o.status.code(), Some(1), "check fails on a broken rule");
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(
            out.contains("game 0 (seed ") && out.contains(found),
            "{out}"
        );
        let line = out.lines().find(|l| l.contains("shrunk to")).unwrap();
        let (before, after) = (
            out.split(" after ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap(),
            line.split("shrunk to ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap(),
        );
        let (before, after): (u32, u32) = (before.parse().unwrap(), after.parse().unwrap());
        assert!(after < before, "shrunk from {before} to {after} decisions");
        let replay = tortuga(&rules, &["replay", "check-broken-0.sav"], dir.path());
        assert_eq!(replay.status.code(), Some(1));
        let text = String::from_utf8(replay.stdout).unwrap();
        let want = match variant {
            None => "fails: rules/broken/game.lua:48: cell 13 is cursed",
            Some(_) => "an invariant breaks: B has lost its runner",
        };
        assert!(text.contains(want), "{text}");
    }
}

/// `check --jobs` reports the same failures in game order whatever the number of workers, and
/// `--first-failure` stops starting games once one failed, saying how many were checked.
#[test]
fn check_on_several_workers_reports_the_same_and_can_stop_at_a_failure() {
    let rules = common::fixtures();
    let dir = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let args = [
            &["check", "broken", "--games", "6", "--seed", "3"][..],
            extra,
        ]
        .concat();
        let o = tortuga(&rules, &args, dir.path());
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    let one = run(&["--jobs", "1"]);
    assert_eq!(run(&["--jobs", "2"]), one);
    assert!(
        one.contains("game 0 (seed ") && one.contains("game 2 (seed "),
        "{one}"
    );
    let first = run(&["--jobs", "1", "--first-failure"]);
    assert!(
        first.contains("1 failed (stopped at the first failure: 1 of 6 games checked)"),
        "{first}"
    );
}

/// `check` passes on each game (each with its number of games at the full soak size).
#[test]
fn the_shipped_games_pass_check() {
    let dir = tempfile::tempdir().unwrap();
    let rules = common::rules();
    for (args, full) in [
        (&["check", "backgammon"][..], 30),
        (&["check", "backgammon", "--variant", "hypergammon"], 30),
        (&["check", "jackal", "--players", "2"], 2),
        (&["check", "chaupar"], 2),
        (&["check", "pirates"], 1),
    ] {
        let games = common::soak(full).to_string();
        let args = [args, &["--games", &games]].concat();
        let o = tortuga(&rules, &args, dir.path());
        assert!(stdout(&o).contains(" 0 failed"), "{args:?}");
    }
}

#[test]
fn a_player_count_the_game_does_not_allow_is_one_line_naming_the_allowed_ones() {
    let rules = common::rules();
    let sim = one_line_error(
        &rules,
        &["sim", "chaupar", "--players", "3", "--games", "2"],
    );
    assert!(
        sim.contains("chaupar is played by 2 or 4 players, not 3"),
        "{sim}"
    );
    // The REPL's starting game: the error, and the REPL still reads its commands.
    let o = Command::new(env!("CARGO_BIN_EXE_tortuga"))
        .arg("--rules")
        .arg(&rules)
        .args(["--game", "chaupar", "--players", "3"])
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("tortuga runs");
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(
        err.trim(),
        "error: chaupar is played by 2 or 4 players, not 3"
    );
    let ok = stdout(&tortuga(
        &rules,
        &["sim", "chaupar", "--players", "2", "--games", "1"],
        Path::new("."),
    ));
    assert!(ok.contains("2 players"), "{ok}");
}

#[test]
fn bench_all_prints_one_row_per_game_and_variant() {
    let dir = tempfile::tempdir().unwrap();
    let rules = common::rules();
    let o = tortuga(
        &rules,
        &["bench", "--all", "--rounds", "1", "--seconds", "0"],
        dir.path(),
    );
    let out = stdout(&o);
    let mut lines = out.lines();
    let header = lines.next().unwrap();
    for column in ["playouts/s", "decisions/game", "µs/decision"] {
        assert!(header.contains(column), "{header}");
    }
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split_whitespace().collect()).collect();
    for game in tortuga::script::ruleset::rules::games(&rules) {
        let mut variants = vec!["default".to_string()];
        variants.extend(tortuga::script::ruleset::rules::variants(&rules, &game));
        for v in variants {
            let row = rows
                .iter()
                .find(|r| r[0] == game && r[1] == v)
                .unwrap_or_else(|| panic!("no row for {game} {v}:\n{out}"));
            let figures: Vec<f64> = row[2..6].iter().map(|x| x.parse().unwrap()).collect();
            // playouts/s may round to 0 on a slow machine; the rest is never 0
            assert!(figures[1] >= 1.0 && figures[3] > 0.0, "{row:?}");
        }
    }
}

/// `bench --profile` charges samples to the rule files' functions and lines: backgammon's
/// move generation shows among the functions, every percentage is between 0 and 100.
#[test]
fn bench_profile_names_the_rules_busiest_functions_and_lines() {
    let dir = tempfile::tempdir().unwrap();
    let o = tortuga(
        &common::rules(),
        &[
            "bench",
            "backgammon",
            "--rounds",
            "1",
            "--seconds",
            "0.3",
            "--profile",
            "10",
        ],
        dir.path(),
    );
    let out = stdout(&o);
    let (_, profile) = out
        .split_once("samples (one per")
        .unwrap_or_else(|| panic!("no profile:\n{out}"));
    let (functions, lines) = profile.split_once("lines, self:").expect("two tables");
    let rows = |table: &str| -> Vec<(f64, String)> {
        table
            .lines()
            .filter_map(|l| l.trim().split_once("%  "))
            .map(|(p, place)| (p.parse().unwrap(), place.to_string()))
            .collect()
    };
    let (functions, lines) = (rows(functions), rows(lines));
    assert!(functions.len() == 10 && lines.len() == 10, "{out}");
    for (p, place) in functions.iter().chain(&lines) {
        assert!(*p > 0.0 && *p <= 100.0, "{p} {place}");
        assert!(place.starts_with("rules/backgammon/"), "{place}");
    }
    assert!(
        functions.iter().any(|(_, f)| f.contains("movegen.lua")),
        "{out}"
    );
}

/// The kernel-floor fixture of `benches/` loads and plays: 90 decisions a game, and a cost per
/// decision to set beside a game's.
#[test]
fn the_kernel_floor_fixture_plays_ninety_decisions_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/kernel_floor");
    let out = stdout(&tortuga(
        &fixture,
        &["bench", "floor", "--rounds", "1", "--seconds", "0.2"],
        dir.path(),
    ));
    assert!(out.contains("(90 decisions per game,"), "{out}");
    assert!(out.contains("µs of CPU per decision"), "{out}");
}

/// Every front door runs a variant's stacked house rules (issue 16 item 3): with
/// `doubles_thrice` a double is played three times in `moves`, `check` passes, `sim` plays
/// other games than the default (each double moves fewer pips, so the same seeds give longer
/// games), and `bench` names the variant it measured.
#[test]
fn every_front_door_runs_the_variant_s_house_rules() {
    let dir = tempfile::tempdir().unwrap();
    let rules = common::rules();
    let start = r#"{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0]}"#;
    let moves = |variant: &[&str]| {
        let mut args = vec![
            "moves",
            "backgammon",
            "--dice",
            "55",
            "--position",
            start,
            "--json",
        ];
        args.extend_from_slice(variant);
        stdout(&tortuga(&rules, &args, dir.path()))
    };
    let thrice = moves(&["--variant", "doubles_thrice"]);
    assert!(
        thrice.contains("13/8(3)") && !thrice.contains("13/8(4)"),
        "{thrice}"
    );
    assert!(moves(&[]).contains("13/8(4)"));
    let check = stdout(&tortuga(
        &rules,
        &[
            "check",
            "backgammon",
            "--variant",
            "doubles_thrice",
            "--games",
            "3",
        ],
        dir.path(),
    ));
    assert!(check.contains("0 failed"), "{check}");
    let length = |variant: &[&str]| -> f64 {
        let mut args = vec![
            "sim",
            "backgammon",
            "--games",
            "40",
            "--seed",
            "1",
            "--set",
            "cube=false",
            "--json",
        ];
        args.extend_from_slice(variant);
        let report: serde_json::Value =
            serde_json::from_str(&stdout(&tortuga(&rules, &args, dir.path()))).unwrap();
        report["variants"][0]["measures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == "length")
            .unwrap_or_else(|| panic!("{report}"))["interval"]["estimate"]
            .as_f64()
            .unwrap()
    };
    assert!(
        length(&["--variant", "doubles_thrice"]) > length(&[]),
        "three moves a double make longer games"
    );
    let bench = stdout(&tortuga(
        &rules,
        &[
            "bench",
            "backgammon",
            "--variant",
            "doubles_thrice",
            "--rounds",
            "1",
            "--seconds",
            "0",
        ],
        dir.path(),
    ));
    assert!(bench.contains("backgammon, doubles_thrice ("), "{bench}");
}

/// `--svg` says where the chart went: after the text report, or on stderr beside `--json`,
/// whose output stays one JSON document.
#[test]
fn the_chart_says_where_it_was_written() {
    let rules = common::fixtures();
    let dir = tempfile::tempdir().unwrap();
    let args = ["sim", "coin", "--games", "20", "--svg", "c.svg"];
    let text = stdout(&tortuga(&rules, &args, dir.path()));
    assert!(
        text.trim_end().ends_with("chart written to c.svg"),
        "{text}"
    );
    assert!(dir.path().join("c.svg").is_file());
    let o = tortuga(&rules, &[&args[..], &["--json"]].concat(), dir.path());
    let json = stdout(&o);
    serde_json::from_str::<serde_json::Value>(&json).expect("the JSON stays whole");
    assert!(String::from_utf8_lossy(&o.stderr).contains("chart written to c.svg"));
}
