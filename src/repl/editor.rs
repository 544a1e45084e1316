//! The interactive prompt: rustyline with history, completion (commands, option labels, games,
//! files), usage hints, multi-line Lua and colour that honours `NO_COLOR`.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::rc::Rc;

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, Helper};

use super::{Repl, commands};
use crate::script::{LoadOptions, Rules};

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
    /// Each game's variants, in the order of `games`.
    pub variants: Vec<Vec<String>>,
    /// The current decision's option labels.
    pub labels: Vec<String>,
    /// The current game's seats, hooks, switches and tiles.
    pub seats: Vec<String>,
    pub hooks: Vec<String>,
    pub switches: Vec<String>,
    pub tiles: Vec<String>,
    /// The position formats the game declares.
    pub formats: Vec<String>,
    /// The words the game declares as commands (`double`, `take`).
    pub commands: Vec<String>,
    /// The game in play, whose switches are `switches`.
    pub game: Option<String>,
    /// Other games' switches, for `new <game> --set`.
    pub other_switches: Rc<Switches>,
}

/// Each game's switch names, read from its rules the first time completion asks (a game's
/// rules take a fraction of a second to load) and kept for the session.
#[derive(Default)]
pub struct Switches {
    rules_dir: PathBuf,
    by_game: RefCell<BTreeMap<String, Vec<String>>>,
}

impl Switches {
    pub fn new(rules_dir: PathBuf) -> Switches {
        Switches {
            rules_dir,
            by_game: RefCell::default(),
        }
    }

