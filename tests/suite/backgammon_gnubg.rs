//! GNU Backgammon interchange (spec §7.2): the PositionID:MatchID that `position id` writes is,
//! character for character, the one gnubg's own functions (the `gnubg` package, through
//! `tests/oracle/gnubg_ids.py`) write for the same state. States come from seeded random games
//! in money play with and without the Jacoby rule and in matches with their Crawford game:
//! dice in either order, a double waiting, the cube on either side.
//!
//! The comparison needs a Python with `gnubg` in `TORTUGA_ORACLE_PYTHON` (`.ci/run` installs it
//! beside open-spiel); without it the test is reported as ignored.

use crate::common;

use tortuga::kernel::rng::Stream;
use tortuga::session::{Game, Status};

/// The states each ruleset contributes.
const STATES: usize = 400;

/// (gnubg's input line, tortuga's PositionID:MatchID) for states of random games under `sets`.
fn cases(sets: &[(&str, &str)], seed: u64) -> Vec<(String, String)> {
    let rules = common::load("backgammon", sets);
    let jacoby = sets.contains(&("jacoby", "true"));
    let mut rng = Stream::new(seed, "gnubg ids");
    let mut out = Vec::new();
    let mut game = Game::new(rules.clone(), 2, seed).unwrap();
    while out.len() < STATES {
        match game.status().unwrap().clone() {
            Status::Over { .. } => game = Game::new(rules.clone(), 2, rng.next_u64()).unwrap(),
            Status::Chance(..) => {
                game.resolve_chance(None).unwrap();
            }
            Status::Decision { count, .. } => {
                let labels = game.labels().unwrap();
                let doubled = labels.iter().any(|l| l == "take");
                let state: String = game.query_hook("export", ()).unwrap();
                let id: String = game.query_hook("export", "id").unwrap();
                out.push((
                    format!(r#"{{"state":{state},"doubled":{doubled},"jacoby":{jacoby}}}"#),
                    id,
                ));
                game.apply(rng.below(count as u64) as usize).unwrap();
            }
        }
    }
    out
}

#[test]
#[cfg_attr(
    not(oracle),
    ignore = "needs TORTUGA_ORACLE_PYTHON: a Python with gnubg (.ci/run makes one)"
)]
fn position_and_match_ids_are_gnubgs_own() {
    let mut all = Vec::new();
    for (sets, seed) in [
        (vec![], 1),
        (vec![("jacoby", "true")], 2),
        (vec![("match_length", "5")], 3),
        (vec![("match_length", "3")], 4),
    ] {
        all.extend(cases(&sets, seed));
    }
    let doubles = all.iter().filter(|(c, _)| c.contains(r#""doubled":true"#));
    assert!(doubles.count() >= 20, "too few doubles waiting");
    let crawford = all.iter().filter(|(c, _)| c.contains(r#""crawford":true"#));
    assert!(crawford.count() >= 5, "too few Crawford games");
    let input: String = all.iter().map(|(c, _)| format!("{c}\n")).collect();
    let theirs = common::ask_oracle("gnubg_ids.py", input);
    for ((case, ours), gnubg) in all.iter().zip(&theirs) {
        assert_eq!(ours, gnubg, "{case}");
    }
}
