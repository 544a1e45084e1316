//! Chaupar's house rules (issue 16, item 2): `safe_blocks` and `own_arm_castles`, both on the
//! `safe` hook, each switched on by its variant and shown to change a capture; both at once,
//! in stack order; the loader's refusal of rules on that hook that cannot both apply; and the
//! stacked rules behind `moves`, `sim` and `bench`.

use crate::chaupar;
use crate::common;

use chaupar::{C, pos};
use std::process::Command;

use common::{fails, repl, run};

/// S's lone piece on E.l1 and W's on E.l5, a castle of E's arm: a 4 lands there.
const FOREIGN_CASTLE: &str = "implement cowries / S: E.l1, home 3 / W: E.l5";
/// S's pair on N.r6 and W's pair on N.r3, a plain square of N's arm: a 3 lands there.
const FOREIGN_PAIR: &str = "implement cowries / S: N.r6 x2 / W: N.r3 x2";
/// S's pair on W.l1 and W's pair on W.l4, a plain square of W's own arm: a 3 lands there.
const HOME_PAIR: &str = "implement cowries / S: W.l1 x2 / W: W.l4 x2";

/// S's and W's lines after S throws `value` from `body`, with the rules of `options`
/// (`--variant …`, `--house …`).
fn after(options: &str, body: &str, value: &str) -> (String, String) {
    let mut c = C::setup_with(options, &pos(body));
    c.roll(value);
    (c.colour("S"), c.colour("W"))
}

#[test]
fn safe_blocks_stops_a_pair_taking_a_pair() {
    let (s, w) = after("", FOREIGN_PAIR, "3");
    assert_eq!(
        (s.as_str(), w.as_str()),
        ("N.r3 x2, home 0, wait 2", "home 0, wait 4")
    );
    let (s, w) = after("--variant safe_blocks", FOREIGN_PAIR, "3");
    assert_eq!(s, "N.r6 x2, home 0, wait 2", "the 3 is forfeited");
    assert_eq!(w, "N.r3 x2, home 0, wait 2");
    // A lone piece is as the castles leave it: captured on a plain square.
    let (_, w) = after(
        "--variant safe_blocks",
        "implement cowries / S: E.l1, home 3 / W: E.l4",
        "3",
    );
    assert_eq!(w, "home 0, wait 4");
}

/// With castle_function=shared an opponent lands on a safe unit and captures nothing: the two
/// pairs then share a plain square, which the invariants and the position format accept.
#[test]
fn a_safe_pair_is_shared_with_castle_function_shared() {
    let body = format!("{FOREIGN_PAIR} / set castle_function=shared");
    let mut c = C::setup_with("--variant safe_blocks", &pos(&body));
    c.roll("3");
    assert_eq!(c.colour("S"), "N.r3 x2, home 0, wait 2");
    assert_eq!(c.colour("W"), "N.r3 x2, home 0, wait 2");
    assert_eq!(c.lua("hook.check(G)"), "");
    let text = c.export();
    let mut again = C::setup_with("--variant safe_blocks", &text);
    assert_eq!(again.export(), text);
    let refused = C::refused(&text);
    assert!(
        refused.contains("N.r3 holds pieces of both teams"),
        "{refused}"
    );
}

#[test]
fn own_arm_castles_lets_a_foreign_castle_be_taken() {
    let (s, w) = after("", FOREIGN_CASTLE, "4");
    assert_eq!(s, "E.l1, home 3, wait 0", "the castle refuses S");
    assert_eq!(w, "E.l5, home 0, wait 3");
    let (s, w) = after("--variant own_arm_castles", FOREIGN_CASTLE, "4");
    assert_eq!(s, "E.l5, home 3, wait 0");
    assert_eq!(w, "home 0, wait 4");
    // E's own castle still guards E.
    let (s, _) = after(
        "--variant own_arm_castles",
        "implement cowries / S: E.l1, home 3 / E: E.l5",
        "4",
    );
    assert_eq!(s, "E.l1, home 3, wait 0");
}

#[test]
fn both_rules_apply_in_stack_order() {
    // own_arm_castles below, safe_blocks above (the variant): a block is safe anywhere, a lone
    // piece only on its own arm's castles.
    let both = "--variant own_arm_safe_blocks";
    assert_eq!(after(both, FOREIGN_CASTLE, "4").1, "home 0, wait 4");
    assert_eq!(after(both, HOME_PAIR, "3").1, "W.l4 x2, home 0, wait 2");
    assert_eq!(after(both, FOREIGN_PAIR, "3").1, "N.r3 x2, home 0, wait 2");
    // The other order: own_arm_castles above limits every safety below it, the block's too.
    let flipped = "--variant safe_blocks --house own_arm_castles";
    assert_eq!(after(flipped, FOREIGN_CASTLE, "4").1, "home 0, wait 4");
    assert_eq!(after(flipped, HOME_PAIR, "3").1, "W.l4 x2, home 0, wait 2");
    assert_eq!(after(flipped, FOREIGN_PAIR, "3").1, "home 0, wait 4");
    // `rules safe` shows each stack, top first.
    let stack = |options: &str| -> Vec<String> {
        let mut c = C::setup_with(options, &pos(FOREIGN_PAIR));
        let listed = c.run("rules safe");
        listed
            .lines()
            .skip(1)
            .map(|l| l.trim().to_string())
            .collect()
    };
    let (top, below, game) = (
        "rules/chaupar/house/safe_blocks.lua",
        "rules/chaupar/house/own_arm_castles.lua",
        "rules/chaupar/game.lua",
    );
    assert_eq!(stack(both), [top, below, game]);
    assert_eq!(stack(flipped), [below, top, game]);
    // Without safe_blocks the pair in its own arm is taken.
    assert_eq!(
        after("--variant own_arm_castles", HOME_PAIR, "3").1,
        "home 0, wait 4"
    );
}

