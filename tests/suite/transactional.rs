//! Errors are transactional everywhere: random actions with failures injected at random points
//! inside hooks — after kernel operations already ran, by an error, a loop, Lua memory, kernel
//! memory or an error after a caught one — leave the state byte for byte as it was.

use std::time::Duration;

use proptest::prelude::*;
use tortuga::kernel::Value;
use tortuga::repl::Repl;

/// A rules folder holding the chaos game only.
fn chaos() -> (tempfile::TempDir, Repl) {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("rules/chaos");
    std::fs::create_dir_all(&game).unwrap();
    let src =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/chaos/game.lua");
    std::fs::copy(src, game.join("game.lua")).unwrap();
    let mut repl = Repl::new(&dir.path().join("rules"), false);
    repl.budget.instructions = 2_000_000;
    repl.budget.memory = 16 << 20;
    repl.budget.wall = Duration::from_secs(5);
    (dir, repl)
}

/// Everything the state holds, log and counters included.
fn whole_state(repl: &Repl) -> String {
    let s = repl.session.as_ref().unwrap();
    s.game.with_state(|st| format!("{st:?}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn failed_actions_leave_the_state_byte_for_byte(
        seed in 0u64..1000,
        actions in prop::collection::vec((prop_oneof![Just(0i64), 1i64..13], 1i64..6), 1..16),
    ) {
        let (_dir, mut repl) = chaos();
        repl.handle_line(&format!("new chaos --seed {seed}")).unwrap();
        for (fail_at, how) in actions {
            let session = repl.session.as_mut().unwrap();
            session.game.with_state_mut(|s| {
                s.props.insert("fail_at".into(), Value::Int(fail_at));
                s.props.insert("fail_how".into(), Value::Int(how));
            });
            let before = whole_state(&repl);
            let steps = repl.session.as_ref().unwrap().events.len();
            let line = if repl.handle_line("moves").unwrap().starts_with("waiting") {
                "roll".to_string()
            } else {
                format!("play {}", 1 + seed as i64 % 6)
            };
            match repl.handle_line(&line) {
                Ok(_) => prop_assert_eq!(fail_at, 0, "`{}` should have failed at {}", line, fail_at),
                Err(e) => {
                    prop_assert!(fail_at > 0, "`{}` failed unasked: {:#}", line, e);
                    prop_assert_eq!(&before, &whole_state(&repl), "after `{}` failing ({:#})", line, e);
                    prop_assert_eq!(steps, repl.session.as_ref().unwrap().events.len());
                }
            }
            if repl.handle_line("moves").unwrap().starts_with("game over") {
                break;
            }
        }
    }
}
