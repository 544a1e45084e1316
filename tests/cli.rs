//! The `tortuga` binary: batch mode exit codes and line numbers, the REPL on piped input, the
//! machine interface's error contract.

mod common;

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
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
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
    let out = tortuga(&["moves", "race", "--position", "1,1", "--json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("no machine interface"));
    let out = tortuga(&["moves", "chess", "--position", "x"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no game 'chess'"));
}
