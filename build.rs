//! Tells the test suite which optional outside tools it can use, so that a test needing one
//! that is missing is reported as ignored (with the reason) instead of passing without running:
//! `cfg(oracle)` when `TORTUGA_ORACLE_PYTHON` names a Python (with open-spiel and gnubg:
//! `.ci/run` makes one), `cfg(gnu_parallel)` when GNU parallel runs.

use std::process::{Command, Stdio};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(oracle)");
    println!("cargo::rustc-check-cfg=cfg(gnu_parallel)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=TORTUGA_ORACLE_PYTHON");
    println!("cargo::rerun-if-env-changed=PATH");
    if std::env::var_os("TORTUGA_ORACLE_PYTHON").is_some_and(|p| !p.is_empty()) {
        println!("cargo::rustc-cfg=oracle");
    }
    let parallel = Command::new("parallel")
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if parallel.is_ok_and(|s| s.success()) {
        println!("cargo::rustc-cfg=gnu_parallel");
    }
}
