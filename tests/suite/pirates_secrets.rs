//! The golden galleon is a kernel secret (spec §4, issue 12 item 2): three games that differ
//! only in which galleon S1 chose, played by the same random moves, show P1 the same board,
//! position, log and options at every step until the reveal; after it everyone sees.

use crate::common;
use crate::pirates;

use std::collections::BTreeSet;

use tortuga::kernel::Value;
use tortuga::repl::Repl;
use tortuga::session::Game;

/// What P1 can read now: the board, the position, the log and the options.
fn pirate_view(repl: &mut Repl) -> String {
    common::run(repl, &["as P1"]);
    let out = ["show", "position", "log", "moves"]
        .iter()
        .map(|c| repl.handle_line(c).unwrap_or_else(|e| format!("{e:#}")))
        .collect::<Vec<_>>()
        .join("\n");
    common::run(repl, &["as referee"]);
    out
}

fn revealed(repl: &mut Repl) -> bool {
    common::run(repl, &["lua G:get('gold_rev')"]) == "true"
}

#[test]
fn no_pirate_output_before_the_reveal_depends_on_the_golden_galleon() {
    for seed in 0..3 {
        let mut games: Vec<Repl> = ["G1", "G2", "G3"]
            .iter()
            .map(|g| {
                let mut r = common::repl(&common::rules());
                common::run(
                    &mut r,
                    &[
                        &format!("new pirates --variant author --seed {seed}"),
                        &format!("play {g}"),
                    ],
                );
                r
            })
            .collect();
        let mut steps = 0;
        while steps < 400 && !games.iter_mut().any(revealed) {
            let views: Vec<String> = games.iter_mut().map(pirate_view).collect();
            assert_eq!(views[0], views[1], "seed {seed} step {steps}");
            assert_eq!(views[0], views[2], "seed {seed} step {steps}");
            for g in &mut games {
                common::run(g, &["auto 1"]);
            }
            steps += 1;
        }
        assert!(steps > 20, "seed {seed}: too short to show anything");
        let mut g = common::repl(&common::rules());
        common::run(
            &mut g,
            &[
                &format!("new pirates --variant author --seed {seed}"),
                "play G2",
                "as P1",
            ],
        );
        assert!(common::run(&mut g, &["position"]).contains("golden hidden"));
        let e = common::fails(&mut g, "lua G:secret_get('golden')");
        assert!(!e.is_empty());
    }
}

/// The piece ids a bot's resampling gives the golden secret for P1 over many seeds.
fn resampled_golden(game: &Game) -> BTreeSet<i64> {
    (0..40)
        .map(|seed| {
            let d = game.determinize(2, seed).expect("determinize for P1");
            d.with_state(|s| match &s.secrets["golden"].value {
                Value::Int(p) => *p,
                v => panic!("golden is a piece id, not {v:?}"),
            })
        })
        .collect()
}

#[test]
fn a_sunk_galleon_is_never_resampled_as_the_golden_one() {
    // The default variant, author.
    let rules = common::load("pirates", &[]);
    let mut game = Game::new(rules, 2, 1).expect("setup");
    game.import(&pirates::pos(
        "turn P1 / weather wind N / G1@(6,5)h2 / G2*@Testport / G3@(12,2) / B1@(7,6)",
        "author",
        "S1=spain P1=pirate",
    ))
    .expect("position");
    let galleons: Vec<i64> = game.with_state(|s| {
        s.pieces()
            .filter(|(_, p)| p.kind == "galleon")
            .map(|(id, _)| id.into())
            .collect()
    });
    assert_eq!(resampled_golden(&game), galleons.iter().copied().collect());
    let fire = game
        .labels()
        .unwrap()
        .iter()
        .position(|l| l == "fire B1 G1")
        .expect("B1 may fire at G1");
    game.apply(fire).unwrap();
    game.resolve_chance(Some(&["N"])).unwrap();
    assert!(!game.with_state(|s| s.exists(galleons[0])), "G1 is sunk");
    assert_eq!(
        resampled_golden(&game),
        galleons[1..].iter().copied().collect(),
        "G2 or G3, never the sunk G1"
    );
}

/// Everything a pirate reads during a fight, as P1: what each command prints, then the board,
/// position, log, options and the save file.
fn fight_seen_by_p1(golden: &str, dir: &std::path::Path) -> Vec<String> {
    let ships = ["G1", "G2", "G3"].map(|g| {
        if g == golden {
            format!("{g}*")
        } else {
            g.into()
        }
    });
    let mut g = pirates::Pi::at(&format!(
        "turn P1 / weather wind N / {}@(6,5) / {}@(9,5) / {}@(12,2) / B1@(7,6) / B2@(8,6) / B3@(10,6)",
        ships[0], ships[1], ships[2]
    ));
    g.run("as P1");
    let mut seen = Vec::new();
    let save = dir.join(golden);
    std::fs::create_dir(&save).unwrap();
    let save = save.join("fight.sav");
    for cmd in [
        "play fire B1 G1",
        "roll N",
        "show",
        "play end",
        "as referee",
    ] {
        seen.push(format!("{cmd}: {}", g.run(cmd)));
    }
    // Spain's turn passes without a shot; the pirates fire a salvo at G2 (two holes).
    for cmd in ["roll calm", "play end", "roll N", "as P1"] {
        g.run(cmd);
    }
    for cmd in [
        "play salvo B2,B3 G2",
        "roll E",
        "show",
        "position",
        "log",
        "moves",
    ] {
        seen.push(format!("{cmd}: {}", g.run(cmd)));
    }
    g.run(&format!("save {}", save.display()));
    assert!(
        g.ship("G1").unwrap().contains("holes=1") && g.ship("G2").unwrap().contains("holes=2"),
        "both hits landed"
    );
    assert!(g.export().contains("golden hidden"), "not yet revealed");
    seen.push(std::fs::read_to_string(&save).unwrap());
    seen
}

