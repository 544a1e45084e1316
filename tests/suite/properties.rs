//! Property tests of the session machinery on the kernel's test game: whatever the seed and the
//! number of steps, undo returns to the start, redo returns to the end, and save/load and
//! replay rebuild the very same state.

use crate::common;

use common::fingerprint;
use proptest::prelude::*;
use tortuga::repl::Repl;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn undo_redo_and_save_load_round_trip(seed in 0u64..1_000_000, steps in 0u64..40) {
        let mut r = Repl::new(&common::fixtures(), false);
        r.handle_line(&format!("new race --seed {seed} --players 3")).unwrap();
        let start = fingerprint(&r);
        r.handle_line(&format!("auto {steps}")).unwrap();
        let end = fingerprint(&r);
        let n = r.session.as_ref().unwrap().events.len();

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.sav");
        r.handle_line(&format!("save {}", file.display())).unwrap();
        let mut loaded = Repl::new(&common::fixtures(), false);
        loaded.handle_line(&format!("load {}", file.display())).unwrap();
        prop_assert_eq!(&end, &fingerprint(&loaded));

        for _ in 0..n {
            r.handle_line("undo").unwrap();
        }
        prop_assert_eq!(&start, &fingerprint(&r));
        for _ in 0..n {
            r.handle_line("redo").unwrap();
        }
        prop_assert_eq!(&end, &fingerprint(&r));
    }
}
