//! Chaupar scenario checklist (spec §18): each from a position with forced throws.

use crate::chaupar;
use crate::common;

use chaupar::{C, pos};
use tortuga::kernel::Value;
use tortuga::session::Game;

fn labels(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

// ---- Setup and order -------------------------------------------------------------------

#[test]
fn s01_new_game_defaults() {
    let mut c = C::fresh("--seed 1");
    for col in ["S", "E", "N", "W"] {
        assert_eq!(c.colour(col), "home 0, wait 4");
    }
    assert!(c.export().contains("implement dice3\nseats 4\n"));
    assert_eq!(c.lua("G:seats()"), "4");
    assert_eq!(
        c.lua("table.concat(require('chaupar.board').TEAM, ',')"),
        "1,2,1,2"
    );
    let castles = c.lua(
        "local B = require('chaupar.board') local t = {} \
         for i = 1, 83 do if B.CASTLE.classic12[B.ROUTE.ccw[1][i]] then t[#t + 1] = i end end \
         local n = 0 for q = 1, 96 do if B.CASTLE.classic12[q] then n = n + 1 end end \
         return n .. ': ' .. table.concat(t, ' ')",
    );
    assert_eq!(castles, "12: 8 12 21 25 29 38 42 46 55 59 63 72 76");
    assert_eq!(c.phase(), "throwoff");
    assert!(c.waiting_for_throw());
}

#[test]
fn s01_route_facts() {
    let mut c = C::fresh("--seed 1");
    let facts = c.lua(
        "local B = require('chaupar.board') local r = B.ROUTE.ccw[1] local seen, n = {}, 0 \
         for i = 1, 83 do if not seen[r[i]] then seen[r[i]] = true n = n + 1 end end \
         return #r .. ' ' .. n .. ' ' .. B.index_name('ccw', 1, 80) .. ' ' .. B.index_name('ccw', 1, 25)",
    );
    assert_eq!(facts, "83 75 S.m4' E.m8");
}

#[test]
fn s02_throw_off_ties_rethrow() {
    let mut c = C::fresh("--seed 1");
    c.roll("1 1 5"); // S 7
    c.roll("6 5 1"); // E 12
    c.roll("5 6 1"); // N 12
    c.roll("1 1 1"); // W 3
    assert_eq!(c.phase(), "throwoff");
    assert_eq!(c.lua("#G:get('contenders')"), "2");
    c.roll("2 2 5"); // E 9
    c.roll("2 2 6"); // N 10
    assert_eq!(c.turn(), "N");
    for next in ["W", "S", "E"] {
        c.roll("1 1 2"); // no entry, nothing on the board: forfeited
        assert_eq!(c.turn(), next);
    }
}

#[test]
fn s03_turn_passes_counter_clockwise() {
    let mut c = C::at("throw 1 1 2");
    assert_eq!(c.turn(), "E");
    let mut c = C::at("set turn_order=cw / throw 1 1 2");
    assert_eq!(c.turn(), "W");
}

#[test]
fn s04_two_players_and_team_turns() {
    let mut c = C::fresh("--seed 1 --players 2");
    // the players are named as the spec and the board name them, and answer to those names
    assert!(c.run("show").contains("throw-off: A to throw"));
    assert!(c.run("show B").contains("throw-off: A to throw"));
    // a colour names the player who plays it (B plays E and W)
    assert_eq!(c.run("show E"), c.run("show B"));
    assert!(c.fails("show Q").contains("no seat 'Q'"));
    c.roll("1 2 5"); // A 8
    c.roll("1 2 2"); // B 5
    assert_eq!(c.turn(), "S");
    assert_eq!(c.lua("G:current()"), "1");
    assert!(c.run("show").contains("S (yellow), player A"));
    for (next, seat) in [("E", "2"), ("N", "1"), ("W", "2"), ("S", "1")] {
        c.roll("1 1 2");
        assert_eq!(c.turn(), next);
        assert_eq!(c.lua("G:current()"), seat);
    }
    let mut c = C::at("set turn_unit=team");
    for next in ["N", "W", "E", "S", "N"] {
        c.roll("1 1 2");
        assert_eq!(c.turn(), next);
    }
}

#[test]
fn s04_two_players_share_a_throw() {
    // two_player_throw=shared: one throw per player turn, for either of the player's colours
    let mut c = C::at("seats 2 / set two_player_throw=shared / throw 6 1 2 / S: E.l1 / N: W.l1");
    assert!(
        c.status().starts_with("A (S+N) to play 6 2 1"),
        "{}",
        c.status()
    );
    assert!(
        c.has("S: enter 6") && c.has("N: enter 6"),
        "{:?}",
        c.moves()
    );
    assert!(c.has("N: move W.l1 x1 1+2 to W.l4"), "{:?}", c.moves());
    // the compulsory entry still holds, and each colour's squares are read on its own route
    assert!(c.fails("play S: E.l1 6").contains("not possible now"));
    c.play("n: enter");
    c.play("N.m6 1+2");
    assert_eq!(c.colour("N"), "N.r8, W.l1, home 0, wait 2");
    assert_eq!(c.colour("S"), "E.l1, home 0, wait 3");
    // the turn passes to B, who throws once for E and W, and then back to A
    assert_eq!(c.turn(), "E");
    assert_eq!(c.lua("G:current()"), "2");
    c.roll("1 1 2");
    assert_eq!(c.turn(), "S");
    assert_eq!(c.lua("G:current()"), "1");
    // the position keeps the reading, and a four-player game refuses it
    assert!(c.export().contains("set two_player_throw=shared"));
    let mut repl = common::repl(&common::rules());
    let e = common::fails(&mut repl, "new chaupar --set two_player_throw=shared");
    assert!(
        e.contains("two_player_throw=shared is for two players"),
        "{e}"
    );
}

// ---- Implements ------------------------------------------------------------------------

#[test]
fn s05_long_dice_entry_counts() {
    let mut c = C::fresh("--seed 1");
    let count = |c: &mut C, faces: &str, n: u32, entry: u32| {
        c.lua(&format!(
            "local T = require('chaupar.throws') local f = {{{faces}}} local one, two = 0, 0 \
             local function go(k, dice) if k == 0 then local e = T.ENTRIES[{entry}][T.key(dice)] \
             if e >= 1 then one = one + 1 end if e >= 2 then two = two + 1 end return end \
             for _, v in ipairs(f) do local d = {{table.unpack(dice)}} d[#d + 1] = v go(k - 1, d) end end \
             go({n}, {{}}) return one .. ' ' .. two"
        ))
    };
    assert_eq!(count(&mut c, "1, 2, 5, 6", 3, 6), "50 16");
    assert_eq!(count(&mut c, "1, 3, 4, 6", 2, 4), "9 1");
}

#[test]
fn s06_cowrie_values() {
    let mut c = C::at("implement cowries / S: E.l1, home 3");
    let values = ["25", "10", "2", "3", "4", "5", "6"];
    for (up, v) in values.iter().enumerate() {
        let mut c2 = C::at("implement cowries / S: S.l8, home 3");
        c2.roll(&format!("up={up}"));
        assert_eq!(c2.lua("G:get('value')"), *v, "up={up}");
    }
    // the forced value is checked against the schedule
    assert!(c.fails("roll 7").contains("not a score"));
}

/// The share of graces (6, 10, 25) in n throws of the game's own shells, drawn from the game's
/// stream as the game draws them.
fn grace_share(sets: &[(&str, &str)], n: usize) -> f64 {
    let rules = common::load("chaupar", sets);
    let shells = rules.randomizers["cowries"].clone();
    let mut game = Game::new(rules, 4, 11).expect("setup");
    let graces = (0..n)
        .filter(|_| {
            let outcome = game.with_state_mut(|s| shells.draw(s)).expect("a throw");
            matches!(outcome[0], Value::Int(6 | 10 | 25))
        })
        .count();
    graces as f64 / n as f64
}

#[test]
fn s06_cowrie_bias_changes_the_throws() {
    // P(grace) = 1/8 at p = 0.5, 0.2374 at p = 0.4 and 0.5315 at p = 0.9; 4,000 throws put
    // each share within 0.03 of its value (more than five standard deviations).
    let cowries = ("implement", "cowries");
    let fair = grace_share(&[cowries], 4000);
    assert!((0.095..0.155).contains(&fair), "p = 0.5: {fair}");
    let low = grace_share(&[cowries, ("cowrie_p", "0.4")], 4000);
    assert!((0.207..0.267).contains(&low), "p = 0.4: {low}");
    let biased = grace_share(&[cowries, ("cowrie_p", "0.9")], 4000);
    assert!((0.50..0.56).contains(&biased), "p = 0.9: {biased}");
}

#[test]
fn s06_a_custom_cowrie_schedule_is_played() {
    let custom = "--set implement=cowries --set cowrie_schedule=custom \
                  --set cowrie_values=[1,2,3,4,5,6,7] --set cowrie_graces=[7]";
    let position = pos("implement cowries / S: E.l1");
    // 0 shells up is a 1 and no grace: E.l1 moves one square, and E is to move
    let mut c = C::setup_with(custom, &position);
    c.roll("up=0");
    assert_eq!(c.colour("S"), "E.l2, home 0, wait 3");
    assert_eq!(c.turn(), "E");
    // 6 up is a 7, a grace: it enters, and the bound extra throw moves the new piece
    let mut c = C::setup_with(custom, &position);
    c.roll("up=6");
    assert_eq!(c.colour("S"), "S.m1, E.l1, home 0, wait 2");
    c.roll("up=1");
    assert_eq!(c.colour("S"), "S.m3, E.l1, home 0, wait 2");
    // a value the schedule cannot give is refused, in a position and in a roll
    assert!(c.fails("roll 25").contains("not a score"));
    let throw = pos("implement cowries / throw 25");
    let e = c.fails(&format!("setup chaupar {custom} {throw}"));
    assert!(e.contains("cowries cannot give 25"), "{e}");
    let e = c.fails("new chaupar --set implement=cowries --set cowrie_schedule=custom --set cowrie_values=[1,2,3]");
    assert!(e.contains("cowrie_values: 7 values"), "{e}");
}

// ---- Entering with dice2 ---------------------------------------------------------------

#[test]
fn s07_one_three_enters_and_stays() {
    let mut c = C::at("implement dice2 / throw 1 3");
    assert_eq!(c.colour("S"), "S.m4, home 0, wait 3");
    assert_eq!(c.turn(), "E");
    assert!(c.waiting_for_throw());
}

#[test]
fn s08_four_enters_then_the_new_piece_moves() {
    let mut c = C::at("implement dice2 / throw 4 6");
    assert_eq!(c.colour("S"), "S.r7, home 0, wait 3");
    assert_eq!(
        c.lua("require('chaupar.board').parse_index(G, 'ccw', 1, 'S.r7')"),
        "10"
    );
    assert_eq!(c.turn(), "E");
}

#[test]
fn s09_enter_and_move_either_piece() {
    let mut c = C::at("implement dice2 / throw 4 6 / S: E.l4");
    assert_eq!(c.moves(), labels(&["enter 4", "move E.l4 x1 6 to E.r8"]));
    assert!(c.fails("play move E.l4 x1 4+6").contains("not possible"));
    let mut a = C::at("implement dice2 / throw 4 6 / S: E.l4");
    a.play("enter 4");
    assert_eq!(
        a.moves(),
        labels(&["move E.l4 x1 6 to E.r8", "move S.m4 x1 6 to S.r7"])
    );
    a.play("move E.l4 x1 6 to E.r8");
    assert_eq!(a.colour("S"), "S.m4, E.r8, home 0, wait 2");
}

#[test]
fn s10_four_four_enters_two() {
    let mut c = C::at("implement dice2 / throw 4 4");
    assert_eq!(c.moves(), labels(&["enter 4", "move S.m4 x1 4 to S.m8"]));
    c.play("enter 4");
    assert_eq!(c.colour("S"), "S.m4 x2, home 0, wait 2");
}

#[test]
fn s11_multi_entry_off() {
    let mut c = C::at("implement dice2 / set multi_entry=off / throw 4 4");
    assert_eq!(c.colour("S"), "S.m8, home 0, wait 3");
    assert_eq!(c.turn(), "E");
}

#[test]
fn s12_no_entry_forfeits() {
    let mut c = C::at("implement dice2 / throw 3 6");
    assert_eq!(c.colour("S"), "home 0, wait 4");
    assert_eq!(c.turn(), "E");
}

#[test]
fn s13_one_three_must_enter() {
    let mut c = C::at("implement dice2 / throw 1 3 / S: N.l1");
    assert_eq!(c.colour("S"), "S.m4, N.l1, home 0, wait 2");
    assert_eq!(c.turn(), "E");
}

#[test]
fn s14_entry_not_compulsory() {
    let mut c = C::at("implement dice2 / set entry_compulsory=off / throw 4 6 / S: E.l4");
    assert!(c.has("move E.l4 x1 4+6 to E.r4"));
    c.play("move E.l4 x1 4+6 to E.r4");
    assert_eq!(c.colour("S"), "E.r4, home 0, wait 3");
}

// ---- Entering with dice3 ---------------------------------------------------------------

#[test]
fn s15_two_two_two_enters() {
    let mut c = C::at("throw 2 2 2 / S: E.l1");
    assert_eq!(c.colour("S"), "S.m6, E.l1, home 0, wait 2");
    assert_eq!(c.turn(), "E");
}

#[test]
fn s16_one_five_enters_and_the_two_moves_it() {
    let mut c = C::at("throw 1 5 2");
    assert_eq!(c.colour("S"), "S.m8, home 0, wait 3");
    assert_eq!(c.turn(), "E");
}

#[test]
fn s17_six_enters_rest_split_or_summed() {
    let mut c = C::at("throw 6 2 5 / S: E.l1");
    c.play("enter 6");
    let m = c.moves();
    for l in [
        "move S.m6 x1 2 to S.m8",
        "move S.m6 x1 5 to S.r6",
        "move S.m6 x1 2+5 to S.r4",
        "move E.l1 x1 2 to E.l3",
        "move E.l1 x1 2+5 to E.l8",
    ] {
        assert!(m.contains(&l.to_string()), "{l} in {m:?}");
    }
    c.play("move S.m6 x1 2+5 to S.r4");
    assert_eq!(c.colour("S"), "S.r4, E.l1, home 0, wait 2");
    // a plan without the entry is refused
    let mut c = C::at("throw 6 2 5 / S: E.l1");
    assert!(!c.has("move E.l1 x1 2+5+6 to E.r6"));
}

#[test]
fn s18_one_five_six_double_entry() {
    let mut c = C::at("throw 1 5 6");
    assert_eq!(c.moves(), labels(&["enter 6", "enter 1+5"]));
    c.play("enter 6");
    assert!(c.has("enter 1+5"));
    assert!(c.has("move S.m6 x1 1+5 to S.r5"));
    c.play("enter 1+5");
    assert_eq!(c.colour("S"), "S.m6 x2, home 0, wait 2");
}

#[test]
fn s19_six_six_two_block_or_piece() {
    let mut c = C::at("throw 6 6 2");
    c.play("enter 6");
    assert_eq!(
        c.moves(),
        labels(&["move S.m6 x1 2 to S.m8", "move S.m6 x2 2 to S.m8"])
    );
    c.play("move S.m6 x1 2 to S.m8");
    assert_eq!(c.colour("S"), "S.m6, S.m8, home 0, wait 2");
}

#[test]
fn s20_triple_six() {
    let mut c = C::at("throw 6 6 6");
    c.play("enter 6");
    c.play("enter 6");
    assert_eq!(c.colour("S"), "S.m6 x3, home 0, wait 1");
    let mut c = C::at("throw 6 6 6 / S: E.l1, E.l2");
    c.play("enter 6");
    c.play("enter 6");
    assert_eq!(c.colour("S"), "S.m6 x2, E.l1, E.l2, home 0, wait 0");
    assert!(
        c.moves().iter().all(|l| l.starts_with("move")),
        "{:?}",
        c.moves()
    );
}

// ---- Cowries ---------------------------------------------------------------------------

#[test]
fn s21_cowrie_entry_and_bound_throw() {
    let mut c = C::at("implement cowries");
    c.roll("10");
    assert_eq!(c.colour("S"), "S.m1, home 0, wait 3");
    c.roll("3");
    assert_eq!(c.colour("S"), "S.m4, home 0, wait 3");
    assert_eq!(c.turn(), "E");
}

#[test]
fn s22_twenty_five_then_four() {
    let mut c = C::at("implement cowries / S: S.r7, E.l1, home 2");
    c.roll("25");
    assert_eq!(
        c.moves(),
        labels(&["move S.r7 x1 25 to N.l2", "move E.l1 x1 25 to N.m8"])
    );
    c.play("move S.r7 x1 25 to N.l2");
    c.roll("4");
    assert_eq!(
        c.moves(),
        labels(&["move N.l2 x1 4 to N.l6", "move E.l1 x1 4 to E.l5"])
    );
}

#[test]
fn s23_bound_then_free() {
    let mut c = C::at("implement cowries");
    c.roll("6");
    c.roll("10");
    assert_eq!(c.colour("S"), "S.r6, home 0, wait 3");
    c.roll("2");
    assert_eq!(c.colour("S"), "S.r4, home 0, wait 3");
    let mut c = C::at("implement cowries / set cowrie_followup=free");
    c.roll("6");
    c.roll("10");
    assert_eq!(c.colour("S"), "S.m1 x2, home 0, wait 2");
}

#[test]
fn s23_cowrie_max_throws_caps_the_graces() {
    // Without a cap a grace always throws again: 6 enters, 10 moves the new piece, 2 follows.
    let mut c = C::at("implement cowries");
    c.roll("6");
    c.roll("10");
    assert_eq!(c.turn(), "S");
    assert!(c.waiting_for_throw());
    // At most two throws a turn: the 10 is the second, so its grace gives no third throw.
    let mut c = C::at("implement cowries / set cowrie_max_throws=2");
    c.roll("6");
    assert_eq!(c.turn(), "S");
    c.roll("10");
    assert_eq!(c.colour("S"), "S.r6, home 0, wait 3");
    assert_eq!(c.turn(), "E");
    // At most three: the third throw is a grace too, and the turn still passes.
    let mut c = C::at("implement cowries / set cowrie_max_throws=3");
    c.roll("6");
    c.roll("10");
    assert_eq!(c.turn(), "S");
    c.roll("6");
    assert_eq!(c.colour("S"), "S.m1, S.r6, home 0, wait 2");
    assert_eq!(c.turn(), "E");
}

#[test]
fn s24_non_grace_with_all_waiting() {
    let mut c = C::at("implement cowries");
    c.roll("3");
    assert_eq!(c.turn(), "E");
    assert_eq!(c.colour("S"), "home 0, wait 4");
}

#[test]
fn s25_last_square_goes_home_on_a_grace() {
    let mut c = C::at("implement cowries / S: S.m1', E.l1, home 2");
    c.roll("2");
    assert_eq!(c.colour("S"), "E.l3, S.m1', home 2, wait 0");
    assert_eq!(c.turn(), "E");
    let mut c = C::at("implement cowries / S: S.m1', E.l1, home 2");
    c.roll("6");
    assert_eq!(
        c.moves(),
        labels(&["move E.l1 x1 6 to E.l7", "move S.m1' x1 6 to home"])
    );
    c.play("move S.m1' x1 6 to home");
    assert_eq!(c.turn(), "S");
    assert!(c.waiting_for_throw());
}

#[test]
fn s26_blocked_bound_value_becomes_free() {
    let mut c = C::at("implement cowries / S: E.l1 / W: S.r8 x2");
    c.roll("6");
    c.roll("10");
    c.roll("3");
    assert_eq!(c.colour("S"), "S.m1, S.m4, E.l1, home 0, wait 1");
}

// ---- Splitting, summing, forced play ---------------------------------------------------

#[test]
fn s27_sum_passes_split_captures() {
    let mut c = C::at("throw 1 2 5 / S: E.l1, home 3 / E: E.l2");
    c.play("move E.l1 x1 1+2 to E.l4");
    assert_eq!(c.colour("E"), "E.l2, home 0, wait 3");
    assert_eq!(c.colour("S"), "E.m8, home 3, wait 0");
    let mut c = C::at("throw 1 2 5 / S: E.l1, home 3 / E: E.l2");
    c.play("move E.l1 x1 1 to E.l2");
    assert_eq!(c.colour("E"), "home 0, wait 4");
    c.play("move E.l2 x1 2+5 to E.m8");
    assert_eq!(c.colour("S"), "E.m8, home 3, wait 0");
}

#[test]
fn s28_stepped_sums_ask_for_an_order() {
    let body = "set sum_touches_intermediate=true / throw 1 2 5 / S: E.l1, home 3 / E: E.l2";
    let mut c = C::at(body);
    assert!(c.has("move E.l1 x1 1,2 to E.l4"), "{:?}", c.moves());
    assert!(c.has("move E.l1 x1 2,1 to E.l4"), "{:?}", c.moves());
    c.play("move E.l1 x1 1,2 to E.l4");
    assert_eq!(c.colour("E"), "home 0, wait 4");
    let mut c = C::at(body);
    c.play("E.l1 2,1");
    assert_eq!(c.colour("E"), "E.l2, home 0, wait 3");
}

#[test]
fn s29_every_die_must_be_used() {
    let mut c = C::at("throw 5 6 1 / S: S.l3, home 3");
    assert!(
        !c.has("move S.l3 x1 5+6 to S.m3'") || {
            c.play("move S.l3 x1 5+6 to S.m3'");
            true
        }
    );
    assert_eq!(c.colour("S"), "S.m2', home 3, wait 0");
    assert_eq!(c.turn(), "E");
}

#[test]
fn s30_only_the_one_is_playable() {
    let mut c = C::at("throw 6 5 1 / S: S.m4', home 3");
    assert_eq!(c.colour("S"), "S.m3', home 3, wait 0");
    assert_eq!(c.turn(), "E");
}

// ---- Capture, castles, blocks ----------------------------------------------------------

#[test]
fn s31_capture_sends_home_to_wait() {
    let mut c = C::at("implement cowries / S: E.l1, home 3 / E: E.l4");
    c.roll("3");
    assert_eq!(c.colour("E"), "home 0, wait 4");
    assert_eq!(c.turn(), "E");
    let mut c = C::at("implement cowries / set capture_extra_throw=on / S: E.l1, home 3 / E: E.l4");
    c.roll("3");
    assert_eq!(c.turn(), "S");
    assert!(c.waiting_for_throw());
}

#[test]
fn s32_castles() {
    let mut c = C::at("implement cowries / S: E.l1, home 3 / E: E.l5");
    c.roll("4");
    assert_eq!(c.colour("S"), "E.l1, home 3, wait 0");
    assert_eq!(c.turn(), "E");
    let mut c = C::at("implement cowries / S: E.l1, home 3 / N: E.l5");
    c.roll("4");
    assert_eq!(c.colour("S"), "E.l5, home 3, wait 0");
    let mut c = C::at("implement cowries / set castle_set=none / S: E.l1, home 3 / E: E.l5");
    c.roll("4");
    assert_eq!(c.colour("E"), "home 0, wait 4");
}

#[test]
fn s33_capture_by_rank() {
    let mut c = C::at("implement cowries / S: N.r6 / W: N.r3 x2");
    c.roll("3");
    assert_eq!(c.colour("S"), "N.r6, home 0, wait 3");
    let mut c = C::at("implement cowries / S: N.r6 x2 / W: N.r3 x2");
    c.roll("3");
    assert_eq!(c.colour("S"), "N.r3 x2, home 0, wait 2");
    assert_eq!(c.colour("W"), "home 0, wait 4");
}

#[test]
fn s34_passing_blocks() {
    let mut c = C::at("implement cowries / S: N.r6 / W: N.r3 x2");
    c.roll("4");
    assert_eq!(c.colour("S"), "N.r6, home 0, wait 3");
    let mut c = C::at("implement cowries / S: N.r6 x2 / W: N.r3 x2");
    c.roll("4");
    assert_eq!(c.colour("S"), "N.r2 x2, home 0, wait 2");
    let mut c = C::at("implement cowries / set block_passing=none / S: N.r6 / W: N.r3 x2");
    c.roll("4");
    assert_eq!(c.colour("S"), "N.r2, home 0, wait 3");
    let mut c = C::at("implement cowries / set block_passing=none / S: N.r6 / W: N.r3 x2");
    c.roll("3");
    assert_eq!(c.colour("S"), "N.r6, home 0, wait 3");
}

#[test]
fn s35_own_blocks_never_obstruct() {
    let mut c = C::at("implement cowries / S: N.r6, N.r4 x2");
    c.roll("4");
    assert!(c.has("move N.r6 x1 4 to N.r2"), "{:?}", c.moves());
}

#[test]
fn s36_each_colour_judged_separately() {
    let mut c = C::at("implement cowries / S: N.r6 / E: N.r3 x2 / W: N.r3");
    c.roll("3");
    assert_eq!(c.colour("S"), "N.r6, home 0, wait 3");
    let mut c = C::at("implement cowries / S: N.r6 x2 / E: N.r3 x2 / W: N.r3");
    c.roll("3");
    assert_eq!(c.colour("E"), "home 0, wait 4");
    assert_eq!(c.colour("W"), "home 0, wait 4");
}

#[test]
fn s37_landing_on_own_forms_a_block() {
    let mut c = C::at("implement cowries / S: E.l1, E.l4");
    c.roll("3");
    c.play("move E.l1 x1 3 to E.l4");
    assert_eq!(c.colour("S"), "E.l4 x2, home 0, wait 2");
}

#[test]
fn s38_blocks_split() {
    let mut c = C::at("implement cowries / S: E.l4 x2");
    c.roll("5");
    assert_eq!(
        c.moves(),
        labels(&["move E.l4 x1 5 to E.m8", "move E.l4 x2 5 to E.m8"])
    );
    let mut c = C::at("implement cowries / set blocks_split=off / S: E.l4 x2");
    c.roll("5");
    assert_eq!(c.colour("S"), "E.m8 x2, home 0, wait 2");
}

/// With blocks_split=off a block moves whole, so it cannot give two dice one piece each from
/// where it stands: here no plan uses all three dice (the block of two can take the 6 home, or
/// the 1 and then the 5; the lone piece on @82 only the 1), and every move that starts a
/// two-dice plan is offered, the lone piece's 1 among them.
#[test]
fn s38_a_whole_block_takes_one_die_at_a_time() {
    let mut c = C::at("set blocks_split=off / S: @78 x2, @82, home 1");
    c.roll("6 5 1");
    assert_eq!(
        c.moves(),
        labels(&[
            "move S.m6' x2 1 to S.m5'",
            "move S.m2' x1 1 to S.m1'",
            "move S.m6' x2 5 to S.m1'",
            "move S.m6' x2 6 to home",
            "move S.m6' x2 1+5 to home",
        ])
    );
}

#[test]
fn s39_block_form_by() {
    let mut c = C::at("implement cowries / turn E / E: E.l1 / S: E.l4 / N: E.l4");
    c.roll("3");
    assert_eq!(c.colour("S"), "home 0, wait 4");
    assert_eq!(c.colour("N"), "home 0, wait 4");
    let mut c =
        C::at("implement cowries / set block_form_by=team / turn E / E: E.l1 / S: E.l4 / N: E.l4");
    c.roll("3");
    assert_eq!(c.colour("E"), "E.l1, home 0, wait 3");
}

#[test]
fn s40_immune_pairs() {
    let mut c = C::at("implement cowries / set block_model=immune_pairs / S: N.r6 / W: N.r3 x2");
    c.roll("3");
    assert_eq!(c.colour("S"), "N.r3, home 0, wait 3");
    assert_eq!(c.colour("W"), "N.r3 x2, home 0, wait 2");
}

// ---- Finishing, partners, winning ------------------------------------------------------

#[test]
fn s41_exact_finish() {
    let mut c = C::at("implement dice2 / throw 3 6 / S: S.m3', E.l1, home 2");
    let m = c.moves();
    assert!(m.contains(&"move S.m3' x1 3 to home".to_string()), "{m:?}");
    assert!(m.contains(&"move E.l1 x1 3+6 to E.r8".to_string()), "{m:?}");
    assert!(
        !m.iter()
            .any(|l| l.starts_with("move S.m3' x1 6") || l.starts_with("move S.m3' x1 3+6"))
    );
    c.play("move S.m3' x1 3 to home");
    assert_eq!(c.colour("S"), "E.l7, home 3, wait 0");
    let mut c =
        C::at("implement dice2 / set exact_finish=off / throw 3 6 / S: S.m3', E.l1, home 2");
    assert!(c.has("move S.m3' x1 6 to home"));
}

#[test]
fn s42_a_block_finishes_whole() {
    let mut c = C::at("implement cowries / S: S.m4' x2, home 2");
    c.roll("4");
    c.play("move S.m4' x2 4 to home");
    assert_eq!(c.colour("S"), "home 4, wait 0");
}

#[test]
fn s43_finished_colour_plays_partner() {
    let mut c = C::at("implement cowries / S: home 4 / N: W.l1");
    c.roll("10");
    assert_eq!(c.colour("N"), "N.m1, W.l1, home 0, wait 2");
    assert_eq!(c.turn(), "S");
    c.roll("2");
    assert_eq!(c.colour("N"), "N.m3, W.l1, home 0, wait 2");
    let mut c = C::at("implement cowries / set finished_plays_partner=off / S: home 4 / N: W.l1");
    assert_eq!(c.turn(), "E");
}

#[test]
fn s44_team_wins() {
    let mut c = C::at("implement cowries / S: home 4 / N: N.m2', home 3");
    c.roll("2");
    assert_eq!(c.status(), "game over: S+N win (S 1, E 0, N 1, W 0)");
    assert!(c.moves().is_empty());
}

#[test]
fn s45_two_players_win() {
    let mut c = C::at("implement cowries / seats 2 / S: home 4 / N: N.m2', home 3");
    c.roll("2");
    assert_eq!(c.status(), "game over: A (S+N) win (A 1, B 0)");
}

#[test]
fn s46_ain_akbari_start() {
    let mut c = C::fresh("--seed 1 --set start=ain_akbari");
    assert_eq!(c.colour("S"), "S.m6, S.m7, S.r8, S.r7, home 0, wait 0");
    assert_eq!(c.colour("W"), "W.m6, W.m7, W.r8, W.r7, home 0, wait 0");
}

#[test]
fn s47_clockwise_route() {
    let mut c = C::fresh("--seed 1");
    assert_eq!(
        c.lua("local B = require('chaupar.board') return B.index_name('cw', 1, 9) .. ' ' .. B.index_name('cw', 1, 17)"),
        "S.l8 W.r1"
    );
    let mut c = C::at("set direction=cw / S: @9, @17");
    assert_eq!(c.colour("S"), "S.l8, W.r1, home 0, wait 2");
}

const EXAMPLE1: &str = "chaupar 1
implement dice3
turn S
throw 6 6 2
S: E.l4, N.r3 x2, home 1, wait 0
E: S.r2, wait 3
N: N.m5', W.l7
W: E.m8, N.r1, S.m8 x2
";

const EXAMPLE2: &str = "chaupar 1
implement cowries
seats 2
turn S
throw 3
bound S.m1
S: S.m1, W.r4
N: home 2, N.m2'
E: S.r5, S.r5
W: E.l2 x3
";

#[test]
fn s48_round_trip() {
    for example in [EXAMPLE1, EXAMPLE2] {
        let mut c = C::setup(example);
        let once = c.export();
        let mut again = C::setup(&once);
        assert_eq!(again.export(), once);
    }
    let mut c = C::setup(EXAMPLE1);
    assert!(c.has("move N.r3 x2 2 to N.r1"));
    c.play("move N.r3 x2 2 to N.r1");
    assert_eq!(c.colour("W"), "S.m8 x2, E.m8, home 0, wait 1");
    let mut c = C::setup(EXAMPLE2);
    assert_eq!(c.colour("S"), "S.m4, W.r4, home 0, wait 2");
    assert_eq!(c.turn(), "E");
    let e = C::refused(&pos("S: E.l1 x3, S.m2, home 1"));
    assert!(e.contains("S has 5 pieces"), "{e}");
}

// ---- Capture before home (§15 kill_before_home) ----------------------------------------

#[test]
fn kill_before_home_on_bars_the_homeward_run() {
    let mut c = C::at("implement cowries / set kill_before_home=on / S: S.l6, home 3");
    c.roll("4");
    assert_eq!(c.colour("S"), "S.l6, home 3, wait 0");
    assert_eq!(c.turn(), "E");
    let mut c = C::at("implement cowries / set kill_before_home=on / killed S / S: S.l6, home 3");
    c.roll("4");
    assert_eq!(c.colour("S"), "S.m7', home 3, wait 0");
}

/// With `round`, a colour that has not captured goes on past X.l8 onto X.m8 and X.r8, the
/// outer squares of its own arm, and round the board again.
#[test]
fn kill_before_home_round_goes_round_again() {
    let mut c = C::at("implement cowries / set kill_before_home=round / S: S.l6, home 3");
    c.roll("4");
    assert_eq!(c.colour("S"), "S.r8, home 3, wait 0");
    let mut c = C::at("implement cowries / set kill_before_home=round / S: S.l6, home 3");
    c.roll("3");
    assert_eq!(c.colour("S"), "S.m8, home 3, wait 0");
    let mut c =
        C::at("implement cowries / set kill_before_home=round / killed S / S: S.l6, home 3");
    c.roll("4");
    assert_eq!(c.colour("S"), "S.m7', home 3, wait 0");
}

/// A piece that goes round passes the squares of its lap, so an opposing block on X.m8
/// stops it, and landing on X.m8 captures there, after which the colour may turn home.
#[test]
fn kill_before_home_round_passes_blocks_and_captures() {
    let base =
        "implement cowries / set kill_before_home=round / set castle_set=none / S: S.l6, home 3";
    let mut c = C::at(&format!("{base} / E: S.m8 x2"));
    c.roll("4");
    assert_eq!(c.colour("S"), "S.l6, home 3, wait 0");
    let mut c = C::at(&format!("{base} / E: S.m8"));
    c.roll("3");
    assert_eq!(c.colour("S"), "S.m8, home 3, wait 0");
    assert_eq!(c.colour("E"), "home 0, wait 4");
    assert!(c.export().contains("killed S\n"), "{}", c.export());
}

/// A capture in the middle of a throw opens the homeward run for the rest of it, and the plan
/// search of §8 knows it: with `on` and 1 5 6, only the capturing 1 starts a plan that uses all
/// three dice (then 5 and 6 on to S.m2'), so it is played as the only option; the 5 alone
/// would end the throw at S.l8. With `round` the dice could go round instead, but after the
/// capture they turn home.
#[test]
fn kill_before_home_capture_mid_throw_opens_home() {
    let after = labels(&[
        "move S.l4 x1 5 to S.m8'",
        "move S.l4 x1 6 to S.m7'",
        "move S.l4 x1 5+6 to S.m2'",
    ]);
    let board = "throw 6 5 1 / S: S.l3, home 3 / E: S.l4";
    let mut c = C::at(&format!(
        "implement dice3 / set kill_before_home=on / {board}"
    ));
    assert_eq!(c.colour("S"), "S.l4, home 3, wait 0");
    assert_eq!(c.colour("E"), "home 0, wait 4");
    assert_eq!(c.moves(), after);
    let mut c = C::at(&format!(
        "implement dice3 / set kill_before_home=round / {board}"
    ));
    assert!(c.has("move S.l3 x1 5+6 to S.r4"), "{:?}", c.moves());
    c.play("move S.l3 x1 1 to S.l4");
    assert_eq!(c.moves(), after);
}

/// With `on`, a board where no piece of any colour can ever move again ends in a draw at the
/// first throw nobody can use; with `round` the same board plays on.
#[test]
fn kill_before_home_on_dead_end_is_a_draw() {
    let board = "S: S.l8 x4 / E: home 4 / N: home 4 / W: W.l8 x4";
    let mut c = C::at(&format!(
        "implement cowries / set kill_before_home=on / {board}"
    ));
    c.roll("2");
    assert_eq!(
        c.status(),
        "game over: a draw: no piece can ever move again (kill_before_home) (S 0, E 0, N 0, W 0)"
    );
    assert!(c.moves().is_empty());
    // a 1 of the long dice can still move S.l7 to S.l8: not a dead end
    let mut c = C::at(
        "implement dice3 / set kill_before_home=on / throw 6 5 2 / S: S.l7, S.l8 x3 / E: home 4 / N: home 4 / W: W.l8 x4",
    );
    assert_eq!(c.turn(), "E");
    assert!(c.waiting_for_throw());
    let mut c = C::at(&format!(
        "implement cowries / set kill_before_home=round / {board}"
    ));
    c.roll("2");
    assert!(c.has("move S.l8 x1 2 to S.r8"), "{:?}", c.moves());
}
