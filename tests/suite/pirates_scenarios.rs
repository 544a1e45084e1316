//! The scenario checklist of spec §19 on the test map TM1: each test sets up the position,
//! forces the spins, acts and checks the outcome (numbers are the checklist's).

use crate::common;
use crate::pirates;

use pirates::Pi;

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn s01_default_setup_and_golden_choice() {
    let mut g = Pi::fresh("--variant author --seed 1");
    let e = g.export();
    for line in [
        "ship G1 galleon spain S1 Vera_Cruz holes=0",
        "ship G2 galleon spain S1 Vera_Cruz holes=0",
        "ship G3 galleon spain S1 Vera_Cruz holes=0",
        "ship B1 brig pirate P1 Tortuga holes=0",
        "ship B2 brig pirate P1 Port_Royal holes=0",
        "ship B3 brig pirate P1 Nassau holes=0",
        "ship B4 brig pirate P1 Plymouth holes=0",
        "ship B5 brig pirate P1 La_Rochelle holes=0",
        "ship B6 brig pirate P1 Vlissingen holes=0",
    ] {
        assert!(e.contains(line), "{line} in\n{e}");
    }
    assert_eq!(g.moves(), ["G1", "G2", "G3"]);
    assert!(g.status().contains("S1"), "{}", g.status());
    g.play("G2");
    assert!(g.status().starts_with("waiting for spin"), "{}", g.status());
}

#[test]
fn s02_five_players_deal_round_robin() {
    let mut g = Pi::fresh("--variant author --seed 1 --players 5");
    let e = g.export();
    for line in [
        "ship G1 galleon spain S1 ",
        "ship G2 galleon spain S2 ",
        "ship G3 galleon spain S1 ",
        "ship B1 brig pirate P1 ",
        "ship B4 brig pirate P1 ",
        "ship B2 brig pirate P2 ",
        "ship B5 brig pirate P2 ",
        "ship B3 brig pirate P3 ",
        "ship B6 brig pirate P3 ",
    ] {
        assert!(e.contains(line), "{line} in\n{e}");
    }
    assert!(
        e.contains("players S1=spain S2=spain P1=pirate P2=pirate P3=pirate"),
        "{e}"
    );
    // The kernel's seats carry the players' names (seats.names as a function of the count).
    assert_eq!(g.run("as S2"), "viewing as S2");
    assert_eq!(g.run("as P3"), "viewing as P3");
}

#[test]
fn s03_the_golden_choice_is_hidden_from_the_pirates() {
    let mut g = Pi::fresh("--variant author --seed 1");
    g.play("G2");
    g.run("as S1");
    assert!(g.ship("G2").unwrap().ends_with("golden"));
    g.run("as P1");
    let e = g.export();
    assert!(
        e.contains("golden hidden") && !e.contains(" golden\n"),
        "{e}"
    );
    let log = g.run("log");
    assert!(!log.contains("G2"), "{log}");
    assert!(
        !g.run("show").contains("golden\n")
            || !g
                .run("show")
                .contains("G2 galleon S1 Vera Cruz, 0 holes golden")
    );
}

#[test]
fn s08_author_offers_every_distance_printed_only_the_full_one() {
    let mut g = Pi::at("weather wind N / G1@(6,5)");
    assert_eq!(
        g.starting("move G1 S "),
        sorted(&["move G1 S 1", "move G1 S 2", "move G1 S 3"])
    );
    assert!(g.has("end"));
    let mut p = Pi::printed("weather wind N / G1@(6,5)");
    assert_eq!(p.starting("move G1 S "), ["move G1 S 3"]);
    assert!(!p.has("end"));
    p.play("move G1 S 3");
    assert!(p.has("end"));
}

#[test]
fn s06_s07_points_of_sail() {
    let mut g = Pi::printed("weather wind N / G1@(6,5)");
    assert_eq!(
        g.starting("move G1 "),
        sorted(&[
            "move G1 NE 1",
            "move G1 E 2",
            "move G1 SE 3",
            "move G1 S 3",
            "move G1 SW 3",
            "move G1 W 2",
            "move G1 NW 1"
        ])
    );
    let mut g = Pi::printed("weather wind SW / G1@(6,5)");
    assert_eq!(
        g.starting("move G1 "),
        sorted(&[
            "move G1 N 3",
            "move G1 NE 3",
            "move G1 E 3",
            "move G1 SE 2",
            "move G1 S 1",
            "move G1 W 1",
            "move G1 NW 2"
        ])
    );
}

