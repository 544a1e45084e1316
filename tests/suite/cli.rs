//! The `tortuga` binary: batch mode exit codes and line numbers, the REPL on piped input, the
//! machine interface's error contract.

use crate::common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn tortuga(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tortuga"))
        .args(["--rules", common::fixtures().to_str().unwrap()])
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A command refused at its start exits without reading: a closed pipe is no failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn batch_mode_reports_the_failing_line_and_exits_non_zero() {
    let out = tortuga(
        &["run", "-"],
        "new race --seed 1\nroll 3\nplay nowhere\nplay move\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("-:3: error: 'nowhere' is not a legal option"),
        "{err}"
    );
    assert!(text(&out.stdout).contains("die 3 (forced)"));

    let ok = tortuga(
        &["run", "-"],
        "new race --seed 1\nroll 3\nplay move\nposition\n",
    );
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    assert!(text(&ok.stdout).ends_with("4,1\n"));
}

#[test]
fn the_repl_reads_piped_input_and_survives_errors() {
    let out = tortuga(
        &["--game", "race"],
        "roll 2\nplay jump\nplay move\nposition\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("new race (seed"), "{stdout}");
    assert!(stdout.contains("3,1"), "{stdout}");
    assert!(text(&out.stderr).contains("error: 'jump' is not a legal option"));
}

#[test]
fn the_machine_interface_fails_cleanly() {
    let out = tortuga(&["moves", "race", "--position", "1,99", "--json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr),
        "error: --position: race position refused: rules/race/game.lua:92: position: cell '99' is not \
         on the path\n"
    );
    let out = tortuga(&["moves", "chess", "--position", "x"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no game 'chess'"));
}

#[test]
fn commands_given_on_the_command_line_run_on_the_starting_game() {
    let out = tortuga(
        &[
            "--game",
            "race",
            "--seed",
            "1",
            "--command",
            "roll 3",
            "-c",
            "play move",
            "-c",
            "position",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("die 3 (forced)"), "no banner: {stdout}");
    assert!(stdout.ends_with("4,1\n"), "{stdout}");
    let out = tortuga(
        &["--game", "race", "-c", "roll 3", "-c", "play nowhere"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("--command 2: error: 'nowhere' is not a legal option"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_script_run_with_echo_reads_as_a_transcript() {
    let out = tortuga(
        &["run", "--echo", "-"],
        "# setup\nnew race --seed 1\nroll 3\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("> new race --seed 1\n"), "{stdout}");
    assert!(stdout.contains("> roll 3\ndie 3 (forced)"), "{stdout}");
    assert!(
        !stdout.contains("# setup"),
        "comments are not echoed: {stdout}"
    );
}

#[test]
fn the_version_names_the_rules_folder() {
    let out = tortuga(&["--version"], "");
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let rules = common::fixtures().canonicalize().unwrap();
    assert!(stdout.starts_with("tortuga "), "{stdout}");
    assert!(
        stdout.contains(&format!("rules: {}", rules.display())),
        "{stdout}"
    );
}

/// The rules built into the binary serve an installed `tortuga` anywhere: written out once to
/// the cache folder, identical to the rules they were built from, and played from.
#[test]
fn the_shipped_rules_are_built_in_and_written_out_once() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tortuga"))
            .args(["--rules", "shipped"])
            .args(args)
            .current_dir(home.path())
            .env("XDG_CACHE_HOME", home.path())
            .env_remove("TORTUGA_RULES")
            .output()
            .unwrap()
    };
    let out = run(&["--version"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let dir = stdout.split_once("rules: ").unwrap().1.trim().to_string();
    assert!(dir.starts_with(home.path().to_str().unwrap()), "{dir}");
    let dir = std::path::Path::new(&dir);
    let shipped = common::rules().join("backgammon/game.lua");
    assert_eq!(
        std::fs::read(dir.join("backgammon/game.lua")).unwrap(),
        std::fs::read(shipped).unwrap()
    );
    let out = run(&["-c", "roll 3 1", "-c", "play 8/5 6/5"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("played 8/5 6/5"));
    let written: Vec<_> = std::fs::read_dir(home.path().join("tortuga"))
        .unwrap()
        .collect();
    assert_eq!(written.len(), 1, "one folder, written once");
}

#[test]
fn a_missing_rules_folder_or_game_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_tortuga"))
        .args(["--rules", "/no/such/rules", "-c", "show"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no rules folder at /no/such/rules"),
        "{}",
        text(&out.stderr)
    );
    let out = tortuga(&["--game", "nosuch"], "quit\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "no REPL: {}", text(&out.stdout));
    assert!(text(&out.stderr).contains("no game 'nosuch'"));
    let out = tortuga(&["--seed", "many"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("invalid value 'many' for '--seed <N>'"));
}

/// A count that cannot be is one plain line: `auto -5` at the prompt (not clap's `-- -5`
/// tip), `bench --rounds 0` on the command line.
#[test]
fn impossible_counts_are_one_plain_line() {
    let out = tortuga(&["--game", "race"], "auto -5\nauto 2.5\nposition\n");
    let err = text(&out.stderr);
    for n in ["-5", "2.5"] {
        assert!(
            err.contains(&format!(
                "auto takes a number of steps (`auto 10`), not '{n}'"
            )),
            "{err}"
        );
    }
    assert!(!err.contains("tip:"), "{err}");
    let out = tortuga(&["bench", "race", "--rounds", "0"], "");
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("--rounds 0: bench plays 1 round or more"),
        "{err}"
    );
}

/// A name that is not there gets the names that are: seats for `show` and `bot`, views for
/// `as`, the near hooks for `rules` (which lists them all).
#[test]
fn a_wrong_seat_view_or_hook_names_the_right_ones() {
    let out = tortuga(
        &["--game", "race"],
        "show nosuchseat\nbot Z greedy\nas refere\nrules aply\nrules nosuchhook\n",
    );
    let err = text(&out.stderr);
    for want in [
        "no seat 'nosuchseat' (seats: A, B)",
        "bot: no seat 'Z' (did you mean A or B? seats: A, B)",
        "no seat 'refere' (did you mean referee? views: A, B, spectator, referee)",
        "no hook 'aply' (did you mean apply? `rules` lists every hook)",
        "no hook 'nosuchhook' (`rules` lists every hook)",
    ] {
        assert!(err.contains(want), "want {want} in:\n{err}");
    }
}
