//! Every command the README and `docs/` show: each `tortuga …` command line parses with the
//! command line's own grammar (`tortuga::cli`), and the README's tour runs at the REPL and
//! prints what the README says it prints, line for line (but for lines that elide with "…").

use crate::common;

use std::path::Path;

use clap::Parser;
use tortuga::cli::Cli;
use tortuga::repl::commands::Line;

/// The README and every page of `docs/`, with their names.
fn pages() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.ends_with(".md").then(|| format!("docs/{name}"))
        })
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(root.join(&n)).unwrap();
            (n, text)
        })
        .collect()
}

/// The code spans of a page's prose (outside code blocks; a span may wrap), each with the line
/// it starts on, its whitespace made single spaces.
fn code_spans(text: &str) -> Vec<(usize, String)> {
    let mut in_block = false;
    // the text outside code blocks, line for line
    let mut prose = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
        } else if !in_block {
            prose.push_str(line);
        }
        prose.push('\n');
    }
    let mut spans = Vec::new();
    let mut offset = 0;
    for (k, span) in prose.split('`').enumerate() {
        let at = prose[..offset].matches('\n').count() + 1;
        offset += span.len() + 1;
        if k % 2 == 1 {
            spans.push((at, span.split_whitespace().collect::<Vec<_>>().join(" ")));
        }
    }
    spans
}

/// The `tortuga …` command lines of a page, with their line numbers: code spans (which may
/// wrap), and lines of code blocks (after a `$ ` prompt, continued by a trailing `\`, without a
/// `# comment`). A span naming a command in prose (`tortuga train` alone), and lines that stand
/// for a family (`GAME [--variant V]…`, `…`, `<file>`) or use the shell (`$VAR`, `$(…)`), are
/// left out.
fn command_lines(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_block = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            continue;
        }
        let line = line.trim();
        if let Some((at, mut so_far)) = pending.take() {
            so_far.push(' ');
            so_far.push_str(line.trim_end_matches('\\'));
            if line.ends_with('\\') {
                pending = Some((at, so_far));
            } else {
                found.push((at, so_far));
            }
            continue;
        }
        let line = line.strip_prefix("$ ").unwrap_or(line);
        if !line.starts_with("tortuga ") {
            continue;
        }
        let line = line.split(" #").next().unwrap().trim();
        if line.ends_with('\\') {
            pending = Some((n, line.trim_end_matches('\\').to_string()));
        } else {
            found.push((n, line.to_string()));
        }
    }
    found.extend(
        code_spans(text)
            .into_iter()
            .filter(|(_, span)| span.starts_with("tortuga ") && span.split(' ').count() > 2),
    );
    found
        .into_iter()
        .filter(|(_, c)| {
            !["…", "[", "<", "$", "GAME", " N ", "FILE"]
                .iter()
                .any(|family| c.contains(family))
                && !c.ends_with(" N")
        })
        .collect()
}

#[test]
fn every_command_line_the_docs_show_parses() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for (page, text) in pages() {
        for (line, command) in command_lines(&text) {
            checked += 1;
            let Some(words) = shlex::split(&command) else {
                bad.push(format!("{page}:{line}: `{command}`: unbalanced quotes"));
                continue;
            };
            if let Err(e) = Cli::try_parse_from(&words) {
                // `--help` and `--version` end parsing as they should
                if !matches!(
                    e.kind(),
                    clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
                ) {
                    let first = e.to_string();
                    let first = first.lines().next().unwrap_or_default().to_string();
                    bad.push(format!("{page}:{line}: `{command}`: {first}"));
                }
            }
        }
    }
    assert!(checked >= 30, "only {checked} command lines found");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Every `sim`, `train`, `check`, `moves` and `bench` command the README and `docs/` show runs,
/// its work cut short (`--games 2`, one short bench round, no gauge games): a variant, house
/// rule, switch or
/// bot the docs name that the rules do not have fails it. The commands run in a scratch
/// folder with an empty cache, so `train` writes there and `learned` finds no weights: that
/// refusal, which names the `train` command, counts as running.
#[test]
fn every_study_command_the_docs_show_runs_on_a_few_games() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = tempfile::tempdir().unwrap();
    let mut bad = Vec::new();
    let mut ran = 0;
    // docs/authoring.md's commands need the files its tutorial makes: `tutorial.rs` runs them.
    for (page, text) in pages()
        .into_iter()
        .filter(|(p, _)| p != "docs/authoring.md")
    {
        for (line, command) in command_lines(&text) {
            let words = shlex::split(&command).unwrap();
            let Some(verb) = words
                .iter()
                .skip(1)
                .find(|w| ["sim", "train", "check", "moves", "bench"].contains(&w.as_str()))
            else {
                continue;
            };
            let mut args: Vec<String> = Vec::new();
            let mut rest = words[1..].iter();
            while let Some(w) = rest.next() {
                match w.as_str() {
                    "--games" | "--rounds" | "--seconds" | "--gauge" => {
                        rest.next();
                    }
                    "--rules" => {
                        let dir = rest.next().unwrap();
                        args.push(w.clone());
                        args.push(root.join(dir).to_string_lossy().into_owned());
                    }
                    _ => args.push(w.clone()),
                }
            }
            match verb.as_str() {
                "bench" => args.extend(["--rounds", "1", "--seconds", "1"].map(String::from)),
                "moves" => {}
                _ => args.extend(["--games".to_string(), "2".to_string()]),
            }
            if verb == "train" {
                args.extend(["--out", "weights.toml", "--gauge", "none"].map(String::from));
            }
            ran += 1;
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_tortuga"))
                .args(&args)
                .current_dir(scratch.path())
                .env("TORTUGA_RULES", root.join("rules"))
                .env("XDG_CACHE_HOME", scratch.path().join("cache"))
                .env("NO_COLOR", "1")
                .stdin(std::process::Stdio::null())
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            let no_weights = err.contains("no weights") && err.contains("tortuga train");
            if !out.status.success() && !no_weights {
                let first = err.lines().find(|l| l.contains("error")).unwrap_or(&err);
                bad.push(format!("{page}:{line}: `{command}`: {first}"));
            }
        }
    }
    assert!(ran >= 15, "only {ran} commands run");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The REPL's command names (`games`, `new`, `play`…).
