//! The kernel calls that exist for speed, and the returned-status protocol: each does what
//! docs/lua-api.md says, and a misuse fails with a clear error that leaves the game as it was.

use crate::common;

use common::{fails, fingerprint, repl, run, scratch_rules};

/// A scratch rules folder with the game `probe`: two seats, a track of three places, a
/// piece per seat, and one decision whose options name the kernel call `apply` makes.
/// `apply` returns the status that follows, truthfully unless the option is "lie".
const PROBE: &str = r#"
local DECIDE = { actor = 1, options = { "tops", "empty", "pairs", "badkey", "deep", "hash", "lie", "end",
  "bad1", "bad2", "bad3", "bad4", "bad5", "bad6", "bad7", "bad8", "bad9", "writes", "badlog", "badunit" },
  prompt = "probe" }
-- Malformed statuses, by G:get("bad").
local BAD = { { chance = 5 }, { actor = "x", options = { 1 } }, { actor = 1 }, { actor = 1, options = {} },
  { chance = "nope" }, { actor = 1, options = { 1 }, prompt = 7 }, { over = true, scores = "x" },
  { over = true, result = "done" }, { over = true, scores = { 1 } } }
local OVER = { over = true, scores = { 0, 0 }, result = "done" }
local ACTIONS = {
  tops = function(G) G:move_tops({ 1, 2, 2, 3 }) end,
  empty = function(G) G:move_tops({ 3, 1, 3, 1 }) end,
  pairs = function(G) G:set("a", 1, "b") end,
  badkey = function(G) G:set("a", 1, 2, 3) end,
  deep = function(G)
    local t = 1
    for _ = 1, 20 do t = { t } end
    G:set("deep", t)
  end,
  hash = function(G) G:set("h", { 1, 2, x = 3 }) end,
  ["end"] = function(G) G:set("over", true) end,
  writes = function(G)
    G:log("for B", { 2 })
    G:log("for all")
    G:stat("n")
    G:stat("n", 2)
    G:set_unit("B")
    G:move(1, 0)
    G:set("counted", 1)
  end,
  badlog = function(G) G:log("x", { 3 }) end,
  badunit = function(G) G:set_unit("nope") end,
}
return {
  name = "probe", title = "Kernel probe",
  seats = { min = 2, max = 2, default = 2, names = { "A", "B" } },
  randomizers = {},
  hooks = {
    setup = function(G)
      local t = { G:place("a"), G:place("b"), G:place("c") }
      G:track("t", t)
      G:add("man", 1, t[1])
      G:add("man", 2, t[1])
      G:add("man", 2, t[2])
      G:set("n", 7, "word", "x", "list", { 1, { 2, "y" } })
    end,
    status = function(G) return BAD[G:get("bad") or 0] or G:get("over") and OVER or DECIDE end,
    apply = function(G, option)
      if option == "lie" then return OVER end
      local bad = option:match("^bad(%d)$")
      if bad then
        G:set("bad", tonumber(bad))
        return hook.status(G)
      end
      ACTIONS[option](G)
      return hook.status(G)
    end,
    chance = function() end,
    render = function(G) return "probe" end,
  },
}
"#;

fn probe() -> (tempfile::TempDir, tortuga::repl::Repl) {
    let dir = scratch_rules();
    let game = dir.path().join("rules/probe");
    std::fs::create_dir_all(&game).unwrap();
    std::fs::write(game.join("game.lua"), PROBE).unwrap();
    let mut r = repl(&dir.path().join("rules"));
    run(&mut r, &["new probe --seed 1"]);
    (dir, r)
}

