//! Declared randomness: randomizer parameters from switches (a variant or `--set` really
//! changes the throws), randomizers of tiles and house rules on their own streams, parameters
//! a status gives for one event, and the errors of bad declarations.

use crate::common;

use std::path::Path;
use std::rc::Rc;

use common::{fails, repl, run};
use tortuga::kernel::{Kind, Value};
use tortuga::script::{LoadOptions, Rules};
use tortuga::session::game::Game;

/// One seat choosing which randomizer to throw next (an option is its name, then the spinner
/// weights the status gives for that throw); the last outcome is kept in prop `last`.
const DICEY: &str = r#"
return {
  name = "dicey",
  seats = { min = 1, max = 1, default = 1, names = { "A" } },
  switches = {
    cowrie_p = { default = 0.5, min = 0, max = 1 },
    long = { default = false },
    shells = { default = 7, min = 1, max = 9 },
    wind_south = { default = 3, min = 1 },
  },
  randomizers = {
    shells = function(sw)
      local values = {}
      for k = 0, sw.shells do values[k] = 10 * k end
      return { kind = "cowries", count = sw.shells, p = sw.cowrie_p, values = values }
    end,
    die = function(sw)
      if sw.long then return { kind = "dice", faces = { 1, 3, 4, 6 }, count = 3 } end
      return { kind = "dice", faces = { 1, 2, 3, 4, 5, 6 } }
    end,
    wind = function(sw) return { kind = "spinner", sectors = { { "N", 1 }, { "S", sw.wind_south } } } end,
    deck = { kind = "bag", items = { "ace", "king", "king" } },
  },
  hooks = {
    setup = function(G) end,
    status = function(G)
      if G:get("next") then
        return { chance = G:get("next"), weights = G:get("weights"), faces = G:get("faces") }
      end
      return { actor = 1, options = { "shells", "die", "wind", "deck", "sea_cell", "gale",
        "wind 1 1000000", "wind 1000000 1", "wind 1 0", "wind one", "die 1 2", "die faces" } }
    end,
    apply = function(G, o)
      local words = {}
      for w in o:gmatch("%S+") do words[#words + 1] = w end
      if words[2] == "faces" then return G:set("next", words[1], "faces", { 1, 2 }) end
      local weights = #words > 1 and { tonumber(words[2]) or 1, tonumber(words[3]) } or nil
      G:set("next", words[1], "weights", weights)
    end,
    chance = function(G, name, o) G:set("last", o, "next", nil, "weights", nil, "faces", nil) end,
    render = function(G) return "dicey" end,
  },
}
"#;

/// A scratch rules folder holding `rules/<game>/` with the given files.
fn game_folder(game: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let path = dir.path().join("rules").join(game).join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn load(
    dir: &Path,
    game: &str,
    variant: Option<&str>,
    sets: &[(&str, Value)],
) -> anyhow::Result<Rules> {
    let opts = LoadOptions {
        variant: variant.map(str::to_string),
        overrides: sets
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        ..LoadOptions::default()
    };
    Rules::load(&dir.join("rules"), game, &opts)
}

/// Mean number of shells up over `n` throws of the game's own randomizer.
fn mean_up(rules: Rules, n: usize) -> f64 {
    let mut game = Game::new(Rc::new(rules), 1, 7).unwrap();
    let mut up = 0;
    for _ in 0..n {
        game.apply(0).unwrap();
        let (_, outcome) = game.resolve_chance(None).unwrap();
        let Value::Int(k) = outcome[1] else {
            panic!("{outcome:?}")
        };
        up += k;
    }
    up as f64 / n as f64
}

#[test]
fn a_switch_changes_the_cowrie_bias_from_the_variant_and_from_set() {
    let variant = "game = \"dicey\"\n[switches]\ncowrie_p = 0.9\n";
    let dir = game_folder(
        "dicey",
        &[("game.lua", DICEY), ("variants/biased.toml", variant)],
    );
    let fair = mean_up(load(dir.path(), "dicey", None, &[]).unwrap(), 400);
    assert!(
        (3.2..3.8).contains(&fair),
        "p = 0.5 gives about 3.5 up: {fair}"
    );
    let biased = load(dir.path(), "dicey", Some("biased"), &[]).unwrap();
    assert!(matches!(biased.randomizers["shells"].kind, Kind::Cowries { p, .. } if p == 0.9));
    let biased = mean_up(biased, 400);
    assert!(
        (6.0..6.6).contains(&biased),
        "p = 0.9 gives about 6.3 up: {biased}"
    );
    let set = load(dir.path(), "dicey", None, &[("cowrie_p", Value::Num(0.9))]).unwrap();
    assert_eq!(
        mean_up(set, 400),
        biased,
        "--set and the variant give the same throws"
    );
}

#[test]
fn switches_change_dice_faces_count_shells_and_sector_weights() {
    let dir = game_folder("dicey", &[("game.lua", DICEY)]);
    let rules = load(
        dir.path(),
        "dicey",
        None,
        &[
            ("long", Value::Bool(true)),
            ("shells", Value::Int(4)),
            ("wind_south", Value::Int(9)),
        ],
    )
    .unwrap();
    assert_eq!(
        rules.randomizers["die"].kind,
        Kind::Dice {
            faces: vec![1, 3, 4, 6],
            count: 3
        }
    );
    assert_eq!(
        rules.randomizers["shells"].kind,
        Kind::Cowries {
            count: 4,
            p: 0.5,
            values: vec![0, 10, 20, 30, 40]
        }
    );
    assert_eq!(
        rules.randomizers["wind"].kind,
        Kind::Spinner {
            sectors: vec![("N".into(), 1), ("S".into(), 9)]
        }
    );
    // The REPL forces only what the long dice can show.
    let mut r = repl(&dir.path().join("rules"));
    run(&mut r, &["new dicey --set long=true --seed 3", "play die"]);
    let e = fails(&mut r, "roll 2 3 4");
    assert!(e.contains("2 is not a face of die"), "{e}");
    run(&mut r, &["roll 1 3 6"]);
    assert_eq!(run(&mut r, &[r#"lua G:get("last")"#]).trim(), "{1, 3, 6}");
}

#[test]
fn a_bag_randomizer_starts_every_game_with_its_items() {
    let dir = game_folder("dicey", &[("game.lua", DICEY)]);
    let mut r = repl(&dir.path().join("rules"));
    run(&mut r, &["new dicey --seed 1"]);
    assert_eq!(run(&mut r, &[r#"lua G:bag_count("deck")"#]).trim(), "3");
    run(&mut r, &["play deck", "roll king"]);
    assert_eq!(
        run(&mut r, &[r#"lua G:bag_items("deck")"#]).trim(),
        "{ace, king}"
    );
}

#[test]
fn randomizers_may_be_one_function_of_the_switches() {
    let game = DICEY
        .replace(
            "  randomizers = {\n    shells = function(sw)",
            "  randomizers = function(sw) return {\n    shells = function(sw)",
        )
        .replace(
            "    deck = { kind = \"bag\", items = { \"ace\", \"king\", \"king\" } },\n  },",
            "    deck = { kind = \"bag\", items = { \"ace\", \"king\", \"king\" } },\n  } end,",
        );
    let dir = game_folder("dicey", &[("game.lua", &game)]);
    let rules = load(dir.path(), "dicey", None, &[("long", Value::Bool(true))]).unwrap();
    assert_eq!(
        rules.randomizers["die"].kind,
        Kind::Dice {
            faces: vec![1, 3, 4, 6],
            count: 3
        }
    );
    assert_eq!(rules.randomizers.len(), 4);
}

/// Loads DICEY with `from` replaced by `to` and returns the load error.
fn load_error(from: &str, to: &str) -> String {
    let game = DICEY.replace(from, to);
    assert_ne!(game, DICEY, "the replacement applies");
    let dir = game_folder("dicey", &[("game.lua", &game)]);
    format!(
        "{:#}",
        load(dir.path(), "dicey", None, &[])
            .err()
            .expect("load fails")
    )
}

#[test]
fn bad_declarations_are_one_error_naming_the_file_and_line() {
    let e = load_error("sw.wind_south", "sw.wind_sout");
    assert!(
        e.contains("game.lua:21: randomizer 'wind'") && e.contains("unknown switch 'wind_sout'"),
        "{e}"
    );
    let e = load_error("{ \"S\", sw.wind_south }", "{ \"S\", 0 }");
    assert!(
        e.contains("game.lua:21: randomizer 'wind'") && e.contains("sector 'S' has weight 0"),
        "{e}"
    );
    let e = load_error("{ \"N\", 1 }", "{ \"N\", -2 }");
    assert!(e.contains("weight -2"), "{e}");
    let e = load_error("deck = { kind = \"bag\",", "deck = { kind = \"bga\",");
    assert!(
        e.contains("game.lua:22: randomizer 'deck'") && e.contains("unknown kind 'bga'"),
        "{e}"
    );
    let e = load_error(
        "deck = { kind = \"bag\",",
        "deck = { kind = \"bag\", weights = { 1 },",
    );
    assert!(e.contains("a bag randomizer has no field 'weights'"), "{e}");
    let e = load_error(
        "return { kind = \"dice\", faces = { 1, 2, 3, 4, 5, 6 } }",
        "sw.long = 1",
    );
    assert!(
        e.contains("game.lua:") && e.contains("switches are read-only"),
        "{e}"
    );
    let e = load_error(
        "return { kind = \"dice\", faces = { 1, 2, 3, 4, 5, 6 } }",
        "return 7",
    );
    assert!(
        e.contains("game.lua:17: randomizer 'die': must be a table"),
        "{e}"
    );
    let e = load_error("for k = 0, sw.shells do", "for k = 1, sw.shells do");
    assert!(
        e.contains("game.lua:12: randomizer 'shells'") && e.contains("values[0] is missing"),
        "{e}"
    );
}

const WHIRLPOOL: &str = r#"
-- A tile whose own randomizer picks one of four sea cells.
return {
  name = "whirlpool", count = 1, glyph = "@",
  randomizers = {
    sea_cell = { kind = "orientation", count = 4 },
  },
}
"#;

#[test]
fn tiles_and_house_rules_declare_randomizers_on_their_own_streams() {
    let house = "return { name = 'gale', hooks = {},\n  randomizers = {\n    gale = { kind = 'dice', faces = { 1, 2 } },\n  },\n}\n";
    let variant = "game = \"dicey\"\nhouse = [\"gale\"]\n";
    let dir = game_folder(
        "dicey",
        &[
            ("game.lua", DICEY),
            ("tiles/whirlpool.lua", WHIRLPOOL),
            ("house/gale.lua", house),
            ("variants/stormy.toml", variant),
        ],
    );
    let plain = load(dir.path(), "dicey", None, &[]).unwrap();
    assert_eq!(plain.randomizers["sea_cell"].stream, "sea_cell");
    assert!(
        !plain.randomizers.contains_key("gale"),
        "a house rule not switched on declares nothing"
    );
    let stormy = load(dir.path(), "dicey", Some("stormy"), &[]).unwrap();
    assert_eq!(
        stormy.randomizers["gale"].kind,
        Kind::Dice {
            faces: vec![1, 2],
            count: 1
        }
    );
    assert!(plain.randomizers.contains_key("sea_cell") && stormy.randomizers.contains_key("wind"));
    // Drawing from the new streams shifts no other stream: the shells come out the same.
    let throws = |new: &str, others: &[&str]| {
        let mut r = repl(&dir.path().join("rules"));
        run(&mut r, &[new]);
        let mut out = Vec::new();
        for _ in 0..6 {
            for name in others {
                run(&mut r, &[&format!("play {name}"), "roll"]);
            }
            run(&mut r, &["play shells", "roll"]);
            out.push(run(&mut r, &[r#"lua G:get("last")"#]));
        }
        out
    };
    let alone = throws("new dicey --seed 5", &[]);
    let mixed = throws("new dicey --variant stormy --seed 5", &["sea_cell", "gale"]);
    assert_eq!(alone, mixed);
    // Forcing works on a tile's randomizer as on any other.
    let mut r = repl(&dir.path().join("rules"));
    run(&mut r, &["new dicey --seed 1", "play sea_cell"]);
    assert!(fails(&mut r, "roll 4").contains("4 is not in 0..3"));
    run(&mut r, &["roll 2"]);
    assert_eq!(run(&mut r, &[r#"lua G:get("last")"#]).trim(), "{2}");
}

#[test]
fn a_randomizer_declared_twice_names_both_places() {
    let tile = WHIRLPOOL.replace("sea_cell", "wind");
    let dir = game_folder(
        "dicey",
        &[("game.lua", DICEY), ("tiles/whirlpool.lua", &tile)],
    );
    let e = format!("{:#}", load(dir.path(), "dicey", None, &[]).err().unwrap());
    assert!(
        e.contains("tiles/whirlpool.lua:6: randomizer 'wind' is declared twice (first at rules/dicey/game.lua:21)"),
        "{e}"
    );
}

#[test]
fn a_status_gives_spinner_weights_for_one_event() {
    let dir = game_folder("dicey", &[("game.lua", DICEY)]);
    let mut r = repl(&dir.path().join("rules"));
    run(&mut r, &["new dicey --seed 2"]);
    for _ in 0..20 {
        run(&mut r, &["play wind 1 1000000", "roll"]);
        assert_eq!(run(&mut r, &[r#"lua G:get("last")"#]).trim(), "{S}");
    }
    run(&mut r, &["play wind 1000000 1", "roll"]);
    assert_eq!(run(&mut r, &[r#"lua G:get("last")"#]).trim(), "{N}");
    // Forcing still works, and a status's bad parameters are one error.
    run(&mut r, &["play wind 1000000 1", "roll s"]);
    assert_eq!(run(&mut r, &[r#"lua G:get("last")"#]).trim(), "{S}");
    let e = fails(&mut r, "play wind 1 0");
    assert!(e.contains("chance 'wind': sector 'S' has weight 0"), "{e}");
    let e = fails(&mut r, "play wind one");
    assert!(e.contains("weights has 1 entries for 2 sectors"), "{e}");
    let e = fails(&mut r, "play die 1 2");
    assert!(
        e.contains("a dice randomizer takes no 'weights' from a status"),
        "{e}"
    );
    // Faces a status gives are the only ones `roll` accepts, and the only ones drawn.
    run(&mut r, &["play die faces"]);
    let e = fails(&mut r, "roll 5");
    assert!(e.contains("5 is not a face of die ([1, 2])"), "{e}");
    run(&mut r, &["roll 2"]);
    assert_eq!(run(&mut r, &[r#"lua G:get("last")"#]).trim(), "{2}");
    for _ in 0..10 {
        run(&mut r, &["play die faces", "roll"]);
        let last = run(&mut r, &[r#"lua G:get("last")"#]);
        assert!(["{1}", "{2}"].contains(&last.trim()), "{last}");
    }
}

#[test]
fn a_switch_no_rule_reads_is_refused_naming_the_variant_line() {
    let game = DICEY.replace(
        "    wind_south = { default = 3, min = 1 },",
        "    wind_south = { default = 3, min = 1 },\n    ignored = { default = 1 },",
    );
    let variant = "game = \"dicey\"\ntitle = \"x\"\n[switches]\nlong = true\nignored = 2\n";
    let dir = game_folder(
        "dicey",
        &[("game.lua", &game), ("variants/v.toml", variant)],
    );
    let e = format!(
        "{:#}",
        load(dir.path(), "dicey", Some("v"), &[]).err().unwrap()
    );
    assert_eq!(
        e,
        "rules/dicey/variants/v.toml:5:1: the variant sets switch 'ignored', which no rule reads"
    );
    let e = format!(
        "{:#}",
        load(dir.path(), "dicey", None, &[("ignored", Value::Int(3))])
            .err()
            .unwrap()
    );
    assert_eq!(e, "--set ignored: no rule of dicey reads switch 'ignored'");
    // Read by a randomizer function, by a literal name in any rule file, or not at all.
    assert!(load(dir.path(), "dicey", None, &[("long", Value::Bool(true))]).is_ok());
    let reads = "return { read = function(G) return G:switch(\"ignored\") end }\n";
    let dir = game_folder(
        "dicey",
        &[
            ("game.lua", &game),
            ("variants/v.toml", variant),
            ("helpers.lua", reads),
        ],
    );
    assert!(load(dir.path(), "dicey", Some("v"), &[]).is_ok());
    // A literal in a comment, or in a house rule that is not switched on, is no read.
    let house = "return { name = 'h', hooks = {} } -- G:switch(\"ignored\")\n";
    let off =
        "return { name = 'off', hooks = { x = function(G) return G:switch('ignored') end } }\n";
    let dir = game_folder(
        "dicey",
        &[
            ("game.lua", &game),
            ("variants/v.toml", variant),
            ("house/h.lua", house),
            ("house/off.lua", off),
        ],
    );
    assert!(load(dir.path(), "dicey", Some("v"), &[]).is_err());
}