    /// `game`'s switch names; none when its rules do not load.
    fn of(&self, game: &str) -> Vec<String> {
        self.by_game
            .borrow_mut()
            .entry(game.to_string())
            .or_insert_with(|| {
                Rules::load(&self.rules_dir, game, &LoadOptions::default())
                    .map(|r| r.switch_defs.iter().map(|d| d.name.clone()).collect())
                    .unwrap_or_default()
            })
            .clone()
    }
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
/// file names. Commands and their flags come from the grammar; the values from the game.
fn candidates(before: &str, known: &Known) -> Option<(usize, Vec<String>)> {
    let matching = |items: &[String], prefix: &str| -> Vec<String> {
        items
            .iter()
            .filter(|i| i.starts_with(prefix))
            .cloned()
            .collect()
    };
    let Some((cmd, args)) = before.split_once(' ') else {
        // Command names, and the one-word options of the decision (`double`, `take`), which
        // are played when typed alone.
        let mut items = commands::names();
        items.extend(known.labels.iter().filter(|l| !l.contains(' ')).cloned());
        items.extend(known.commands.iter().cloned());
        let mut seen = std::collections::BTreeSet::new();
        items.retain(|i| seen.insert(i.clone()));
        return Some((0, matching(&items, before)));
    };
    let start = before.rfind(' ').map_or(0, |i| i + 1);
    let word = &before[start..];
    let typed: Vec<&str> = args.split_whitespace().collect();
    let previous = if word.is_empty() {
        typed.last()
    } else {
        typed.iter().rev().nth(1)
    };
    if word.starts_with('-') {
        return Some((start, matching(&commands::flags(cmd), word)));
    }
    match previous.copied() {
        Some("--variant") => {
            let game = typed
                .first()
                .and_then(|g| known.games.iter().position(|k| k == g));
            let variants = game.map_or(&[][..], |i| known.variants[i].as_slice());
            return Some((start, matching(variants, word)));
        }
        Some("--set") => {
            // the switches of the game the command names, else of the game in play
            let switches = match typed.first() {
                Some(g)
                    if known.games.iter().any(|k| k == g) && known.game.as_deref() != Some(g) =>
                {
                    known.other_switches.of(g)
                }
                _ => known.switches.clone(),
            };
            let names: Vec<String> = switches.iter().map(|s| format!("{s}=")).collect();
            return Some((start, matching(&names, word)));
        }
        _ => {}
    }
    let first = typed.len() <= 1 && !(word.is_empty() && typed.len() == 1);
    match cmd {
        "play" => Some((cmd.len() + 1, matching(&known.labels, args))),
        "new" | "setup" if first => Some((start, matching(&known.games, word))),
        "help" if first => Some((start, matching(&commands::names(), word))),
        "show" if first => Some((start, matching(&known.seats, word))),
        "rules" if first => Some((start, matching(&known.hooks, word))),
        "position" if first => Some((start, matching(&known.formats, word))),
        "roll" => Some((start, matching(&known.tiles, word))),
        "watch" if first => Some((start, matching(&["on".into(), "off".into()], word))),
        "save" | "load" | "replay" | "setup" => None,
        _ => Some((start, vec![])),
    }
}

/// The usage of the command being typed, once its name is complete.
fn usage_hint(line: &str) -> Option<String> {
    let name = line.strip_suffix(' ').unwrap_or(line);
    if name.contains(' ') {
        return None;
    }
    let usage = commands::usage(name)?;
    Some(if line.ends_with(' ') {
        usage
    } else {
        format!(" {usage}")
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

impl Validator for ReplHelper {}

/// Reads one command: a line and, while it is an unfinished `lua` block, the lines that
/// continue it, each under the `continuation` prompt, so it is clear the REPL waits for more.
/// An empty line sends the block as it is, so a broken one can always be sent and corrected.
fn read_command(
    prompt: &str,
    continuation: &str,
    mut read: impl FnMut(&str) -> rustyline::Result<String>,
) -> rustyline::Result<String> {
    let mut line = read(prompt)?;
    while lua_incomplete(&line) {
        let more = read(continuation)?;
        if more.trim().is_empty() {
            break;
        }
        line = format!("{line}\n{more}");
    }
    // `setup backgammon <<END`: the lines up to `END` are the command's last argument, as in
    // a script
    if let Some((head, tag)) = super::here_document(&line) {
        let mut body = Vec::new();
        loop {
            let more = read(continuation)?;
            if more.trim() == tag {
                break;
            }
            body.push(more);
        }
        line = format!("{head}{}", body.join("\n"));
    }
    Ok(line)
}

impl Helper for ReplHelper {}

fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(base.join("tortuga").join("history"))
}

/// The most history kept, in bytes as well as entries: a long history slows every start.
const HISTORY_BYTES: usize = 256 * 1024;

/// Keeps the newest lines of an oversized history file (whole lines, rustyline's header first).
fn cap_history(path: &std::path::Path) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    if text.len() <= HISTORY_BYTES {
        return;
    }
    let (header, body) = match text.split_once('\n') {
        Some((h, b)) if h.starts_with('#') => (format!("{h}\n"), b),
        _ => (String::new(), text.as_str()),
    };
    let mut cut = body.len().saturating_sub(HISTORY_BYTES - header.len());
    while !body.is_char_boundary(cut) {
        cut += 1;
    }
    let kept = body[cut..].split_once('\n').map_or("", |(_, rest)| rest);
    let _ = crate::files::write_atomically(path, &format!("{header}{kept}"));
}

/// Prints a command's output, or its error in red.
fn print_result(color: bool, result: anyhow::Result<String>) {
    match result {
        Ok(out) if !out.is_empty() => super::print_out(&out),
        Ok(_) => {}
        Err(e) => {
            let msg = format!("error: {e:#}");
            if color {
                eprintln!("\x1b[31m{msg}\x1b[0m")
            } else {
                eprintln!("{msg}")
            }
        }
    }
}

/// The longest input line the REPL takes, in bytes.
pub const MAX_LINE: usize = 1 << 20;

/// An error for one input line alone: reported, and the REPL reads on.
fn bad_line(msg: String) -> ReadlineError {
    ReadlineError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, msg))
}

/// Piped input, a line at a time: a line longer than [`MAX_LINE`] is skipped as it is read
/// (never held whole), and one that is not UTF-8 is refused; each is an error naming the line.
struct PipedLines<R> {
    reader: R,
    line: usize,
}

