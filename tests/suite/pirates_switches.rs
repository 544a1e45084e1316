//! The switches of spec §16 not covered by a checklist scenario, and each house rule switched
//! off on its own under `author` (a position's `house -name`), on TM1 with forced spins.

use crate::common;
use crate::pirates;

use pirates::Pi;

#[test]
fn opponent_choice_lets_the_next_opponent_name_the_hurricane() {
    let mut g = Pi::at("set hurricane_direction=opponent_choice / turn P1 / B1@(6,5) / G1@(0,0)");
    g.spin("hurricane");
    assert!(g.status().contains("S1"), "{}", g.status());
    assert_eq!(g.moves().len(), 8);
    g.play("W");
    g.play("drift");
    assert!(g.ship("B1").unwrap().contains("(7,5)"));
}

/// respin, random8 and adjacent_sector on the dial draw the direction (each wedge touches
/// its own sector, all equally likely: spinner "hdir"); adjacent_sector on the simple
/// spinner, whose one hurricane sector touches N going clockwise, always blows from N.
#[test]
fn each_way_of_giving_a_hurricane_its_direction() {
    for how in ["respin", "random8", "adjacent_sector"] {
        let mut g = Pi::at(&format!(
            "set hurricane_direction={how} / turn P1 / B1@(6,5) / G1@(0,0)"
        ));
        g.spin("hurricane");
        assert!(g.status().contains("hdir"), "{how}: {}", g.status());
        g.spin("W");
        g.play("drift");
        assert!(g.ship("B1").unwrap().contains("(7,5)"), "{how}");
    }
    let mut g = Pi::at(
        "set hurricane_direction=adjacent_sector / set spinner=simple / turn P1 / B1@(6,5) / G1@(0,0)",
    );
    g.spin("hurricane");
    assert!(g.status().contains("hurricane N"), "{}", g.status());
    g.play("drift");
    assert!(g.ship("B1").unwrap().contains("(6,6)"));
}

#[test]
fn fire_in_hurricane_off_forbids_shots() {
    let body = "turn P1 / weather hurricane W / G1@(6,5) / B1@(7,6)";
    assert!(Pi::at(body).has("fire B1 G1"));
    assert!(!Pi::at(&format!("set fire_in_hurricane=off / {body}")).has("fire B1 G1"));
}

#[test]
fn fire_timing_after_only() {
    let mut g =
        Pi::at("set fire_timing=after_only / turn P1 / weather wind N / G1@(6,5) / B1@(7,4)");
    assert!(!g.has("fire B1 G1"));
    g.play("move B1 S 1");
    assert!(g.has("fire B1 G1"));
}

#[test]
fn alternate_turn_order() {
    let mut g = Pi::fresh("--seed 1 --players 4 --set turn_order=alternate");
    let order = g.lua("table.concat(G:get('order'), ' ')");
    assert_eq!(order, "1 2 1 3 1 4");
    g.play("G1");
    g.spin("calm");
    g.play("end");
    assert!(g.status().starts_with("waiting"));
    g.spin("calm");
    assert!(g.status().contains("P1"), "{}", g.status());
}

#[test]
fn current_timing_start_of_turn() {
    let mut g =
        Pi::at("set current_timing=start_of_turn / turn P1 / weather calm / G1@(5,9) / B1@(0,0)");
    g.play("end");
    assert!(
        g.ship("G1").unwrap().contains("(6,9)"),
        "carried before S1's spin"
    );
}

#[test]
fn nearest_base_goal() {
    let mut g =
        Pi::at("set pirate_goal=nearest_base / turn P1 / weather wind N / G2*@(6,5)h2 / B1@(7,6)");
    g.play("fire B1 G2");
    g.spin("N");
    assert!(
        g.lua("G:get('goal_base')") == "96",
        "Testbase (12,6) is the only base"
    );
}

#[test]
fn early_end_off_plays_on() {
    let body = "golden revealed / turn P1 / weather wind N / ship G2 galleon pirate P1 (3,3) holes=0 golden / G1@(6,5)h2 / B1@(7,6)";
    let mut g = Pi::at(&format!("set early_end=off / {body}"));
    g.play("fire B1 G1");
    g.spin("N");
    assert!(!g.over());
}

#[test]
fn golden_choice_random_asks_nothing() {
    let mut g = Pi::fresh("--seed 3 --set golden_choice=random");
    assert!(g.status().starts_with("waiting"), "{}", g.status());
    g.spin("");
    assert!(g.status().starts_with("waiting for spin"), "{}", g.status());
}