#[test]
fn s09_a_ship_in_the_way_shortens_the_course() {
    let mut g = Pi::at("weather wind W / G1@(6,5) / B1@(8,5)");
    assert_eq!(g.starting("move G1 E "), ["move G1 E 1"]);
    let mut p = Pi::printed("weather wind W / G1@(6,5) / B1@(8,5)");
    assert!(p.starting("move G1 E ").is_empty());
}

#[test]
fn s10_land_in_the_way() {
    let mut g = Pi::at("turn P1 / weather wind W / B1@(8,3)");
    assert_eq!(g.starting("move B1 E "), ["move B1 E 1"]);
    let mut p = Pi::printed("turn P1 / weather wind W / B1@(8,3)");
    assert!(p.starting("move B1 E ").is_empty());
}

#[test]
fn s11_the_corner_rule() {
    let mut g = Pi::at("turn P1 / weather wind N / B1@(1,2)");
    assert!(g.starting("move B1 NE ").is_empty());
    let mut g = Pi::at("turn P1 / weather wind N / B1@(2,1)");
    assert!(g.has("move B1 SE 3"));
    let mut g = Pi::at("set corner_cutting=any_land / turn P1 / weather wind N / B1@(2,1)");
    assert!(g.starting("move B1 SE ").is_empty());
}

#[test]
fn s12_calm_rowing() {
    let mut g = Pi::at("weather calm / G1@(6,5)");
    assert!(g.starting("move G1").is_empty() && g.starting("row G1").is_empty());
    let mut g = Pi::at("turn P1 / weather calm / B1@(6,7)");
    assert_eq!(g.starting("row B1 ").len(), 8);
    assert!(g.has("end"));
    let mut g = Pi::at("turn P1 / weather calm / B1@(9,3)");
    assert!(!g.has("row B1 E"));
}

#[test]
fn s13_rowing_upwind_is_a_house_rule_for_brigantines() {
    let mut g = Pi::at("turn P1 / weather wind N / B1@(6,5)");
    assert!(g.has("row B1 N"));
    g.play("row B1 N");
    assert!(g.ship("B1").unwrap().contains("(6,4)"));
    let mut p = Pi::printed("turn P1 / weather wind N / B1@(6,5)");
    assert!(!p.has("row B1 N"));
    let mut g = Pi::at("weather wind N / G1@(6,5)");
    assert!(!g.has("row G1 N"));
}

#[test]
fn s14_against_the_current() {
    let mut g = Pi::at("turn P1 / weather wind E / B1@(7,9)");
    assert_eq!(g.starting("move B1 W "), ["move B1 W 1"]);
    g.play("move B1 W 1");
    assert!(g.ship("B1").unwrap().contains("(7,9)"), "carried back");
    let mut g = Pi::at("set against_current=free / turn P1 / weather wind E / B1@(7,9)");
    g.play("move B1 W 3");
    assert!(g.ship("B1").unwrap().contains("(5,9)"));
    let mut g = Pi::at("set against_current=start_on_tip / turn P1 / weather wind E / B1@(7,9)");
    assert!(g.has("move B1 W 3"));
    let mut p = Pi::printed("turn P1 / weather wind E / B1@(7,9)");
    assert!(p.starting("move B1 W ").is_empty());
}

#[test]
fn s15_hurricane_drift_moves_only_the_players_ships() {
    let mut g = Pi::at("turn P1 / B1@(6,5) / B2@(3,5) / G1@(9,7)");
    g.spin("hurricane");
    g.spin("W");
    assert_eq!(g.moves(), ["drift"]);
    g.play("drift");
    assert!(g.ship("B1").unwrap().contains("(7,5)"));
    assert!(g.ship("B2").unwrap().contains("(4,5)"));
    assert!(g.ship("G1").unwrap().contains("(9,7)"));
}

#[test]
fn s16_printed_wreck_removes_the_ship() {
    let mut g = Pi::printed("turn P1 / weather hurricane W / B1@(9,3) / B2@(5,5)");
    g.play("drift");
    assert!(g.ship("B1").is_none());
}

#[test]
fn s17_the_shipwreck_respin() {
    for (spin, wrecked) in [("E", false), ("SW", true), ("N", false), ("calm", false)] {
        let mut g = Pi::at("turn P1 / weather hurricane W / B1@(9,3) / B2@(5,5)");
        g.play("drift");
        assert!(g.status().starts_with("waiting for spin"), "{}", g.status());
        g.spin(spin);
        assert_eq!(g.ship("B1").is_none(), wrecked, "re-spin {spin}");
        if !wrecked {
            assert!(g.ship("B1").unwrap().contains("(9,3)"));
        }
    }
    let mut g =
        Pi::at("house -shipwreck_respin / turn P1 / weather hurricane W / B1@(9,3) / B2@(5,5)");
    g.play("drift");
    assert!(
        g.ship("B1").is_none(),
        "the house rule switched off wrecks at once"
    );
}

