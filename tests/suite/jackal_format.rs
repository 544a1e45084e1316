//! Jackal scenarios J86–J93 (spec §15): alliances, the end of the game, the position format
//! and determinism; and the errors `load` reports for malformed positions (§14).

use crate::common;
use crate::jackal;

use jackal::{J, pos};

#[test]
fn j86_allies_bank_and_sail_on_each_others_ships() {
    let mut j = J::new(&pos(
        "set seating=2v2\nW1 F12\ncoins F12=1 K5=1\nW2 E5\nW3 E6\n",
    ));
    j.play("W1 F12->G13 +coin");
    assert_eq!(j.place("W1"), "ship:black");
    assert_eq!(j.banked("black"), 1);
    assert_eq!(
        j.lua("local s = require('jackal.turns').side_scores(G) return s[1].gold .. ' ' .. table.concat(s[1].teams, '+')"),
        "1 white+black"
    );
    j.until("white");
    // white's fighter aboard the black ship may sail it (wherever black left it)
    let black_ship = j.lua("require('jackal.board').name(G:get('ships')[3])");
    assert!(
        j.moves()
            .iter()
            .any(|m| m.starts_with(&format!("ship {black_ship}->"))),
        "{:?}",
        j.moves()
    );
}

#[test]
fn j87_a_hit_ally_goes_to_his_own_ship() {
    let mut j = J::new(&pos("set seating=2v2\nturn yellow\nW1 E5\nY1 D5\n"));
    j.play("Y1 D5->E5");
    assert_eq!(j.place("W1"), "ship");
}

#[test]
fn j88_allies_free_each_other_and_share_rum() {
    let mut j = J::new(&pos(
        "set seating=2v2\nturn black\ntiles E5=tr\nW1 E5 trapped\nB1 D5\n",
    ));
    j.play("B1 D5->E5");
    assert!(!j.char_line("W1").unwrap().contains("trapped"));
    assert!(!j.char_line("B1").unwrap().contains("trapped"));

    let mut j = J::new(&pos(
        "set seating=2v2\ntiles G5=tr\nW2 G5 trapped\nbottles black=1\n",
    ));
    assert!(j.has("W2 G5->H5 +rum"));
    j.play("W2 G5->H5 +rum");
    assert_eq!(j.bottles("black"), 0);
}

#[test]
fn j89_revival_is_own_colour_only() {
    let mut j = J::new(&pos(
        "set seating=2v2\nturn black\ntiles E5=rf\nB1 E5\nW2 dead\n",
    ));
    assert!(
        !j.moves().iter().any(|m| m.contains("revive")),
        "{:?}",
        j.moves()
    );
    let mut j = J::new(&pos(
        "set seating=2v2 respawn_allies=true\nturn black\ntiles E5=rf\nB1 E5\nW2 dead\n",
    ));
    assert!(j.has("B1 revive W2"));
}

#[test]
fn j90_duo_pools_gold() {
    let mut j = J::with(
        "--players 2",
        &pos("set seating=duo\nbanked white=10 black=9 yellow=18\n"),
    );
    assert_eq!(
        j.lua(
            "local s = require('jackal.turns').side_scores(G) return s[1].gold .. ' ' .. s[2].gold"
        ),
        "19 18"
    );
    // white and black are played by P1, yellow and red by P2
    assert_eq!(
        j.lua("G:get('ctrl')[1] .. G:get('ctrl')[3] .. G:get('ctrl')[2] .. G:get('ctrl')[4]"),
        "1122"
    );
}

#[test]
fn j91_the_last_coin_ends_the_game() {
    let body = "ships white=G1 black=G13\nW1 F2\ncoins F2=1\n";
    let mut j = J::new(&pos(&format!("banked white=20 black=19\n{body}")));
    j.play("W1 F2->G1 +coin");
    assert!(j.over());
    assert!(j.status().contains("white wins 21–19"), "{}", j.status());

    let mut j = J::new(&pos(&format!("banked white=19 black=20\n{body}")));
    j.play("W1 F2->G1 +coin");
    assert!(j.over());
    assert!(j.status().contains("shared win"), "{}", j.status());
    assert!(j.status().contains("20–20"), "{}", j.status());
}

const EXAMPLE2: &str = "jackal 1
seed 2024
turn yellow round=9
banked white=1 black=1
bottles white=1
board
     B   C   D   E   F   G   H   I   J   K   L
12   ~   #   #   #   .   .   c2  #   #   #   ~
11   #   #   #   #   ic  a4E #   #   #   #   #
10   #   #   #   #   #   #   #   #   #   #   #
 9   #   #   #   #   #   #   #   #   #   #   #
 8   #   #   #   #   #   #   #   #   #   #   #
 7   #   #   #   #   #   #   #   #   #   #   #
 6   #   #   #   #   #   #   #   #   #   #   #
 5   #   #   #   s3  #   #   #   #   #   #   #
 4   #   #   #   jg  cr  #   #   #   #   #   #
 3   #   #   r2- .   a1N tr  #   #   #   #   #
 2   ~   #   #   #   .   .   c3  #   #   #   ~
