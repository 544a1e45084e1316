//! `tortuga new-game`, `new-tile` and `new-house` in a temporary copy of the shipped rules:
//! each writes files that load, play to the end under their variant and pass the Lua test it
//! wrote; bad input is one clear error that writes nothing.

use crate::common::{self, lua_runner};

use std::path::{Path, PathBuf};
use std::process::Command;

/// A copy of the shipped rules at `<tmp>/rules`, with an empty `<tmp>/tests/lua`.
fn copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let status = Command::new("cp")
        .arg("-r")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"))
        .arg(dir.path().join("rules"))
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::create_dir_all(dir.path().join("tests/lua")).unwrap();
    dir
}

/// `tortuga --rules <root>/rules args…`: (success, stdout, stderr).
fn tortuga(root: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tortuga"))
        .arg("--rules")
        .arg(root.join("rules"))
        .args(args)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).trim().to_string();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// Every file under `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            out.extend(files(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out.sort();
    out
}

/// Plays a whole game of `game` with `variant` by bots, and checks its invariants on the way
/// (three games at the full soak size).
fn plays(root: &Path, game: &str, variant: &str) {
    let (ok, out, err) = tortuga(
        root,
        &[
            "--game",
            game,
            "--variant",
            variant,
            "--seed",
            "3",
            "-c",
            "auto 400",
            "-c",
            "show",
        ],
    );
    assert!(ok, "{game} --variant {variant}: {err}");
    assert!(!out.is_empty());
    let games = common::soak(3).to_string();
    let (ok, out, err) = tortuga(
        root,
        &[
            "check",
            game,
            "--variant",
            variant,
            "--games",
            &games,
            "--seed",
            "1",
        ],
    );
    assert!(ok, "check {game} {variant}: {out}\n{err}");
}

#[test]
fn new_game_tile_and_house_rule_are_ready_to_run() {
    let tmp = copy();
    let root = tmp.path();
    let (ok, out, err) = tortuga(root, &["new-game", "dice_race"]);
    assert!(ok, "{err}");
    assert!(out.ends_with("try it: tortuga --game dice_race"), "{out}");
    assert!(root.join("rules/dice_race/hooks.toml").is_file());
    let (ok, out, err) = tortuga(root, &["new-tile", "jackal", "quicksand"]);
    assert!(ok, "{err}");
    assert!(out.contains("created "), "{out}");
    let (ok, _, err) = tortuga(root, &["new-house", "backgammon", "no_gammons"]);
    assert!(ok, "{err}");

    plays(root, "dice_race", "standard");
    plays(root, "jackal", "quicksand");
    plays(root, "backgammon", "no_gammons");

    // The tests they wrote pass, each under the variant it names.
    let tests = lua_runner::test_files(root);
    let names: Vec<String> = tests
        .iter()
        .map(|(g, f)| format!("{g}/{}", f.file_name().unwrap().to_string_lossy()))
        .collect();
    assert_eq!(
        names,
        [
            "backgammon/no_gammons_test.lua",
            "dice_race/game_test.lua",
            "jackal/quicksand_test.lua"
        ]
    );
    let failures = lua_runner::run_all(root, &tests);
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // The new tile and house rule explain themselves, and the new game's hook is documented.
    let (ok, out, _) = tortuga(root, &["--game", "jackal", "-c", "help tile quicksand"]);
    assert!(ok && out.contains("hooks: on_arrive"), "{out}");
    let (ok, out, _) = tortuga(root, &["-c", "help rule no_gammons"]);
    assert!(ok && out.contains("hooks: starting_layout"), "{out}");
    let (ok, out, _) = tortuga(root, &["-c", "help lua advance"]);
    assert!(ok && out.contains("(a hook of dice_race)"), "{out}");
}