#[test]
fn get_and_set_take_several_keys() {
    let (_dir, mut r) = probe();
    assert_eq!(
        run(&mut r, &[r#"lua G:get("n", "word", "missing", "list")"#]).trim(),
        "7\tx\tnil\t{1, {2, y}}"
    );
}

#[test]
fn set_refuses_odd_pairs_and_non_string_keys() {
    let (_dir, mut r) = probe();
    let before = fingerprint(&r);
    assert!(fails(&mut r, "play pairs").contains("set takes key, value pairs"));
    assert!(fails(&mut r, "play badkey").contains("a key must be a string, not a integer"));
    assert_eq!(fingerprint(&r), before);
}

#[test]
fn property_lists_must_be_arrays_of_bounded_depth() {
    let (_dir, mut r) = probe();
    let before = fingerprint(&r);
    assert!(fails(&mut r, "play hash").contains("is an array (keys 1..n) or has string keys only"));
    assert!(fails(&mut r, "play deep").contains("nest at most 16 deep"));
    assert_eq!(fingerprint(&r), before);
}

#[test]
fn move_tops_moves_in_order_and_refuses_an_empty_place() {
    let (_dir, mut r) = probe();
    // Pieces 1 (A) and 2 (B) on a, 3 (B) on b: a -> b takes 2, then b -> c takes 2 again.
    // Then c -> a takes 2 back, and c is empty for the second pair.
    run(&mut r, &["play tops"]);
    let at = |r: &mut tortuga::repl::Repl| run(r, &["lua G:where(1), G:where(2), G:where(3)"]);
    assert_eq!(at(&mut r).trim(), "1\t3\t2");
    let before = fingerprint(&r);
    assert!(fails(&mut r, "play empty").contains("move_tops: c is empty (pair 2)"));
    assert_eq!(fingerprint(&r), before, "the first pair is rolled back too");
}

#[test]
fn tally_counts_one_owner_or_the_difference_of_two() {
    let (_dir, mut r) = probe();
    assert_eq!(run(&mut r, &[r#"lua G:tally("t", 2)"#]).trim(), "{1, 1, 0}");
    assert_eq!(
        run(&mut r, &[r#"lua G:tally("t", 1, 2)"#]).trim(),
        "{0, -1, 0}"
    );
}

#[test]
fn a_returned_status_is_checked_against_the_status_hook() {
    let (_dir, mut r) = probe();
    let before = fingerprint(&r);
    let err = fails(&mut r, "play lie");
    assert!(
        err.contains("apply returned a status unlike the status hook's"),
        "{err}"
    );
    assert_eq!(fingerprint(&r), before);
    assert!(run(&mut r, &["play end"]).contains("done"));
}

#[test]
fn hot_methods_check_their_arguments_and_their_self() {
    let (_dir, mut r) = probe();
    let before = fingerprint(&r);
    for (call, want) in [
        ("G.current()", "current: call it as G:current(…)"),
        ("G.get({}, 'n')", "get: call it as G:get(…)"),
        ("G:get()", "get: which property?"),
        (
            "G:get('n', 3)",
            "get: argument 2 must be a string, not a integer",
        ),
        (
            "G:tally(5, 1)",
            "tally: argument 1 must be a string, not a integer",
        ),
        ("G:tally('nope', 1)", "unknown track 'nope'"),
        (
            "G:count('a')",
            "count: argument 1 must be an integer, not a string",
        ),
        ("G:count(99)", "no location 99"),
        ("G:switch('nope')", "unknown switch 'nope'"),
        ("G:cell_get(1)", "cell_get: which property?"),
        ("G:piece_get(9, 'k')", "no piece 9"),
        ("G:set('n', 8)", "the game is read-only here"),
        ("G:kind(9)", "no piece 9"),
        (
            "G:where('x')",
            "where: argument 1 must be an integer, not a string",
        ),
        ("G:seat_name(3)", "no seat 3 (seats are 1..2)"),
        (
            "G:secret_get(5)",
            "secret_get: argument 1 must be a string, not a integer",
        ),
        ("G:move(1, 2)", "the game is read-only here"),
        ("G:log('x')", "the game is read-only here"),
        ("G:stat('x')", "the game is read-only here"),
    ] {
        let err = fails(&mut r, &format!("lua {call}"));
        assert!(err.contains(want), "{call}: {err}");
    }
    assert_eq!(fingerprint(&r), before);
    assert_eq!(
        run(
            &mut r,
            &["lua G:count(1), G:count(1, 2), G:count(1, 2, 'man'), G:count(1, 1, 'x')"]
        )
        .trim(),
        "2\t1\t1\t0"
    );
    assert_eq!(
        run(
            &mut r,
            &["lua G:kind(1), G:where(3), G:seat_name(2), G:secret_get('no'), G:can_see('no')"]
        )
        .trim(),
        "man\t2\tB\tnil\tfalse"
    );
}

#[test]
fn log_stat_set_unit_and_move_write_and_refuse_what_they_should() {
    let (_dir, mut r) = probe();
    run(&mut r, &["play writes"]);
    assert_eq!(
        run(&mut r, &["lua G:unit_name(G:unit()), G:where(1)"]).trim(),
        "B\t0"
    );
    let log = run(&mut r, &["log"]);
    assert!(log.contains("for B") && log.contains("for all"), "{log}");
    let seat_a = run(&mut r, &["as A", "log"]);
    assert!(
        seat_a.contains("for all") && !seat_a.contains("for B"),
        "{seat_a}"
    );
    run(&mut r, &["as referee"]);
    let before = fingerprint(&r);
    assert!(fails(&mut r, "play badlog").contains("no seat 3"));
    assert!(fails(&mut r, "play badunit").contains("set_unit: no unit 'nope' (units: A B)"));
    assert_eq!(fingerprint(&r), before);
}

#[test]
fn mask_gives_a_bit_set_per_seat_and_count_range() {
    let (_dir, mut r) = probe();
    // A has one piece on a (position 1); B one on a and one on b; c is empty.
    assert_eq!(
        run(
            &mut r,
            &[r#"lua G:mask("t", 1, 1, 9, 2, 1, 1, 2, 0, 0, 1, 2, 9)"#]
        )
        .trim(),
        "2\t6\t8\t0"
    );
    assert!(fails(&mut r, r#"lua G:mask("t", 1, 1)"#).contains("(seat, min, max) triples"));
    assert!(fails(&mut r, r#"lua G:mask("t", 3, 1, 1)"#).contains("3"));
    assert!(fails(&mut r, r#"lua G:mask("nope", 1, 1, 1)"#).contains("unknown track 'nope'"));
}

#[test]
fn malformed_statuses_are_refused_and_the_game_survives() {
    let (_dir, mut r) = probe();
    let before = fingerprint(&r);
    for (option, want) in [
        ("bad1", "chance is a integer, not text"),
        (
            "bad2",
            "status must return {chance=…}, {actor=…, options=…} or {over=true}",
        ),
        ("bad3", "a decision without an options table"),
        ("bad4", "a decision with no options"),
        ("bad5", "chance 'nope', which no rule declares"),
        ("bad6", "prompt is a integer, not text"),
        ("bad7", "status returned a malformed table"),
        ("bad8", "over but gives no scores"),
        ("bad9", "with 1 scores for 2 seats"),
    ] {
        let err = fails(&mut r, &format!("play {option}"));
        assert!(err.contains(want), "{option}: {err}");
        assert_eq!(fingerprint(&r), before, "{option}");
    }
}

#[test]
fn the_switches_global_reads_the_loaded_switches_and_refuses_changes_and_typos() {
    let mut r = repl(&common::rules());
    run(
        &mut r,
        &["new backgammon --seed 1 --set cube=false --set turn_cap=40"],
    );
    let before = fingerprint(&r);
    assert_eq!(
        run(
            &mut r,
            &["lua switches.cube, switches.turn_cap, switches.start"]
        )
        .trim(),
        "false\t40\tstandard"
    );
    // The same values as G:switch, which stays.
    assert_eq!(
        run(&mut r, &["lua switches.turn_cap == G:switch('turn_cap')"]).trim(),
        "true"
    );
    for (call, want) in [
        ("switches.cubee", "unknown switch 'cubee'"),
        ("(function() switches.cube = true end)()", "read-only"),
        ("rawset(switches, 'cube', true)", "read-only"),
        ("setmetatable(switches, nil)", "metatable"),
    ] {
        let err = fails(&mut r, &format!("lua {call}"));
        assert!(err.contains(want), "{call}: {err}");
    }
    assert_eq!(run(&mut r, &["lua switches.cube"]).trim(), "false");
    assert_eq!(fingerprint(&r), before);
}