W1 H2
W2 E5:2
B1 G3 trapped
B2 H12
B3 dead
Y1 E4
R1 E4
coins H2=2 G12=1
deck auto
";

#[test]
fn j92_example_two_round_trips() {
    let mut j = J::new(EXAMPLE2);
    let first = j.export();
    assert_eq!(j.lua("G:bag_count('deck')"), "102");
    let mut k = J::new(&first);
    assert_eq!(k.export(), first);
    assert_eq!(
        j.lua("table.concat(G:bag_items('deck'), ',')"),
        k.lua("table.concat(G:bag_items('deck'), ',')")
    );
    assert_eq!(j.turn(), "yellow");
    assert_eq!(j.place("W2"), "E5:2");
    assert!(j.char_line("B1").unwrap().contains("trapped"));
    assert_eq!(j.coins_at("H2"), 2);
    assert_eq!(j.bottles("white"), 1);
    // 40 = 2 banked + 3 lying + hidden in the deck (c2 and c3 are open: 35 hidden)
    assert_eq!(j.lua("require('jackal.turns').gold_in_play(G)"), "38");
}

#[test]
fn j93_same_seed_same_game() {
    let play = || {
        let mut j = J::fresh("--seed 7");
        j.run("auto 400");
        (j.log(), j.export())
    };
    let (a, pa) = play();
    let (b, pb) = play();
    assert_eq!(a, b);
    assert_eq!(pa, pb);
    assert!(a.contains("deck"), "{a}");
}

#[test]
fn export_then_load_is_the_same_position() {
    for seed in [3, 11, 29] {
        let mut j = J::fresh(&format!("--seed {seed}"));
        for _ in 0..60 {
            if j.over() {
                break;
            }
            j.run("auto 1");
            // only at turn boundaries: no pending chain
            if j.run("pending") == "nothing pending" && j.prop("phase") == "action" {
                let text = j.export();
                let mut k = J::new(&text);
                assert_eq!(k.export(), text, "seed {seed}");
            }
        }
    }
}

fn load_error(position: &str) -> String {
    let mut repl = common::repl(&common::rules());
    common::fails(&mut repl, &format!("setup jackal {position}"))
}

#[test]
fn malformed_positions_are_refused_with_the_place() {
    let cases = [
        (
            pos("W1 E5\nB1 E5\n"),
            "W1 and B1 are enemies on one cell (E5)",
        ),
        (
            pos("tiles E5=a1N\ncoins E5=1\n"),
            "E5: a coin cannot lie on a1N",
        ),
        (
            pos("tiles E5=ft\ncoins E5=1\n"),
            "E5: a coin cannot lie on ft",
        ),
        (
            pos("ships white=E5 black=G13\n"),
            "line 4: the white ship is on land at E5",
        ),
        (
            pos("ships white=A3 black=G13\n"),
            "the white ship at A3 is not on its lane",
        ),
        (pos("tiles E5=zz\n"), "line 4: E5: unknown tile token 'zz'"),
        (
            pos("tiles E5=a1Q\n"),
            "E5: unknown tile or orientation 'a1Q'",
        ),
        (pos("tiles E5=a1\n"), "E5: 'a1' needs an orientation"),
        (pos("tiles E5=#.\nW1 E5\n"), "stands on the closed tile E5"),
        (pos("tiles E5=ic\nW1 E5\n"), "W1 cannot stand on ic at E5"),
        (pos("tiles E5=s3\nW1 E5:4\n"), "E5 has 3 steps, not 4"),
        (pos("tiles E5=cr-\n"), "only one-shot tiles can be spent"),
        (
            pos("W1 E5 +coin\n"),
            "+coin is only for a character lost in a cave",
        ),
        (pos("Fri Q E5\n"), "owner must be W, Y, B, R or -"),
        (pos("set pack=huge\n"), "switch pack cannot be 'huge'"),
        (pos("frobnicate 3\n"), "line 4: unknown line 'frobnicate 3'"),
        (
            "jackal 2\nturn white\nfill .\n".to_string(),
            "line 1: the first line must be 'jackal 1'",
        ),
        (
            "jackal 1\nfill .\n".to_string(),
            "the 'turn' line is missing",
        ),
        (
            "jackal 1\nturn white\nboard\n12 ~ . . . . . . . . . ~\n11 . . . .\n".to_string(),
            "line 5: board row 11 has 4 tokens, not 11",
        ),
        (
            "jackal 1\nturn white\ntiles E5=#\nfill .\n".to_string(),
            "the board has more '.' tiles than the treasure_island pack",
        ),
        (
            pos("tiles E5=# F5=#\ndeck cr*1\n"),
            "the deck has 1 tiles for 2 closed cells",
        ),
    ];
    for (text, expect) in cases {
        let e = load_error(&text);
        assert!(
            e.contains(expect),
            "expected '{expect}' in:\n{e}\nfor:\n{text}"
        );
    }
}

