//! Fields of a game table (docs/lua-api.md) that shape how the game loads: `seats.names` given
//! as a function of the player count, and `variant`, the variant loaded when none is given.
//! Each test writes a tiny game into a scratch copy of the fixture rules.

use crate::common;

use common::{fails, repl, run, scratch_rules};
use tortuga::kernel::Value;
use tortuga::script::{LoadOptions, Rules};

/// The game `teams`: 2–4 seats named by team (the first half A1…, the rest B1…), and the
/// switch `goal`. `SEATS` and `VARIANT` are replaced by each test.
const TEAMS: &str = r#"
return {
  name = "teams", title = "Two teams",
  seats = SEATS,
  VARIANT
  switches = { goal = { default = 10, min = 1, max = 100, help = "Points to win" } },
  randomizers = {},
  hooks = {
    setup = function(G) G:set("done", false) end,
    status = function(G)
      if G:get("done") then return { over = true, scores = { 1, 0 }, result = "done" } end
      return { actor = 1, options = { "stop" }, prompt = "stop" }
    end,
    apply = function(G) G:set("done", true) return hook.status(G) end,
    chance = function() end,
    render = function(G) return "goal " .. G:switch("goal") end,
  },
}
"#;

const BY_TEAM: &str = r#"{ min = 2, max = 4, default = 2, names = function(n)
    local names, a = {}, n // 2
    for i = 1, n do names[i] = i <= a and "A" .. i or "B" .. (i - a) end
    return names
  end }"#;

/// A scratch rules folder holding `teams` with these seats and default variant line, and
/// the variants quick (goal 3) and long (goal 50).
fn teams(seats: &str, variant: &str) -> tempfile::TempDir {
    let dir = scratch_rules();
    let game = dir.path().join("rules/teams");
    std::fs::create_dir_all(game.join("variants")).unwrap();
    let text = TEAMS.replace("SEATS", seats).replace("VARIANT", variant);
    std::fs::write(game.join("game.lua"), text).unwrap();
    for (name, goal) in [("quick", 3), ("long", 50)] {
        std::fs::write(
            game.join(format!("variants/{name}.toml")),
            format!(
                "game = \"teams\"\ntitle = \"{name}\"\nhouse = []\n[switches]\ngoal = {goal}\n"
            ),
        )
        .unwrap();
    }
    dir
}

fn load(dir: &tempfile::TempDir, variant: Option<&str>) -> anyhow::Result<Rules> {
    let opts = LoadOptions {
        variant: variant.map(str::to_string),
        ..LoadOptions::default()
    };
    Rules::load(&dir.path().join("rules"), "teams", &opts)
}

/// The error of a load that must fail.
fn refused(dir: &tempfile::TempDir) -> String {
    match load(dir, None) {
        Ok(_) => panic!("teams should not load"),
        Err(e) => format!("{e:#}"),
    }
}

#[test]
fn seat_names_may_be_a_function_of_the_player_count() {
    let dir = teams(BY_TEAM, "");
    let rules = load(&dir, None).expect("teams loads");
    assert_eq!(rules.seats.names(2), ["A1", "B1"]);
    assert_eq!(rules.seats.names(3), ["A1", "B1", "B2"]);
    assert_eq!(rules.seats.names(4), ["A1", "A2", "B1", "B2"]);
    // The game's seats carry the names of its own count.
    let mut r = repl(&dir.path().join("rules"));
    run(&mut r, &["new teams --seed 1 --players 3"]);
    assert_eq!(run(&mut r, &["as B2"]), "viewing as B2");
    assert!(fails(&mut r, "as A2").contains("A2"));
    run(&mut r, &["new teams --seed 1 --players 4"]);
    assert_eq!(run(&mut r, &["as A2"]), "viewing as A2");
}

#[test]
fn a_seat_name_function_must_give_one_name_a_seat() {
    let short = "{ min = 2, max = 3, names = function(n) return { \"X\", \"Y\" } end }";
    let e = refused(&teams(short, ""));
    assert!(e.contains("seats.names(3) gives 2 names"), "{e}");
    let broken = "{ min = 2, max = 3, names = function(n) error(\"no names for \" .. n, 0) end }";
    let e = refused(&teams(broken, ""));
    assert!(e.contains("seats.names(2): no names for 2"), "{e}");
}

#[test]
fn the_variant_field_names_the_default_variant() {
    let seats = "{ min = 2, max = 2, names = { \"A\", \"B\" } }";
    let dir = teams(seats, "variant = \"quick\",");
    let rules = load(&dir, None).expect("teams loads");
    assert_eq!(rules.variant.name, "quick");
    assert_eq!(rules.switches["goal"], Value::Int(3));
    // A variant asked for wins over the default.
    let rules = load(&dir, Some("long")).expect("teams loads");
    assert_eq!(rules.variant.name, "long");
    assert_eq!(rules.switches["goal"], Value::Int(50));
    let mut r = repl(&dir.path().join("rules"));
    run(&mut r, &["new teams --seed 1"]);
    assert_eq!(run(&mut r, &["lua G:switch('goal')"]).trim(), "3");
    run(&mut r, &["new teams --seed 1 --variant long"]);
    assert_eq!(run(&mut r, &["lua G:switch('goal')"]).trim(), "50");
    // Without the field, no variant: the switches' own defaults.
    let plain = teams(seats, "");
    let rules = load(&plain, None).expect("teams loads");
    assert_eq!(rules.switches["goal"], Value::Int(10));
}

#[test]
fn a_default_variant_that_does_not_exist_is_refused() {
    let seats = "{ min = 2, max = 2, names = { \"A\", \"B\" } }";
    let dir = teams(seats, "variant = \"fast\",");
    let e = refused(&dir);
    assert!(
        e.contains("teams has no variant 'fast' (variants: long, quick)"),
        "{e}"
    );
    // Naming an existing variant still loads.
    assert!(load(&dir, Some("quick")).is_ok());
}

#[test]
fn outcomes_start_with_win_once_and_beyond_it_need_the_outcome_hook() {
    let seats = "{ min = 2, max = 2, names = { \"A\", \"B\" } }";
    for (field, says) in [
        (
            "outcomes = { \"gammon\" },",
            "outcomes must start with `win`",
        ),
        (
            "outcomes = { \"win\", \"win\" },",
            "outcomes names `win` twice",
        ),
        ("outcomes = { \"win\", \"gammon\" },", "need hooks.outcome"),
    ] {
        let e = refused(&teams(seats, field));
        assert!(e.contains(says), "{field}: {e}");
    }
    let rules = load(&teams(seats, "outcomes = { \"win\" },"), None).expect("loads");
    assert_eq!(rules.outcomes, ["win"]);
}