fn repl_commands() -> Vec<String> {
    use clap::CommandFactory;
    Line::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect()
}

/// Whether `words` parse as a REPL command line.
fn repl_parse(words: &[String]) -> Result<(), String> {
    match Line::try_parse_from(words) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => Ok(()),
        Err(e) => Err(e.to_string().lines().next().unwrap_or_default().to_string()),
    }
}

/// The REPL commands the README and `docs/` show in code spans (`bot O mcts 300`, `as P1`,
/// `roll 45`), and every line of the scripts under `scripts/` that the studies and pictures
/// come from, parse with the REPL's own grammar. A span whose first word is a command but
/// names a family (`…`, `<seat>`) or is a report's label (`games ended at cube N`) is left out,
/// and so is one that names an option of a command in prose (`sim --vs`) when it is no command
/// line by itself. A script's `<<END` passes the lines up to `END` as the last argument.
#[test]
fn every_repl_command_the_docs_and_scripts_show_parses() {
    let names = repl_commands();
    let mut bad = Vec::new();
    let mut checked = 0;
    for (page, text) in pages() {
        for (at, span) in code_spans(&text) {
            let first = span.split(' ').next().unwrap_or_default();
            if span.split(' ').count() < 2
                || !names.iter().any(|n| n == first)
                || ["…", "<", "[", "|", "=", "N", "ended at"]
                    .iter()
                    .any(|family| span.contains(family))
            {
                continue;
            }
            checked += 1;
            let Some(words) = shlex::split(&span) else {
                bad.push(format!("{page}:{at}: `{span}`: unbalanced quotes"));
                continue;
            };
            let names_an_option = words.get(1).is_some_and(|w| w.starts_with("--"));
            if let Err(e) = repl_parse(&words)
                && !names_an_option
            {
                bad.push(format!("{page}:{at}: `{span}`: {e}"));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let mut scripts: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "tort"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 5, "{scripts:?}");
    for script in scripts {
        let text = std::fs::read_to_string(&script).unwrap();
        let mut heredoc: Option<String> = None;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if let Some(end) = &heredoc {
                if line == end {
                    heredoc = None;
                }
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some((_, end)) = line.split_once("<<") {
                heredoc = Some(end.trim().to_string());
            }
            let command = line.split("<<").next().unwrap();
            checked += 1;
            let name = script.file_name().unwrap().to_string_lossy();
            match shlex::split(command) {
                Some(mut words) => {
                    if heredoc.is_some() {
                        words.push("the lines up to END".into());
                    }
                    if let Err(e) = repl_parse(&words) {
                        bad.push(format!("scripts/{name}:{}: `{line}`: {e}", i + 1));
                    }
                }
                None => bad.push(format!("scripts/{name}:{}: unbalanced quotes", i + 1)),
            }
        }
    }
    assert!(checked >= 40, "only {checked} REPL command lines found");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The README's tour: its `tortuga>` commands, each with the lines the README prints after it.
fn tour() -> Vec<(String, Vec<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme.find("## A five-minute tour").expect("the tour");
    let block = &readme[start..];
    let block = &block[block.find("```text").unwrap() + 7..];
    let block = &block[..block.find("```").unwrap()];
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    for line in block.lines() {
        if let Some(command) = line.strip_prefix("tortuga> ") {
            let command = command.split(" #").next().unwrap().trim().to_string();
            steps.push((command, Vec::new()));
        } else if let Some((_, said)) = steps.last_mut()
            && !line.contains('…')
            && !line.trim().is_empty()
        {
            said.push(line.to_string());
        }
    }
    steps
}

#[test]
fn the_readme_tour_prints_what_the_readme_says() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.sav");
    let mut repl = common::repl(&common::rules());
    common::run(&mut repl, &["new backgammon --seed 1"]);
    let steps = tour();
    assert!(steps.len() >= 15, "{steps:?}");
    for (command, said) in steps {
        if command == "quit" {
            continue;
        }
        let command = command.replace("game.sav", save.to_str().unwrap());
        let out = repl
            .handle_line(&command)
            .unwrap_or_else(|e| panic!("README tour: `{command}`: {e:#}"));
        let printed: Vec<&str> = out.lines().map(str::trim_end).collect();
        for line in said {
            assert!(
                printed.contains(&line.trim_end()),
                "README tour: `{command}` does not print\n{line}\nbut\n{out}"
            );
        }
    }
}
