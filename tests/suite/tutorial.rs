//! docs/authoring.md, run: every command the tutorial shows is run in a temporary copy of the
//! repository's rules, in order, and its output compared with the one the tutorial prints, so
//! a tutorial edited into something false, or rules that no longer do what it says, fail here.
//!
//! The tutorial's blocks: ```` ```console ```` — shell commands after `$ ` (run by `sh` with
//! the built `tortuga` first on `PATH`; `cd DIR` moves the shell), each followed by its output;
//! ```` ```tort ```` — commands typed at the REPL's prompt after `tortuga> `, in one session
//! that lasts the whole tutorial (as at the prompt: with `watch on`, a saved file is reloaded
//! before the next command, Enter alone included); any other block is a file the reader
//! writes, named by the backquoted path that ends the line before it (`` `path`: ``). In an
//! output, a line `…` stands for any lines and `…` within a line for any text.

use std::path::{Path, PathBuf};
use std::process::Command;

use tortuga::repl::Repl;
use tortuga::repl::commands::GameOptions;

const TUTORIAL: &str = "docs/authoring.md";

/// Where a command is typed.
#[derive(Clone, Copy, Debug, PartialEq)]
enum At {
    /// At a shell, after `$ `.
    Shell,
    /// At the REPL's prompt, after `tortuga>` (nothing after it: Enter alone).
    Prompt,
}

/// A step of the tutorial.
#[derive(Debug)]
enum Step {
    /// A command, the line of the tutorial it is on, and the output shown under it.
    Typed {
        at: At,
        line: usize,
        command: String,
        shown: Vec<String>,
    },
    /// A file the reader writes.
    File { path: String, text: String },
}

/// The steps of the tutorial's text, in order.
fn steps(doc: &str) -> Vec<Step> {
    let lines: Vec<&str> = doc.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(tag) = lines[i].strip_prefix("```") else {
            i += 1;
            continue;
        };
        let start = i + 1;
        let end = start
            + lines[start..]
                .iter()
                .position(|l| *l == "```")
                .unwrap_or_else(|| panic!("{TUTORIAL}:{start}: a block that is never closed"));
        let body = &lines[start..end];
        match tag {
            "console" => out.extend(commands(body, start, At::Shell)),
            "tort" => out.extend(commands(body, start, At::Prompt)),
            _ => {
                let before = lines[..i].iter().rev().find(|l| !l.trim().is_empty());
                let path = before
                    .and_then(|l| l.strip_suffix("`:"))
                    .and_then(|l| l.rsplit_once('`'))
                    .map(|(_, path)| path.to_string())
                    .unwrap_or_else(|| {
                        panic!("{TUTORIAL}:{start}: a ```{tag} block whose file is not named by `path`: on the line before")
                    });
                let mut text = body.join("\n");
                text.push('\n');
                out.push(Step::File { path, text });
            }
        }
        i = end + 1;
    }
    out
}

/// The commands of a block typed `at` the shell or the prompt (a line ending in `\\` goes on
/// on the next), each with the lines after it.
fn commands(body: &[&str], first_line: usize, at: At) -> Vec<Step> {
    let prompt = match at {
        At::Shell => "$ ",
        At::Prompt => "tortuga>",
    };
    let mut lines: Vec<(usize, String)> = Vec::new();
    let mut continued = false;
    for (k, l) in body.iter().enumerate() {
        let text = l.trim_end_matches('\\').trim_end();
        match lines.last_mut() {
            Some((_, last)) if continued => *last = format!("{last} {}", text.trim_start()),
            _ => lines.push((first_line + k + 1, text.to_string())),
        }
        continued = l.ends_with('\\');
    }
    let mut out: Vec<Step> = Vec::new();
    for (line, text) in lines {
        if let Some(typed) = text.strip_prefix(prompt) {
            out.push(Step::Typed {
                at,
                line,
                command: typed.trim().to_string(),
                shown: Vec::new(),
            });
        } else if let Some(Step::Typed { shown, .. }) = out.last_mut() {
            shown.push(text);
        } else {
            panic!("{TUTORIAL}:{line}: output before any command");
        }
    }
    out
}

