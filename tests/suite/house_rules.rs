//! House rules (issue 16): the four backgammon exercises under `rules/backgammon/house/`, each
//! switched on by its variant and shown to matter in a scenario; two movement rules at once;
//! and the loader's checks on stacking (conflicts, hooks that replace, hooks that do not
//! exist) and on tiles.

use crate::common;

use std::rc::Rc;

use common::{fails, repl, rules, run, scratch_rules};
use tortuga::repl::machine_moves;
use tortuga::script::{LoadOptions, Rules};

fn load(variant: Option<&str>) -> Rc<Rules> {
    let opts = LoadOptions {
        variant: variant.map(str::to_string),
        ..LoadOptions::default()
    };
    Rc::new(Rules::load(&rules(), "backgammon", &opts).expect("backgammon loads"))
}

/// The machine interface's move labels from a position, on a variant.
fn moves(variant: Option<&str>, position: &str, dice: &str) -> Vec<String> {
    let out = machine_moves(load(variant), position, Some(dice), false)
        .unwrap_or_else(|e| panic!("{e:#}"));
    let list: Vec<serde_json::Value> = serde_json::from_str(&out).expect("a JSON array");
    list.iter()
        .map(|e| e["move"].as_str().unwrap().to_string())
        .collect()
}

const START: &str =
    r#"{"board":[-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0]}"#;
/// X on the bar, an O blot on X's 24 (O's ace point), X's 19 held by O: a 6-1 enters only by
/// hitting that blot.
const ACE_BLOT: &str =
    r#"{"board":[-1,0,0,0,0,5,0,3,0,0,0,-5,6,0,0,0,-3,0,-5,0,0,0,0,-1],"bar":[1,0],"off":[0,0]}"#;
const NACK_BOARD: &str = "[-2,-2,0,0,0,4,0,3,0,0,0,-4,4,0,0,0,-3,0,-4,0,0,0,2,2]";

#[test]
fn nackgammon_starts_every_game_of_a_match_from_its_layout() {
    let mut r = repl(&rules());
    run(&mut r, &["new backgammon --variant nackgammon --seed 3"]);
    assert!(run(&mut r, &["position"]).contains(NACK_BOARD));
    run(&mut r, &["new backgammon --seed 3"]);
    assert!(!run(&mut r, &["position"]).contains(NACK_BOARD));
    // Game 1 of a 5-point match ends with X bearing off his last checker; game 2 starts.
    let end = r#"{"board":[1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-14],"bar":[0,0],"off":[14,1],"dice":[2,1],"match":{"length":5,"score":[0,0],"crawford":false}}"#;
    run(
        &mut r,
        &[
            &format!("setup backgammon --variant nackgammon_match5 {end}"),
            "play 1/off",
        ],
    );
    let pos = run(&mut r, &["position"]);
    assert!(pos.contains(NACK_BOARD), "game 2 of the match: {pos}");
}

#[test]
fn doubles_thrice_plays_a_double_three_times() {
    let four = moves(None, START, "55");
    assert!(four.contains(&"13/8(4)".to_string()), "{four:?}");
    let three = moves(Some("doubles_thrice"), START, "55");
    assert_eq!(three, ["13/3 8/3", "13/8 13/3", "13/8(3)", "8/3(3)"]);
    // Non-doubles are untouched.
    assert_eq!(
        moves(Some("doubles_thrice"), START, "31"),
        moves(None, START, "31")
    );
}

#[test]
fn the_ace_point_is_safe() {
    let usual = moves(None, ACE_BLOT, "61");
    assert!(usual.iter().all(|m| m.starts_with("bar/24*")), "{usual:?}");
    assert_eq!(moves(Some("safe_ace_point"), ACE_BLOT, "61"), [""]);
}

