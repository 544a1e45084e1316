//! The §11 switches of Jackal: each alternative value changes what its rule says.

use crate::jackal;

use jackal::{J, pos};

#[test]
fn every_switch_is_declared_with_its_default() {
    let mut j = J::fresh("--seed 1");
    let rules = j.run("rules");
    for (name, default) in [
        ("pack", "\"treasure_island\""),
        ("first_team", "\"white\""),
        ("seating", "\"ffa\""),
        ("ship_pickup", "true"),
        ("ship_range", "\"nine\""),
        ("allied_ship_sail", "true"),
        ("plane_deferred", "true"),
        ("plane_targets", "\"any\""),
        ("ice_after_horse", "\"any_jump\""),
        ("horse_into_sea", "\"yes\""),
        ("loop_rule", "\"repeat_state\""),
        ("forced_coin_blocked", "\"coin_stays\""),
        ("cannibal_item", "\"lost\""),
        ("cannon_open_sea", "\"swim\""),
        ("respawn_limit", "\"fighters\""),
        ("newborn_skips_turn", "false"),
        ("respawn_allies", "false"),
        ("trap_enemy_entry", "\"attacker_trapped\""),
        ("trap_release", "\"friend_or_bottle\""),
        ("rum_timing", "\"with_move\""),
        ("rum_sharing", "\"allies\""),
        ("lighthouse", "\"flip4\""),
        ("quake_scope", "\"all\""),
        ("quake_rotate", "false"),
        ("caramba", "\"noop\""),
        ("jungle_items", "\"none\""),
        ("spinner_coin_block", "true"),
        ("cave_model", "\"classic\""),
        ("friday_missionary_meet", "\"both_leave\""),
        ("missionary_block", "\"strict\""),
        ("game_end", "\"all_gold\""),
        ("swim_moves", "\"eight\""),
        ("grass_duration", "\"round\""),
        ("stall_rounds", "50"),
        ("tiebreak", "\"none\""),
    ] {
        assert!(
            rules.contains(&format!("  {name} = {default}")),
            "{name} = {default} in\n{rules}"
        );
    }
    assert!(
        rules.contains("teams = [\"white\", \"yellow\", \"black\", \"red\"]"),
        "{rules}"
    );
}

#[test]
fn variants_load() {
    for v in [
        "treasure_island",
        "classic",
        "edition2020",
        "jackal_team",
        "custom_example",
    ] {
        let mut j = J::fresh(&format!("--seed 4 --variant {v}"));
        j.run("auto 40");
    }
    let mut j = J::fresh("--seed 4 --variant classic");
    assert_eq!(j.lua("require('jackal.turns').gold_in_play(G)"), "37");
    let mut j = J::fresh("--seed 4 --variant edition2020");
    assert_eq!(j.lua("G:switch('plane_deferred')"), "false");
}

#[test]
fn first_team_and_teams() {
    let mut j = J::fresh("--seed 1 --set first_team=black");
    assert_eq!(j.turn(), "black");
    let mut j = J::fresh("--seed 1 --players 2 --set teams=['white','black']");
    assert!(j.export().contains("ships white=G1 black=G13"));
    let mut j = J::fresh("--seed 1 --players 3");
    assert!(
        j.export().contains("ships white=G1 yellow=A7 black=G13\n"),
        "{}",
        j.export()
    );
}

#[test]
fn ship_pickup_and_allied_sailing() {
    let mut j = J::new(&pos("set ship_pickup=false\nW1 F1\n"));
    assert!(!j.has("ship G1->F1"));
    let mut j = J::new(&pos(
        "set seating=2v2 allied_ship_sail=false\nW1 ship:black\nW2 E5\nW3 E6\ncoins K5=1\n",
    ));
    assert!(
        !j.moves().iter().any(|m| m.starts_with("ship G13")),
        "{:?}",
        j.moves()
    );
}