#[test]
fn each_house_rule_switches_off_alone() {
    // golden_wreck_trophy off: a wrecked golden galleon is a draw, as printed.
    let mut g = Pi::at("house -golden_wreck_trophy / weather hurricane W / G2*@(9,3) / B1@(0,3)");
    g.play("drift");
    g.spin("W");
    assert!(g.result().contains("draw"));
    // brigantine_row_upwind off.
    assert!(
        !Pi::at("house -brigantine_row_upwind / turn P1 / weather wind N / B1@(6,5)")
            .has("row B1 N")
    );
    // move_fewer_or_stay off: only the full distance.
    let mut g = Pi::at("house -move_fewer_or_stay / weather wind N / G1@(6,5)");
    assert_eq!(g.starting("move G1 S "), ["move G1 S 3"]);
    assert!(!g.has("end"));
    // The others stay on.
    assert!(
        Pi::at("house -move_fewer_or_stay / turn P1 / weather wind N / B1@(6,5)").has("row B1 N")
    );
    // A position that turns a house rule on under printed is refused.
    let mut repl = common::repl(&common::rules());
    let text = pirates::pos(
        "house +shipwreck_respin / G1@(6,5)",
        "printed",
        "S1=spain P1=pirate",
    );
    let e = common::fails(
        &mut repl,
        &format!("setup pirates --variant printed {text}"),
    );
    assert!(e.contains("shipwreck_respin is not loaded"), "{e}");
}

#[test]
fn rules_shows_the_house_rules_on_their_hooks() {
    let mut g = Pi::fresh("--seed 1");
    let out = g.run("rules drive_ashore");
    assert!(out.contains("house/shipwreck_respin.lua"), "{out}");
    let out = g.run("rules settled");
    assert!(out.contains("house/golden_wreck_trophy.lua"), "{out}");
}

#[test]
fn mid_turn_spins_wait_on_the_pending_stack() {
    let mut g = Pi::at("turn P1 / weather wind N / G1@(6,5) / B1@(7,6)");
    g.play("fire B1 G1");
    let pending = g.run("pending --hooks");
    assert!(
        pending.contains("shot_spun") && pending.contains("the shot at G1"),
        "{pending}"
    );
    g.spin("calm");
    assert!(
        g.run("pending --hooks").contains("shot_spun"),
        "a wedge spins again"
    );
    g.spin("N");
    assert!(!g.run("pending --hooks").contains("shot_spun"));
    let mut g = Pi::at("turn P1 / weather hurricane W / B1@(9,3) / B2@(12,1)");
    g.play("drift");
    let pending = g.run("pending --hooks");
    assert!(
        pending.contains("wreck_spun") && pending.contains("drift_done"),
        "{pending}"
    );
    g.spin("hurricane");
    assert!(g.run("pending --hooks").contains("hurricane_drawn"));
    g.spin("E");
    assert!(
        g.ship("B1").unwrap().contains("(9,3)"),
        "a hurricane from E blows off the shore"
    );
    g.run("undo");
    g.spin("W");
    assert!(g.ship("B1").is_none(), "from W it drives B1 onto (10,3)");
}

#[test]
fn corner_cutting_free_lets_a_ship_slip_between_two_land_cells() {
    let body = "turn P1 / weather wind N / B1@(1,2)";
    assert!(
        !Pi::at(body).has("move B1 NE 1"),
        "(1,1) and (2,2) are land"
    );
    let mut g = Pi::at(&format!("set corner_cutting=free / {body}"));
    g.play("move B1 NE 1");
    assert!(g.ship("B1").unwrap().contains("(2,1)"));
}

#[test]
fn salvo_off_offers_single_shots_only() {
    let body = "turn P1 / weather wind N / G1@(6,5) / B1@(5,5) / B2@(7,6)";
    assert_eq!(Pi::at(body).starting("salvo"), ["salvo B1,B2 G1"]);
    let mut g = Pi::at(&format!("set salvo=off / {body}"));
    assert!(g.starting("salvo").is_empty(), "{:?}", g.moves());
    assert!(g.has("fire B1 G1") && g.has("fire B2 G1"));
}

