//! The script host's promises: forbidden functions are refused, runaway rules are stopped, and
//! a failing rule leaves the game exactly as it was.

use crate::common;

use common::{fails, fingerprint, run, scratch_rules};
use tortuga::repl::Repl;

/// The race game with `body` run on "stay", under the budget these tests share.
fn with_stay_body(body: &str) -> (tempfile::TempDir, Repl) {
    let budget = tortuga::script::Budget {
        memory: 32 << 20,
        instructions: 20_000_000,
        ..tortuga::script::Budget::default()
    };
    common::with_stay_body(body, budget)
}

/// `play stay` must fail with `expect` in the message and leave the state untouched.
fn refused(body: &str, expect: &str) {
    let (_dir, mut repl) = with_stay_body(body);
    let before = fingerprint(&repl);
    let e = fails(&mut repl, "play stay");
    assert!(e.contains(expect), "expected '{expect}' in:\n{e}");
    assert_eq!(before, fingerprint(&repl), "state changed after: {body}");
    // The REPL goes on with the game intact.
    run(&mut repl, &["play move"]);
}

#[test]
fn forbidden_libraries_are_refused_with_the_place() {
    refused(
        "G:set('die', 1); os.exit(1)",
        "'os' is not available to rules",
    );
    refused("io.open('/etc/passwd')", "'io' is not available");
    refused("load('return 1')()", "'load' is not available");
    refused("dofile('/etc/passwd')", "'dofile' is not available");
    refused("string.dump(print)", "game.lua:");
    refused("require('../../etc')", "module names are file names");
    refused("require('nothere')", "nothere.lua");
    refused(
        "G:set('die', 2); debug.getinfo(1)",
        "'debug' is not available",
    );
}

#[test]
fn runaway_rules_are_stopped() {
    refused(
        "G:set('die', 1); while true do end",
        "instruction limit exceeded",
    );
    refused(
        "local t = {} for i = 1, 1e9 do t[i] = i end",
        "memory limit exceeded",
    );
    refused("local s = string.rep('x', 1 << 40)", "string.rep");
    refused(
        "local co = coroutine.wrap(function() while true do end end) co()",
        "instruction limit exceeded",
    );
    refused(
        "string.find(string.rep('a', 100000), '.-.-.-b')",
        "string.find: instruction limit exceeded",
    );
}

#[test]
fn an_undefined_global_is_an_error_at_load_with_its_line() {
    let dir = scratch_rules();
    let game = dir.path().join("rules/race/game.lua");
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        text.replacen(
            "return {",
            "local function f() return tabel.insert end\nreturn {",
            1,
        ),
    )
    .unwrap();
    let mut repl = Repl::new(&dir.path().join("rules"), false);
    let e = fails(&mut repl, "new race --seed 1");
    let line = text
        .lines()
        .position(|l| l.starts_with("return {"))
        .unwrap()
        + 1;
    assert!(
        e.contains(&format!(
            "rules/race/game.lua:{line}: undefined global 'tabel'"
        )),
        "{e}"
    );
}

#[test]
fn rules_keep_no_state_and_errors_name_file_and_line() {
    refused("counter = 1", "assignment to global 'counter'");
    refused("string.upper = nil", "read-only table");
    refused("getmetatable('').__index = {}", "index a boolean value");
    refused(
        "local x = _ENV['undefined_' .. 'thing'] + 1",
        "undefined global 'undefined_thing'",
    );
    refused("G:move(99, 1)", "no piece 99");
    refused("error('house rule broke')", "rules/race/game.lua:");
    refused("G:set('x', function() end)", "cannot hold a function");
}

#[test]
fn a_syntax_error_is_reported_and_the_repl_survives() {
    let dir = scratch_rules();
    let mut repl = Repl::new(&dir.path().join("rules"), false);
    run(&mut repl, &["new race --seed 3", "roll 2", "play move"]);
    let game = dir.path().join("rules/race/game.lua");
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(&game, text.replacen("return {", "return {{", 1)).unwrap();
    let e = fails(&mut repl, "reload");
    assert!(e.contains("rules/race/game.lua:"), "{e}");
    assert!(e.contains("syntax error"), "{e}");
    // The old game is still there.
    assert_eq!(run(&mut repl, &["position"]), "3,1");
}

#[test]
fn the_lua_command_sees_a_read_only_game() {
    let (_dir, mut repl) = with_stay_body("");
    assert_eq!(run(&mut repl, &["lua G:get('die') * 10"]), "40");
    assert_eq!(run(&mut repl, &["lua G:seat_name(G:current())"]), "A");
    assert!(fails(&mut repl, "lua G:set('die', 6)").contains("read-only"));
    assert!(fails(&mut repl, "lua while true do end").contains("instruction limit"));
    assert!(fails(&mut repl, "lua )").contains("syntax error"));
    assert_eq!(run(&mut repl, &["lua G:get('die')"]), "4");
    assert_eq!(
        run(
            &mut repl,
            &["lua local t = {}\nfor i = 1, 3 do t[i] = i end\nreturn #t"]
        ),
        "3"
    );
}

#[test]
fn the_wall_clock_limit_stops_a_rule_within_its_budget_of_instructions() {
    let (_dir, mut repl) = with_stay_body("while true do end");
    repl.budget.instructions = u64::MAX / 2;
    repl.budget.wall = std::time::Duration::from_millis(100);
    run(&mut repl, &["new race --seed 1", "roll 4"]);
    let before = fingerprint(&repl);
    let started = std::time::Instant::now();
    let e = fails(&mut repl, "play stay");
    assert!(e.contains("time limit exceeded"), "{e}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(before, fingerprint(&repl));
}