#[test]
fn s18_s19_blocked_drifts_stay() {
    let mut g = Pi::at("turn P1 / weather hurricane W / B1@(6,5) / G1@(7,5)");
    g.play("drift");
    assert!(g.ship("B1").unwrap().contains("(6,5)"));
    let mut g = Pi::at("turn P1 / weather hurricane W / B1@(6,5) / B2@(7,5) / B3@(6,7)");
    g.play("drift");
    assert!(g.ship("B1").unwrap().contains("(6,5)"));
    assert!(g.ship("B2").unwrap().contains("(7,5)"));
    assert!(g.ship("B3").unwrap().contains("(7,7)"));
}

#[test]
fn s20_s21_s22_ports_and_edges_in_a_hurricane() {
    let mut g = Pi::at("weather hurricane W / G1@Testport / G2@(6,5)");
    assert_eq!(g.moves(), ["drift"]);
    g.play("drift");
    assert!(g.ship("G1").unwrap().contains("Testport"));
    assert!(g.ship("G2").unwrap().contains("(7,5)"));
    let mut g = Pi::at("turn P1 / weather hurricane W / B1@(13,5)");
    g.play("drift");
    assert!(g.ship("B1").unwrap().contains("(13,5)"));
    let mut g = Pi::at("weather hurricane E / G1@(2,6)");
    g.play("drift");
    assert!(g.ship("G1").unwrap().contains("Testport"));
    let mut g = Pi::at("turn P1 / weather hurricane E / B1@(2,6)");
    g.play("drift");
    assert!(g.ship("B1").unwrap().contains("(2,6)"));
}

#[test]
fn s23_s24_s25_currents() {
    let mut g = Pi::at("weather wind W / G1@(1,9)");
    g.play("move G1 E 3");
    assert!(g.ship("G1").unwrap().contains("(5,9)"));
    let mut g = Pi::at("set current_chain=on / weather wind W / G1@(1,9)");
    g.play("move G1 E 3");
    assert!(g.ship("G1").unwrap().contains("(7,9)"));
    let mut g = Pi::at("weather calm / G1@(5,9) / B1@(9,9)");
    g.play("end");
    assert!(g.ship("G1").unwrap().contains("(6,9)"));
    let mut g = Pi::at("weather wind W / G1@(1,9) / B1@(5,9)");
    g.play("move G1 E 3");
    assert!(g.ship("G1").unwrap().contains("(4,9)"));
}

#[test]
fn s26_s27_ports() {
    let mut g = Pi::at("weather wind E / G1@Testport / G2@Testport / G3@Testport");
    g.play("move G1 W 1");
    assert!(g.ship("G1").unwrap().contains("(0,6)"));
    let mut g = Pi::printed("weather wind N / G1@(12,3)");
    assert_eq!(g.starting("move G1 S "), Vec::<String>::new());
    let mut g = Pi::at("weather wind N / G1@(12,3)");
    assert_eq!(
        g.starting("move G1 S "),
        sorted(&["move G1 S 1", "move G1 S 2"])
    );
    let mut g = Pi::at("turn P1 / weather wind N / B1@(10,8)");
    assert!(g.has("move B1 E 1"));
    let mut g = Pi::at("weather wind N / G1@(10,8)");
    assert!(!g.has("move G1 E 1"));
    let mut g = Pi::at("set neutral_ports_open_to_spain=on / weather wind N / G1@(10,8)");
    assert!(g.has("move G1 E 1"));
    let mut g = Pi::at("turn P1 / weather wind N / B1@(2,7)");
    assert!(!g.has("move B1 S 1"));
}

#[test]
fn s28_s30_fire_ranges_and_ports() {
    let mut g = Pi::at("weather wind N / G1@(6,5) / B1@(8,3) / B2@(9,5)");
    assert!(g.has("fire G1 B1") && !g.has("fire G1 B2"));
    let mut g = Pi::at("turn P1 / weather wind N / G1@(6,5) / B1@(7,6) / B2@(8,5)");
    assert!(g.has("fire B1 G1") && !g.has("fire B2 G1"));
    let mut g = Pi::at("turn P1 / weather wind N / G1@Testport / B1@(2,6)");
    assert!(!g.has("fire B1 G1"));
}

