//! Queries are read-only and rules are frozen after loading: every write and every trick the
//! issue lists, tried from a rule file and from the REPL's `lua`, is refused with the rule's
//! file and line, and the game is unchanged.

use crate::common;

use common::{fails, fingerprint, run, scratch_rules};
use tortuga::repl::Repl;

/// A scratch copy of the fixtures whose race `game.lua` has `from` replaced by `to`, plus
/// extra files, and a REPL on it.
fn rules_with(edits: &[(&str, &str)], files: &[(&str, &str)]) -> (tempfile::TempDir, Repl) {
    let dir = scratch_rules();
    let game = dir.path().join("rules/race/game.lua");
    let mut text = std::fs::read_to_string(&game).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "no '{from}' in race/game.lua");
        text = text.replacen(from, to, 1);
    }
    std::fs::write(&game, text).unwrap();
    for (name, body) in files {
        let path = dir.path().join("rules/race").join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let repl = Repl::new(&dir.path().join("rules"), false);
    (dir, repl)
}

/// As [`rules_with`], with a race game started and rolled.
fn race_with(edits: &[(&str, &str)], files: &[(&str, &str)]) -> (tempfile::TempDir, Repl) {
    let (dir, mut repl) = rules_with(edits, files);
    run(&mut repl, &["new race --seed 1", "roll 4"]);
    (dir, repl)
}

/// `command` fails naming `place` and `expect`, and the game is as it was.
fn refused(repl: &mut Repl, command: &str, place: &str, expect: &str) {
    let before = fingerprint(repl);
    let e = fails(repl, command);
    assert!(e.contains(place), "expected the place '{place}' in:\n{e}");
    assert!(e.contains(expect), "expected '{expect}' in:\n{e}");
    assert_eq!(
        before,
        fingerprint(repl),
        "the game changed after `{command}`"
    );
}

#[test]
fn view_hooks_that_write_are_refused_with_their_place() {
    // `new` shows the board and what the game waits for: a render or status hook that
    // writes fails it.
    let render = "    render = function(G, viewer)\n";
    let (_d, mut r) = rules_with(
        &[(render, &format!("{render}      G:set('die', 6)\n"))],
        &[],
    );
    let e = fails(&mut r, "new race --seed 1");
    assert!(
        e.contains("race/game.lua:75:") && e.contains("read-only"),
        "{e}"
    );
    let export = "    export = function(G)\n";
    let (_d, mut r) = race_with(&[(export, &format!("{export}      G:log('x')\n"))], &[]);
    refused(&mut r, "position", "race/game.lua:83:", "read-only");
    run(&mut r, &["play stay"]);
    let status = "    status = function(G)\n";
    let (_d, mut r) = rules_with(&[(status, &format!("{status}      G:move(1, 2)\n"))], &[]);
    let e = fails(&mut r, "new race --seed 1");
    assert!(
        e.contains("race/game.lua:33:") && e.contains("read-only"),
        "{e}"
    );
}

#[test]
fn the_lua_command_writes_neither_the_game_nor_its_log_even_from_a_finalizer() {
    let (_d, mut r) = race_with(&[], &[]);
    let before = fingerprint(&r);
    let log = run(&mut r, &["log"]);
    refused(&mut r, "lua G:log('forged')", "lua:1:", "read-only");
    refused(&mut r, "lua G:stat('x')", "lua:1:", "read-only");
    // A finalizer planted by `lua` would run at some later collection, perhaps inside `play`:
    // none can be planted.
    refused(
        &mut r,
        "lua setmetatable({}, { __gc = function() G:set('die', 6); G:log('gc') end }) return 1",
        "lua:1:",
        "__gc finalizers are not available",
    );
    assert_eq!(before, fingerprint(&r));
    assert_eq!(run(&mut r, &["log"]), log);
    run(&mut r, &["play stay", "roll 3"]);
    assert_eq!(run(&mut r, &["lua G:get('die')"]), "3");
}