/// A hit on a galleon reads the same to a pirate whether or not it is golden, and so do the
/// board, position, log, options and the save a pirate writes (§4, issue 12 item 2).
#[test]
fn a_hit_and_a_pirate_s_save_read_the_same_whichever_galleon_is_golden() {
    let dir = tempfile::tempdir().unwrap();
    let views: Vec<Vec<String>> = ["G1", "G2", "G3"]
        .iter()
        .map(|g| fight_seen_by_p1(g, dir.path()))
        .collect();
    for (i, line) in views[0].iter().enumerate() {
        assert_eq!(line, &views[1][i], "G1 golden vs G2 golden");
        assert_eq!(line, &views[2][i], "G1 golden vs G3 golden");
    }
    assert!(
        views[0].iter().any(|l| l.contains("G1 hit")),
        "{:#?}",
        views[0]
    );
}

/// A searching bot playing P1 decides from P1's view: in two positions that differ only in
/// which galleon is golden (and the golden one decides the game), it makes the same choice
/// with the same seed (§4, issue 12 item 2).
#[test]
fn a_searching_bot_chooses_the_same_whichever_galleon_is_golden() {
    use tortuga::sim::bots::{Bot, BotSpec, Budget};
    // The default variant, author.
    let rules = common::load("pirates", &[]);
    let choices: Vec<String> = ["G1*@(6,5) / G2@(9,5)", "G1@(6,5) / G2*@(9,5)"]
        .iter()
        .map(|galleons| {
            let mut game = Game::new(rules.clone(), 2, 1).expect("setup");
            game.import(&pirates::pos(
                &format!("turn P1 / weather wind N / {galleons} / G3@(12,2) / B1@(7,6) / B2@(8,6) / B3@(10,6)"),
                "author",
                "S1=spain P1=pirate",
            ))
            .expect("position");
            let mut bot = Bot::new(BotSpec::Mcts(Budget::Iterations(100)), 7, 2);
            let i = bot.choose(&mut game).expect("a choice");
            game.label(i).unwrap()
        })
        .collect();
    assert_eq!(choices[0], choices[1]);
}

/// A seat cannot choose an outcome it may not see: with the golden galleon drawn by the engine,
/// the pirate's `roll G2` is refused and the draw still waits; Spain, who sees it, may force it.
#[test]
fn a_seat_cannot_force_a_draw_hidden_from_it() {
    let mut r = common::repl(&common::rules());
    common::run(
        &mut r,
        &["new pirates --seed 5 --set golden_choice=random", "as P1"],
    );
    let e = common::fails(&mut r, "roll G2");
    assert!(e.contains("'golden' is hidden from P1"), "{e}");
    assert!(common::run(&mut r, &["show"]).contains("waiting for golden"));
    common::run(&mut r, &["as S1", "roll G2", "as referee"]);
    assert_eq!(common::run(&mut r, &["lua G:secret_get('golden')"]), "2");
}

/// With `--seed N` the secret streams derive from N, so a seat's save must not say N:
/// `new pirates --seed N` and one `roll` would deal the golden galleon again.
#[test]
fn a_seats_save_holds_no_seed() {
    let dir = tempfile::tempdir().unwrap();
    let (mine, whole) = (dir.path().join("p1.save"), dir.path().join("all.save"));
    let mut r = common::repl(&common::rules());
    common::run(
        &mut r,
        &[
            "new pirates --seed 5 --set golden_choice=random",
            "roll",
            &format!("save {}", whole.display()),
            "as P1",
            &format!("save {}", mine.display()),
        ],
    );
    let seeds = |p: &std::path::Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("seed") || l.starts_with("secret-seed"))
            .count()
    };
    assert_eq!(seeds(&mine), 0, "the pirate's save");
    assert!(seeds(&whole) >= 1, "the referee's save restores the game");
    // a seed written into a seat's save by hand is refused, naming its line
    let text = std::fs::read_to_string(&mine).unwrap();
    let at = text.lines().position(|l| l.starts_with("seats ")).unwrap() + 2;
    std::fs::write(
        &mine,
        text.replacen("\nseats 2\n", "\nseats 2\nseed 5\n", 1),
    )
    .unwrap();
    let e = common::fails(&mut r, &format!("load {}", mine.display()));
    assert!(
        e.contains(&format!("p1.save:{at}: a seed in a save seen by P1")),
        "{e}"
    );
}

/// Undoing a step hidden from the viewer would reopen it: Spain's choice of the golden galleon
/// stays made when the pirate types `undo`, and the referee may still take it back.
#[test]
fn a_seat_cannot_undo_a_step_hidden_from_it() {
    let mut r = common::repl(&common::rules());
    common::run(&mut r, &["new pirates --seed 5", "play G2", "as P1"]);
    let before = common::run(&mut r, &["log"]);
    let e = common::fails(&mut r, "undo");
    assert!(e.contains("hidden from P1"), "{e}");
    assert_eq!(common::run(&mut r, &["log"]), before, "nothing undone");
    common::fails(&mut r, "redo");
    let out = common::run(&mut r, &["as referee", "undo"]);
    assert!(out.contains("choose the golden galleon"), "{out}");
}
