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

#[test]
fn a_field_nothing_reads_is_refused_with_its_line_and_the_near_name() {
    let seats = "{ min = 2, max = 2, names = { \"A\", \"B\" } }";
    for (field, says) in [
        (
            "randomisers = {},",
            "has no field 'randomisers', and nothing would read it (did you mean randomizers?",
        ),
        (
            "hook = {},",
            "has no field 'hook', and nothing would read it (did you mean hooks?",
        ),
        ("trainning = {},", "(did you mean training?"),
    ] {
        let e = refused(&teams(seats, field));
        assert!(e.contains(says), "{field}: {e}");
        let line = TEAMS
            .lines()
            .position(|l| l.contains("VARIANT"))
            .expect("a place")
            + 1;
        assert!(
            e.contains(&format!("teams/game.lua:{line}: the game table")),
            "{e}"
        );
    }
}

#[test]
fn the_training_table_sets_train_s_defaults_and_refuses_other_names() {
    let seats = "{ min = 2, max = 2, names = { \"A\", \"B\" } }";
    let rules = load(
        &teams(
            seats,
            "training = { lambda = 0.9, linear = true, max_steps = 50 },",
        ),
        None,
    )
    .expect("loads");
    assert_eq!(rules.training.lambda, Some(0.9));
    assert_eq!(rules.training.linear, Some(true));
    assert_eq!(rules.training.max_steps, Some(50));
    assert_eq!(rules.training.alpha, None);
    let e = refused(&teams(seats, "training = { lamda = 0.9 },"));
    assert!(
        e.contains("the training table has no field 'lamda', and nothing would read it (did you mean lambda?"),
        "{e}"
    );
    let e = refused(&teams(seats, "training = { linear = \"yes\" },"));
    assert!(e.contains("training.linear"), "{e}");
}

#[test]
fn two_options_that_read_alike_are_refused_naming_the_status_hook() {
    let seats = "{ min = 2, max = 2, names = { \"A\", \"B\" } }";
    let dir = teams(seats, "");
    let game = dir.path().join("rules/teams/game.lua");
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        text.replace(
            "options = { \"stop\" }",
            "options = { \"stop\", \"go\", \"stop\" }",
        ),
    )
    .unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("status = function"))
        .unwrap()
        + 1;
    let mut r = repl(&dir.path().join("rules"));
    // the listing of the options reads every label
    let out = match r.handle_line("new teams --seed 1") {
        Err(e) => format!("{e:#}"),
        Ok(_) => fails(&mut r, "moves"),
    };
    assert!(
        out.contains(&format!(
            "teams/game.lua:{line} (status): options 1 and 3 of one decision both read 'stop'"
        )),
        "{out}"
    );
}

#[test]
fn a_tile_s_text_fields_are_text_and_its_other_fields_are_refused() {
    for (body, says) in [
        (
            "name = 'reef',\n  count = 1,\n  glyph = 5,\n",
            "race/tiles/reef.lua:4: glyph must be text (a string), not a number",
        ),
        (
            "name = 'reef',\n  count = 1,\n  glyph = 'R',\n  hook = {},\n",
            "race/tiles/reef.lua:5: a tile table has no field 'hook', and nothing would read it (did you mean hooks?",
        ),
    ] {
        let dir = scratch_rules();
        let race = dir.path().join("rules/race");
        std::fs::create_dir_all(race.join("tiles")).unwrap();
        std::fs::write(
            race.join("tiles/reef.lua"),
            format!("return {{\n  {body}}}\n"),
        )
        .unwrap();
        let mut r = repl(&dir.path().join("rules"));
        let e = fails(&mut r, "new race");
        assert!(e.contains(says), "{e}");
    }
}
