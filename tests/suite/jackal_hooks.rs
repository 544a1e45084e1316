//! Where a Jackal character may go is three game hooks, may_enter, may_stop and may_carry
//! (rules/jackal/core.lua): a house rule that overrides one changes the moves offered and what a
//! chain does alike. Two shipped house rules on may_carry apply in stack order, and one that
//! replaces may_carry above another is refused at load; the shipped "rum frees a trapped
//! pirate" changes what a trap does.

use crate::common;
use crate::jackal;

use jackal::{J, pos};

/// A house rule for a test: nobody may enter an open rum barrel.
const KEEP_OFF_BARRELS: &str = r#"-- House rule for a test: nobody may enter an open rum barrel.
local C = require("jackal.core")
return {
  name = "keep_off_barrels",
  help = "nobody may enter an open rum barrel",
  hooks = {
    may_enter = function(base, G, V, c, l, step)
      return base(G, V, c, l, step) and C.vt(V, l) ~= "rb"
    end,
  },
}
"#;

/// A house rule for a test: nobody may end a move on an open rum barrel.
const NO_REST_ON_BARRELS: &str = r#"-- House rule for a test: no move ends on an open rum barrel.
local C = require("jackal.core")
return {
  name = "no_rest_on_barrels",
  help = "nobody may end a move on an open rum barrel",
  hooks = {
    may_stop = function(base, G, V, c, l)
      return base(G, V, c, l) and C.vt(V, l) ~= "rb"
    end,
  },
}
"#;

/// A copy of the rules with the test's house rule `name` (source `rule`).
fn rules_with(name: &str, rule: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(&common::rules(), dir.path());
    std::fs::write(dir.path().join(format!("jackal/house/{name}.lua")), rule).expect("rule");
    dir
}

/// A game set up with `setup jackal ARGS` in the rules folder `dir`.
fn setup_in(dir: &tempfile::TempDir, args: &str) -> J {
    let mut repl = common::repl(dir.path());
    common::run(&mut repl, &[&format!("setup jackal {args}")]);
    J { repl }
}

/// A game set up from `position` with the test's house rule `name` (source `rule`) switched on
/// in a copy of the rules; the folder lives as long as the game.
fn with_rule(name: &str, rule: &str, position: &str) -> (tempfile::TempDir, J) {
    let dir = rules_with(name, rule);
    let j = setup_in(&dir, &format!("--house {name} {position}"));
    (dir, j)
}

#[test]
fn a_house_rule_on_may_enter_closes_a_cell_to_moves_and_chains() {
    let barrel = pos("tiles E5=rb\nW1 D5\n");
    assert!(J::new(&barrel).has("W1 D5->E5"));
    let (_d, mut j) = with_rule("keep_off_barrels", KEEP_OFF_BARRELS, &barrel);
    assert!(!j.has("W1 D5->E5"), "{:?}", j.moves_of("W1 "));
    assert!(j.has("W1 D5->E6"));
    // An arrow on D5 pointing east carries W1 from C5 onto the barrel.
    let arrow = pos("tiles D5=a1E E5=rb\nW1 C5\n");
    let mut j = J::new(&arrow);
    j.play("W1 C5->D5");
    assert_eq!(j.place("W1"), "E5");
    let (_d, mut j) = with_rule("keep_off_barrels", KEEP_OFF_BARRELS, &arrow);
    j.play("W1 C5->D5");
    assert_eq!(j.place("W1"), "dead");
    assert!(
        j.log().contains("W1 dies (a forbidden cell)"),
        "{}",
        j.log()
    );
}

/// A house rule for a test: nobody may enter J9.
const NOBODY_AT_J9: &str = r#"-- House rule for a test: J9 is closed to everyone.
local B = require("jackal.board")
return {
  name = "nobody_at_j9",
  help = "nobody may enter J9",
  hooks = {
    may_enter = function(base, G, V, c, l, step)
      return base(G, V, c, l, step) and l ~= B.parse("J9")
    end,
  },
}
"#;

