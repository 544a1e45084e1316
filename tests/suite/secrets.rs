//! Hidden information end to end: every path by which a seat learns something is given a
//! viewer, and what that viewer may not see cannot be read there (issue: "the kernel keeps
//! its promises"). The fixture game `vault` deals each seat a card from a hidden deck by a
//! secret draw, lets A bid in secret and B call.

use crate::common;

use std::rc::Rc;

use common::{fails, fixtures, repl, rules, run};
use tortuga::kernel::Value;
use tortuga::repl::Repl;
use tortuga::script::{LoadOptions, Rules};
use tortuga::session::Game;

/// A vault game at A's bid: A holds 4, B holds 2.
fn dealt() -> Repl {
    let mut r = repl(&fixtures());
    run(&mut r, &["new vault --seed 5", "roll 4", "roll 2"]);
    r
}

fn secret(r: &Repl, key: &str) -> Option<Value> {
    r.session
        .as_ref()
        .unwrap()
        .game
        .with_state(|s| s.secrets.get(key).map(|x| x.value.clone()))
}

#[test]
fn the_lua_command_cannot_read_another_seats_secret() {
    let mut r = dealt();
    run(&mut r, &["as A"]);
    assert_eq!(run(&mut r, &["lua G:secret_get('card1')"]), "4");
    let e = fails(&mut r, "lua G:secret_get('card2')");
    assert!(e.contains("lua:1:"), "the error names the place: {e}");
    assert!(e.contains("secret 'card2' is hidden from seat A"), "{e}");
    // The render hook asked for the other seat's board shows nothing of it in A's view.
    let board = run(&mut r, &["lua hook.render(G, 2)"]);
    assert!(!board.contains("B holds"), "{board}");
    assert!(fails(&mut r, "lua G:bag_items('deck')").contains("hidden from seat A"));
    run(&mut r, &["as referee"]);
    assert_eq!(run(&mut r, &["lua G:secret_get('card2')"]), "2");
}

#[test]
fn show_and_position_take_the_viewer() {
    let mut r = dealt();
    run(&mut r, &["as B"]);
    let board = run(&mut r, &["show"]);
    assert!(
        board.contains("B holds 2") && !board.contains("A holds"),
        "{board}"
    );
    assert!(fails(&mut r, "show A").contains("`as referee`"));
    assert_eq!(run(&mut r, &["position"]), "bid 2 B=2");
    run(&mut r, &["as referee"]);
    assert_eq!(run(&mut r, &["position"]), "bid 2 A=4 B=2");
    assert!(run(&mut r, &["show A"]).contains("A holds 4"));
}

#[test]
fn hidden_draws_and_decisions_are_echoed_and_logged_without_their_value() {
    let mut r = repl(&fixtures());
    run(&mut r, &["new vault --seed 5", "as B"]);
    let echo = run(&mut r, &["roll"]);
    let a = string(secret(&r, "card1"));
    assert!(!echo.contains(&a), "B must not see A's card: {echo}");
    assert!(echo.contains("draw: drawn, hidden"), "{echo}");
    let echo = run(&mut r, &["roll"]);
    let b = string(secret(&r, "card2"));
    assert!(
        echo.contains(&format!("you hold {b}")) && !echo.contains("draw "),
        "B sees its own card, in the rules' words: {echo}"
    );
    assert!(echo.contains("A to decide (hidden from you)"), "{echo}");
    assert!(fails(&mut r, "moves").contains("hidden from B"));
    assert!(fails(&mut r, "play high").contains("it is A's decision"));
    run(&mut r, &["as A"]);
    assert!(run(&mut r, &["moves"]).contains("high"));
    let echo = run(&mut r, &["play high"]);
    assert!(echo.contains("played high"), "{echo}");
    run(&mut r, &["as B"]);
    let log = run(&mut r, &["log"]);
    assert!(
        !log.contains("high") && !log.contains(&format!("you hold {a}")),
        "{log}"
    );
    assert!(
        log.contains("A chose") && log.contains(&format!("you hold {b}")),
        "{log}"
    );
    run(&mut r, &["as referee"]);
    let log = run(&mut r, &["log"]);
    assert!(
        log.contains("A: high") && log.contains(&format!("you hold {a}")),
        "{log}"
    );
}

#[test]
fn a_hidden_decisions_options_cannot_be_probed_by_typing_or_completing_them() {
    let mut r = dealt();
    run(&mut r, &["as B"]);
    // A label typed alone plays it only when the viewer sees the decision: for B, an option
    // of A's secret bid and a word that is none are the same unknown command.
    let (high, none) = (fails(&mut r, "high"), fails(&mut r, "zzzz"));
    assert_eq!(high.replace("high", "zzzz"), none);
    assert!(
        r.option_labels().is_empty(),
        "completion offers no hidden option"
    );
    assert!(r.known().labels.is_empty());
    // Values given ahead of a chance event are not checked against a bag hidden from B.
    for item in ["3", "9"] {
        let e = fails(&mut r, &format!("roll {item}"));
        assert!(
            e.contains("bag 'deck' is hidden from this view") && !e.contains("holds no"),
            "{e}"
        );
    }
    run(&mut r, &["as A"]);
    assert_eq!(r.option_labels(), ["low", "high"]);
    assert!(run(&mut r, &["high"]).contains("played high"));
}

