//! Lua unit tests of the rules: every `tests/lua/<game>/*_test.lua` runs in the game's sandboxed
//! rules state, against the real kernel (tests/suite/common/lua_runner.rs says how).

use crate::common::lua_runner;

use std::path::PathBuf;

use lua_runner::{run_all, test_files};

/// The files run on as many threads as the machine has cores: the backgammon differential
/// test alone takes a good part of the time.
#[test]
fn lua_rule_tests_pass() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = test_files(&root);
    assert!(!files.is_empty(), "no Lua tests found");
    let failures = run_all(&root, &files);
    println!("{} Lua test files", files.len());
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
