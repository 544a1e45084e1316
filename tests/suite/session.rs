//! Sessions: determinism, undo/redo, save/load/replay, variants and house rules, reload.

use crate::common;

use common::{fails, fingerprint, fixtures, repl, run, scratch_rules};
use tortuga::repl::Repl;

fn log(r: &mut Repl) -> String {
    run(r, &["log"])
}

const GAME: &[&str] = &[
    "new race --seed 11",
    "roll",
    "play move",
    "roll",
    "play draw",
    "roll",
    "roll 6",
    "play stay",
    "auto 20",
];

#[test]
fn same_seed_and_decisions_give_the_same_game() {
    let mut a = repl(&fixtures());
    let mut b = repl(&fixtures());
    run(&mut a, GAME);
    run(&mut b, GAME);
    assert_eq!(log(&mut a), log(&mut b));
    assert_eq!(fingerprint(&a), fingerprint(&b));
    let mut c = repl(&fixtures());
    run(
        &mut c,
        &[
            "new race --seed 12",
            "roll",
            "play move",
            "roll",
            "play draw",
            "roll",
        ],
    );
    assert_ne!(
        log(&mut a),
        log(&mut c),
        "another seed should give other draws"
    );
}

#[test]
fn undo_and_redo_restore_exact_states() {
    let mut r = repl(&fixtures());
    run(&mut r, &["new race --seed 5", "roll 2"]);
    let before = fingerprint(&r);
    run(&mut r, &["play move"]);
    let after = fingerprint(&r);
    run(&mut r, &["undo"]);
    assert_eq!(before, fingerprint(&r));
    run(&mut r, &["redo"]);
    assert_eq!(after, fingerprint(&r));
    // Undo a drawn roll, roll again: the stream was rewound, so the same die comes up.
    run(&mut r, &["roll"]);
    let rolled = fingerprint(&r);
    run(&mut r, &["undo", "roll"]);
    assert_eq!(rolled, fingerprint(&r));
    assert!(fails(&mut r, "redo").contains("nothing to redo"));
    while r.handle_line("undo").is_ok() {}
    assert!(fails(&mut r, "undo").contains("nothing to undo"));
}

#[test]
fn save_then_load_gives_the_same_state() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.sav");
    let file = file.to_str().unwrap();
    let mut a = repl(&fixtures());
    run(&mut a, GAME);
    run(&mut a, &[&format!("save {file}")]);
    let mut b = repl(&fixtures());
    let out = run(&mut b, &[&format!("load {file}")]);
    assert!(out.contains("loaded"), "{out}");
    // the board comes with it, as `show` draws it
    let board = run(&mut a, &["show"]);
    assert!(out.ends_with(&board), "{out}\n--- show:\n{board}");
    let again = run(&mut b, &[&format!("replay {file}")]);
    assert!(again.ends_with(&board), "{again}");
    assert_eq!(fingerprint(&a), fingerprint(&b));
    assert_eq!(log(&mut a), log(&mut b));
    // Nothing but the save file is left in the folder: the write went through a renamed temp file.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn bad_save_files_are_refused_and_the_game_survives() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.sav");
    let file = path.to_str().unwrap().to_string();
    let mut r = repl(&fixtures());
    run(
        &mut r,
        &[
            "new race --seed 2",
            "roll 3",
            "play move",
            &format!("save {file}"),
        ],
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let before = fingerprint(&r);

    std::fs::write(&path, &text[..text.len() - 8]).unwrap();
    assert!(fails(&mut r, &format!("load {file}")).contains("truncated"));

    std::fs::write(&path, text.replacen("tortuga-save 1", "tortuga-save 9", 1)).unwrap();
    assert!(fails(&mut r, &format!("load {file}")).contains("newer Tortuga"));

    std::fs::write(&path, text.replacen("seats 2", "seats two", 1)).unwrap();
    let e = fails(&mut r, &format!("load {file}"));
    assert!(e.contains("game.sav:3: bad seat count"), "{e}");

    std::fs::write(&path, "hello\n").unwrap();
    assert!(fails(&mut r, &format!("load {file}")).contains("not a Tortuga save file"));
    assert!(fails(&mut r, "load /no/such/file").contains("/no/such/file"));
    assert_eq!(before, fingerprint(&r), "a failed load must keep the game");
}