#[test]
fn globals_modules_libraries_and_hooks_cannot_be_changed_after_load() {
    let stay = "      if option == \"move\" then";
    let (_d, mut r) = race_with(
        &[
            (
                stay,
                &format!("      if option == \"stay\" then hook.trick(G) end\n{stay}"),
            ),
            (
                "    advance_runner = function(G, seat, n)",
                "    trick = function(G) require('race.evil').run(G) end,\n    advance_runner = function(G, seat, n)",
            ),
        ],
        &[(
            "evil.lua",
            "local M = { n = 0 }\nfunction M.run(G) return M.how(G) end\nM.how = function() end\nreturn M\n",
        )],
    );
    // Each trick, typed at the REPL's `lua`, and the same from a rule file (below).
    for (code, expect) in [
        ("rawset(_G, 'x', 1)", "read-only table"),
        ("rawset(string, 'x', 1)", "read-only table"),
        ("rawset(hook, 'advance_runner', print)", "read-only table"),
        (
            "getmetatable(_G).__index = print",
            "attempt to index a boolean",
        ),
        (
            "local _, t = pairs(hook) rawset(t, 'advance_runner', print)",
            "read-only table",
        ),
        ("require('race.evil').n = 5", "changed 'race.evil.n'"),
        ("require('race.evil').m = 5", "read-only table"),
        ("rawset(require('race.evil'), 'n', 5)", "read-only table"),
        (
            "setmetatable(require('race.evil'), {})",
            "the table is part of the rules, frozen after loading",
        ),
        ("string.format('%p', {})", "'%p'"),
    ] {
        let e = fails(&mut r, &format!("lua {code}"));
        assert!(e.contains(expect), "`{code}`: expected '{expect}' in {e}");
    }
    assert_eq!(run(&mut r, &["lua tostring({})"]), "table");
    assert_eq!(run(&mut r, &["lua require('race.evil').n"]), "0");
    assert!(run(&mut r, &["rules advance_runner"]).contains("race/game.lua"));
}

#[test]
fn a_file_loaded_later_cannot_rewrite_a_module() {
    let dir = scratch_rules();
    let race = dir.path().join("rules/race");
    std::fs::write(race.join("data.lua"), "return { goal = 3 }\n").unwrap();
    std::fs::create_dir_all(race.join("tiles")).unwrap();
    std::fs::write(
        race.join("tiles/evil.lua"),
        "require('race.data').goal = 99\nreturn { name = 'evil' }\n",
    )
    .unwrap();
    let game = race.join("game.lua");
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        text.replacen(
            "local function",
            "local DATA = require('race.data')\nlocal function",
            1,
        ),
    )
    .unwrap();
    let mut r = Repl::new(&dir.path().join("rules"), false);
    let e = fails(&mut r, "new race");
    assert!(e.contains("rules/race/tiles/evil.lua:1:"), "{e}");
    assert!(e.contains("changed 'race.data.goal'"), "{e}");
}

/// Where race/game.lua's apply moves the runner.
const MOVE: &str =
    "      if option == \"move\" then hook.advance_runner(G, G:current(), G:get(\"die\")) end";

/// A variable of a rule file that a rule assigns (an upvalue) would carry state from one call
/// to the next, so from one game to the next in a simulation: refused at load, naming the
/// file, the line, the function and the variable, however deep the closure that assigns it.
#[test]
fn a_file_variable_a_rule_assigns_is_refused_at_load() {
    let counters: [(&str, &str, &str); 3] = [
        ("      calls = calls + 1\n", "apply", "a hook"),
        (
            "      local function bump() calls = calls + 1 end\n      bump()\n",
            "apply",
            "a closure inside a hook",
        ),
        (
            "      hook.advance_runner(G, G:current(), 0)\n",
            "note",
            "a helper that a hook reaches",
        ),
    ];
    for (body, function, what) in counters {
        let helper = if function == "note" {
            "local function note() calls = calls + 1 end\n"
        } else {
            "local function note() end\n"
        };
        let (dir, mut r) = rules_with(
            &[
                (
                    "local function runner_cell",
                    &format!("local calls = 0\n{helper}local function runner_cell"),
                ),
                (
                    "      G:log(G:seat_name(seat)",
                    "      note()\n      G:log(G:seat_name(seat)",
                ),
                (MOVE, &format!("{body}{MOVE}")),
            ],
            &[],
        );
        let text = std::fs::read_to_string(dir.path().join("rules/race/game.lua")).unwrap();
        let line = 1 + text
            .lines()
            .position(|l| l.contains("calls = calls + 1"))
            .unwrap();
        let e = fails(&mut r, "new race");
        let says = format!("rules/race/game.lua:{line}: function '{function}' assigns 'calls'");
        assert!(e.contains(&says), "{what}: expected '{says}' in {e}");
        assert!(
            e.contains("rules keep no state between calls"),
            "{what}: {e}"
        );
    }
    // A variable declared inside the hook is fresh at each call, and so are its closures'.
    let (_d, mut r) = race_with(
        &[(
            MOVE,
            &format!(
                "      local n = 0\n      local function bump() n = n + 1 end\n      bump()\n{MOVE}"
            ),
        )],
        &[],
    );
    run(&mut r, &["play move"]);
    // A coroutine kept in a file variable carries its stack from call to call.
    let (_d, mut r) = rules_with(
        &[
            (
                "local function runner_cell",
                "local co = coroutine.create(function() end)\nlocal function runner_cell",
            ),
            (MOVE, &format!("      coroutine.status(co)\n{MOVE}")),
        ],
        &[],
    );
    let e = fails(&mut r, "new race");
    assert!(
        e.contains("function 'apply' keeps a coroutine in 'co'"),
        "{e}"
    );
}