#[test]
fn the_moves_listed_are_the_stacked_rules() {
    // Long dice: with 2 1 1 S's pair on N.r6 takes W's pair on N.r3 with 1+2, unless blocks
    // are safe; the forced-play search (§8) offers the rest alike.
    let body = "throw 2 1 1 / S: N.r6 x2, N.m8 / W: N.r3 x2, N.r1";
    let plain = C::setup_with("", &pos(body)).moves();
    assert!(
        plain.contains(&"move N.r6 x2 1+2 to N.r3".to_string()),
        "{plain:?}"
    );
    let mut c = C::setup_with("--variant own_arm_safe_blocks", &pos(body));
    let kept: Vec<String> = plain
        .into_iter()
        .filter(|m| !m.ends_with("to N.r3"))
        .collect();
    assert_eq!(c.moves(), kept);
    // The view asks the stacked hook only where a house rule overrides it.
    let asks = "require('chaupar.moves').view(G, require('chaupar.rules').read(G)).safe";
    assert_eq!(c.lua(asks), "true");
    assert_eq!(C::setup_with("", &pos(body)).lua(asks), "false");
    let listed = c.run("moves");
    assert!(
        listed.contains("move N.r6 x2 1+1+2 to N.r2") && !listed.contains("to N.r3"),
        "{listed}"
    );
}

/// The shipped rules with more Chaupar house rules and variants (file name, text).
fn chaupar_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_dir(&common::rules(), &dir.path().join("rules"));
    for (name, text) in files {
        std::fs::write(dir.path().join("rules/chaupar").join(name), text).unwrap();
    }
    dir
}

#[test]
fn loading_says_when_two_house_rules_on_safe_cannot_both_apply() {
    let dir = chaupar_with(&[
        (
            "house/nowhere_safe.lua",
            "return { name = \"nowhere_safe\", replaces = { \"safe\" },\n  hooks = { safe = function(base, sw, o, q, k) return false end } }\n",
        ),
        (
            "house/fortress.lua",
            "return { name = \"fortress\", conflicts = { \"safe_blocks\" },\n  hooks = { safe = function(base, sw, o, q, k) return k >= 3 or base(sw, o, q, k) end } }\n",
        ),
        (
            "variants/below.toml",
            "game = \"chaupar\"\nhouse = [\"safe_blocks\", \"nowhere_safe\"]\n",
        ),
        (
            "variants/above.toml",
            "game = \"chaupar\"\nhouse = [\"nowhere_safe\", \"safe_blocks\"]\n",
        ),
        (
            "variants/clash.toml",
            "game = \"chaupar\"\nhouse = [\"safe_blocks\", \"fortress\"]\n",
        ),
    ]);
    let mut r = repl(&dir.path().join("rules"));
    let e = fails(&mut r, "new chaupar --variant below");
    assert!(
        e.contains("house/nowhere_safe.lua:2")
            && e.contains("'safe_blocks' below it")
            && e.contains("house/safe_blocks.lua:10"),
        "{e}"
    );
    let e = fails(&mut r, "new chaupar --variant clash");
    assert!(
        e.contains("house/fortress.lua") && e.contains("conflicts with 'safe_blocks'"),
        "{e}"
    );
    // A rule above one that replaces the hook still applies: blocks are safe, nothing else.
    let after = run(
        &mut r,
        &[
            &format!("setup chaupar --variant above {}", pos(FOREIGN_PAIR)),
            "roll 3",
            "position",
        ],
    );
    assert!(
        after.contains("S: N.r6 x2, home 0, wait 2\n")
            && after.contains("W: N.r3 x2, home 0, wait 2\n"),
        "{after}"
    );
    run(
        &mut r,
        &[
            &format!("setup chaupar --variant above {}", pos(FOREIGN_CASTLE)),
            "roll 4",
        ],
    );
    assert!(run(&mut r, &["position"]).contains("W: home 0, wait 4\n"));
}

#[test]
fn sim_and_bench_run_the_stacked_rules() {
    let dir = chaupar_with(&[
        (
            "house/probe.lua",
            "return { name = \"probe\",\n  hooks = { safe = function(base, sw, o, q, k) error(\"probe: safe asked\", 0) end } }\n",
        ),
        (
            "variants/probe.toml",
            "game = \"chaupar\"\nhouse = [\"probe\"]\n",
        ),
    ]);
    let runs = [
        &[
            "sim",
            "chaupar",
            "--variant",
            "probe",
            "--games",
            "1",
            "--jobs",
            "1",
        ][..],
        &[
            "bench",
            "chaupar",
            "--variant",
            "probe",
            "--rounds",
            "1",
            "--seconds",
            "1",
        ],
        &[
            "sim", "chaupar", "--house", "probe", "--games", "1", "--jobs", "1",
        ],
    ];
    for args in runs {
        let out = Command::new(env!("CARGO_BIN_EXE_tortuga"))
            .arg("--rules")
            .arg(dir.path().join("rules"))
            .args(args)
            .output()
            .expect("tortuga runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("probe: safe asked"),
            "{args:?}: {err}"
        );
    }
}