#[test]
fn s29_shot_spins() {
    for (spins, holes) in [(&["N"][..], 1), (&["NE"][..], 0), (&["calm", "S"][..], 1)] {
        let mut g = Pi::at("turn P1 / weather wind N / G1@(6,5) / B1@(7,6)");
        g.play("fire B1 G1");
        for s in spins {
            g.spin(s);
        }
        assert!(
            g.ship("G1").unwrap().contains(&format!("holes={holes}")),
            "{spins:?}"
        );
    }
    let mut g = Pi::at("set shot_wedge=miss / turn P1 / weather wind N / G1@(6,5) / B1@(7,6)");
    g.play("fire B1 G1");
    g.spin("calm");
    assert!(g.ship("G1").unwrap().contains("holes=0"));
    assert!(!g.status().starts_with("waiting"));
}

#[test]
fn s31_s33_one_shot_per_turn_and_fire_timing() {
    let mut g = Pi::at("turn P1 / weather wind N / G1@(6,5) / B1@(7,6) / B2@(5,6)");
    g.play("fire B1 G1");
    g.spin("NE");
    assert!(g.starting("fire").is_empty() && g.starting("salvo").is_empty());
    g.play("move B1 S 1");
    let mut g =
        Pi::at("set fire_timing=before_only / turn P1 / weather wind N / G1@(6,5) / B1@(7,5)");
    g.play("move B1 S 1");
    assert!(!g.has("fire B1 G1"));
    let mut g = Pi::at(
        "set shots_per_turn=per_ship / turn P1 / weather wind N / G1@(6,5) / B1@(7,6) / B2@(5,6)",
    );
    g.play("fire B1 G1");
    g.spin("NE");
    assert!(g.has("fire B2 G1") && !g.has("fire B1 G1"));
}

#[test]
fn s32_salvo() {
    let mut g = Pi::at("turn P1 / weather wind N / G1@(6,5) / B1@(5,5) / B2@(7,6)");
    g.play("salvo B1,B2 G1");
    g.spin("W");
    assert!(g.ship("G1").unwrap().contains("holes=2"));
    assert!(g.ship("B1").unwrap().contains("fired") && g.ship("B2").unwrap().contains("fired"));
    let mut g = Pi::at("turn P1 / weather wind N / G1@(6,5) / B1@(5,5) / B2@(7,6)");
    g.play("salvo b1, b2 g1");
    g.spin("SW");
    assert!(g.ship("G1").unwrap().contains("holes=0"));
    let mut g =
        Pi::at("set salvo_hits=one / turn P1 / weather wind N / G1@(6,5) / B1@(5,5) / B2@(7,6)");
    g.play("salvo B1,B2 G1");
    g.spin("W");
    assert!(g.ship("G1").unwrap().contains("holes=1"));
}

#[test]
fn s34_sinking_does_not_tell_which_galleon_is_golden() {
    let mut g = Pi::at("weather wind N / G1@(6,5) / B1@(7,6)h1");
    g.play("fire G1 B1");
    g.spin("N");
    assert!(g.ship("B1").is_none());
    let mut g = Pi::at("turn P1 / weather wind N / G1@(6,5)h2 / G2*@Testport / B1@(7,6)");
    g.play("fire B1 G1");
    g.spin("N");
    assert!(g.ship("G1").is_none());
    g.run("as P1");
    assert!(g.export().contains("golden hidden"));
}

#[test]
fn s35_repair() {
    let mut g =
        Pi::at("turn P1 / weather wind N / G1@(3,3) / ship B1 brig pirate P1 Testbase holes=1");
    g.play("repair B1");
    assert!(g.starting("move B1").is_empty());
    g.play("end");
    assert!(g.ship("B1").unwrap().contains("holes=0"));
    let mut g =
        Pi::at("turn P1 / weather wind N / G1@(3,3) / ship B1 brig pirate P1 Testharbour holes=1");
    assert!(g.has("repair B1"));
    let mut g = Pi::at("weather wind N / G1@(6,5)h1 / B1@(3,3)");
    assert!(!g.has("repair G1"));
}

#[test]
fn s36_capture_by_a_pirate() {
    let mut g = Pi::setup(
        "author",
        "S1=spain P1=pirate P2=pirate",
        "turn P2 / weather wind N / G2*@(6,5)h2 / ship B2 brig pirate P2 (7,5) holes=0 / B1@(0,0)",
    );
    g.play("fire B2 G2");
    g.spin("E");
    let s = g.ship("G2").unwrap();
    assert!(
        s.contains("galleon pirate P2") && s.contains("holes=2"),
        "{s}"
    );
    assert!(g.export().contains("golden revealed"));
    assert!(g.starting("move G2").is_empty());
}

