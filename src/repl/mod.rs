//! The REPL's core: a [`Repl`] turns one command line into output, with no terminal I/O, so
//! that the same commands serve the interactive prompt, batch scripts and tests.

pub mod commands;
pub mod editor;
pub mod lua;
pub mod paint;

use std::path::{Path, PathBuf};
use std::rc::Rc;

use anyhow::{Result, anyhow, bail};
use mlua::Value as LuaValue;

use crate::kernel::rng::Stream;
use crate::script::rules::{games, variants};
use crate::script::{Budget, LoadOptions, Rules};
use crate::session::save::{SaveFile, write_atomically};
use crate::session::{Origin, Session, Status};
use clap::Parser;
use commands::{GameOptions, Line, MachineQuery, ReplCommand};

pub struct Repl {
    pub rules_dir: PathBuf,
    pub color: bool,
    pub budget: Budget,
    pub session: Option<Session>,
    pub quit: bool,
    /// The last ruleset loaded, reused by `new` and `setup` while its files are unchanged.
    cache: Option<(String, Rc<Rules>)>,
}

/// Splits a command line into words, each with the byte offset where it starts: `"…"` groups
/// words, and a word that opens with `{` or `[` runs to its matching bracket (so JSON positions
/// may contain spaces and quotes).
fn words(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(at, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut word = String::new();
        if c == '"' {
            chars.next();
            word.extend(chars.by_ref().map(|(_, c)| c).take_while(|&c| c != '"'));
        } else if c == '{' || c == '[' {
            let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
            for (_, c) in chars.by_ref() {
                word.push(c);
                match c {
                    _ if escaped => escaped = false,
                    '\\' if in_string => escaped = true,
                    '"' => in_string = !in_string,
                    '{' | '[' if !in_string => depth += 1,
                    '}' | ']' if !in_string => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
            }
        } else {
            while let Some(&(_, c)) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        out.push((at, word));
    }
    out
}

/// A clap error as the REPL prints it: without clap's own `error: ` (the prompt adds one) and
/// without the pointer to `--help` (`help <command>` is the REPL's).
fn grammar_error(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let text = text.trim().strip_prefix("error: ").unwrap_or(text.trim());
    text.lines()
        .filter(|l| {
            !l.trim().is_empty()
                && !l.starts_with("For more information")
                && *l != "Usage: <COMMAND>"
        })
        .collect::<Vec<_>>()
        .join("\n")
        .replace("unrecognized subcommand", "unknown command")
        .replace("subcommand", "command")
}

impl Repl {
    pub fn new(rules_dir: &Path, color: bool) -> Repl {
        Repl {
            rules_dir: rules_dir.to_path_buf(),
            color,
            budget: Budget::default(),
            session: None,
            quit: false,
            cache: None,
        }
    }

    fn session(&mut self) -> Result<&mut Session> {
        self.session
            .as_mut()
            .ok_or_else(|| anyhow!("no game yet: start one with `new <game>` (`games` lists them)"))
    }

    /// Runs one command line and returns what it prints.
    pub fn handle_line(&mut self, line: &str) -> Result<String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(String::new());
        }
        let words = words(line);
        let command = match Line::try_parse_from(words.iter().map(|(_, w)| w)) {
            Ok(parsed) => parsed.command,
            Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {
                let help = e.render().to_string().trim_end().to_string();
                return Ok(if words.get(1).is_some_and(|(_, w)| w == "lua") {
                    format!("{help}\n\n{}", lua::api())
                } else {
                    help
                });
            }
            // An option's label typed alone plays it (`double`, `take`, `drop`).
            Err(e)
                if e.kind() == clap::error::ErrorKind::InvalidSubcommand && self.offers(line) =>
            {
                return self.play(line).map(|out| self.with_printed(out));
            }
            Err(e) => bail!("{}", grammar_error(&e)),
        };
        // The text of the last `n` words as typed, for arguments whose spacing and quotes matter
        // (Lua code, option labels, positions).
        let tail = |n: usize| line[words[words.len() - n].0..].to_string();
        let out = match command {
            ReplCommand::Games => self.games(),
            ReplCommand::New { game, options } => self.new_game(&game, &options),
            ReplCommand::Show { seat, legend } => self.show(seat.as_deref(), legend),
            ReplCommand::Moves { query } => self.moves(&query),
            ReplCommand::Play { option } => self.play(&tail(option.len())),
            ReplCommand::Roll { values } => {
                let refs: Vec<&str> = values.iter().map(String::as_str).collect();
                let what = self.session()?.roll(&refs)?;
                Ok(format!("{what}\n{}", self.status_line()?))
            }
            ReplCommand::Auto { steps, double } => self.auto(steps, double),
            ReplCommand::Undo => {
                let e = self.session()?.undo()?;
                Ok(format!("undid {}\n{}", e.describe(), self.status_line()?))
            }
            ReplCommand::Redo => {
                let e = self.session()?.redo()?;
                Ok(format!("redid {}\n{}", e.describe(), self.status_line()?))
            }
            ReplCommand::Log { lines } => self.log(lines),
            ReplCommand::Save { file } => self.save(&file),
            ReplCommand::Load { file } => self.load(&file, false),
            ReplCommand::Replay { file } => self.load(&file, true),
            ReplCommand::Position { format } => self.session()?.game.text_hook("export", format),
            ReplCommand::Setup {
                game,
                options,
                position,
            } => self.setup(&game, options, &tail(position.len())),
            ReplCommand::Rules { hook } => self.rules(hook.as_deref()),
            ReplCommand::Reload => self.reload(),
            ReplCommand::Lua { code } => lua::eval(self.session()?, &tail(code.len())),
            ReplCommand::Quit => {
                self.quit = true;
                Ok(String::new())
            }
        }?;
        Ok(self.with_printed(out))
    }

    /// Whether the current decision has an option with this label.
    fn offers(&mut self, text: &str) -> bool {
        let Some(s) = self.session.as_mut() else {
            return false;
        };
        matches!(s.status(), Ok(Status::Decision { .. }))
            && s.game
                .labels()
                .is_ok_and(|labels| labels.iter().any(|l| l.eq_ignore_ascii_case(text)))
    }

    fn play(&mut self, text: &str) -> Result<String> {
        let label = self.session()?.play(text)?;
        Ok(format!("played {label}\n{}", self.status_line()?))
    }

    /// Appends what rules printed with `print` during the command.
    fn with_printed(&mut self, out: String) -> String {
        let Some(s) = &self.session else { return out };
        let printed: Vec<String> = s.game.rules.host.printed.borrow_mut().drain(..).collect();
        if printed.is_empty() {
            out
        } else {
            format!(
                "{}{out}",
                printed
                    .iter()
                    .map(|l| format!("print: {l}\n"))
                    .collect::<String>()
            )
        }
    }

    fn games(&self) -> Result<String> {
        let mut out = String::new();
        for g in games(&self.rules_dir) {
            let v = variants(&self.rules_dir, &g);
            out += &format!(
                "{g}{}\n",
                if v.is_empty() {
                    String::new()
                } else {
                    format!("  (variants: {})", v.join(", "))
                }
            );
        }
        if out.is_empty() {
            bail!("no games in {}", self.rules_dir.display());
        }
        Ok(out.trim_end().to_string())
    }

    /// Loads a ruleset, or reuses the cached one when nothing it could read has changed.
    fn load_rules(&mut self, game: &str, f: &GameOptions) -> Result<Rc<Rules>> {
        let key = format!(
            "{game} {:?} {:?} {:?} {}",
            f.variant,
            f.sets,
            self.budget,
            crate::script::rules::folder_digest(&self.rules_dir, game)
        );
        if let Some((k, rules)) = &self.cache
            && *k == key
        {
            return Ok(rules.clone());
        }
        let opts = LoadOptions {
            variant: f.variant.clone(),
            overrides: f.sets.clone(),
            budget: self.budget.clone(),
        };
        let rules = Rc::new(Rules::load(&self.rules_dir, game, &opts)?);
        self.cache = Some((key, rules.clone()));
        Ok(rules)
    }

    /// Starts a new game (`new`), as the prompt does at start.
    pub fn new_game(&mut self, game: &str, options: &GameOptions) -> Result<String> {
        self.start(game, options, None)
    }

    fn start(&mut self, game: &str, f: &GameOptions, position: Option<String>) -> Result<String> {
        let rules = self.load_rules(game, f)?;
        let origin = Origin {
            game: game.to_string(),
            variant: f.variant.clone(),
            overrides: f.sets.clone(),
            seats: f.players.unwrap_or(rules.seats.default),
            seed: f.seed.unwrap_or_else(|| rand::random::<u64>() >> 12),
            position,
        };
        let seed = origin.seed;
        self.session = Some(Session::new(rules, origin)?);
        let board = self.render(None)?;
        Ok(format!(
            "{board}\nnew {game} (seed {seed})\n{}",
            self.status_line()?
        ))
    }

    fn setup(&mut self, game: &str, options: GameOptions, text: &str) -> Result<String> {
        let position = match text.strip_prefix('@') {
            Some(file) => std::fs::read_to_string(file).map_err(|e| anyhow!("{file}: {e}"))?,
            None => text.to_string(),
        };
        let options = GameOptions {
            seed: options.seed.or(Some(0)),
            ..options
        };
        self.start(game, &options, Some(position))
    }

    fn render(&mut self, viewer: Option<&str>) -> Result<String> {
        let color = self.color;
        let s = self.session()?;
        let viewer = match viewer {
            None => 0,
            Some(v) => s
                .game
                .with_state(|st| st.turn.find(v))
                .ok_or_else(|| anyhow!("no seat '{v}'"))?,
        };
        let text = s.game.text_hook("render", viewer)?;
        Ok(paint::paint(text.trim_end(), color))
    }

    fn show(&mut self, viewer: Option<&str>, legend: bool) -> Result<String> {
        if legend {
            let s = self.session()?;
            if !s.game.has_hook("legend") {
                bail!(
                    "{} has no legend (its board uses no symbols to explain)",
                    s.origin.game
                );
            }
            let text = s.game.text_hook("legend", ())?;
            return Ok(paint::paint(text.trim_end(), self.color));
        }
        let board = self.render(viewer)?;
        Ok(format!("{board}\n{}", self.status_line()?))
    }

    /// One line saying what the game waits for.
    pub fn status_line(&mut self) -> Result<String> {
        let s = self.session()?;
        let status = s.status()?.clone();
        Ok(match status {
            Status::Chance(name) => {
                format!("waiting for {name}: `roll` draws it, `roll <values>` forces it")
            }
            Status::Decision {
                actor,
                count,
                prompt,
                ..
            } => {
                let who = s.game.with_state(|st| st.turn.name(actor).to_string());
                let prompt = if prompt.is_empty() {
                    format!("{who} to play")
                } else {
                    prompt
                };
                format!(
                    "{prompt} — {count} option{} (`moves`)",
                    if count == 1 { "" } else { "s" }
                )
            }
            Status::Over { scores, result } => {
                let names = s.game.with_state(|st| {
                    (1..=st.turn.seats())
                        .map(|i| st.turn.name(i).to_string())
                        .collect::<Vec<_>>()
                });
                let parts: Vec<String> = names
                    .iter()
                    .zip(&scores)
                    .map(|(n, v)| format!("{n} {v}"))
                    .collect();
                format!("game over: {result} ({})", parts.join(", "))
            }
        })
    }

    fn moves(&mut self, query: &MachineQuery) -> Result<String> {
        if let Some(position) = &query.position {
            let rules = self.session()?.game.rules.clone();
            return machine_moves(rules, position, query.dice.as_deref(), query.absolute);
        }
        let s = self.session()?;
        let labels = s.game.labels()?;
        if labels.is_empty() {
            return self.status_line();
        }
        let width = labels.len().to_string().len();
        Ok(labels
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{:>width$}. {l}", i + 1))
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// The bot rolls when a decision offers `roll` (it would otherwise double and drop a money
    /// game away in a few steps), unless `--double` lets it choose among every option.
    fn auto(&mut self, steps: Option<u64>, double: bool) -> Result<String> {
        let limit = steps.unwrap_or(100_000);
        let s = self.session()?;
        let mut bot = Stream::new(s.origin.seed ^ s.events.len() as u64, "bots");
        let mut steps = 0;
        while steps < limit {
            match s.status()?.clone() {
                Status::Over { .. } => break,
                Status::Chance(_) => {
                    s.roll(&[])?;
                }
                Status::Decision { count, .. } => {
                    let roll = (!double)
                        .then(|| s.game.labels().ok()?.iter().position(|l| l == "roll"))
                        .flatten();
                    let i = roll.unwrap_or_else(|| bot.below(count as u64) as usize);
                    s.play_index(i)?;
                }
            }
            steps += 1;
        }
        Ok(format!("{steps} steps\n{}", self.status_line()?))
    }

    fn log(&mut self, n: Option<usize>) -> Result<String> {
        let s = self.session()?;
        let lines = s.game.with_state(|st| st.log.clone());
        let n = n.unwrap_or(lines.len());
        Ok(lines[lines.len().saturating_sub(n)..].join("\n"))
    }

    fn save(&mut self, path: &str) -> Result<String> {
        let s = self.session()?;
        let text = SaveFile::of(s).to_text();
        write_atomically(Path::new(path), &text)?;
        Ok(format!("saved {} steps to {path}", s.events.len()))
    }

    /// `load` (strict about rule changes) and `replay` (reports the first divergence).
    fn load(&mut self, path: &str, replay: bool) -> Result<String> {
        let text = std::fs::read_to_string(path).map_err(|e| anyhow!("{path}: {e}"))?;
        let save = SaveFile::parse(path, &text)?;
        let f = GameOptions {
            variant: save.origin.variant.clone(),
            sets: save.origin.overrides.clone(),
            ..GameOptions::default()
        };
        let rules = self.load_rules(&save.origin.game, &f)?;
        let changed = save.changed_files(&rules.files());
        if !changed.is_empty() && !replay {
            bail!(
                "{path}: the rules changed since it was saved ({}); `replay {path}` replays it on the current rules",
                changed.join(", ")
            );
        }
        let mut session = Session::new(rules, save.origin.clone())?;
        let result = session.replay(&save.events);
        if let (Err(d), false) = (&result, replay) {
            bail!(
                "{path}: step {} ({}) no longer fits: {}; the current game is kept (`replay {path}` plays the steps that fit)",
                d.index,
                d.event.describe(),
                d.reason
            );
        }
        let steps = session.events.len();
        self.session = Some(session);
        let status = self.status_line()?;
        match result {
            Ok(()) => Ok(format!("loaded {path}: {steps} steps\n{status}")),
            Err(d) => Ok(format!(
                "{path}: replay diverges at step {} ({}): {}\nstopped after {steps} steps\n{status}",
                d.index,
                d.event.describe(),
                d.reason
            )),
        }
    }

    fn rules(&mut self, hook: Option<&str>) -> Result<String> {
        let s = self.session()?;
        let rules = s.game.rules.clone();
        if let Some(h) = hook {
            let layers = rules
                .stacks
                .get(h)
                .ok_or_else(|| anyhow!("no hook '{h}'"))?;
            let files: Vec<String> = layers
                .iter()
                .rev()
                .map(|l| format!("  {}", l.file))
                .collect();
            return Ok(format!("{h} (top first):\n{}", files.join("\n")));
        }
        let mut out = format!("{} — {}\nfiles:\n", rules.game, rules.title);
        for (file, hash) in rules.files() {
            out += &format!("  {file}  {}\n", &hash[..12]);
        }
        out += "switches:\n";
        for d in &rules.switch_defs {
            let v = &rules.switches[&d.name];
            let mark = if *v == d.default { "" } else { "  (changed)" };
            out += &format!("  {} = {}{mark}  {}\n", d.name, v.to_literal(), d.help);
        }
        if !rules.tiles.is_empty() {
            out += "tiles:\n";
            for t in &rules.tiles {
                out += &format!("  {} {} ×{}  {}\n", t.glyph, t.name, t.count, t.help);
            }
        }
        out += "hooks (files stacked on each, top first):\n";
        for (name, layers) in &rules.stacks {
            let files: Vec<&str> = layers.iter().rev().map(|l| l.file.as_str()).collect();
            out += &format!("  {name}: {}\n", files.join(" <- "));
        }
        Ok(out.trim_end().to_string())
    }

    fn reload(&mut self) -> Result<String> {
        let s = self.session()?;
        let origin = s.origin.clone();
        let events = s.events.clone();
        let f = GameOptions {
            variant: origin.variant.clone(),
            sets: origin.overrides.clone(),
            ..GameOptions::default()
        };
        let rules = self.load_rules(&origin.game, &f)?;
        let mut session = Session::new(rules, origin)?;
        let result = session.replay(&events);
        let n = session.events.len();
        self.session = Some(session);
        let status = self.status_line()?;
        Ok(match result {
            Ok(()) => format!("reloaded; replayed {n} steps\n{status}"),
            Err(d) => format!(
                "reloaded; the session diverges at step {} ({}): {}\nkept the first {n} steps\n{status}",
                d.index,
                d.event.describe(),
                d.reason
            ),
        })
    }

    /// Runs a script of commands; stops at the first failing line with its number.
    /// With `echo`, each command is printed before its output (`> command`), as a transcript.
    pub fn run_script(
        &mut self,
        text: &str,
        echo: bool,
        mut out: impl FnMut(&str),
    ) -> Result<(), (usize, String)> {
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            let start = i;
            let mut line = lines[i].to_string();
            i += 1;
            while line.trim_start().starts_with("lua ")
                && editor::lua_incomplete(&line)
                && i < lines.len()
            {
                line = format!("{line}\n{}", lines[i]);
                i += 1;
            }
            // `command <<END` takes the following lines up to `END` as its last argument.
            if let Some((head, tag)) = line.rsplit_once("<<").filter(|(_, t)| is_tag(t)) {
                let tag = tag.trim().to_string();
                let body_start = i;
                while i < lines.len() && lines[i].trim() != tag {
                    i += 1;
                }
                if i == lines.len() {
                    return Err((start + 1, format!("no line '{tag}' closes this block")));
                }
                line = format!("{head}{}", lines[body_start..i].join("\n"));
                i += 1;
            }
            if echo && !line.trim().is_empty() && !line.trim_start().starts_with('#') {
                out(&format!("> {line}"));
            }
            match self.handle_line(&line) {
                Ok(text) if !text.is_empty() => out(&text),
                Ok(_) => {}
                Err(e) => return Err((start + 1, format!("{e:#}"))),
            }
            if self.quit {
                break;
            }
        }
        Ok(())
    }

    /// What completion offers now: the games, and the current game's options, seats, hooks,
    /// switches and tiles.
    pub fn known(&mut self) -> editor::Known {
        let games = games(&self.rules_dir);
        let variants = games.iter().map(|g| variants(&self.rules_dir, g)).collect();
        let mut known = editor::Known {
            games,
            variants,
            ..editor::Known::default()
        };
        if let Some(s) = self.session.as_mut() {
            known.labels = s.game.labels().unwrap_or_default();
            known.seats = s.game.with_state(|st| {
                (1..=st.turn.seats())
                    .map(|i| st.turn.name(i).to_string())
                    .collect()
            });
            let rules = &s.game.rules;
            known.hooks = rules.stacks.keys().cloned().collect();
            known.switches = rules.switch_defs.iter().map(|d| d.name.clone()).collect();
            known.tiles = rules.tiles.iter().map(|t| t.name.clone()).collect();
        }
        known
    }
}

/// A here-document tag: one word of capitals (`<<END`, `<<POS`).
fn is_tag(t: &str) -> bool {
    let t = t.trim();
    !t.is_empty() && t.chars().all(|c| c.is_ascii_uppercase() || c == '_')
}

/// The machine interface: the game's `machine_moves` hook on a fresh state.
pub fn machine_moves(
    rules: Rc<Rules>,
    position: &str,
    dice: Option<&str>,
    absolute: bool,
) -> Result<String> {
    let game = crate::session::Game::new(rules.clone(), rules.seats.default, 0)?;
    if !game.has_hook("machine_moves") {
        bail!(
            "{} has no machine interface (no machine_moves hook)",
            rules.game
        );
    }
    let lua = &rules.host.lua;
    let args = lua.create_table()?;
    args.raw_set("position", position)?;
    if let Some(d) = dice {
        args.raw_set("dice", d)?;
    }
    args.raw_set("absolute", absolute)?;
    let out: LuaValue = LuaValue::Table(args);
    game.text_hook("machine_moves", out)
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn words_keep_json_and_quoted_text_whole_with_their_offsets() {
        let texts = |line: &str| words(line).into_iter().map(|(_, w)| w).collect::<Vec<_>>();
        assert_eq!(texts(r#"a  "b c" d"#), ["a", "b c", "d"]);
        assert_eq!(
            texts(r#"--position {"board": [1, 2], "s": "x}"} --dice 61"#),
            [
                "--position",
                r#"{"board": [1, 2], "s": "x}"}"#,
                "--dice",
                "61"
            ]
        );
        assert_eq!(texts("[1, [2]] x"), ["[1, [2]]", "x"]);
        let offsets: Vec<usize> = words("é  \"b c\" d")
            .into_iter()
            .map(|(at, _)| at)
            .collect();
        assert_eq!(offsets, [0, 4, 10]);
    }
}
