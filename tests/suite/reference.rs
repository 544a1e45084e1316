//! The API reference (src/script/ruleset/reference.toml and rules/<game>/hooks.toml) documents what
//! the kernel really exposes to Lua and every hook each game declares; the files generated
//! from it (rules/types/tortuga.lua, docs/lua-reference.md) are current; `help lua`, `help
//! tile` and `help rule` answer from it. `TORTUGA_BLESS=1` rewrites the generated files.

use crate::common;

use std::path::Path;

use tortuga::script::ruleset::reference::{LUALS_FILE, MARKDOWN_FILE, Reference};
use tortuga::script::ruleset::rules::games;
use tortuga::script::{LoadOptions, Rules};

fn reference() -> Reference {
    Reference::load(&common::rules()).expect("the reference loads")
}

#[test]
fn everything_each_shipped_game_exposes_or_declares_is_documented() {
    let reference = reference();
    let mut exposed = Vec::new();
    for game in games(&common::rules()) {
        let rules = common::load(&game, &[]);
        let gaps = reference.gaps(&rules).unwrap();
        assert!(gaps.is_empty(), "{game}:\n{}", gaps.join("\n"));
        exposed.extend(tortuga::script::ruleset::reference::exposed(&rules).unwrap());
    }
    // And nothing is documented that no game's rules can reach.
    for name in reference.kernel_names() {
        assert!(
            exposed.contains(&name),
            "{name} is documented but not exposed"
        );
    }
}

#[test]
fn an_exposed_function_without_an_entry_is_a_gap() {
    let mut reference = reference();
    for section in &mut reference.sections {
        section
            .entry
            .retain(|e| !e.sig.starts_with("G:tally(") && !e.sig.starts_with("json.decode("));
    }
    let gaps = reference.gaps(&common::load("chaupar", &[])).unwrap();
    assert_eq!(
        gaps,
        [
            "G:tally: exposed to chaupar's rules, not in src/script/ruleset/reference.toml",
            "json.decode: exposed to chaupar's rules, not in src/script/ruleset/reference.toml",
        ]
    );
}

#[test]
fn an_undocumented_hook_or_tile_hook_is_a_gap() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("mini/tiles")).unwrap();
    std::fs::write(
        root.join("mini/game.lua"),
        "return { name = 'mini', seats = { min = 1, max = 1, names = { 'A' } },\n\
         tile_hooks = { 'on_step' },\n\
         hooks = { setup = function(G) end, status = function(G) return { over = true, scores = { 0 } } end,\n\
                   apply = function(G) end, bonus = function(G) end } }\n",
    )
    .unwrap();
    std::fs::write(
        root.join("mini/hooks.toml"),
        "hook = [{ sig = \"gone(G: G)\", doc = \"no longer declared\" }]\n",
    )
    .unwrap();
    let rules = Rules::load(root, "mini", &LoadOptions::default()).unwrap();
    let gaps = Reference::load(root).unwrap().gaps(&rules).unwrap();
    assert_eq!(
        gaps,
        [
            "bonus: a hook of mini, not in rules/mini/hooks.toml",
            "on_step: a tile hook of mini, not in rules/mini/hooks.toml",
            "gone: in rules/mini/hooks.toml, not a hook mini declares",
        ]
    );
}

#[test]
fn a_malformed_signature_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("g")).unwrap();
    std::fs::write(dir.path().join("g/game.lua"), "return {}").unwrap();
    std::fs::write(
        dir.path().join("g/hooks.toml"),
        "hook = [{ sig = \"bad(G G)\", doc = \"x\" }]\n",
    )
    .unwrap();
    let e = format!("{:#}", Reference::load(dir.path()).err().unwrap());
    assert_eq!(e, "rules/g/hooks.toml: 'G G' is not `name: type`");
}

/// The generated file at `rel` is `text`; with TORTUGA_BLESS set it is written instead.
fn current(rel: &str, text: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    if std::env::var_os("TORTUGA_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "{rel} is not what the reference generates: run TORTUGA_BLESS=1 cargo test --release --test suite reference"
    );
}