#[test]
fn bad_input_is_one_clear_error_and_writes_nothing() {
    let tmp = copy();
    let root = tmp.path();
    let before = files(root);
    for (args, error) in [
        (
            &["new-tile", "chess", "rook"][..],
            "error: new-tile: no game 'chess' in ",
        ),
        (
            &["new-tile", "jackal", "ice"],
            "error: new-tile: jackal already has the tile ice (code ic, rules/jackal/tiles/ice.lua)",
        ),
        (
            &["new-tile", "jackal", "ic"],
            "error: new-tile: jackal already has the tile ice (code ic, rules/jackal/tiles/ice.lua)",
        ),
        (
            &["new-tile", "backgammon", "ice"],
            "error: new-tile: backgammon declares no tile_hooks, so it has no tiles",
        ),
        (
            &["new-tile", "jackal", "Ice-2"],
            "error: new-tile: a tile name is lower-case letters, digits and '_', starting with a letter, not 'Ice-2'",
        ),
        (
            &["new-house", "pirates", "shipwreck_respin"],
            "error: new-house: pirates already has the house rule shipwreck_respin (rules/pirates/house/shipwreck_respin.lua)",
        ),
        (&["new-game", "jackal"], "error: new-game: "),
    ] {
        let (ok, out, err) = tortuga(root, args);
        assert!(!ok && out.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with(error), "{args:?}: {err}");
    }
    // A name that would clash with a file already there refuses the whole set.
    std::fs::write(root.join("rules/jackal/variants/quicksand.toml"), "").unwrap();
    let (ok, _, err) = tortuga(root, &["new-tile", "jackal", "quicksand"]);
    assert!(
        !ok && err.ends_with("quicksand.toml already exists"),
        "{err}"
    );
    std::fs::remove_file(root.join("rules/jackal/variants/quicksand.toml")).unwrap();
    assert_eq!(files(root), before, "nothing was written");
}

/// A symlink where a scaffold would write, to a file or dangling, or a FIFO there, refuses
/// the whole set: nothing is written through it.
#[test]
fn scaffolds_refuse_to_write_through_a_symlink_or_a_fifo() {
    let tmp = copy();
    let root = tmp.path();
    let target = root.join("target.txt");
    std::fs::write(&target, "kept").unwrap();
    let nowhere = root.join("nowhere.lua");
    let before = files(root);
    let tile = ["new-tile", "jackal", "quicksand"];
    for (planted, link_to, args, kind) in [
        (
            "tests/lua/jackal/quicksand_test.lua",
            Some(&target),
            &tile[..],
            "a symlink",
        ),
        (
            "rules/jackal/variants/quicksand.toml",
            Some(&nowhere),
            &tile,
            "a symlink",
        ),
        (
            "rules/pirates/variants/calm_seas.toml",
            Some(&nowhere),
            &["new-house", "pirates", "calm_seas"],
            "a symlink",
        ),
        (
            "tests/lua/marbles/game_test.lua",
            Some(&target),
            &["new-game", "marbles"],
            "a symlink",
        ),
        (
            "tests/lua/jackal/quicksand_test.lua",
            None,
            &tile,
            "a device, FIFO or socket",
        ),
    ] {
        let at = root.join(planted);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        match link_to {
            Some(to) => std::os::unix::fs::symlink(to, &at).unwrap(),
            None => assert!(Command::new("mkfifo").arg(&at).status().unwrap().success()),
        }
        let (ok, _, err) = tortuga(root, args);
        let want = format!("{}: {kind}, not a regular file: not written", at.display());
        assert!(
            !ok && err.lines().count() == 1 && err.contains(&want),
            "{args:?}: {err}"
        );
        std::fs::remove_file(&at).unwrap();
    }
    for made in ["tests/lua/marbles", "tests/lua/jackal"] {
        std::fs::remove_dir(root.join(made)).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept");
    assert!(!nowhere.exists(), "nothing written through a dangling link");
    assert_eq!(files(root), before, "nothing was written");
}

/// A new house rule's override names its first argument as the hook's signature does: `sw`
/// for Chaupar's `safe`, which takes the switches, not the game.
#[test]
fn a_new_house_rule_takes_the_hooks_own_first_argument() {
    let tmp = copy();
    let root = tmp.path();
    let (ok, _, err) = tortuga(root, &["new-house", "chaupar", "no_safety"]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(root.join("rules/chaupar/house/no_safety.lua")).unwrap();
    assert!(
        text.contains("safe = function(base, sw, ...)\n      return base(sw, ...)"),
        "{text}"
    );
    plays(root, "chaupar", "no_safety");
    let (ok, _, err) = tortuga(root, &["new-house", "backgammon", "no_gammons"]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(root.join("rules/backgammon/house/no_gammons.lua")).unwrap();
    assert!(text.contains("function(base, G, ...)"), "{text}");
}