#[test]
fn s37_salvo_capture() {
    let mut g = Pi::at("turn P1 / weather wind N / G2*@(6,5)h1 / B1@(5,5) / B2@(7,6)");
    g.play("salvo B1,B2 G2");
    g.spin("N");
    let s = g.ship("G2").unwrap();
    assert!(s.contains("pirate P1") && s.contains("holes=2"), "{s}");
}

#[test]
fn s38_recapture() {
    let body =
        "weather wind N / ship G2 galleon pirate P1 (6,5) holes=2 golden / G1@(8,5) / B1@(1,3)";
    let mut g = Pi::at(&format!("golden revealed / {body}"));
    g.play("fire G1 G2");
    g.spin("N");
    let s = g.ship("G2").unwrap();
    assert!(s.contains("spain S1") && s.contains("holes=2"), "{s}");
    let body0 = "golden revealed / weather wind N / ship G2 galleon pirate P1 (6,5) holes=0 golden / G1@(8,5) / B1@(1,3)";
    let mut g = Pi::at(body0);
    g.play("fire G1 G2");
    g.spin("N");
    assert!(g.ship("G2").unwrap().contains("spain S1"));
    let mut g = Pi::at(&format!("set recapture=sinking_hit / {body0}"));
    g.play("fire G1 G2");
    g.spin("N");
    let s = g.ship("G2").unwrap();
    assert!(s.contains("pirate P1") && s.contains("holes=1"), "{s}");
}

#[test]
fn s39_s40_a_pirate_held_golden_galleon() {
    let held =
        "golden revealed / turn P1 / ship G2 galleon pirate P1 (6,5) holes=0 golden / G1@(0,0)";
    let mut g = Pi::at(&format!("weather calm / {held}"));
    assert!(g.starting("move G2").is_empty() && g.starting("row G2").is_empty());
    let mut g = Pi::at(&format!("weather wind N / {held}"));
    assert!(g.has("move G2 S 3"));
    let mut g = Pi::at(
        "golden revealed / turn P1 / weather wind N / ship G2 galleon pirate P1 (12,5) holes=0 golden / G1@(0,0)",
    );
    g.play("move G2 S 1");
    assert!(g.over());
    assert!(g.result().contains("pirates win"));
    let mut g = Pi::printed(
        "golden revealed / turn P1 / weather wind N / ship G2 galleon pirate P1 (12,5) holes=0 golden / G1@(0,0)",
    );
    g.play("move G2 S 1");
    assert!(g.result().contains("pirates win"));
}

#[test]
fn s41_spain_wins_in_cadiz() {
    let mut g = Pi::at("weather wind N / G2*@(2,7) / G1@(6,5) / B1@(12,1)");
    g.play("move G2 S 1");
    assert!(g.result().contains("Spain wins"), "{}", g.result());
    g.run("as P1");
    assert!(g.export().contains("golden revealed"));
    let mut g = Pi::at("weather wind N / G1@(2,7) / G2*@(6,5) / B1@(12,1)");
    g.play("move G1 S 1");
    assert!(!g.over());
}

#[test]
fn s42_printed_golden_wreck_is_a_draw() {
    let mut g = Pi::printed("weather hurricane W / G2*@(9,3) / B1@(1,3)");
    g.play("drift");
    assert!(g.over());
    assert!(g.result().contains("draw"));
    assert!(g.export().contains("golden revealed"));
}

#[test]
fn s43_the_derelict_trophy() {
    let mut g = Pi::at("weather hurricane W / G2*@(9,3) / G1@(1,7) / B1@(7,5)");
    g.play("drift");
    g.spin("W");
    let s = g.ship("G2").unwrap();
    assert!(s.contains("none - (9,3)") && s.contains("derelict"), "{s}");
    assert!(g.export().contains("golden revealed"));
    g.play("end");
    g.spin("W");
    g.play("move B1 NE 1");
    let s = g.ship("G2").unwrap();
    assert!(s.contains("pirate P1") && !s.contains("derelict"), "{s}");
    assert!(g.starting("move G2").is_empty());
}

/// §19 item 43's last sentence: until claimed, the derelict cannot be targeted and blocks its
/// cell (B1 beside it, the wind from W: no shot at G2, no course E through (9,3)).
#[test]
fn s43_the_derelict_cannot_be_fired_at_and_blocks_its_cell() {
    let mut g = Pi::at("weather hurricane W / G2*@(9,3) / G1@(1,7) / B1@(8,3)");
    g.play("drift");
    g.spin("W");
    g.play("end");
    g.spin("W");
    assert!(g.ship("G2").unwrap().contains("derelict"));
    assert!(g.has("move B1 SE 1"), "B1 may sail: {:?}", g.moves());
    assert!(!g.has("fire B1 G2"), "{:?}", g.moves());
    assert!(g.starting("move B1 E ").is_empty(), "{:?}", g.moves());
}