/// TM1 with a second pirate base, 2 Northbase at (13,2).
fn tm1_two_bases() -> String {
    let map = pirates::TM1
        .replace("..#.......#...\n", "..#.......#..2\n")
        .replace("\nend\n", "\nport: (13,2) 2 Northbase\nend\n");
    assert_ne!(map, pirates::TM1);
    map
}

/// G2*, h2 at (12,3), is captured by B1's shot (Northbase is 1 away, Testbase 3); then S1
/// passes and P1 spins `wind`.
fn captured_at_12_3(goal: &str, wind: &str) -> Pi {
    let mut g = Pi::setup_on(
        &tm1_two_bases(),
        "author",
        "S1=spain P1=pirate",
        &format!(
            "set pirate_goal={goal} / turn P1 / weather wind N / G2*@(12,3)h2 / B1@(11,3) / G1@(0,0)"
        ),
    );
    g.play("fire B1 G2");
    g.spin("N");
    assert!(g.ship("G2").unwrap().contains("pirate P1"));
    g.play("end");
    g.spin("calm");
    g.play("end");
    g.spin(wind);
    g
}

#[test]
fn nearest_base_goal_wins_only_at_the_nearest_base() {
    let mut g = captured_at_12_3("nearest_base", "N");
    assert_eq!(g.lua("G:get('goal_base')"), "41", "Northbase (13,2)");
    g.play("move G2 S 3");
    assert!(g.ship("G2").unwrap().contains("Testbase"));
    assert!(!g.over(), "Testbase is not the nearest base");
    let mut g = captured_at_12_3("nearest_base", "W");
    g.play("move G2 NE 1");
    assert!(g.result().contains("pirates win"), "{}", g.result());
    let mut g = captured_at_12_3("any_base", "N");
    g.play("move G2 S 3");
    assert!(g.result().contains("pirates win"), "{}", g.result());
}

/// A house rule of a rule author's on the hook the author's `brigantine_row_upwind` changes:
/// no ship rows east.
const NO_ROWING_EAST: &str = r#"-- No ship may row east (a test's house rule, stacked on row_dirs).
return {
  name = "no_rowing_east",
  help = "nobody rows east",
  hooks = {
    row_dirs = function(base, G, kind, wx)
      local out = {}
      for _, d in ipairs(base(G, kind, wx)) do
        if d ~= 2 then out[#out + 1] = d end
      end
      return out
    end,
  },
}
"#;

/// Two house rules on one hook both apply, in stack order (issue 16 item 2): with
/// `no_rowing_east` over `brigantine_row_upwind`, a brigantine rows neither east in a calm nor
/// into a wind from the east; stacked the other way, the upwind row east comes back, while
/// the calm still has no row east.
#[test]
fn two_house_rules_on_one_hook_both_apply_in_stack_order() {
    let dir = tempfile::tempdir().unwrap();
    common::copy_dir(&common::rules(), dir.path());
    let pirates = dir.path().join("pirates");
    std::fs::write(pirates.join("house/no_rowing_east.lua"), NO_ROWING_EAST).unwrap();
    for (name, order) in [
        ("east_last", r#""brigantine_row_upwind", "no_rowing_east""#),
        ("east_first", r#""no_rowing_east", "brigantine_row_upwind""#),
    ] {
        std::fs::write(
            pirates.join(format!("variants/{name}.toml")),
            format!("game = \"pirates\"\ntitle = \"{name}\"\nhouse = [{order}]\n"),
        )
        .unwrap();
    }
    let rows = |variant: &str, weather: &str| {
        let mut repl = common::repl(dir.path());
        // The position format names the author's four house rules only: it switches on the
        // one of them these variants load; the test's own rule is on by the variant.
        let text = pirates::pos(
            &format!(
                "house +brigantine_row_upwind / turn P1 / weather {weather} / G1@(0,0) / B1@(6,5)"
            ),
            "printed",
            "S1=spain P1=pirate",
        );
        common::run(
            &mut repl,
            &[&format!("setup pirates --variant {variant} {text}")],
        );
        let mut rows: Vec<String> = repl
            .option_labels()
            .into_iter()
            .filter(|l| l.starts_with("row B1"))
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(rows("east_last", "wind E"), Vec::<String>::new());
    assert_eq!(rows("east_first", "wind E"), ["row B1 E"]);
    for variant in ["east_last", "east_first"] {
        let calm = rows(variant, "calm");
        assert_eq!(calm.len(), 7, "{variant}: {calm:?}");
        assert!(!calm.contains(&"row B1 E".to_string()), "{variant}");
    }
}