impl<R: std::io::BufRead> PipedLines<R> {
    fn next(&mut self) -> Result<String, ReadlineError> {
        let (mut bytes, mut long, mut read) = (Vec::new(), false, false);
        loop {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                if !read {
                    return Err(ReadlineError::Eof);
                }
                break;
            }
            read = true;
            let end = buf.iter().position(|&b| b == b'\n');
            let chunk = &buf[..end.unwrap_or(buf.len())];
            long |= bytes.len() + chunk.len() > MAX_LINE;
            if !long {
                bytes.extend_from_slice(chunk);
            }
            let used = end.map_or(buf.len(), |i| i + 1);
            self.reader.consume(used);
            if end.is_some() {
                break;
            }
        }
        self.line += 1;
        let n = self.line;
        if long {
            return Err(bad_line(format!(
                "line {n}: longer than {MAX_LINE} bytes; skipped"
            )));
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        String::from_utf8(bytes).map_err(|_| bad_line(format!("line {n}: not UTF-8 text; skipped")))
    }
}

/// Runs the interactive loop until `quit` or end of input.
pub fn run(repl: &mut Repl) -> anyhow::Result<()> {
    // Help is wrapped to the terminal's width (at most 100 columns).
    repl.width = None;
    let config = Config::builder()
        .max_history_size(5000)?
        .history_ignore_dups(true)?
        .history_ignore_space(true)
        .auto_add_history(false)
        .completion_type(CompletionType::List)
        .build();
    let mut rl: Editor<ReplHelper, _> = Editor::with_config(config)?;
    let switches = Rc::new(Switches::new(repl.rules_dir.clone()));
    let known_now = |repl: &mut Repl| editor_known(repl, &switches);
    let known = Rc::new(RefCell::new(known_now(repl)));
    rl.set_helper(Some(ReplHelper {
        known: known.clone(),
        files: FilenameCompleter::new(),
        color: repl.color,
    }));
    let history = history_path();
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        cap_history(h);
        let _ = rl.load_history(h);
    }
    // A terminal is edited with rustyline; piped input is read by lines of bounded length.
    let mut piped = (!std::io::stdin().is_terminal()).then(|| PipedLines {
        reader: std::io::stdin().lock(),
        line: 0,
    });
    loop {
        let tag = repl
            .prompt_tag()
            .map_or(String::new(), |t| format!("[{t}]"));
        let plain = format!("tortuga{tag}> ");
        let more = format!("{:>1$}", "...> ", plain.chars().count());
        let (prompt, more) = if repl.color {
            (
                format!("\x1b[1;36m{}\x1b[0m ", plain.trim_end()),
                format!("\x1b[2m{}\x1b[0m ", more.trim_end()),
            )
        } else {
            (plain, more)
        };
        let read = |p: &str| match &mut piped {
            Some(lines) => lines.next(),
            None => rl.readline(p).and_then(|line| match line.len() > MAX_LINE {
                true => Err(bad_line(format!(
                    "a line longer than {MAX_LINE} bytes; skipped"
                ))),
                false => Ok(line),
            }),
        };
        match read_command(&prompt, &more, read) {
            Ok(line) => {
                // Written as it grows, so a crash or a killed terminal loses nothing.
                if rl.add_history_entry(line.as_str()).unwrap_or(false)
                    && let Some(h) = &history
                {
                    let _ = rl.append_history(h);
                }
                // A rule file saved since the last command is reloaded before this one.
                if let Some(reloaded) = repl.watched() {
                    print_result(repl.color, reloaded);
                }
                print_result(repl.color, repl.handle_line(&line));
                *known.borrow_mut() = known_now(repl);
                if repl.quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                print_result(repl.color, Err(e.into()));
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// What completion offers after the last command, with the session's cache of switches.
fn editor_known(repl: &mut Repl, switches: &Rc<Switches>) -> Known {
    Known {
        other_switches: switches.clone(),
        ..repl.known()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_offers_commands_flags_and_the_games_values() {
        let known = Known {
            games: vec!["backgammon".into(), "jackal".into()],
            variants: vec![
                vec!["match5".into(), "nackgammon".into()],
                vec!["duel".into()],
            ],
            labels: vec!["24/18 13/11".into(), "13/7".into(), "double".into()],
            seats: vec!["X".into(), "O".into()],
            hooks: vec!["render".into(), "status".into()],
            switches: vec!["cube".into(), "crawford".into()],
            tiles: vec!["arrow".into(), "cave".into()],
            formats: vec!["id".into()],
            commands: vec!["double".into(), "drop".into()],
            game: Some("backgammon".into()),
            other_switches: Rc::new(Switches::new(
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules"),
            )),
        };
        let words = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            candidates("re", &known),
            Some((0, words(&["redo", "replay", "reload"])))
        );
        assert_eq!(
            candidates("d", &known),
            Some((0, words(&["double", "drop"]))),
            "one-word options and the game's own words are commands"
        );
        assert_eq!(candidates("play 1", &known), Some((5, words(&["13/7"]))));
        assert_eq!(candidates("new j", &known), Some((4, words(&["jackal"]))));
        assert_eq!(
            candidates("new backgammon --s", &known),
            Some((15, words(&["--seed", "--set"])))
        );
        assert_eq!(
            candidates("new backgammon --variant n", &known),
            Some((25, words(&["nackgammon"])))
        );
        assert_eq!(
            candidates("new backgammon --set c", &known),
            Some((21, words(&["cube=", "crawford="])))
        );
        // another game's switches, read from its rules
        let jackal = candidates("new jackal --set ", &known).expect("switches");
        assert!(jackal.1.contains(&"pack=".to_string()), "{jackal:?}");
        assert!(!jackal.1.contains(&"cube=".to_string()), "{jackal:?}");
        assert_eq!(candidates("help un", &known), Some((5, words(&["undo"]))));
        assert_eq!(candidates("he", &known), Some((0, words(&["help"]))));
        assert_eq!(candidates("show ", &known), Some((5, words(&["X", "O"]))));
        assert_eq!(candidates("rules s", &known), Some((6, words(&["status"]))));
        assert_eq!(candidates("roll c", &known), Some((5, words(&["cave"]))));
        assert_eq!(candidates("position ", &known), Some((9, words(&["id"]))));
        assert_eq!(
            candidates("watch o", &known),
            Some((6, words(&["on", "off"])))
        );
        assert_eq!(candidates("save ga", &known), None, "file names");
        assert_eq!(candidates("undo x", &known), Some((5, vec![])));
    }

    #[test]
    fn an_unfinished_lua_block_reads_on_under_the_continuation_prompt() {
        let read = |typed: &[&str]| {
            let mut lines = typed.iter().map(|l| l.to_string());
            let mut prompts = Vec::new();
            let line = read_command("tortuga> ", "    ...> ", |p| {
                prompts.push(p.to_string());
                lines.next().ok_or(ReadlineError::Eof)
            });
            (line.ok(), prompts)
        };
        let (line, prompts) = read(&["lua for i = 1, 2 do", "print(i)", "end", "show"]);
        assert_eq!(line.as_deref(), Some("lua for i = 1, 2 do\nprint(i)\nend"));
        assert_eq!(prompts, ["tortuga> ", "    ...> ", "    ...> "]);
        let (line, prompts) = read(&["lua if x then", ""]);
        assert_eq!(
            line.as_deref(),
            Some("lua if x then"),
            "an empty line sends it"
        );
        assert_eq!(prompts.len(), 2);
        let (line, prompts) = read(&["show"]);
        assert_eq!((line.as_deref(), prompts.len()), (Some("show"), 1));
    }

    #[test]
    fn an_oversized_history_keeps_its_newest_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history");
        let lines: String = (0..40_000).map(|i| format!("roll {i}\n")).collect();
        std::fs::write(&path, format!("#V2\n{lines}")).unwrap();
        cap_history(&path);
        let kept = std::fs::read_to_string(&path).unwrap();
        assert!(kept.len() <= HISTORY_BYTES, "{}", kept.len());
        assert!(
            kept.starts_with("#V2\nroll "),
            "the header and whole lines stay"
        );
        assert!(kept.ends_with("roll 39999\n"), "the newest lines stay");
    }

    #[test]
    fn hints_show_usage_and_lua_continues_until_complete() {
        assert_eq!(usage_hint("new").as_deref(), Some(" [OPTIONS] <GAME>"));
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