#[test]
fn changed_rules_refuse_load_and_replay_reports_the_divergence() {
    let dir = scratch_rules();
    let rules = dir.path().join("rules");
    let save = dir.path().join("g.sav");
    let save = save.to_str().unwrap();
    let mut r = Repl::new(&rules, false);
    run(
        &mut r,
        &[
            "new race --seed 4",
            "roll 3",
            "play move",
            "roll 2",
            "play move",
            &format!("save {save}"),
        ],
    );
    // Rename an option: the save's second `play move` no longer fits.
    let game = rules.join("race/game.lua");
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(&game, text.replace("\"move\"", "\"go\"")).unwrap();
    let e = fails(&mut r, &format!("load {save}"));
    assert!(
        e.contains("rules changed") && e.contains("race/game.lua"),
        "{e}"
    );
    let out = run(&mut r, &[&format!("replay {save}")]);
    assert!(out.contains("diverges at step 2 (play move)"), "{out}");
    assert!(out.contains("'move' is not offered here"), "{out}");
}

/// A game of race on scratch rules, saved after `steps`: the folder, the save's path, the REPL.
fn saved_race(steps: &[&str]) -> (tempfile::TempDir, String, Repl) {
    let dir = scratch_rules();
    let save = dir.path().join("g.sav").to_str().unwrap().to_string();
    let mut r = Repl::new(&dir.path().join("rules"), false);
    run(&mut r, &["new race --seed 4"]);
    run(&mut r, steps);
    run(&mut r, &[&format!("save {save}")]);
    (dir, save, r)
}

#[test]
fn a_save_loads_on_an_identical_copy_of_the_rules_under_another_name() {
    let (dir, save, r) = saved_race(&["roll 3", "play move"]);
    let moved = dir.path().join("elsewhere/my-rules");
    common::copy_dir(&dir.path().join("rules"), &moved);
    let mut other = Repl::new(&moved, false);
    let out = run(&mut other, &[&format!("load {save}")]);
    assert!(out.contains("loaded") && out.contains("2 steps"), "{out}");
    assert_eq!(fingerprint(&r), fingerprint(&other));
}

#[test]
fn a_strict_load_whose_steps_no_longer_fit_keeps_the_current_game() {
    let (_dir, save, mut r) = saved_race(&["roll 3", "play move", "roll 2", "play move"]);
    let text = std::fs::read_to_string(&save).unwrap();
    std::fs::write(&save, text.replacen("play \"move\"", "play \"fly\"", 1)).unwrap();
    run(&mut r, &["new race --seed 9", "roll 1"]);
    let before = fingerprint(&r);
    let e = fails(&mut r, &format!("load {save}"));
    assert!(
        e.contains("step 2 (play fly) no longer fits") && e.contains("kept"),
        "{e}"
    );
    assert_eq!(before, fingerprint(&r), "the current game is kept");
    let out = run(&mut r, &[&format!("replay {save}")]);
    assert!(out.contains("diverges at step 2"), "{out}");
}

#[test]
fn rules_names_the_rules_folder_in_use() {
    let dir = scratch_rules();
    let folder = dir.path().join("rules").canonicalize().unwrap();
    let mut r = Repl::new(&dir.path().join("rules"), false);
    let out = run(&mut r, &["rules"]);
    assert!(
        out.starts_with(&format!("rules folder: {}\n", folder.display()))
            && out.contains("no game yet"),
        "{out}"
    );
    let out = run(&mut r, &["new race --seed 1", "rules"]);
    assert!(
        out.contains(&format!("\nrules folder: {}\nfiles:\n", folder.display())),
        "{out}"
    );
}