#[test]
fn two_movement_rules_both_apply_in_stack_order() {
    let both = Some("thrice_safe_ace");
    assert_eq!(
        moves(both, START, "55"),
        moves(Some("doubles_thrice"), START, "55")
    );
    assert_eq!(moves(both, ACE_BLOT, "61"), [""]);
    // 1-1 from the bar: without the safe ace-point X enters by hitting, and plays three ones.
    let thrice = moves(Some("doubles_thrice"), ACE_BLOT, "11");
    assert!(
        thrice.iter().all(|m| m.starts_with("bar/24*")),
        "{thrice:?}"
    );
    assert!(thrice.contains(&"bar/24* 6/4".to_string()), "{thrice:?}");
    assert_eq!(moves(both, ACE_BLOT, "11"), [""]);
}

#[test]
fn gammons_count_only_with_a_turned_cube() {
    let gammon = |variant: &str, cube: &str| {
        let mut r = repl(&rules());
        let p = format!(
            r#"{{"board":[1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0],"bar":[0,0],"off":[14,0],"dice":[2,1],"cube":{cube}}}"#
        );
        let v = if variant.is_empty() {
            String::new()
        } else {
            format!(" --variant {variant}")
        };
        run(&mut r, &[&format!("setup backgammon{v} {p}"), "play 1/off"])
    };
    let centred = r#"{"value":1,"owner":"center"}"#;
    let turned = r#"{"value":2,"owner":"opp"}"#;
    assert!(gammon("", centred).contains("X wins a gammon: 2 points"));
    assert!(gammon("gammons_need_cube", centred).contains("X wins a single game: 1 point"));
    assert!(gammon("gammons_need_cube", turned).contains("X wins a gammon: 4 points"));
}

#[test]
fn the_repl_lists_the_variants_moves() {
    let mut r = repl(&rules());
    let p = START.replacen('{', r#"{"dice":[5,5],"#, 1);
    run(
        &mut r,
        &[&format!("setup backgammon --variant doubles_thrice {p}")],
    );
    let listed = run(&mut r, &["moves"]);
    assert!(
        listed.contains("13/8(3)") && !listed.contains("13/8(4)"),
        "{listed}"
    );
    let machine = run(
        &mut r,
        &[&format!("moves --position {START} --dice 55 --json")],
    );
    assert!(
        machine.contains("13/8(3)") && !machine.contains("13/8(4)"),
        "{machine}"
    );
    run(&mut r, &["play 13/8(3)"]);
}

/// A scratch copy of the fixture rules with extra house rules and variants of the race game.
fn race_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = scratch_rules();
    for (name, text) in files {
        std::fs::write(dir.path().join("rules/race").join(name), text).unwrap();
    }
    dir
}

const REPLACING: &str = r#"-- replaces advance_runner
return {
  name = "teleport",
  replaces = { "advance_runner" },
  hooks = {
    advance_runner = function(base, G, seat, n) return base(G, seat, 1) end,
  },
}
"#;

#[test]
fn loading_says_when_two_house_rules_cannot_both_apply() {
    let dir = race_with(&[
        ("house/teleport.lua", REPLACING),
        (
            "house/jump.lua",
            "return { name = \"jump\", replaces = { \"advance_runner\" },\n  hooks = { advance_runner = function(base, G, seat, n) return base(G, seat, n) end } }\n",
        ),
        (
            "house/calm.lua",
            "return { name = \"calm\", conflicts = { \"double_six\" }, hooks = {} }\n",
        ),
        (
            "variants/below.toml",
            "game = \"race\"\nhouse = [\"double_six\", \"teleport\"]\n",
        ),
        (
            "variants/above.toml",
            "game = \"race\"\nhouse = [\"teleport\", \"double_six\"]\n",
        ),
        (
            "variants/twice.toml",
            "game = \"race\"\nhouse = [\"teleport\", \"jump\"]\n",
        ),
        (
            "variants/clash.toml",
            "game = \"race\"\nhouse = [\"double_six\", \"calm\"]\n",
        ),
    ]);
    let root = dir.path().join("rules");
    let mut r = repl(&root);
    let e = fails(&mut r, "new race --variant below");
    assert!(
        e.contains("house/teleport.lua:6")
            && e.contains("'double_six' below it")
            && e.contains("house/double_six.lua:6"),
        "{e}"
    );
    run(&mut r, &["new race --variant above"]);
    let e = fails(&mut r, "new race --variant twice");
    assert!(e.contains("both replace hook 'advance_runner'"), "{e}");
    let e = fails(&mut r, "new race --variant clash");
    assert!(
        e.contains("house/calm.lua") && e.contains("conflicts with 'double_six'"),
        "{e}"
    );
}

