//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod lua_runner;

use std::path::{Path, PathBuf};
use std::rc::Rc;

use tortuga::repl::Repl;
use tortuga::script::{LoadOptions, Rules};

/// The shipped rules folder.
pub fn rules() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// A shipped game's rules with switch values (`&[("implement", "dice2")]`).
pub fn load(game: &str, sets: &[(&str, &str)]) -> Rc<Rules> {
    load_from(&rules(), game, sets, &[])
}

/// A game's rules from the rules folder `root`, with switch values and house rules on.
pub fn load_from(root: &Path, game: &str, sets: &[(&str, &str)], house: &[&str]) -> Rc<Rules> {
    let overrides = sets
        .iter()
        .map(|(k, v)| {
            tortuga::script::ruleset::variant::parse_assignment(&format!("{k}={v}")).unwrap()
        })
        .collect();
    let opts = LoadOptions {
        overrides,
        house: house.iter().map(|h| h.to_string()).collect(),
        ..LoadOptions::default()
    };
    Rc::new(Rules::load(root, game, &opts).unwrap_or_else(|e| panic!("{game} loads: {e:#}")))
}

/// The kernel's test games.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules")
}

/// A REPL on a rules folder, colour off.
pub fn repl(dir: &Path) -> Repl {
    Repl::new(dir, false)
}

/// Runs commands, panicking with the command and error if one fails; returns the output of
/// the last.
pub fn run(repl: &mut Repl, commands: &[&str]) -> String {
    let mut last = String::new();
    for c in commands {
        last = repl
            .handle_line(c)
            .unwrap_or_else(|e| panic!("`{c}` failed: {e:#}"));
    }
    last
}

/// The error message of a command that must fail.
pub fn fails(repl: &mut Repl, command: &str) -> String {
    match repl.handle_line(command) {
        Ok(out) => panic!("`{command}` should fail but printed:\n{out}"),
        Err(e) => format!("{e:#}"),
    }
}

/// A copy of the fixture rules in a temporary folder, so a test may edit files.
pub fn scratch_rules() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(&fixtures(), &dir.path().join("rules"));
    dir
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A scratch rules folder whose race game's `apply` runs `body` when the option is "stay", and a
/// REPL on it with `budget`, in a game where "stay" is an option.
pub fn with_stay_body(body: &str, budget: tortuga::script::Budget) -> (tempfile::TempDir, Repl) {
    let dir = scratch_rules();
    let game = dir.path().join("rules/race/game.lua");
    let text = std::fs::read_to_string(&game).unwrap();
    let patched = text.replace(
        "      if option == \"move\" then",
        &format!(
            "      if option == \"stay\" then\n{body}\n      end\n      if option == \"move\" then"
        ),
    );
    assert_ne!(text, patched);
    std::fs::write(&game, patched).unwrap();
    let mut repl = Repl::new(&dir.path().join("rules"), false);
    repl.budget = budget;
    run(&mut repl, &["new race --seed 1", "roll 4"]);
    (dir, repl)
}

/// Everything that decides the current game, for comparing states.
pub fn fingerprint(r: &Repl) -> String {
    r.session
        .as_ref()
        .expect("a game")
        .game
        .with_state(|s| s.fingerprint())
}

/// How many of `full` repetitions a long random-game run makes. `TORTUGA_SOAK` is the share of
/// the full size: unset, a tenth (the README's command, a few minutes); `1`, the full size (CI's
/// `.ci/run` sets it); `0`, the smoke run, which plays one of each (or the few a check on an
/// average needs). Never fewer than one.
pub fn soak(full: u64) -> u64 {
    let share = match std::env::var("TORTUGA_SOAK") {
        Ok(v) => v
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s >= 0.0)
            .unwrap_or_else(|| panic!("TORTUGA_SOAK={v}: a share of the full size (0, 0.1, 1)")),
        Err(_) => 0.1,
    };
    ((full as f64 * share).round() as u64).max(1)
}

/// The cases a long run takes at the soak size: all of `cases` at the full size, else
/// [`soak`]`(len)` of them spread evenly from the first, in their order.
pub fn soak_pick<T>(cases: impl IntoIterator<Item = T>) -> Vec<T> {
    let all: Vec<T> = cases.into_iter().collect();
    let n = all.len() as u64;
    let take = soak(n).min(n);
    let picked: std::collections::BTreeSet<u64> = (0..take).map(|j| j * n / take).collect();
    all.into_iter()
        .enumerate()
        .filter(|(i, _)| picked.contains(&(*i as u64)))
        .map(|(_, c)| c)
        .collect()
}

/// The lines a Python oracle (`tests/oracle/SCRIPT`, run by `TORTUGA_ORACLE_PYTHON`) writes for
/// `input`, one line of it at a time, checked to be one answer a line.
pub fn ask_oracle(script: &str, input: String) -> Vec<String> {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let python =
        std::env::var("TORTUGA_ORACLE_PYTHON").expect("TORTUGA_ORACLE_PYTHON, set when built");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/oracle")
        .join(script);
    let mut child = Command::new(&python)
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {python}: {e}"));
    let asked = input.lines().count();
    let mut stdin = child.stdin.take().expect("oracle stdin");
    // Write from a thread: the oracle answers while it reads, and a full stdout pipe would
    // otherwise block both sides.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("oracle output");
    writer.join().unwrap().expect("writing to the oracle");
    assert!(
        output.status.success(),
        "{script} failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("utf-8 from the oracle");
    let answers: Vec<String> = stdout.lines().map(str::to_string).collect();
    assert_eq!(answers.len(), asked, "{script}: one line an answer");
    answers
}