#[test]
fn a_lost_pirate_comes_out_only_where_he_may_enter() {
    let caves = pos("tiles C4=cv J9=cv K10=cv\nW1 lost:C4\n");
    assert_eq!(
        J::new(&caves).moves_of("W1 "),
        ["W1 cave->K10", "W1 cave->J9"]
    );
    let (_d, mut j) = with_rule("nobody_at_j9", NOBODY_AT_J9, &caves);
    assert_eq!(j.moves_of("W1 "), ["W1 cave->K10"]);
}

#[test]
fn a_house_rule_on_may_stop_ends_no_move_there() {
    let barrel = pos("tiles E5=rb\nW1 D5\n");
    let (_d, mut j) = with_rule("no_rest_on_barrels", NO_REST_ON_BARRELS, &barrel);
    assert!(!j.has("W1 D5->E5"), "{:?}", j.moves_of("W1 "));
    assert!(j.has("W1 D5->E6"));
    let (_d, mut j) = with_rule(
        "no_rest_on_barrels",
        NO_REST_ON_BARRELS,
        &pos("tiles D5=a1E E5=rb\nW1 C5\n"),
    );
    j.play("W1 C5->D5");
    assert_eq!(j.place("W1"), "dead");
    assert!(
        j.log().contains("W1 dies (no stopping at E5)"),
        "{}",
        j.log()
    );
    // Nobody stands where nobody may stop: a position that says so is refused.
    let e = j
        .try_run(&format!(
            "setup jackal --house no_rest_on_barrels {}",
            pos("tiles E5=rb\nW1 E5\n")
        ))
        .expect_err("W1 may not stand on the barrel");
    assert!(e.contains("W1 cannot stand on rb at E5"), "{e}");
}

/// W1 on D5 with a coin, B1 on E5: which cells W1 may carry the coin to, with the house rules
/// `house` (setup options) on.
fn carried_to(house: &str) -> Vec<String> {
    let mut j = J::with(house, &pos("coins D5=1\nW1 D5\nB1 E5\n"));
    let mut to: Vec<String> = j
        .moves_of("W1 D5->")
        .into_iter()
        .filter_map(|l| l.strip_suffix(" +coin").map(|m| m[7..].to_string()))
        .collect();
    to.sort();
    to
}

#[test]
fn a_house_rule_on_may_carry_changes_the_moves_offered() {
    // E5 holds B1: a pirate hitting there leaves his coin behind (§4.1).
    let all = ["C4", "C5", "C6", "D4", "D6", "E4", "E6"];
    assert_eq!(carried_to(""), all);
    let mut fight = all.to_vec();
    fight.push("E5");
    fight.sort();
    assert_eq!(carried_to("--variant carry_into_fight"), fight);
    // D4, D6, E4 and E6 are next to B1.
    assert_eq!(carried_to("--variant safe_gold"), ["C4", "C5", "C6"]);
}

#[test]
fn a_coin_carried_into_a_fight_stays_with_the_winner() {
    let p = pos("coins D5=1\nW1 D5\nB1 E5\n");
    let mut j = J::with("--variant carry_into_fight", &p);
    j.play("W1 D5->E5 +coin");
    assert_eq!(j.place("W1"), "E5");
    assert_eq!(j.place("B1"), "ship");
    assert_eq!(j.coins_at("E5"), 1);
    assert_eq!(j.coins_at("D5"), 0);
}

#[test]
fn a_chain_asks_may_carry_at_every_cell() {
    // W1 carries the coin onto the arrow on D5, which sends him on to B1 on E5.
    let p = pos("tiles D5=a1E\ncoins C5=1\nW1 C5\nB1 E5\n");
    let mut j = J::new(&p);
    j.play("W1 C5->D5 +coin");
    assert_eq!((j.place("W1"), j.place("B1")), ("E5".into(), "ship".into()));
    assert_eq!((j.coins_at("C5"), j.coins_at("E5")), (1, 0));
    let mut j = J::with("--variant carry_into_fight", &p);
    j.play("W1 C5->D5 +coin");
    assert_eq!((j.place("W1"), j.place("B1")), ("E5".into(), "ship".into()));
    assert_eq!((j.coins_at("C5"), j.coins_at("E5")), (0, 1));
}