#[test]
fn variants_and_stacked_house_rules() {
    let mut r = repl(&fixtures());
    run(
        &mut r,
        &["new race --variant long --seed 1", "roll 6", "play move"],
    );
    assert_eq!(
        run(&mut r, &["position"]),
        "13,1",
        "double_six: a six moves 12"
    );
    let stack = run(&mut r, &["rules advance_runner"]);
    assert_eq!(
        stack,
        "advance_runner (top first):\n  rules/race/house/double_six.lua\n  rules/race/game.lua"
    );
    run(
        &mut r,
        &["new race --set goal=50 --seed 1", "roll 6", "play move"],
    );
    assert_eq!(run(&mut r, &["position"]), "7,1");
    assert!(fails(&mut r, "new race --set goal=1").contains("out of range"));
    assert!(fails(&mut r, "new race --set goals=3").contains("no switch 'goals'"));
    assert!(fails(&mut r, "new race --variant nope").contains("variants: long"));
}

#[test]
fn house_rules_stack_in_variant_order() {
    let dir = scratch_rules();
    let rules = dir.path().join("rules");
    std::fs::write(
        rules.join("race/variants/both.toml"),
        "game = \"race\"\nhouse = [\"double_six\", \"slow\"]\n",
    )
    .unwrap();
    let mut r = Repl::new(&rules, false);
    // slow (top) turns the 6 into 5 before double_six sees it.
    run(
        &mut r,
        &[
            "new race --variant both --set goal=30 --seed 1",
            "roll 6",
            "play move",
        ],
    );
    assert_eq!(run(&mut r, &["position"]), "6,1");
    std::fs::write(
        rules.join("race/variants/both.toml"),
        "game = \"race\"\nhouse = [\"slow\", \"double_six\"]\n",
    )
    .unwrap();
    run(
        &mut r,
        &[
            "new race --variant both --set goal=30 --seed 1",
            "roll 6",
            "play move",
        ],
    );
    assert_eq!(run(&mut r, &["position"]), "12,1");
}

#[test]
fn a_variant_with_a_typo_names_file_line_and_column() {
    let dir = scratch_rules();
    let rules = dir.path().join("rules");
    std::fs::write(
        rules.join("race/variants/bad.toml"),
        "game = \"race\"\n[switches]\ngaol = 3\n",
    )
    .unwrap();
    let mut r = Repl::new(&rules, false);
    let e = fails(&mut r, "new race --variant bad");
    assert!(
        e.starts_with(
            "rules/race/variants/bad.toml:3:1: unknown switch 'gaol' (did you mean goal?)"
        ),
        "{e}"
    );
}

/// A race of three steps (runner at 5) on a scratch copy of the rules, and its game.lua.
fn race_to_reload() -> (tempfile::TempDir, Repl, std::path::PathBuf) {
    let dir = scratch_rules();
    let rules = dir.path().join("rules");
    let mut r = Repl::new(&rules, false);
    run(
        &mut r,
        &["new race --seed 9", "roll 4", "play move", "roll 1"],
    );
    (dir, r, rules.join("race/game.lua"))
}

#[test]
fn reload_replays_the_session_on_edited_rules() {
    let (_dir, mut r, game) = race_to_reload();
    assert_eq!(run(&mut r, &["position"]), "5,1");
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        text.replace("runner_cell(G, seat) + n", "runner_cell(G, seat) + 2 * n"),
    )
    .unwrap();
    let out = run(&mut r, &["reload"]);
    assert!(out.contains("replayed 3 steps"), "{out}");
    assert_eq!(run(&mut r, &["position"]), "9,1");
}

