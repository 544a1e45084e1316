//! The spinner of spec §5 (checklist item 5): 360,000 seeded spins of the default dial give
//! each wind ≈ 9.44%, calm ≈ 11.1% and hurricane ≈ 13.3% (±0.3 points); the simple spinner
//! gives each of its ten outcomes ≈ 10%. With `golden_choice=random` the engine's choice of
//! the golden galleon is uniform (3,000 draws, each galleon ≈ 1/3).

use crate::common;

use std::collections::BTreeMap;

use tortuga::kernel::Value;
use tortuga::session::Game;

fn shares(sets: &[(&str, &str)], randomizer: &str, n: usize) -> BTreeMap<String, f64> {
    let rules = common::load("pirates", sets);
    let r = rules.randomizers[randomizer].clone();
    let mut game = Game::new(rules, 2, 7).expect("setup");
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    game.with_state_mut(|s| {
        for _ in 0..n {
            let o = r.draw(s).expect("draw");
            let Value::Str(name) = &o[0] else {
                panic!("{o:?}")
            };
            *count.entry(name.clone()).or_default() += 1;
        }
    });
    count
        .into_iter()
        .map(|(k, c)| (k, 100.0 * c as f64 / n as f64))
        .collect()
}

fn near(share: f64, want: f64, tolerance: f64, what: &str) {
    assert!(
        (share - want).abs() <= tolerance,
        "{what}: {share:.2}% for {want:.2}%"
    );
}

#[test]
fn the_dial_gives_the_spec_s_shares() {
    let s = shares(&[], "spin", 360_000);
    for d in ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] {
        near(s[d], 100.0 * 34.0 / 360.0, 0.3, d);
    }
    near(s["calm"], 100.0 * 40.0 / 360.0, 0.3, "calm");
    near(s["hurricane"], 100.0 * 48.0 / 360.0, 0.3, "hurricane");
}

#[test]
fn the_simple_spinner_has_ten_equal_sectors() {
    let s = shares(&[("spinner", "simple")], "spin", 100_000);
    assert_eq!(s.len(), 10);
    for (k, v) in &s {
        near(*v, 10.0, 0.5, k);
    }
}

#[test]
fn a_random_golden_galleon_is_uniform() {
    let s = shares(&[("golden_choice", "random")], "golden", 3_000);
    for g in ["G1", "G2", "G3"] {
        near(s[g], 100.0 / 3.0, 3.0, g);
    }
}