fn string(v: Option<Value>) -> String {
    match v {
        Some(Value::Str(s)) => s,
        other => panic!("not a string secret: {other:?}"),
    }
}

#[test]
fn a_seat_cannot_probe_a_hidden_bag_by_forcing_its_draws() {
    let mut r = repl(&fixtures());
    run(&mut r, &["new vault --seed 5", "as B"]);
    let before = common::fingerprint(&r);
    for item in ["4", "9"] {
        let e = fails(&mut r, &format!("roll {item}"));
        assert!(
            e.contains("bag 'deck' is hidden from this view") && !e.contains("holds no"),
            "{e}"
        );
    }
    assert_eq!(before, common::fingerprint(&r));
    run(&mut r, &["as referee", "roll 4"]);
    assert_eq!(secret(&r, "card1"), Some(Value::Str("4".into())));
}

#[test]
fn a_rules_error_reaches_a_seat_without_what_the_seat_may_not_see() {
    let dir = common::scratch_rules();
    let game = dir.path().join("rules/vault/game.lua");
    let text = std::fs::read_to_string(&game).unwrap();
    let text = text.replacen(
        "      local a, b = tonumber(card(G, 1)), tonumber(card(G, 2))",
        "      if option == \"fold\" then error(\"cannot fold against A's \" .. card(G, 1)) end\n      local a, b = tonumber(card(G, 1)), tonumber(card(G, 2))",
        1,
    );
    std::fs::write(&game, text).unwrap();
    let mut r = repl(&dir.path().join("rules"));
    run(
        &mut r,
        &[
            "new vault --seed 5",
            "roll 4",
            "roll 2",
            "play high",
            "as B",
        ],
    );
    let before = common::fingerprint(&r);
    let e = fails(&mut r, "play fold");
    assert!(!e.contains("A's 4"), "B reads A's card in an error: {e}");
    assert!(
        e.contains("not shown in this view") && e.contains("`as referee`"),
        "{e}"
    );
    assert_eq!(before, common::fingerprint(&r));
    run(&mut r, &["as referee"]);
    let e = fails(&mut r, "play fold");
    assert!(
        e.contains("rules/vault/game.lua:") && e.contains("cannot fold against A's 4"),
        "{e}"
    );
}

#[test]
fn a_seats_save_holds_only_its_view_and_cannot_be_loaded_as_the_referees() {
    let dir = tempfile::tempdir().unwrap();
    let seat_save = dir.path().join("b.sav");
    let full = dir.path().join("full.sav");
    let mut r = dealt();
    run(&mut r, &["play high", "as B"]);
    run(&mut r, &[&format!("save {}", seat_save.display())]);
    run(&mut r, &["as referee", &format!("save {}", full.display())]);
    let text = std::fs::read_to_string(&seat_save).unwrap();
    assert!(text.contains("view B\n"), "{text}");
    assert!(!text.contains("secret-seed"), "{text}");
    assert!(!text.contains("draw 4") && !text.contains("high"), "{text}");
    assert!(
        text.contains("chance draw 2 forced"),
        "B's own card: {text}"
    );
    let e = fails(&mut r, &format!("load {}", seat_save.display()));
    assert!(e.contains("holds B's view"), "{e}");
    assert!(e.contains("only the referee's save"), "{e}");
    run(&mut r, &[&format!("load {}", full.display())]);
    assert_eq!(secret(&r, "bid"), Some(Value::Str("high".into())));
}

#[test]
fn the_printed_seed_does_not_predict_secret_draws() {
    // Without --seed, the secret streams get a seed of their own that `new` does not print:
    // a fresh game from the printed seed draws other cards.
    let mut r = repl(&fixtures());
    let out = run(&mut r, &["new vault"]);
    let printed: u64 = out
        .split("(seed ")
        .nth(1)
        .and_then(|t| t.split(')').next())
        .and_then(|n| n.parse().ok())
        .expect("the seed is printed");
    let secret_seed = |r: &Repl| {
        r.session
            .as_ref()
            .unwrap()
            .game
            .with_state(|s| s.secret_seed())
    };
    let mut again = repl(&fixtures());
    run(&mut again, &[&format!("new vault --seed {printed}")]);
    assert_ne!(secret_seed(&r), secret_seed(&again));
    // --seed given by the user sets both: two runs draw alike.
    let cards = |seed: u64| {
        let mut r = repl(&fixtures());
        run(
            &mut r,
            &[&format!("new vault --seed {seed}"), "roll", "roll"],
        );
        (secret(&r, "card1"), secret(&r, "card2"))
    };
    assert_eq!(cards(11), cards(11));
    // The referee's save restores the secret seed of a game started without --seed.
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.sav");
    run(
        &mut r,
        &["roll", "roll", &format!("save {}", save.display())],
    );
    let drawn = (secret(&r, "card1"), secret(&r, "card2"));
    let mut fresh = repl(&fixtures());
    run(&mut fresh, &[&format!("load {}", save.display())]);
    assert_eq!((secret(&fresh, "card1"), secret(&fresh, "card2")), drawn);
}