/// §19 item 44's start: under `golden_wreck_trophy=transfer` G2* is wrecked on (9,3) in S1's
/// hurricane from W (re-spin W), and in P1's turn (wind W) B1 sails from (7,5) to (8,4) and
/// claims the treasure. `rest` adds ships (S1's drift from W).
fn claimed_by_transfer(rest: &str) -> Pi {
    let mut g = Pi::at(&format!(
        "house golden_wreck_trophy=transfer / weather hurricane W / G2*@(9,3) / B1@(7,5) / {rest}"
    ));
    g.play("drift");
    g.spin("W");
    g.play("end");
    g.spin("W");
    g.play("move B1 NE 1");
    g
}

#[test]
fn s44_the_trophy_transfer() {
    let mut g = claimed_by_transfer("G1@(1,7)");
    assert!(g.ship("G2").is_none());
    assert!(
        g.ship("B1").unwrap().contains("(8,4) holes=0 golden"),
        "{:?}",
        g.ship("B1")
    );
    g.play("end");
    g.spin("N");
    g.play("end");
    g.spin("N");
    g.play("move B1 SE 3");
    assert!(g.ship("B1").unwrap().contains("(11,7)") && !g.over());
    // Later, B1 entering a pirate base wins.
    g.play("end");
    g.spin("N");
    g.play("end");
    g.spin("W");
    g.play("move B1 NE 1");
    assert!(g.over());
    assert!(g.result().contains("pirates win"), "{}", g.result());
}

#[test]
fn s45_early_end() {
    let mut g = Pi::at(
        "golden revealed / turn P1 / weather wind N / ship G2 galleon pirate P1 (3,3) holes=0 golden / G1@(6,5)h2 / B1@(7,6)",
    );
    g.play("fire B1 G1");
    g.spin("N");
    assert!(g.result().contains("pirates win"), "{}", g.result());
}

#[test]
fn s46_max_rounds() {
    let mut g = Pi::at("set max_rounds=3 / round 3 / turn P1 / weather calm / G1@(6,5) / B1@(9,9)");
    g.play("end");
    assert!(g.over());
    assert!(g.result().contains("draw"));
    assert!(g.moves().is_empty());
}

#[test]
fn s47_per_ship_spins() {
    let mut g = Pi::at("set spin_scope=per_ship / turn P1 / G1@(0,0) / B1@(6,5) / B2@(3,5)");
    assert!(g.has("spin B1") && g.has("spin B2"));
    g.play("spin B1");
    g.spin("hurricane");
    g.spin("W");
    g.play("drift");
    assert!(g.ship("B1").unwrap().contains("(7,5)"));
    assert!(g.ship("B2").unwrap().contains("(3,5)"));
    assert!(g.has("spin B2"));
}

#[test]
fn s48_the_example_parses_and_round_trips() {
    let example = "pirates 1
map pirates-atlantic
variant author
players S1=spain P1=pirate
turn P1
round 9
weather wind W
golden hidden
ship G1 galleon spain S1 Havana holes=2
ship G2 galleon spain S1 (33,5) holes=1 golden
ship G3 galleon spain S1 (35,7) holes=0
ship B1 brig pirate P1 (34,6) holes=1 fired
ship B3 brig pirate P1 Nassau holes=0
ship B4 brig pirate P1 (41,4) holes=0
ship B5 brig pirate P1 5 holes=0
ship B6 brig pirate P1 6 holes=0
";
    let mut repl = common::repl(&common::rules());
    common::run(
        &mut repl,
        &[&format!("setup pirates --variant author {example}")],
    );
    let first = common::run(&mut repl, &["position"]);
    assert!(
        first.contains("ship G2 galleon spain S1 (33,5) holes=1 golden"),
        "{first}"
    );
    let mut again = common::repl(&common::rules());
    common::run(
        &mut again,
        &[&format!("setup pirates --variant author {first}")],
    );
    assert_eq!(common::run(&mut again, &["position"]), first);
    common::run(&mut repl, &["as P1"]);
    let p1 = common::run(&mut repl, &["position"]);
    assert!(
        !p1.contains(" golden\n") && p1.contains("golden hidden"),
        "{p1}"
    );
}