#[test]
fn the_generated_definitions_and_markdown_are_current() {
    let reference = reference();
    current(LUALS_FILE, &reference.luals());
    current(MARKDOWN_FILE, &reference.markdown());
}

#[test]
fn the_definitions_type_g_and_the_hooks() {
    let luals = reference().luals();
    assert!(luals.starts_with("---@meta\n"));
    assert!(luals.contains("---@param name string\n---@return Loc\nfunction G:place(name) end\n"));
    assert!(
        luals.contains("---@param n? integer\n"),
        "optional parameters"
    );
    assert!(luals.contains("function hook.dice_to_play(G, d1, d2) end"));
    assert!(luals.contains("hook[\"chain.done\"] = function(G) end"));
    assert!(luals.contains("---@class jackal.tile_hooks\n"));
    assert!(
        !luals.contains("function string.format"),
        "LuaLS knows the standard library"
    );
}

#[test]
fn help_lua_explains_one_name_and_refuses_an_unknown_one() {
    let mut r = common::repl(&common::rules());
    assert_eq!(
        common::run(&mut r, &["help lua place"]),
        "G:place(name: string) -> Loc\n  A named location (a point, a zone such as `bar.X`); the same name gives the same location.\n  (Places and topology)"
    );
    let hook = common::run(&mut r, &["help lua dice_to_play"]);
    assert!(hook.starts_with("dice_to_play(G: G, d1: integer, d2: integer) -> integer[]\n"));
    assert!(hook.ends_with("(a hook of backgammon)"));
    assert!(common::run(&mut r, &["help lua json.encode"]).contains("keys sorted"));
    assert!(common::run(&mut r, &["help lua setup"]).starts_with("hook.setup(G: G)"));
    let e = r.handle_line("help lua nosuch").unwrap_err().to_string();
    assert_eq!(
        e,
        "help lua: nothing is called 'nosuch' (`help lua` lists every name)"
    );
    let all = common::run(&mut r, &["help lua"]);
    assert!(all.contains("Pieces: G:add G:move"));
    assert!(all.contains("jackal tile hooks: on_reveal on_arrive"));
}

#[test]
fn help_tile_and_rule_show_the_header_hooks_and_sections() {
    let mut r = common::repl(&common::rules());
    let ice = common::run(&mut r, &["help tile ice"]);
    assert_eq!(
        ice,
        "tile ice (jackal, code ic, 6 in the deck, glyph ❄): rules/jackal/tiles/ice.lua\n  Ice (§4.4): repeat the last motion.\nhooks: on_arrive, transit\nfollows: §4.4 of the jackal spec"
    );
    assert_eq!(
        common::run(&mut r, &["help tile ic"]),
        ice,
        "a tile is found by its code too"
    );
    let rule = common::run(&mut r, &["help rule doubles_thrice"]);
    assert!(
        rule.starts_with(
            "house rule doubles_thrice (backgammon): rules/backgammon/house/doubles_thrice.lua\n"
        ),
        "{rule}"
    );
    assert!(rule.contains("hooks: dice_to_play\n"), "{rule}");
    let e = r.handle_line("help tile nosuch").unwrap_err().to_string();
    assert!(e.starts_with("help tile: no game in "), "{e}");
    assert!(e.ends_with("has a tile named or coded 'nosuch'"), "{e}");
    let e = r.handle_line("help tile").unwrap_err().to_string();
    assert_eq!(
        e,
        "help tile takes one name: help lua place, help tile ice, help rule nackgammon"
    );
    let e = r.handle_line("help rule nosuch").unwrap_err().to_string();
    assert!(e.ends_with("has a house rule 'nosuch'"), "{e}");
}

#[test]
fn every_tile_file_is_named_for_what_it_is_and_declares_its_code() {
    let rules = common::load("jackal", &[]);
    for t in &rules.tiles {
        assert!(
            t.name.len() > 2,
            "{}: a tile file is named for what the tile is, its code declared inside",
            t.file
        );
    }
    let ice = rules.tiles.iter().find(|t| t.name == "ice").unwrap();
    assert_eq!(ice.code, "ic");
}