/// The token of G2 after `W1 G1->G2` in a game set up from `position` with session seed `seed`.
fn first_flip(seed: u64, position: &str) -> String {
    let mut j = J::with(&format!("--seed {seed}"), position);
    j.play("W1 G1->G2");
    while j.status().starts_with("waiting for") {
        j.roll("");
    }
    let tok = j.token("G2");
    assert_ne!(tok, "#", "G2 was not turned up");
    tok
}

#[test]
fn the_seed_line_reseeds_the_draws() {
    let with_seed = "jackal 1\nseed 7\nturn white\nfill #\n";
    let without = "jackal 1\nturn white\nfill #\n";
    // the session seeds alone give different flips here, so the line is what makes them agree
    let mut differ = false;
    for (a, b) in [(1, 2), (3, 4), (5, 6)] {
        differ |= first_flip(a, without) != first_flip(b, without);
        assert_eq!(
            first_flip(a, with_seed),
            first_flip(b, with_seed),
            "session seeds {a} and {b}"
        );
    }
    assert!(differ, "the session seeds never changed the first flip");
    // export keeps the line
    let mut j = J::with("--seed 1", with_seed);
    assert!(j.export().lines().any(|l| l == "seed 7"), "{}", j.export());
}

/// The board token at `cell` in an exported position (board form).
fn board_token(text: &str, cell: &str) -> String {
    let col = "BCDEFGHIJKL".find(&cell[..1]).unwrap();
    let row = &cell[1..];
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(row))
        .unwrap_or_else(|| panic!("no row {row} in\n{text}"));
    line.split_whitespace().nth(1 + col).unwrap().to_string()
}

const PEEKED: &str = "jackal 1
set lighthouse=peek4
seed 7
turn white
fill #
tiles E5=#cr F5=#c2 G5=#. H5=a1N
deck auto
";

#[test]
fn public_export_hides_what_not_everyone_knows() {
    let text = format!("{PEEKED}seen white=E5,F5 yellow=E5 black=E5 red=E5\n");
    let mut j = J::new(&text);
    let full = j.export();
    let public = j.run("position public");
    assert_eq!(board_token(&full, "F5"), "#c2");
    assert_eq!(board_token(&full, "G5"), "#.");
    // every team has seen E5; only white has seen F5; nobody G5
    assert_eq!(board_token(&public, "E5"), "#cr", "{public}");
    assert_eq!(board_token(&public, "F5"), "#", "{public}");
    assert_eq!(board_token(&public, "G5"), "#", "{public}");
    assert_eq!(board_token(&public, "H5"), "a1N", "{public}");
    assert!(public.lines().any(|l| l == "deck auto"), "{public}");
    assert!(
        public
            .lines()
            .any(|l| l == "seen white=E5 yellow=E5 black=E5 red=E5"),
        "{public}"
    );
    assert!(full.lines().any(|l| l == "seed 7"), "{full}");
    assert!(!public.contains("seed"), "{public}");
    // the public text is a position of its own, and public already
    let mut k = J::new(&public);
    assert_eq!(k.run("position public"), public);
    assert_eq!(
        k.lua("G:bag_count('deck')"),
        j.lua("G:bag_count('deck') + 2")
    );
    assert!(j.try_run("position secret").is_err());
}

#[test]
fn public_export_counts_seats_not_teams() {
    // two players: P1 plays white and black, P2 yellow and red
    let text = format!("{PEEKED}seen white=E5 yellow=E5\n");
    let mut two = J::with("--players 2", &text);
    assert_eq!(board_token(&two.run("position public"), "E5"), "#cr");
    let mut four = J::new(&text);
    let public = four.run("position public");
    assert_eq!(board_token(&public, "E5"), "#", "{public}");
    assert!(!public.contains("seen"), "{public}");
    // 2v2: a peek is shared with the ally, not with the other side
    let mut duo = J::new(&format!(
        "{PEEKED}set seating=2v2\nseen white=E5 black=E5\n"
    ));
    assert_eq!(board_token(&duo.run("position public"), "E5"), "#");
    let mut both = J::new(&format!("{PEEKED}set seating=2v2\nseen white=E5 red=E5\n"));
    assert_eq!(board_token(&both.run("position public"), "E5"), "#cr");
}