#[test]
fn bad_positions_are_refused_with_the_line() {
    let two = Pi::refused("G1@(6,5) / B1@(6,5)");
    assert!(two.contains("both on the sea cell"), "{two}");
    let land = Pi::refused("G1@(2,2)");
    assert!(land.contains("on land"), "{land}");
    let holes = Pi::refused("G1@(6,5)h3");
    assert!(holes.contains("sinks at 3"), "{holes}");
    let brig = Pi::refused("B1*@(6,5)");
    assert!(brig.contains("golden brigantine"), "{brig}");
    assert!(two.starts_with("position line "), "{two}");
    let widths = Pi::refused("set w_dir=30 / G1@(6,5)");
    assert!(
        widths.starts_with("position line 23: spinner widths:") && widths.contains("must be 45"),
        "{widths}"
    );
}

#[test]
fn a_forced_spin_the_spinner_cannot_produce_is_refused() {
    let mut g = Pi::at("G1@(6,5) / B1@(9,9)");
    let e = g.fails("roll sideways");
    assert!(!e.is_empty());
    assert!(g.status().starts_with("waiting for spin"));
}

#[test]
fn typed_moves_are_parsed_forgivingly() {
    let mut g = Pi::at("weather wind N / G1@(6,5) / B1@(9,9)");
    g.play("sail g1 south 3");
    assert!(g.ship("G1").unwrap().contains("(6,8)"));
    let mut g = Pi::at("weather wind N / G1@(6,5) / B1@(7,6)");
    g.play("G1 s 2");
    assert!(g.ship("G1").unwrap().contains("(6,7)"));
    let e = g.fails("play move G1 N 3");
    assert!(e.contains("not a legal action"), "{e}");
    // A salvo's ships in any order; the end left off where one action starts so.
    let mut g = Pi::at("turn P1 / weather wind N / G1@(6,5) / B1@(7,6) / B2@(5,6)");
    g.play("salvo b2 , b1 at g1");
    assert!(g.lua("G:get('shots')") == "1", "one salvo fired");
    let mut g = Pi::printed("weather wind N / G1@(6,5) / B1@(9,9)");
    g.play("g1 s");
    assert!(g.ship("G1").unwrap().contains("(6,8)"));
    let e = Pi::at("weather wind N / G1@(6,5) / B1@(9,9)").fails("play g1 s");
    assert!(e.contains("ambiguous"), "{e}");
}

#[test]
fn s35_a_galleon_repairs_two_holes_in_two_skipped_turns() {
    let mut g = Pi::at("weather wind N / ship G1 galleon spain S1 Testport holes=2 / B1@(9,9)");
    assert!(g.has("move G1 W 1"), "G1 could sail out of Testport");
    g.play("repair G1");
    let s = g.ship("G1").unwrap();
    assert!(s.contains("holes=2") && s.contains("repairing"), "{s}");
    let g1: Vec<String> = g.moves().into_iter().filter(|l| l.contains("G1")).collect();
    assert!(g1.is_empty(), "a repairing ship does nothing else: {g1:?}");
    g.play("end");
    let s = g.ship("G1").unwrap();
    assert!(s.contains("holes=1") && !s.contains("repairing"), "{s}");
    g.spin("N");
    g.play("end");
    g.spin("N");
    assert!(
        g.ship("G1").unwrap().contains("holes=1"),
        "not in P1's turn"
    );
    assert!(
        g.has("repair G1") && g.has("move G1 W 1"),
        "{:?}",
        g.moves()
    );
    g.play("repair G1");
    assert!(g.starting("move G1").is_empty());
    g.play("end");
    assert!(g.ship("G1").unwrap().contains("holes=0"));
    g.spin("N");
    g.play("end");
    g.spin("N");
    assert!(!g.has("repair G1"), "nothing left to repair");
    // Spain repairs in Cadiz too, but not in a neutral port it may shelter in.
    assert!(
        Pi::at("weather wind N / ship G1 galleon spain S1 Cadiz holes=1 / B1@(9,9)")
            .has("repair G1")
    );
    let mut g = Pi::at(
        "set neutral_ports_open_to_spain=on / weather wind N / ship G1 galleon spain S1 Testharbour holes=1 / B1@(9,9)",
    );
    assert!(!g.has("repair G1") && g.has("end"));
}