/// A table in a file variable is sealed as a module's table is, without a metatable (its reads
/// stay as fast as a plain table's): a new key or an overwritten one is found after the call
/// in interactive play, and after the game in `sim`, naming the line, whatever `--jobs` is (a
/// module's counter once made P1 win 22/40 games with one job and 16/40 with two).
#[test]
fn a_table_kept_in_a_file_variable_keeps_no_state_in_any_loop() {
    let edits = [
        (
            "local function runner_cell",
            "local box = { n = 0 }\nlocal function runner_cell",
        ),
        (
            MOVE,
            "      box.n = box.n + 1\n      if option == \"move\" and box.n % 3 ~= 0 then hook.advance_runner(G, G:current(), G:get(\"die\")) end",
        ),
    ];
    let (dir, mut r) = race_with(&edits, &[]);
    refused(
        &mut r,
        "play move",
        "rules/race/game.lua:61:",
        "changed 'rules/race/game.lua: 'box'.n'",
    );
    for jobs in ["1", "2"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tortuga"))
            .arg("--rules")
            .arg(dir.path().join("rules"))
            .args(["sim", "race", "--games", "40", "--jobs", jobs])
            .output()
            .expect("the binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--jobs {jobs}: {err}");
        assert!(
            err.contains("rules/race/game.lua:61: a game changed 'rules/race/game.lua: 'box'.n'"),
            "--jobs {jobs}: {err}"
        );
    }
    let (_d, mut r) = race_with(
        &[
            (
                "local function runner_cell",
                "local box = {}\nlocal function runner_cell",
            ),
            (MOVE, &format!("      box.n = 1\n{MOVE}")),
        ],
        &[],
    );
    refused(
        &mut r,
        "play move",
        "rules/race/game.lua:61:",
        "changed 'rules/race/game.lua: 'box'.n'",
    );
}

/// A secret a referee hook leaves in a file's table would reach another seat's view: the
/// hook fails, and no seat sees the secret.
#[test]
fn a_secret_left_in_a_file_table_reaches_no_view() {
    let (_d, mut r) = race_with(
        &[
            (
                "local function runner_cell",
                "local leak = { s = \"\" }\nlocal function runner_cell",
            ),
            (
                MOVE,
                &format!("      leak.s = G:secret_get(\"plan\")\n{MOVE}"),
            ),
            (
                "      return table.concat(lines, \"\\n\")",
                "      lines[#lines + 1] = \"leak: \" .. leak.s\n      return table.concat(lines, \"\\n\")",
            ),
        ],
        &[],
    );
    refused(
        &mut r,
        "play move",
        "rules/race/game.lua:61:",
        "changed 'rules/race/game.lua: 'leak'.s'",
    );
    let shown = run(&mut r, &["as B", "show"]);
    assert!(
        shown.contains("leak:") && !shown.contains("north"),
        "{shown}"
    );
}

/// `when_loaded` fills a file's cache once every rule file has loaded (here from `switches`,
/// published after the modules load); a rule that calls it later is refused.
#[test]
fn when_loaded_fills_a_cache_once_and_only_while_loading() {
    let (_d, mut r) = race_with(
        &[
            (
                "local function runner_cell",
                "local GOAL\nwhen_loaded(function() GOAL = switches.goal end)\nlocal function runner_cell",
            ),
            (
                "      return table.concat(lines, \"\\n\")",
                "      lines[#lines + 1] = \"goal: \" .. GOAL\n      return table.concat(lines, \"\\n\")",
            ),
            (
                MOVE,
                &format!("      if option == \"stay\" then when_loaded(print) end\n{MOVE}"),
            ),
        ],
        &[],
    );
    assert!(run(&mut r, &["show"]).contains("goal: 10"));
    refused(
        &mut r,
        "play stay",
        "rules/race/game.lua:",
        "when_loaded: only while the rules load",
    );
}

#[test]
fn an_overwritten_module_key_is_named_with_the_line_that_wrote_it() {
    let stay = "      if option == \"move\" then";
    let (_d, mut r) = race_with(
        &[(
            stay,
            &format!("      if option == \"stay\" then require('race.counter').bump() end\n{stay}"),
        )],
        &[(
            "counter.lua",
            "local M = { n = 0, list = { 1, 2 } }\nfunction M.bump()\n  M.n = M.n + #M.list\nend\nreturn M\n",
        )],
    );
    refused(
        &mut r,
        "play stay",
        "rules/race/counter.lua:3:",
        "changed 'race.counter.n'",
    );
    // Reads still see the values, and the next call finds the table as it was sealed.
    assert_eq!(run(&mut r, &["lua require('race.counter').n"]), "0");
    let e = fails(
        &mut r,
        "lua local m = require('race.counter')\nm.list[1] = 7",
    );
    assert!(
        e.contains("lua:2:") && e.contains("changed 'race.counter.list.1'"),
        "{e}"
    );
    assert_eq!(run(&mut r, &["lua require('race.counter').list[1]"]), "1");
    run(&mut r, &["play move"]);
}