#[test]
fn a_reload_whose_steps_no_longer_fit_keeps_the_game_unless_told() {
    let (_dir, mut r, game) = race_to_reload();
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        text.replace(r#"{ "move", "stay" }"#, r#"{ "walk", "stay" }"#),
    )
    .unwrap();
    let e = fails(&mut r, "reload");
    assert!(
        e.contains("step 2 (play move) no longer fits") && e.contains("the game is unchanged"),
        "{e}"
    );
    assert_eq!(run(&mut r, &["position"]), "5,1");
    // Fixing the file brings the whole game back.
    std::fs::write(&game, &text).unwrap();
    assert!(run(&mut r, &["reload"]).contains("replayed 3 steps"));
    assert_eq!(run(&mut r, &["position"]), "5,1");
    // Or keep the steps that still fit.
    std::fs::write(
        &game,
        text.replace(r#"{ "move", "stay" }"#, r#"{ "walk", "stay" }"#),
    )
    .unwrap();
    let out = run(&mut r, &["reload keep"]);
    assert!(out.contains("kept the first 1 steps"), "{out}");
    assert_eq!(run(&mut r, &["position"]), "1,1");
}

#[test]
fn watch_on_reloads_the_rules_when_a_file_is_saved() {
    let (_dir, mut r, game) = race_to_reload();
    assert_eq!(run(&mut r, &["watch"]), "watch off");
    let text = std::fs::read_to_string(&game).unwrap();
    let faster = text.replace("runner_cell(G, seat) + n", "runner_cell(G, seat) + 2 * n");
    assert_ne!(faster, text);
    let on = run(&mut r, &["watch on"]);
    assert!(
        on.starts_with("watch on: a file saved under race/ or lib/"),
        "{on}"
    );
    assert!(r.watched().is_none(), "nothing changed yet");
    // An editor's swap file changes while a file is edited, before it is saved.
    std::fs::write(game.with_file_name(".game.lua.swp"), "edited").unwrap();
    assert!(r.watched().is_none(), "a swap file is not the rules");

    std::fs::write(&game, &faster).unwrap();
    let out = r.watched().expect("the saved file is seen").unwrap();
    assert_eq!(
        out.lines().take(2).collect::<Vec<_>>(),
        ["watch: race/game.lua changed", "reloaded; replayed 3 steps"]
    );
    assert_eq!(run(&mut r, &["position"]), "9,1");
    assert!(r.watched().is_none(), "a change is reloaded once");

    // A save that fails to load changes nothing, and says where it fails.
    std::fs::write(&game, format!("{faster}\nbroken(")).unwrap();
    let e = r.watched().expect("seen").unwrap_err().to_string();
    assert!(
        e.starts_with("watch: race/game.lua changed: ") && e.contains("race/game.lua:"),
        "{e}"
    );
    assert_eq!(run(&mut r, &["position"]), "9,1");

    // A new file in the game's folder is a change too; `watch off` stops looking.
    std::fs::write(&game, &faster).unwrap();
    std::fs::write(game.with_file_name("notes.lua"), "return {}").unwrap();
    let out = r.watched().expect("seen").unwrap();
    assert!(
        out.starts_with("watch: race/game.lua, race/notes.lua changed\nreloaded"),
        "{out}"
    );
    assert_eq!(run(&mut r, &["watch off"]), "watch off");
    std::fs::write(&game, &text).unwrap();
    assert!(r.watched().is_none(), "off");
    assert_eq!(run(&mut r, &["position"]), "9,1");
}

#[test]
fn forced_outcomes_are_checked() {
    let mut r = repl(&fixtures());
    run(&mut r, &["new race --seed 1"]);
    assert!(fails(&mut r, "roll 7").contains("7 is not a face of die"));
    assert!(fails(&mut r, "roll 1 2").contains("die needs 1 value, got 2"));
    assert!(fails(&mut r, "roll x").contains("'x' is not a number"));
    run(&mut r, &["roll 2", "play draw"]);
    assert!(fails(&mut r, "roll joker").contains("bag 'cards' holds no 'joker'"));
    run(&mut r, &["roll minus"]);
    assert_eq!(run(&mut r, &["lua G:bag_items('cards')"]), "{plus, plus}");
    assert!(fails(&mut r, "play move").contains("waits for a chance event"));
}

#[test]
fn bad_commands_get_one_line_errors() {
    let mut r = repl(&fixtures());
    assert!(fails(&mut r, "show").contains("no game yet"));
    assert!(fails(&mut r, "frobnicate").contains("unknown command 'frobnicate'"));
    assert!(fails(&mut r, "shwo").contains("a similar command exists: 'show'"));
    assert!(fails(&mut r, "new").contains("Usage: new <GAME>"));
    assert!(fails(&mut r, "new chess").contains("no game 'chess'"));
    run(&mut r, &["new race --seed 1", "roll 1"]);
    assert!(fails(&mut r, "new race --colour red").contains("unexpected argument '--colour'"));
    assert!(fails(&mut r, "play fly").contains("'fly' is not a legal option"));
    assert!(
        fails(&mut r, "play 9").contains("there is no option 9: the options are numbered 1 to")
    );
    assert!(fails(&mut r, "setup race 1,99").contains("cell '99' is not on the path"));
    assert!(fails(&mut r, "help nothing").contains("unknown command 'nothing'"));
    run(&mut r, &["play 1"]);
}

#[test]
fn secrets_show_only_to_their_seats() {
    let mut r = repl(&fixtures());
    run(&mut r, &["new race --seed 1"]);
    assert!(run(&mut r, &["show A"]).contains("plan: north"));
    assert!(!run(&mut r, &["show B"]).contains("plan"));
    assert!(!run(&mut r, &["show"]).contains("plan"));
}

#[test]
fn batch_mode_stops_at_the_first_failing_line() {
    let mut r = repl(&fixtures());
    let mut out = Vec::new();
    let err = r
        .run_script(
            "new race --seed 1\nroll 2\n# a comment\nplay sideways\nplay move\n",
            |o| out.push(o.to_string()),
        )
        .unwrap_err();
    assert_eq!(err.0, 4);
    assert!(
        err.1.contains("'sideways' is not a legal option"),
        "{}",
        err.1
    );
}

#[test]
fn reseed_restarts_the_streams() {
    let rounds: Vec<&str> = ["play stay", "roll"].repeat(10);
    let tail = |seed: u64, reseed: Option<u64>| {
        let mut r = repl(&fixtures());
        run(&mut r, &[&format!("new race --seed {seed}"), "roll"]);
        if let Some(n) = reseed {
            r.session
                .as_mut()
                .unwrap()
                .game
                .with_state_mut(|s| s.reseed(n));
        }
        run(&mut r, &rounds);
        run(&mut r, &["log 20"])
    };
    assert_ne!(
        tail(1, None),
        tail(2, None),
        "different seeds draw differently"
    );
    assert_eq!(
        tail(1, Some(99)),
        tail(2, Some(99)),
        "the same reseed draws alike"
    );
}

#[test]
fn a_position_format_the_game_does_not_declare_is_refused_with_those_it_has() {
    let mut r = repl(&fixtures());
    run(&mut r, &["new nim --seed 1"]);
    assert_eq!(run(&mut r, &["position"]), "7");
    assert_eq!(run(&mut r, &["position stones"]), "o o o o o o o");
    assert!(
        fails(&mut r, "position id").contains(
            "position: unknown format 'id' (nim offers: stones (the pile drawn as stones))"
        )
    );
    assert!(
        run(&mut r, &["rules"])
            .contains("position formats (besides its own):\n  stones  the pile drawn as stones\n")
    );
    // A game that does not declare its formats leaves the format to its export hook.
    run(&mut r, &["new race --seed 1"]);
    assert_eq!(run(&mut r, &["position whatever"]), "1,1");
}

#[test]
fn lua_g_and_help_lua_list_calls_that_g_has() {
    let mut r = repl(&fixtures());
    run(&mut r, &["new race --seed 1"]);
    let listed = run(&mut r, &["lua G"]);
    let help = run(&mut r, &["help lua"]);
    let calls: Vec<&str> = listed
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("Globals") && !l.starts_with("  math"))
        .flat_map(|l| l.split_once(": ").map_or(l, |(_, c)| c).split_whitespace())
        .collect();
    assert!(calls.len() > 40 && calls.contains(&"bag_items"), "{listed}");
    for call in calls {
        assert!(
            help.contains(&format!(" G:{call}")),
            "help lua lists G:{call}"
        );
        assert_eq!(
            run(&mut r, &[&format!("lua type(G.{call})")]),
            "function",
            "G:{call} is listed"
        );
    }
}
