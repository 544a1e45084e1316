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
        match candidates(&line[..pos], &self.known.borrow()) {
            Some((start, words)) => {
                let pairs = words
                    .into_iter()
                    .map(|w| Pair {
                        display: w.clone(),
                        replacement: w,
                    })
                    .collect();
                Ok((start, pairs))
            }
            None => self.files.complete(line, pos, ctx),
        }
    }
}

/// Completions for the text before the cursor: where they start and the words; None asks for
/// file names.
fn candidates(before: &str, known: &Known) -> Option<(usize, Vec<String>)> {
    let Some((cmd, arg)) = before.split_once(' ') else {
        let found = commands::COMMANDS
            .iter()
            .filter(|c| c.name.starts_with(before))
            .map(|c| c.name.to_string())
            .collect();
        return Some((0, found));
    };
    let start = cmd.len() + 1;
    let from = |items: &mut dyn Iterator<Item = &str>| {
        items
            .filter(|i| i.starts_with(arg))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    match cmd {
        "play" => Some((start, from(&mut known.labels.iter().map(String::as_str)))),
        "new" | "setup" if !arg.contains(' ') => {
            Some((start, from(&mut known.games.iter().map(String::as_str))))
        }
        "help" => Some((start, from(&mut commands::COMMANDS.iter().map(|c| c.name)))),
        "save" | "load" | "replay" => None,
        _ => Some((before.len(), vec![])),
    }
}

/// The usage of the command being typed, once its name is complete.
fn usage_hint(line: &str) -> Option<String> {
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

impl Hinter for ReplHelper {
    type Hint = String;

    /// The usage of the command being typed, once its name is complete.
    fn hint(&self, line: &str, pos: usize, _: &Context<'_>) -> Option<String> {
        if pos == line.len() {
            usage_hint(line)
        } else {
            None
        }
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
    loop {
        let tag = repl
            .prompt_tag()
            .map_or(String::new(), |t| format!("[{t}]"));
        let prompt = if repl.color {
            format!("\x1b[1;36mtortuga{tag}>\x1b[0m ")
        } else {
            format!("tortuga{tag}> ")
        };
        match rl.readline(&prompt) {
            Ok(line) => {
                let _ = rl.add_history_entry(line.as_str());
                match repl.handle_line(&line) {
                    Ok(out) if !out.is_empty() => super::print_out(&out),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_offers_commands_labels_games_and_files() {
        let known = Known {
            games: vec!["backgammon".into(), "jackal".into()],
            labels: vec!["24/18 13/11".into(), "13/7".into(), "roll".into()],
        };
        assert_eq!(
            candidates("re", &known),
            Some((0, vec!["redo".into(), "replay".into(), "reload".into()]))
        );
        assert_eq!(candidates("play 1", &known), Some((5, vec!["13/7".into()])));
        assert_eq!(
            candidates("new j", &known),
            Some((4, vec!["jackal".into()]))
        );
        assert_eq!(
            candidates("help un", &known),
            Some((5, vec!["undo".into()]))
        );
        assert_eq!(candidates("save ga", &known), None, "file names");
        assert_eq!(candidates("show X", &known), Some((6, vec![])));
    }

    #[test]
    fn hints_show_usage_and_lua_continues_until_complete() {
        assert_eq!(
            usage_hint("new").as_deref(),
            Some(" <game> [--variant V] [--seed N] [--players N] [--set switch=value]…")
        );
        assert_eq!(usage_hint("undo"), None);
        assert_eq!(usage_hint("bogus"), None);
        assert!(lua_incomplete("lua for i = 1, 3 do"));
        assert!(lua_incomplete("lua local s = [[open"));
        assert!(!lua_incomplete("lua 1 + 1"));
        assert!(!lua_incomplete("lua for i = 1, 3 do end"));
        assert!(
            !lua_incomplete("lua )"),
            "a syntax error is not incomplete: it is sent and reported"
        );
        assert!(!lua_incomplete("play 8/5 6/5"));
    }
}