#[test]
fn a_house_rule_on_a_missing_hook_is_an_error_with_its_line() {
    let dir = race_with(&[
        (
            "house/typo.lua",
            "return { name = \"typo\",\n  hooks = {\n    advance_runer = function(base, G) end,\n  } }\n",
        ),
        (
            "variants/typo.toml",
            "game = \"race\"\nhouse = [\"typo\"]\n",
        ),
    ]);
    let mut r = repl(&dir.path().join("rules"));
    let e = fails(&mut r, "new race --variant typo");
    assert!(
        e.contains("house/typo.lua:3")
            && e.contains("'advance_runer'")
            && e.contains("advance_runner"),
        "{e}"
    );
}

/// The shipped rules with one more Jackal tile file, `zz.lua`.
fn jackal_with_tile(text: &str) -> tempfile::TempDir {
    jackal_with_tile_file("zz", text)
}

/// The shipped rules with one more Jackal tile file, `<name>.lua`.
fn jackal_with_tile_file(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_dir(&rules(), &dir.path().join("rules"));
    std::fs::write(
        dir.path().join(format!("rules/jackal/tiles/{name}.lua")),
        text,
    )
    .unwrap();
    dir
}

#[test]
fn tile_mistakes_are_caught_at_load() {
    let cases = [
        (
            "return { name = \"zz\", count = 1, glyph = \"Z\",\n  hooks = {\n    on_arive = function(G, cell, ch) end,\n  } }\n",
            "tiles/zz.lua:3: tile hook 'on_arive' is not one jackal declares",
        ),
        (
            "return { name = \"zz\", glyph = \"Z\" }\n",
            "tiles/zz.lua: tile 'zz' has no count",
        ),
        (
            "return { name = \"zz\", count = 2 }\n",
            "tiles/zz.lua: tile 'zz' has no glyph",
        ),
    ];
    for (text, want) in cases {
        let dir = jackal_with_tile(text);
        let mut r = repl(&dir.path().join("rules"));
        let e = fails(&mut r, "new jackal --seed 1");
        assert!(e.contains(want), "want {want:?} in: {e}");
    }
}

/// What a tile's `decide` returns is honoured as `on_arrive`'s return is: a motion carries the
/// pirate on (here one cell east, onto a face-down tile that is then turned up), "rest" ends
/// the move where it is. The tile is named by its name, not its code, wherever it is named:
/// the variant's `[tiles]`, its own `C.ask`, `roll` of the deck and `rules <tile>.<hook>`.
#[test]
fn a_tiles_decide_may_return_a_motion_or_rest() {
    let dir = jackal_with_tile_file(
        "signpost",
        "local C = require(\"jackal.core\")\n\
         local B = require(\"jackal.board\")\n\
         return { name = \"signpost\", code = \"zz\", count = 1, glyph = \"Z\",\n\
           hooks = {\n\
             on_arrive = function(G, l) return C.ask(G, \"signpost\", \"zz_pick\", l) end,\n\
             choices = function() return { \"east\", \"stay\" } end,\n\
             decide = function(G, l, _, _, answer)\n\
               if answer == \"stay\" then return \"rest\" end\n\
               local x, y = B.xy(l)\n\
               return C.motion(l, B.loc(x + 1, y), \"step\")\n\
             end,\n\
           } }\n",
    );
    std::fs::write(
        dir.path().join("rules/jackal/variants/zz.toml"),
        "game = \"jackal\"\n[switches]\npack = \"custom\"\n[tiles]\nsignpost = 1\nempty = 17\n",
    )
    .unwrap();
    let mut r = repl(&dir.path().join("rules"));
    run(
        &mut r,
        &[
            "new jackal --variant zz --seed 1",
            "play W1 G1->G2",
            "roll signpost",
        ],
    );
    assert!(run(&mut r, &["moves"]).contains("east"));
    assert!(run(&mut r, &["rules signpost.decide"]).starts_with("zz.decide (top first)"));
    let out = run(&mut r, &["play east"]);
    assert!(
        run(&mut r, &["pending"]).starts_with("1. turning up H2: waits for chance 'deck'"),
        "{out}"
    );
    run(&mut r, &["undo"]);
    run(&mut r, &["play stay"]);
    assert!(run(&mut r, &["pending"]) == "nothing pending");
    assert!(run(&mut r, &["show"]).contains("yellow to play"));
}