#[test]
fn plane_at_once_and_no_transit_targets() {
    let mut j = J::new(&pos("set plane_deferred=false\ntiles E5=#pl\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert!(j.status().contains("where to fly"), "{}", j.status());
    let mut j = J::new(&pos(
        "set plane_targets=no_transit\ntiles E5=pl K10=ic K11=cr K12=hs\nW1 E5\n",
    ));
    let m = j.moves_of("W1 ");
    assert_eq!(m.len(), 114, "{m:?}");
    assert!(
        !m.iter()
            .any(|x| x.ends_with("K10") || x.ends_with("K11") || x.ends_with("K12"))
    );
}

#[test]
fn horse_into_sea() {
    let body = "ships white=D1 yellow=A7 black=G13 red=M7\ntiles C3=hs\nW1 C4\n";
    let mut j = J::new(&pos(&format!("set horse_into_sea=ships_only\n{body}")));
    j.play("W1 C4->C3");
    let m = j.moves();
    assert!(
        m.contains(&"D1".to_string()) && !m.contains(&"A4".to_string()),
        "{m:?}"
    );
    let mut j = J::new(&pos(&format!("set horse_into_sea=no\n{body}")));
    j.play("W1 C4->C3");
    let m = j.moves();
    assert!(
        !m.contains(&"D1".to_string()) && !m.contains(&"A4".to_string()),
        "{m:?}"
    );
}

#[test]
fn loop_rule_fourth_visit() {
    // two arrows facing each other: the fourth visit of E4 kills
    let mut j = J::new(&pos(
        "set loop_rule=fourth_visit\ntiles E4=a1E F4=a1W\nW1 E3\n",
    ));
    j.play("W1 E3->E4");
    assert_eq!(j.place("W1"), "dead");
    assert_eq!(j.log().matches("a loop").count(), 1);
}

#[test]
fn forced_coin_blocked_move_illegal() {
    let body = "tiles E4=a1N E5=jg\nW1 D4\ncoins D4=1\n";
    let mut j = J::new(&pos(body));
    assert!(j.has("W1 D4->E4 +coin"));
    let mut j = J::new(&pos(&format!(
        "set forced_coin_blocked=move_illegal\n{body}"
    )));
    assert!(!j.has("W1 D4->E4 +coin"));
    assert!(j.has("W1 D4->E4"));
    assert!(j.has("W1 D4->D5 +coin"));
}

#[test]
fn cannibal_item_stays() {
    let mut j = J::new(&pos(
        "set cannibal_item=stays\ntiles E5=cn\nW1 D5\ncoins D5=1\n",
    ));
    j.play("W1 D5->E5 +coin");
    assert_eq!(j.place("W1"), "dead");
    assert_eq!(j.lost(), 0);
    assert_eq!(j.coins_at("E5"), 1);
}

#[test]
fn cannon_open_sea_die() {
    let mut j = J::new(&pos("set cannon_open_sea=die\ntiles E5=guW\nW1 D4\n"));
    j.play("W1 D4->E5");
    assert_eq!(j.place("W1"), "dead");
}

#[test]
fn trap_switches() {
    let mut j = J::new(&pos(
        "set trap_enemy_entry=attacker_free\nturn black\ntiles E5=tr\nW1 E5 trapped\nB1 D5\n",
    ));
    j.play("B1 D5->E5");
    assert_eq!(j.place("W1"), "ship");
    assert!(!j.char_line("B1").unwrap().contains("trapped"));
    let mut j = J::new(&pos(
        "set trap_release=friend_only\ntiles G5=tr\nW2 G5 trapped\nbottles white=1\n",
    ));
    assert!(!j.moves().iter().any(|m| m.contains("+rum")));
}

#[test]
fn rum_timing_and_sharing() {
    let mut j = J::new(&pos(
        "set rum_timing=free_action\ntiles G5=tr\nW2 G5 trapped\nbottles white=1\n",
    ));
    j.play("W2 +rum");
    assert_eq!(j.turn(), "white");
    assert!(!j.char_line("W2").unwrap().contains("trapped"));
    assert!(j.has("W2 G5->H5"));

    let mut j = J::new(&pos(
        "set rum_timing=free_action\ntiles J5=s4\nW3 J5:1\nB1 J5:4\nbottles white=1\n",
    ));
    j.play("W3 +rum");
    assert_eq!(j.place("W3"), "J5:4");
    assert_eq!(j.place("B1"), "ship");

    let mut j = J::new(&pos(
        "set rum_timing=end_of_turn\ntiles G5=tr\nW2 G5 trapped\nW3 D4\nbottles white=1\n",
    ));
    assert!(!j.moves().iter().any(|m| m.contains("rum")));
    j.play("W3 D4->D5");
    assert!(j.has("W2 +rum"), "{:?}", j.moves());
    j.play("W2 +rum");
    assert_eq!(j.turn(), "yellow");

    let mut j = J::new(&pos(
        "set seating=2v2 rum_sharing=team\ntiles G5=tr\nW2 G5 trapped\nbottles black=1\n",
    ));
    assert!(!j.moves().iter().any(|m| m.contains("+rum")));
}

#[test]
fn lighthouse_peek() {
    let mut j = J::new(&pos(
        "set lighthouse=peek4\ntiles E5=#lh C3=#gr C4=#fr C5=#r2 C6=#c1\nW1 D5\n",
    ));
    j.play("W1 D5->E5");
    j.play("C3");
    j.play("C4");
    j.play("C5");
    for c in ["C3", "C4", "C5", "C6"] {
        assert!(j.token(c).starts_with('#'), "{c}");
    }
    assert_eq!(
        j.lua("table.concat(G:secret_get('seen_W'), ',')"),
        "C3,C4,C5,C6"
    );
    assert!(j.export().contains("seen white=C3,C4,C5,C6"));
    assert_eq!(j.lua("G:get('grass')"), "0");
    // the seen tiles show on white's board only
    let white = j.run("show P1");
    let black = j.run("show P3");
    assert!(white.contains('⁂') && !black.contains('⁂'));

    let mut j = J::new(&pos(
        "set lighthouse=peek4_permute\ntiles E5=#lh C3=#gr C4=#fr C5=#r2 C6=#c1\nW1 D5\n",
    ));
    j.play("W1 D5->E5");
    j.play("C3");
    j.play("C4");
    j.play("C5");
    assert!(
        j.status().contains("put a tile back on C3"),
        "{}",
        j.status()
    );
    j.play("c1");
    j.play("r2");
    j.play("gr");
    assert_eq!(j.token("C3"), "#c1");
    assert_eq!(j.token("C4"), "#r2");
    assert_eq!(j.token("C5"), "#gr");
    assert_eq!(j.token("C6"), "#fr");
}

#[test]
fn quake_scope_and_rotation() {
    let body = "tiles E5=#eq C3=#. K9=cr\nW1 D5\n";
    let mut j = J::new(&pos(&format!("set quake_scope=closed\n{body}")));
    j.play("W1 D5->E5");
    // fewer than two closed tiles without anyone or anything on them: nothing happens
    assert_eq!(j.turn(), "yellow");
    assert_eq!(j.token("C3"), "#.");
    let mut j = J::new(&pos(&format!("set quake_scope=open\n{body}")));
    j.play("W1 D5->E5");
    assert!(!j.moves().contains(&"C3".to_string()));
    assert!(j.moves().contains(&"K9".to_string()));

    let mut j = J::new(&pos("set quake_rotate=true\ntiles E5=#eq C3=a1N\nW1 D5\n"));
    j.play("W1 D5->E5");
    j.play("C3");
    j.play("K9");
    assert!(
        j.status().contains("how to turn the moved tile"),
        "{}",
        j.status()
    );
    assert_eq!(j.moves(), ["a1N", "a1E", "a1S", "a1W"]);
    j.play("a1W");
    assert_eq!(j.token("K9"), "a1W");
}

#[test]
fn caramba_remove_and_jungle_items() {
    let mut j = J::new(&pos("set caramba=remove\ntiles E5=#ca\nW1 D5\n"));
    j.play("W1 D5->E5");
    assert_eq!(j.token("E5"), "ca-");
    assert!(j.log().contains("the tile is now empty"));
    let mut j = J::new(&pos(
        "set jungle_items=allowed\ntiles E5=jg\nW1 D5\ncoins D5=1\n",
    ));
    assert!(j.has("W1 D5->E5 +coin"));
}

#[test]
fn spinner_coin_block_off() {
    let mut j = J::new(&pos(
        "set spinner_coin_block=false\ntiles E5=s2\nW1 E5:1\nB1 E5:2\ncoins E5:1=1\n",
    ));
    // offered, but the coin stays behind when the hit happens (rule 5)
    assert!(!j.has("W1 E5:1->E5:2 +coin"));
}

#[test]
fn cave_archipelago() {
    let mut j = J::new(&pos(
        "set cave_model=archipelago\ntiles C4=cv J9=cv\nW1 C5\n",
    ));
    j.play("W1 C5->C4");
    assert_eq!(j.place("W1"), "C4");
}

const CAVES: &str = "tiles C4=cv J9=cv E5=#cv\nW1 D5\nY1 lost:C4 +coin\nY2 lost:J9\n";

#[test]
fn cave_swap_carries_the_opener_to_the_entrance() {
    let mut j = J::new(&pos(&format!("set cave_model=swap\n{CAVES}")));
    j.play("W1 D5->E5");
    // the first one lost comes out on the new exit with his coin; the opener ends on the
    // first one's entrance; the second one lost stays below
    assert_eq!(j.place("Y1"), "E5");
    assert_eq!(j.place("W1"), "C4");
    assert_eq!(j.place("Y2"), "lost:J9");
    assert_eq!(j.coins_at("E5"), 1);
    assert_eq!(j.turn(), "yellow");

    // classic: the first one's allies come out too, and the opener chooses an exit
    let mut j = J::new(&pos(CAVES));
    j.play("W1 D5->E5");
    assert_eq!(j.place("Y2"), "E5");
    assert_eq!(j.moves(), vec!["J9".to_string(), "C4".to_string()]);
}

#[test]
fn cave_swap_falls_back_to_the_classic_rule() {
    // the entrance is held by an enemy of the opener: he goes underground to a free exit
    let mut j = J::new(&pos(&format!("set cave_model=swap\n{CAVES}B1 C4\n")));
    j.play("W1 D5->E5");
    assert_eq!(j.place("Y1"), "E5");
    assert_eq!(j.place("W1"), "J9");
    assert_eq!(j.place("Y2"), "lost:J9");
    // nobody lost: an open cave works as in the classic model
    let mut j = J::new(&pos(
        "set cave_model=swap\ntiles C4=cv J9=cv E5=#cv\nW1 D5\n",
    ));
    j.play("W1 D5->E5");
    assert_eq!(j.moves(), vec!["J9".to_string(), "C4".to_string()]);
    j.play("J9");
    assert_eq!(j.place("W1"), "J9");
}

#[test]
fn missionary_switches() {
    let mut j = J::new(&pos(
        "set friday_missionary_meet=ignore missionary_block=classic\nFri W D5\nMis Y E5\n",
    ));
    j.play("Fri D5->E5");
    assert_eq!(j.place("Fri"), "E5");
    assert_eq!(j.place("Mis"), "E5");
    let mut j = J::new(&pos(
        "set missionary_block=classic\nturn black\nMis W E5\nW1 E5\nB1 F5\n",
    ));
    j.play("B1 F5->E5");
    assert_eq!(
        j.place("W1"),
        "E5",
        "nobody is hit on the missionary's cell"
    );
    assert_eq!(j.place("B1"), "E5");
}

#[test]
fn game_end_switches() {
    // all_open: the last closed tile turned up ends the game
    let mut j = J::new(&pos(
        "set game_end=all_open\ntiles E5=#.\nW1 D5\ncoins K5=1\n",
    ));
    j.play("W1 D5->E5");
    assert!(j.over(), "{}", j.status());
    // decided: the leader cannot be caught
    let mut j = J::new(&pos(
        "set game_end=decided\nships white=G1 black=G13\nbanked white=5\nW1 F2\ncoins F2=1 K5=1\n",
    ));
    j.play("W1 F2->G1 +coin");
    assert!(j.over(), "{}", j.status());
    // first_to
    let mut j = J::new(&pos(
        "set game_end=first_to first_to_n=6\nships white=G1 black=G13\nbanked white=5\nW1 F2\ncoins F2=1 K5=3\n",
    ));
    j.play("W1 F2->G1 +coin");
    assert!(
        j.over() && j.status().contains("white wins 6–0"),
        "{}",
        j.status()
    );
}

#[test]
fn tiebreak_living() {
    let body = "ships white=G1 black=G13\nbanked white=19 black=20\nW1 F2\nB1 dead\ncoins F2=1\n";
    let mut j = J::new(&pos(&format!("set tiebreak=living\n{body}")));
    j.play("W1 F2->G1 +coin");
    assert!(j.status().contains("white wins 20–20"), "{}", j.status());
}

#[test]
fn swim_moves_orthogonal() {
    let mut j = J::new(&pos("set swim_moves=orthogonal\nW1 C1\n"));
    assert_eq!(j.moves_of("W1 "), ["W1 C1->B1", "W1 C1->D1"]);
}

#[test]
fn grass_teams_plus_one() {
    let mut j = J::new(&pos(
        "set grass_duration=teams_plus_one\ntiles E5=#gr\nW1 D5\n",
    ));
    j.play("W1 D5->E5");
    assert_eq!(j.prop("grass"), "5");
}

#[test]
fn stall_rounds_end_the_game() {
    let mut j = J::new(&pos(
        "set stall_rounds=2\nships white=G1 black=G13\ncoins K5=1\n",
    ));
    for _ in 0..4 {
        let m = j.moves();
        let pick = m.iter().find(|l| l.starts_with("ship")).unwrap().clone();
        j.play(&pick);
    }
    assert!(j.over(), "{}", j.status());
    assert!(
        j.status().contains("no progress in 2 rounds"),
        "{}",
        j.status()
    );
}
