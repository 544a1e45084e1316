//! REPL transcripts as snapshot tests: every `tests/transcripts/*.tort` script runs through the
//! REPL core, each command echoed with its output or error, and the whole transcript is compared
//! with its snapshot. A first line `# rules: fixtures` runs it on the kernel's test games.

use crate::common;

use tortuga::repl::Repl;

fn transcript(script: &str) -> String {
    let dir = if script.starts_with("# rules: fixtures") {
        common::fixtures()
    } else {
        common::rules()
    };
    let mut repl = Repl::new(&dir, false);
    let mut out = String::new();
    for line in script.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        out += &format!("> {line}\n");
        match repl.handle_line(line) {
            Ok(text) if text.is_empty() => {}
            Ok(text) => out += &format!("{text}\n"),
            Err(e) => out += &format!("error: {e:#}\n"),
        }
    }
    out
}

#[test]
fn transcripts() {
    insta::glob!("../transcripts", "*.tort", |path| {
        let script = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(transcript(&script));
    });
}
