//! Jackal's hidden information is the kernel's: face-down tiles come from a secret stream the
//! printed seed does not predict, the deck is nobody's to read, and what a lighthouse showed a
//! team is that team's secret in every view (render, position, `lua`, the log, saves).

use crate::jackal;

use jackal::{J, pos};

/// White has peeked at C3 (a crocodile) with the lighthouse; black (P3) is an opponent.
fn peeked() -> J {
    let mut j = J::new(&pos("set lighthouse=peek4\ntiles E5=#lh C3=#cr\nW1 D5\n"));
    j.play("W1 D5->E5");
    j
}

#[test]
fn another_team_cannot_read_a_peeked_tile_or_the_deck() {
    let mut j = peeked();
    assert_eq!(j.token("C3"), "#cr", "the referee knows it");
    j.run("as P3");
    assert_eq!(j.token("C3"), "#", "black does not");
    let e = j
        .try_run("lua G:secret_get('tile' .. G:loc('C3'))")
        .unwrap_err();
    assert!(
        e.contains("lua:1:") && e.contains("hidden from seat black"),
        "{e}"
    );
    let e = j.try_run("lua G:bag_items('deck')").unwrap_err();
    assert!(e.contains("hidden from seat black"), "{e}");
    assert!(!j.lua("G:cell_get(G:loc('C3'), 'c')").contains("cr"));
    let e = j.try_run("lua G:secret_get('seen_W')").unwrap_err();
    assert!(e.contains("hidden"), "{e}");
    let text = j.export();
    assert!(
        !text.contains("#cr") && !text.contains("seen white"),
        "{text}"
    );
    assert!(!j.run("show").contains("cr"));
    // White (P1) sees its own peek.
    j.run("as P1");
    assert_eq!(j.token("C3"), "#cr");
    assert!(j.export().contains("seen white=C3"));
}

#[test]
fn a_peek_is_drawn_in_secret_and_echoed_without_the_tile() {
    let mut j =
        J::new("jackal 1\nturn white\nfill #\nset lighthouse=peek4\ntiles E5=#lh D5=.\nW1 D5\n");
    j.play("W1 D5->E5");
    for cell in ["C3", "C4", "C5", "C6"] {
        j.play(cell);
        j.run("as P3");
        let echo = j.roll("");
        assert!(echo.contains("deck: drawn, hidden"), "{echo}");
        j.run("as referee");
    }
    let drawn = |log: &str| log.lines().filter(|l| l.starts_with("deck ")).count();
    j.run("as P3");
    let log = j.log();
    assert_eq!(drawn(&log), 0, "{log}");
    assert_eq!(log.matches("deck: drawn, hidden").count(), 4, "{log}");
    j.run("as P1");
    assert_eq!(drawn(&j.log()), 4);
}

#[test]
fn the_printed_seed_does_not_predict_the_tiles() {
    let mut j = J::fresh("");
    let out = j.run("show");
    assert!(!out.is_empty());
    let seed = j.repl.session.as_ref().unwrap().origin.seed;
    let secret = |j: &J| {
        j.repl
            .session
            .as_ref()
            .unwrap()
            .game
            .with_state(|s| s.secret_seed())
    };
    let again = J::fresh(&format!("--seed {seed}"));
    assert_ne!(secret(&j), secret(&again));
}

#[test]
fn determinizing_for_another_team_deals_the_hidden_tiles_again() {
    let mut j = J::new(
        "jackal 1\nturn white\nfill #\nset lighthouse=peek4\ntiles E5=#lh C3=#cr D5=.\nW1 D5\n",
    );
    j.play("W1 D5->E5");
    j.play("C3");
    let game = &j.repl.session.as_ref().unwrap().game;
    let c3 = game.with_state(|s| s.topology.loc("C3").unwrap());
    let key = format!("tile{c3}");
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..30 {
        let d = game.determinize(3, seed).unwrap();
        let tile = d.with_state(|s| s.secrets[&key].value.to_string());
        let deck = d.with_state(|s| s.bags["deck"].len());
        assert_eq!(deck, game.with_state(|s| s.bags["deck"].len()));
        seen.insert(tile);
        let mine = game.determinize(1, seed).unwrap();
        assert_eq!(
            mine.with_state(|s| s.secrets[&key].value.to_string()),
            "cr",
            "white keeps what it saw"
        );
    }
    assert!(seen.len() > 3, "black's guesses vary: {seen:?}");
}

/// What the REPL prints after a peek's draw (by `roll` or by `auto`) is the log as each viewer
/// reads it: the peeking team reads the tile in words, another team only that a cell was seen.
#[test]
fn a_peeks_consequences_name_the_tile_to_the_peeking_team_only() {
    let mut j =
        J::new("jackal 1\nturn white\nfill #\nset lighthouse=peek4\ntiles E5=#lh D5=.\nW1 D5\n");
    j.play("W1 D5->E5");
    j.play("C3");
    j.run("as P3");
    let theirs = j.roll("");
    assert!(theirs.contains("deck: drawn, hidden"), "{theirs}");
    assert!(theirs.contains("C3 is seen"), "{theirs}");
    let told = |out: &str| {
        out.lines()
            .filter(|l| l.starts_with("C3 is ") && *l != "C3 is seen")
            .count()
    };
    assert_eq!(told(&theirs), 0, "{theirs}");
    j.run("as referee");
    j.run("undo");
    j.run("as P3");
    let by_bots = j.run("auto 1");
    assert!(by_bots.contains("deck: drawn, hidden"), "{by_bots}");
    assert_eq!(told(&by_bots), 0, "{by_bots}");
    j.run("as referee");
    j.run("undo");
    j.run("as P1");
    let ours = j.roll("");
    assert_eq!(told(&ours), 1, "{ours}");
    assert!(!ours.contains("deck "), "{ours}");
}
