//! Ctrl-C during a study: the games in play are dropped, the report covers the games that
//! finished and says how many of those asked for; an interrupted shard writes nothing.
//! (The interrupt flag is process-wide, so these tests have a binary of their own.)

#[path = "suite/common/mod.rs"]
mod common;

use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tortuga::script::Budget;
use tortuga::script::lua::limits;
use tortuga::sim::report::Report;
use tortuga::sim::study::{Spec, run};

#[test]
fn an_interrupt_keeps_the_finished_games_and_drops_the_rest() {
    let spec = Spec {
        game: "backgammon".into(),
        variants: vec![None, Some("money_jacoby".into())],
        house: vec![],
        sets: vec![],
        players: 2,
        games: 100_000,
        seed: 5,
        bots: vec!["random".into()],
        skill: None,
        drama: false,
    };
    let mut seen = 0;
    let results = run(
        &common::rules(),
        &spec,
        &Budget::default(),
        0..spec.games,
        2,
        &AtomicBool::new(false),
        |n| {
            seen += n;
            if seen == 20 {
                limits::interrupt();
            }
        },
    );
    limits::clear_interrupt();
    let results = results.expect("an interrupted study is not a failure");
    let finished = results.records[0].len();
    assert!(
        (20..100).contains(&finished),
        "the games finished before the interrupt, and the few in play then: {finished}"
    );
    assert_eq!(
        results.records[1].len(),
        finished,
        "a game is kept of both variants or of neither"
    );
    let games = |v: usize| {
        results.records[v]
            .iter()
            .map(|r| r.game)
            .collect::<Vec<_>>()
    };
    assert_eq!(games(0), games(1), "the pairs stay whole");
    let text = Report::of(&results).text();
    assert!(
        text.contains(&format!("interrupted: {finished} of 100000 games finished")),
        "{text}"
    );
}

/// Whether process `pid` catches SIGINT (bit 1 of SigCgt in /proc/<pid>/status).
fn catches_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .is_some_and(|mask| mask & 2 != 0)
}

/// Starts `tortuga args…`, sends it SIGINT once it catches the signal, and returns its exit
/// status, output and error output.
fn interrupted(args: &[&str], cwd: &std::path::Path) -> (Option<i32>, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_tortuga"))
        .arg("--rules")
        .arg(common::rules())
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tortuga starts");
    let pid = child.id();
    let start = Instant::now();
    while !catches_sigint(pid) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "tortuga never caught SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let sent = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let out = child.wait_with_output().expect("tortuga ends");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn ctrl_c_ends_sim_with_the_report_of_what_finished() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = interrupted(
        &["sim", "backgammon", "--games", "10000000", "--jobs", "2"],
        dir.path(),
    );
    assert_eq!(code, Some(130), "a partial study exits 130: {err}");
    assert!(out.contains(" of 10000000 games finished"), "{out}");
    assert!(out.starts_with("backgammon (2 players"), "{out}");
}

#[test]
fn ctrl_c_ends_check_with_the_report_of_what_was_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = interrupted(
        &["check", "backgammon", "--games", "10000000", "--jobs", "2"],
        dir.path(),
    );
    assert_eq!(code, Some(130), "{err}");
    assert!(
        out.starts_with("check backgammon (default, 2 players)"),
        "{out}"
    );
    assert!(out.contains("(interrupted: "), "{out}");
}

#[test]
fn an_interrupted_shard_writes_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = interrupted(
        &[
            "sim",
            "backgammon",
            "--games",
            "10000000",
            "--shard",
            "1/2",
            "--out",
            "shard.json",
        ],
        dir.path(),
    );
    assert_eq!(code, Some(130), "{out}");
    assert!(err.contains("no shard written"), "{err}");
    assert!(!dir.path().join("shard.json").exists());
}

#[test]
fn ctrl_c_ends_train_with_the_weights_of_the_games_played() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("w.toml");
    let (code, out, err) = interrupted(
        &[
            "train",
            "backgammon",
            "--set",
            "cube=false",
            "--games",
            "10000000",
            "--jobs",
            "2",
            "--out",
            out_file.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("interrupted: "), "{out}");
    let w = tortuga::learn::weights::Weights::read(&out_file).expect("readable weights");
    assert!(
        out.contains(&format!("weights ({} games)", w.games)),
        "{out}"
    );
}