/// Whether `actual` is what the tutorial shows: line by line, a line `…` standing for any
/// number of lines and `…` within a line for any text.
fn shows(shown: &[String], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "…" => {
            (0..=actual.len()).any(|skip| shows(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| line_shows(first, a) && shows(rest, more)),
    }
}

/// Whether one line of output is the line shown, `…` standing for any text.
fn line_shows(shown: &str, actual: &str) -> bool {
    let mut parts = shown.split('…');
    let head = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(head) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Compares what a command printed with what the tutorial shows, trailing spaces aside.
fn check(line: usize, command: &str, shown: &[String], printed: &str) {
    let actual: Vec<&str> = printed.lines().map(str::trim_end).collect();
    let end = actual
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |k| k + 1);
    assert!(
        shows(shown, &actual[..end]),
        "{TUTORIAL}:{line}: `{command}` printed\n{}\n--- but the tutorial shows\n{}",
        actual[..end].join("\n"),
        shown.join("\n")
    );
}

/// Runs a shell command in `dir` as the reader would, the built `tortuga` first on `PATH`;
/// returns its output (standard output, then standard error) and whether it succeeded.
fn shell(dir: &Path, command: &str) -> (String, bool) {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_tortuga"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("TORTUGA_RULES")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (text, out.status.success())
}

/// The REPL as `tortuga` starts it at the prompt on the rules folder of `dir`.
fn prompt(dir: &Path) -> Repl {
    let mut repl = Repl::new(&dir.join("rules"), false);
    repl.new_game("backgammon", &GameOptions::default())
        .expect("the REPL starts");
    repl
}

/// Runs one command at the prompt: what the prompt prints (a reload `watch` saw first, then
/// the command's output or error).
fn typed(repl: &mut Repl, command: &str) -> String {
    let said = |r: anyhow::Result<String>| match r {
        Ok(out) => out,
        Err(e) => format!("error: {e:#}"),
    };
    let mut out: Vec<String> = repl.watched().map(said).into_iter().collect();
    out.push(said(repl.handle_line(command)));
    out.retain(|o| !o.is_empty());
    out.join("\n")
}

#[test]
fn every_command_of_the_tutorial_prints_what_it_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join(TUTORIAL)).unwrap();
    let steps = steps(&doc);
    let tmp = tempfile::tempdir().unwrap();
    let status = Command::new("cp")
        .arg("-r")
        .arg(root.join("rules"))
        .arg(tmp.path())
        .status()
        .unwrap();
    assert!(status.success());

    let mut dir = tmp.path().to_path_buf();
    let mut repl: Option<Repl> = None;
    let (mut shell_commands, mut prompt_commands, mut files) = (0, 0, 0);
    for step in &steps {
        match step {
            Step::Typed {
                at: At::Shell,
                line,
                command,
                shown,
            } => {
                shell_commands += 1;
                if let Some(to) = command.strip_prefix("cd ") {
                    dir = dir.join(to.trim());
                    assert!(
                        dir.is_dir(),
                        "{TUTORIAL}:{line}: no folder {}",
                        dir.display()
                    );
                    continue;
                }
                let (printed, ok) = shell(&dir, command);
                let refused = shown.iter().any(|l| l.starts_with("error:"));
                assert!(
                    ok || refused,
                    "{TUTORIAL}:{line}: `{command}` failed:\n{printed}"
                );
                check(*line, command, shown, &printed);
            }
            Step::Typed {
                at: At::Prompt,
                line,
                command,
                shown,
            } => {
                prompt_commands += 1;
                // The REPL reads `@file` and saves relative to where it was started.
                std::env::set_current_dir(&dir).unwrap();
                let repl = repl.get_or_insert_with(|| prompt(&dir));
                check(*line, command, shown, &typed(repl, command));
            }
            Step::File { path, text } => {
                files += 1;
                std::fs::write(dir.join(path), text).unwrap();
            }
        }
    }
    assert!(
        shell_commands >= 8 && prompt_commands >= 15 && files >= 4,
        "the tutorial's blocks were not all found: {shell_commands} shell commands, \
         {prompt_commands} REPL commands, {files} files"
    );
}

/// The tutorial writes the whirlpool the rules ship, not a copy of its own.
#[test]
fn the_tutorial_teaches_the_shipped_whirlpool() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join(TUTORIAL)).unwrap();
    let path = "rules/jackal/tiles/whirlpool.lua";
    let last = steps(&doc)
        .into_iter()
        .rev()
        .find_map(|s| match s {
            Step::File { path: p, text } if p == path => Some(text),
            _ => None,
        })
        .expect("the tutorial writes the whirlpool");
    assert_eq!(last, std::fs::read_to_string(root.join(path)).unwrap());
}

/// The README and the API page point at the tutorial.
#[test]
fn the_tutorial_is_linked() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (file, link) in [
        ("README.md", "(docs/authoring.md)"),
        ("docs/lua-api.md", "(authoring.md)"),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(text.contains(link), "{file} links to the tutorial");
    }
}
