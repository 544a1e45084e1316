//! Hostile rule files, runaway games and corrupt input (issue 11): every cause that once broke
//! a limit, lost a game or panicked is a test here. Limits are small (a short wall clock, a
//! small budget) so that each test is quick; what is checked is the outcome, not the time.

mod common;

use std::time::Duration;

use common::{fails, fingerprint, run, scratch_rules};
use tortuga::repl::Repl;

/// A scratch rules folder whose race game's `apply` runs `body` when the option is "stay",
/// with small limits.
fn with_stay_body(body: &str) -> (tempfile::TempDir, Repl) {
    let dir = scratch_rules();
    let game = dir.path().join("rules/race/game.lua");
    let text = std::fs::read_to_string(&game).unwrap();
    let patched = text.replace(
        "      if option == \"move\" then",
        &format!(
            "      if option == \"stay\" then\n{body}\n      end\n      if option == \"move\" then"
        ),
    );
    assert_ne!(text, patched);
    std::fs::write(&game, patched).unwrap();
    let mut repl = Repl::new(&dir.path().join("rules"), false);
    repl.budget.memory = 32 << 20;
    repl.budget.instructions = 5_000_000;
    repl.budget.wall = Duration::from_millis(300);
    run(&mut repl, &["new race --seed 1", "roll 4"]);
    (dir, repl)
}

/// `play stay` must fail with `expect` in the message, leave the state untouched, and the
/// game must go on.
fn refused(body: &str, expect: &str) {
    let (_dir, mut repl) = with_stay_body(body);
    let before = fingerprint(&repl);
    let e = fails(&mut repl, "play stay");
    assert!(
        e.contains(expect),
        "expected '{expect}' in:\n{e}\nfrom: {body}"
    );
    assert_eq!(before, fingerprint(&repl), "state changed after: {body}");
    run(&mut repl, &["play move"]);
}

#[test]
fn limits_cannot_be_caught_by_pcall_xpcall_or_coroutines() {
    let limit = "limit exceeded";
    refused(
        "local function loop() while true do end end while true do pcall(loop) end",
        limit,
    );
    refused(
        "xpcall(function() error('x') end, function() while true do end end)",
        limit,
    );
    refused(
        "while true do xpcall(function() while true do end end, function(m) return m end) end",
        limit,
    );
    refused("local function f() pcall(f) pcall(f) end f()", limit);
    refused(
        "while true do local co = coroutine.create(function() while true do end end) \
         coroutine.resume(co) end",
        limit,
    );
    refused(
        "while true do pcall(coroutine.wrap(function() while true do end end)) end",
        limit,
    );
    refused(
        "while true do pcall(table.sort, {3, 2, 1, 5, 4}, function(a, b) while true do end end) end",
        limit,
    );
    refused(
        "while true do pcall(string.gsub, 'abc', '%w', function() while true do end end) end",
        limit,
    );
    refused(
        "local t <close> = setmetatable({}, {__close = function() while true do end end}) \
         while true do end",
        limit,
    );
}

#[test]
fn finalizers_are_refused() {
    refused(
        "setmetatable({}, {__gc = function() while true do end end})",
        "__gc finalizers are not available",
    );
    // A placeholder swapped for a function later would still mark the table.
    refused(
        "local mt = {__gc = true} setmetatable({}, mt)",
        "__gc finalizers are not available",
    );
}

#[test]
fn an_interrupt_stops_a_running_rule_and_the_game_survives() {
    let (_dir, mut repl) =
        with_stay_body("while true do pcall(function() while true do end end) end");
    repl.budget.wall = Duration::from_secs(600);
    repl.budget.instructions = u64::MAX;
    // Reload with the patient budget, then interrupt from another thread as Ctrl-C would.
    run(&mut repl, &["new race --seed 1", "roll 4"]);
    let before = fingerprint(&repl);
    let flag = repl
        .session
        .as_ref()
        .unwrap()
        .game
        .rules
        .host
        .limits
        .interrupt
        .clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let e = fails(&mut repl, "play stay");
    stopper.join().unwrap();
    assert!(e.contains("interrupted"), "{e}");
    assert_eq!(before, fingerprint(&repl));
    run(&mut repl, &["play move"]);
}

#[test]
fn unknown_commands_with_any_characters_are_errors_not_panics() {
    let mut repl = Repl::new(&common::fixtures(), false);
    for line in ["é", "–moves", "“play”", "🎲", "\u{7}", "\u{0}x", "ẞ ẞ ẞ"] {
        let e = fails(&mut repl, line);
        assert!(e.contains("unknown command"), "{line}: {e}");
    }
    let huge = "x".repeat(1 << 20);
    assert!(fails(&mut repl, &huge).contains("unknown command"));
}

/// The binary on the fixture rules, with pipes for its three streams.
fn spawn(args: &[&str]) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_tortuga"))
        .args(["--rules", common::fixtures().to_str().unwrap()])
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

#[test]
fn a_closed_pipe_ends_a_batch_run_quietly() {
    use std::io::{Read, Write};
    let mut child = spawn(&["run", "-"]);
    let script = "new race --seed 1\n".to_string() + &"show\n".repeat(20_000);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // Dropping the read end closes the pipe, as `| head` does.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}

#[test]
fn sigint_stops_the_running_command_and_the_repl_keeps_the_game() {
    use std::io::{BufRead, Read, Write};
    let mut child = spawn(&["--game", "race"]);
    let mut stdin = child.stdin.take().unwrap();
    let forever =
        "lua (function() while true do pcall(function() while true do end end) end end)()";
    writeln!(stdin, "roll 3\n{forever}").unwrap();
    stdin.flush().unwrap();
    // Ctrl-C until the REPL reports the interrupt (it may not have reached the loop yet).
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut lines = std::io::BufReader::new(stderr).lines();
        let mut seen = String::new();
        for line in lines.by_ref().map_while(Result::ok) {
            seen += &line;
            seen += "\n";
            if line.contains("interrupted") {
                let _ = tx.send(());
            }
        }
        seen
    });
    let pid = child.id().to_string();
    for _ in 0..100 {
        let _ = std::process::Command::new("kill")
            .args(["-INT", &pid])
            .status();
        if rx.recv_timeout(Duration::from_millis(100)).is_ok() {
            break;
        }
    }
    writeln!(stdin, "position\nquit").unwrap();
    drop(stdin);
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let status = child.wait().unwrap();
    let stderr = reader.join().unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("error: interrupted"), "{stderr}");
    assert!(stdout.contains("1,1"), "the game survives: {stdout}");
}