fn vault_game(seed: u64) -> Game {
    let rules = Rc::new(Rules::load(&fixtures(), "vault", &LoadOptions::default()).unwrap());
    let mut g = Game::new(rules, 2, seed).unwrap();
    g.resolve_chance(Some(&["4"])).unwrap();
    g.resolve_chance(Some(&["2"])).unwrap();
    g
}

#[test]
fn determinize_resamples_only_what_the_seat_may_not_see() {
    let g = vault_game(3);
    let mut theirs = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let d = g.determinize(1, seed).unwrap();
        d.with_state(|s| {
            assert_eq!(s.secrets["card1"].value, Value::Str("4".into()));
            let Value::Str(b) = &s.secrets["card2"].value else {
                panic!()
            };
            assert_ne!(b, "4", "A holds the 4: B cannot");
            let mut all = s.bags["deck"].clone();
            all.push(b.clone());
            all.sort();
            assert_eq!(all, ["1", "2", "3", "5", "6"]);
            theirs.insert(b.clone());
            assert!(
                s.log.iter().all(|l| !l.text.contains("you hold 2")),
                "B's private line is gone"
            );
        });
    }
    assert_eq!(theirs.len(), 5, "{theirs:?}");
    // The original is untouched and the copy plays on independently.
    let mut d = g.determinize(2, 1).unwrap();
    d.apply(0).unwrap();
    g.with_state(|s| assert_eq!(s.secrets["card2"].value, Value::Str("2".into())));
    assert!(g.with_state(|s| !s.secrets.contains_key("bid")));
}

#[test]
fn determinize_of_a_game_without_secrets_is_an_exact_copy() {
    let rules = Rc::new(Rules::load(&rules(), "backgammon", &LoadOptions::default()).unwrap());
    let mut g = Game::new(rules, 2, 9).unwrap();
    for _ in 0..6 {
        match g.status().unwrap().clone() {
            tortuga::session::Status::Chance(..) => {
                g.resolve_chance(None).unwrap();
            }
            tortuga::session::Status::Decision { .. } => g.apply(0).unwrap(),
            tortuga::session::Status::Over { .. } => break,
        }
    }
    let d = g.determinize(1, 77).unwrap();
    assert_eq!(
        d.with_state(|s| s.fingerprint()),
        g.with_state(|s| s.fingerprint())
    );
}

#[test]
fn a_searching_bot_plays_a_hidden_game_from_its_seats_view_only() {
    use tortuga::sim::bots::{Bot, BotSpec, Budget};
    let rules = Rc::new(Rules::load(&fixtures(), "vault", &LoadOptions::default()).unwrap());
    // B holds 2 and A has bid; whatever A holds, B's view is the same, and so is B's choice:
    // calling wins when A holds the 1, folding never does.
    let choices: Vec<String> = ["1", "3", "4", "5", "6"]
        .iter()
        .map(|a| {
            let mut g = Game::new(rules.clone(), 2, 9).unwrap();
            g.resolve_chance(Some(&[a])).unwrap();
            g.resolve_chance(Some(&["2"])).unwrap();
            g.apply(1).unwrap();
            let mut bot = Bot::new(BotSpec::Mcts(Budget::Iterations(300)), 7, 2);
            let i = bot.choose(&mut g).unwrap();
            g.label(i).unwrap()
        })
        .collect();
    assert_eq!(choices, ["call"; 5]);
}

#[test]
fn a_transcript_in_a_seats_view_holds_only_what_that_seat_may_see() {
    let script =
        "new vault --seed 5\nas B\nroll\nroll\nshow\nposition\nlog\nlua G:bag_count('deck')\n";
    let mut r = repl(&fixtures());
    let mut transcript = String::new();
    r.run_script(script, |out| {
        transcript.push_str(out);
        transcript.push('\n');
    })
    .unwrap();
    let a = string(secret(&r, "card1"));
    let b = string(secret(&r, "card2"));
    assert!(transcript.contains(&format!("B holds {b}")), "{transcript}");
    for leak in [
        format!("A holds {a}"),
        format!("A={a}"),
        format!("you hold {a}"),
        format!("draw {a}"),
    ] {
        assert!(
            !transcript.contains(&leak),
            "'{leak}' in B's transcript:\n{transcript}"
        );
    }
}