#[test]
fn two_house_rules_on_may_carry_both_apply_in_stack_order() {
    // safe_gold below, carry_into_fight on top: coins stay out of B1's reach, except into the
    // fight, which the top rule allows whatever the one below says.
    let both = carried_to("--variant guarded_fights");
    assert_eq!(both, ["C4", "C5", "C6", "E5"]);
    assert_eq!(
        carried_to("--variant safe_gold --house carry_into_fight"),
        both
    );
    // The other way round safe_gold has the last word: no coin into the fight either.
    assert_eq!(
        carried_to("--variant carry_into_fight --house safe_gold"),
        ["C4", "C5", "C6"]
    );
}

/// W1 steps from D5 onto the trap at E5 with `bottles` bottles in the white supply and the
/// setup options `opts`.
fn trapped(opts: &str, bottles: u32, extra: &str) -> J {
    let mut j = J::with(
        opts,
        &pos(&format!(
            "{extra}tiles E5=tr\nbottles white={bottles}\nW1 D5\n"
        )),
    );
    j.play("W1 D5->E5");
    j
}

#[test]
fn rum_frees_a_trapped_pirate_at_once() {
    let mut j = trapped("--variant rum_frees_trapped", 1, "");
    assert_eq!(j.char_line("W1").as_deref(), Some("W1 E5"));
    assert_eq!(j.bottles("white"), 0);
    assert!(
        j.log()
            .contains("W1 drinks a bottle of rum and walks out of the trap"),
        "{}",
        j.log()
    );
    j.until("white");
    assert!(j.has("W1 E5->E6"), "{:?}", j.moves_of("W1 "));
    // Without the house rule the trap holds him: only a rum move gets him out.
    let mut j = trapped("", 1, "");
    assert_eq!(j.char_line("W1").as_deref(), Some("W1 E5 trapped"));
    assert_eq!(j.bottles("white"), 1);
    j.until("white");
    assert!(!j.has("W1 E5->E6"));
    assert!(j.has("W1 E5->E6 +rum"), "{:?}", j.moves_of("W1 "));
}

#[test]
fn rum_frees_him_even_where_bottles_cannot_later_but_only_with_rum() {
    let friend_only = "set trap_release=friend_only\n";
    let mut j = trapped("--variant rum_frees_trapped", 1, friend_only);
    assert_eq!(j.char_line("W1").as_deref(), Some("W1 E5"));
    let mut j = trapped("", 1, friend_only);
    j.until("white");
    assert_eq!(j.moves_of("W1 "), Vec::<String>::new());
    let mut j = trapped("--variant rum_frees_trapped", 0, "");
    assert_eq!(j.char_line("W1").as_deref(), Some("W1 E5 trapped"));
}

/// A house rule for a test: every coin may go wherever its carrier goes; it never asks the
/// rules below it.
const GOLD_EVERYWHERE: &str = r#"-- House rule for a test: a coin goes wherever its carrier goes.
return {
  name = "gold_everywhere",
  help = "a coin may be carried anywhere",
  replaces = { "may_carry" },
  hooks = {
    may_carry = function() return true end,
  },
}
"#;

#[test]
fn a_rule_replacing_may_carry_above_another_is_refused_at_load() {
    let dir = rules_with("gold_everywhere", GOLD_EVERYWHERE);
    let mut repl = common::repl(dir.path());
    let e = common::fails(
        &mut repl,
        "new jackal --variant safe_gold --house gold_everywhere",
    );
    assert!(
        e.contains("'gold_everywhere' replaces hook 'may_carry', so 'safe_gold' below it")
            && e.contains("house/safe_gold.lua:"),
        "{e}"
    );
    // Below the other, it is the base the other stacks on: both apply (a coin into the jungle
    // on C5, out of B1's reach, none next to him).
    let mut j = setup_in(
        &dir,
        &format!(
            "--house gold_everywhere --house safe_gold {}",
            pos("tiles C5=jg\ncoins D5=1\nW1 D5\nB1 E5\n")
        ),
    );
    assert!(j.has("W1 D5->C5 +coin"));
    assert!(!j.has("W1 D5->E6 +coin"));
}
