//! The interactive prompt: rustyline with history, completion (commands, option labels, games,
//! files), usage hints, multi-line Lua and colour that honours `NO_COLOR`.

use std::borrow::Cow;
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{CompletionType, Config, Context, Editor, Helper};

use super::{Repl, commands};

/// Whether `lua <code>` is valid Lua so far but unfinished (an open block or string).
pub fn lua_incomplete(line: &str) -> bool {
    thread_local! {
        static SCRATCH: mlua::Lua = mlua::Lua::new_with(mlua::StdLib::NONE, mlua::LuaOptions::new()).expect("a bare Lua state");
    }
    let Some(code) = line.trim_start().strip_prefix("lua") else {
        return false;
    };
    SCRATCH.with(|lua| {
        let compile = |src: &str| {
            lua.load(src)
                .set_mode(mlua::chunk::ChunkMode::Text)
                .into_function()
        };
        match compile(&format!("return {code}"))
            .map(|_| ())
            .or_else(|_| compile(code).map(|_| ()))
        {
            Err(mlua::Error::SyntaxError {
                incomplete_input, ..
            }) => incomplete_input,
            _ => false,
        }
    })
}

/// What completion can offer; refreshed after every command.
#[derive(Default)]
pub struct Known {
    pub games: Vec<String>,
    pub labels: Vec<String>,
}

pub struct ReplHelper {
    pub known: Rc<RefCell<Known>>,
    files: FilenameCompleter,
    color: bool,
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let pair = |s: &str| Pair {
            display: s.to_string(),
            replacement: s.to_string(),
        };
        let Some((cmd, arg)) = before.split_once(' ') else {
            let found = commands::COMMANDS
                .iter()
                .filter(|c| c.name.starts_with(before))
                .map(|c| pair(c.name))
                .collect();
            return Ok((0, found));
        };
        let start = cmd.len() + 1;
        let known = self.known.borrow();
        let from = |items: &[String]| {
            items
                .iter()
                .filter(|i| i.starts_with(arg))
                .map(|i| pair(i))
                .collect::<Vec<_>>()
        };
        match cmd {
            "play" => Ok((start, from(&known.labels))),
            "new" | "setup" if !arg.contains(' ') => Ok((start, from(&known.games))),
            "help" => {
                let names: Vec<String> = commands::COMMANDS
                    .iter()
                    .map(|c| c.name.to_string())
                    .collect();
                Ok((start, from(&names)))
            }
            "save" | "load" | "replay" => self.files.complete(line, pos, ctx),
            _ => Ok((pos, vec![])),
        }
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    /// The usage of the command being typed, once its name is complete.
    fn hint(&self, line: &str, pos: usize, _: &Context<'_>) -> Option<String> {
        if pos != line.len() {
            return None;
        }
        let name = line.strip_suffix(' ').unwrap_or(line);
        let c = commands::find(name)?;
        if c.usage.is_empty() {
            return None;
        }
        Some(if line.ends_with(' ') {
            c.usage.to_string()
        } else {
            format!(" {}", c.usage)
        })
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }
}

impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        let input = ctx.input();
        // A blank last line submits anyway, so a broken block can always be sent and corrected.
        if lua_incomplete(input) && !input.ends_with("\n") {
            Ok(ValidationResult::Incomplete)
        } else {
            Ok(ValidationResult::Valid(None))
        }
    }
}

impl Helper for ReplHelper {}

fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(base.join("tortuga").join("history"))
}

/// Runs the interactive loop until `quit` or end of input.
pub fn run(repl: &mut Repl) -> anyhow::Result<()> {
    let config = Config::builder()
        .max_history_size(5000)?
        .history_ignore_dups(true)?
        .history_ignore_space(true)
        .auto_add_history(false)
        .completion_type(CompletionType::List)
        .build();
    let mut rl: Editor<ReplHelper, _> = Editor::with_config(config)?;
    let known = Rc::new(RefCell::new(Known {
        games: crate::script::rules::games(&repl.rules_dir),
        labels: vec![],
    }));
    rl.set_helper(Some(ReplHelper {
        known: known.clone(),
        files: FilenameCompleter::new(),
        color: repl.color,
    }));
    let history = history_path();
    if let Some(h) = &history {
        let _ = rl.load_history(h);
    }
    let prompt = if repl.color {
        "\x1b[1;36mtortuga>\x1b[0m "
    } else {
        "tortuga> "
    };
    loop {
        match rl.readline(prompt) {
            Ok(line) => {
                let _ = rl.add_history_entry(line.as_str());
                match repl.handle_line(&line) {
                    Ok(out) if !out.is_empty() => println!("{out}"),
                    Ok(_) => {}
                    Err(e) => {
                        let msg = format!("error: {e:#}");
                        if repl.color {
                            eprintln!("\x1b[31m{msg}\x1b[0m")
                        } else {
                            eprintln!("{msg}")
                        }
                    }
                }
                known.borrow_mut().labels = repl.option_labels();
                if repl.quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        }
    }
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = rl.append_history(h);
    }
    Ok(())
}