#[test]
fn s39_a_pirate_held_galleon_fires_at_two_and_uses_the_pirates_ports() {
    let held = |at: &str, rest: &str| {
        Pi::at(&format!(
            "golden revealed / turn P1 / weather wind N / ship G2 galleon pirate P1 {at} holes=0 golden / {rest}"
        ))
    };
    let mut g = held("(6,5)", "G1@(8,3) / G3@(9,5)");
    assert!(
        g.has("fire G2 G1") && !g.has("fire G2 G3"),
        "{:?}",
        g.moves()
    );
    g.play("fire G2 G1");
    g.spin("N");
    assert!(g.ship("G1").unwrap().contains("holes=1"));
    // Testharbour (E) and Testbase (1) are open to it; a neutral port is no win.
    let mut g = held("(10,8)", "G1@(0,0)");
    g.play("move G2 E 1");
    assert!(g.ship("G2").unwrap().contains("Testharbour"));
    assert!(!g.over());
    assert!(held("(12,3)", "G1@(0,0)").has("move G2 S 3"));
    // Testport and Cadiz are closed to it, where a Spanish galleon may go.
    let mut g = held("(2,6)", "G1@(0,0)");
    assert!(g.starting("move G2 W ").is_empty(), "{:?}", g.moves());
    assert!(Pi::at("weather wind N / G1@(2,6) / B1@(9,9)").has("move G1 W 1"));
    let mut g = held("(2,7)", "G1@(0,0)");
    assert!(g.starting("move G2 S ").is_empty(), "{:?}", g.moves());
    // A hurricane does not blow it into Testport either (§9 case 4).
    let mut g = Pi::at(
        "golden revealed / turn P1 / weather hurricane E / ship G2 galleon pirate P1 (2,6) holes=0 golden / G1@(0,0)",
    );
    g.play("drift");
    assert!(g.ship("G2").unwrap().contains("(2,6)"));
}

#[test]
fn s43_the_derelict_never_drifts_or_is_carried() {
    let derelict =
        |at: &str| format!("golden revealed / ship G2 galleon none - {at} holes=1 golden derelict");
    // Hurricanes from W in S1's turn and then in P1's: (7,5) is open sea, yet it stays.
    let mut g = Pi::at(&format!(
        "weather hurricane W / {} / G1@(2,3) / B1@(12,1)",
        derelict("(6,5)")
    ));
    g.play("drift");
    assert!(g.ship("G1").unwrap().contains("(3,3)"), "S1's ship drifted");
    assert!(g.ship("G2").unwrap().contains("none - (6,5)"));
    g.play("end");
    g.spin("hurricane");
    g.spin("W");
    g.play("drift");
    assert!(g.ship("B1").unwrap().contains("(13,1)"), "B1 drifted");
    assert!(g.ship("G2").unwrap().contains("none - (6,5)"));
    // On a current's tail, at the end of S1's turn and of P1's: not carried.
    for timing in ["after_manoeuvre", "start_of_turn"] {
        let mut g = Pi::at(&format!(
            "set current_timing={timing} / weather calm / {} / G1@(0,0) / B1@(12,1)",
            derelict("(4,9)")
        ));
        g.play("end");
        g.spin("calm");
        assert!(g.ship("G2").unwrap().contains("(4,9)"), "{timing}");
        g.play("end");
        g.spin("calm");
        let s = g.ship("G2").unwrap();
        assert!(
            s.ends_with("none - (4,9) holes=1 golden derelict"),
            "{timing}: {s}"
        );
    }
}

#[test]
fn s44_spain_takes_the_golden_brigantine_only_by_a_sinking_hit() {
    let mut g = claimed_by_transfer("G1@(6,6) / B2@(12,9)");
    assert!(g.ship("G1").unwrap().contains("(7,6)"), "drifted");
    assert!(g.ship("B1").unwrap().contains(" golden"));
    // The claimer's side counts as the original one: S1's first hit is no recapture, the
    // sinking one (a second hole) a capture at h1. P1 passes in between.
    let after = [
        "brig pirate P1 (8,4) holes=1 golden",
        "brig spain S1 (8,4) holes=1 golden",
    ];
    for (turn, want) in after.iter().enumerate() {
        if turn > 0 {
            g.play("end");
            g.spin("calm");
        }
        g.play("end");
        g.spin("N");
        g.play("fire G1 B1");
        g.spin("N");
        let s = g.ship("B1").unwrap();
        assert!(s.contains(want), "after hit {}: {s}", turn + 1);
    }
    assert!(!g.over(), "B2 still sails");
    // Held by Spain, the golden brigantine wins in Cadiz, and one pirate hit takes it back.
    let spanish = "house golden_wreck_trophy=transfer / golden revealed / weather wind N / ship B1 brig spain S1 (2,7) holes=1 golden / B2@(3,6)";
    let mut g = Pi::at(spanish);
    g.play("move B1 S 1");
    assert!(g.result().contains("Spain wins"), "{}", g.result());
    let mut g = Pi::at(&format!("turn P1 / {spanish}"));
    g.play("fire B2 B1");
    g.spin("N");
    let s = g.ship("B1").unwrap();
    assert!(s.contains("brig pirate P1 (2,7) holes=1 golden"), "{s}");
}