/// A Pirates position's `house` line names any house rule loaded, not only the author's four:
/// `position` writes `house +<rule>` for it, `setup` takes the text back, a game that did not
/// load it is told how to, and only the author's rules are switched off by a position.
#[test]
fn a_pirates_position_names_any_house_rule() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("rules");
    common::copy_dir(&rules(), &root);
    std::fs::write(
        root.join("pirates/house/calm_harbours.lua"),
        "-- House rule \"calm_harbours\": a test rule that only names itself.\n\
         return {\n  name = \"calm_harbours\",\n  help = \"names itself\",\n  hooks = {\n\
         \x20   house_rules = function(base, G)\n      local out = base(G)\n\
         \x20     out[#out + 1] = \"calm_harbours\"\n      return out\n    end,\n  },\n}\n",
    )
    .unwrap();
    let mut r = repl(&root);
    run(&mut r, &["new pirates --house calm_harbours --seed 1"]);
    let text = run(&mut r, &["position"]);
    assert!(text.lines().any(|l| l == "house +calm_harbours"), "{text}");
    let file = dir.path().join("p.pos");
    std::fs::write(&file, &text).unwrap();
    let setup = format!("setup pirates --house calm_harbours @{}", file.display());
    run(&mut r, &[&setup]);
    assert_eq!(run(&mut r, &["position"]), text, "the position round-trips");
    let e = fails(&mut r, &format!("setup pirates @{}", file.display()));
    assert!(
        e.contains("not loaded (start with --house calm_harbours"),
        "{e}"
    );
    std::fs::write(
        &file,
        text.replace("house +calm_harbours", "house -calm_harbours"),
    )
    .unwrap();
    let e = fails(&mut r, &setup);
    assert!(e.contains("switched off by starting without it"), "{e}");
}

/// A tile hook's return that is none of those the contract names is an error naming the
/// tile's file, the hook and the value, where it used to end the move as "done" does.
#[test]
fn a_tiles_hook_returning_what_the_contract_does_not_name_is_refused() {
    let dir = jackal_with_tile(
        "return { name = \"zz\", code = \"zz\", count = 1, glyph = \"Z\",\n\
           hooks = { on_arrive = function() return 42 end } }\n",
    );
    deal_zz_first(&dir);
    let mut r = repl(&dir.path().join("rules"));
    run(
        &mut r,
        &["new jackal --variant zz --seed 1", "play W1 G1->G2"],
    );
    let e = fails(&mut r, "roll zz");
    assert!(
        e.contains(
            "jackal/tiles/zz.lua: on_arrive returned number 42, where it returns nil or \"rest\""
        ),
        "{e}"
    );
    assert!(
        run(&mut r, &["pending"]).contains("turning up G2"),
        "the game is as it was"
    );
}

/// The variant zz: a custom pack of the tile zz and 17 empty tiles, so the first tile turned
/// up is zz when `roll zz` asks for it.
fn deal_zz_first(dir: &tempfile::TempDir) {
    std::fs::write(
        dir.path().join("rules/jackal/variants/zz.toml"),
        "game = \"jackal\"\n[switches]\npack = \"custom\"\n[tiles]\nzz = 1\nempty = 17\n",
    )
    .unwrap();
}
