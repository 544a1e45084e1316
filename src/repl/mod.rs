//! The REPL's core: a [`Repl`] turns one command line into output, with no terminal I/O, so
//! that the same commands serve the interactive prompt, batch scripts and tests.

pub mod commands;
pub mod editor;
pub mod help;
pub mod lua;
mod machine;
pub mod paint;
pub mod watch;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use anyhow::{Result, anyhow, bail};
use clap::{CommandFactory, FromArgMatches};

use crate::files::write_atomically;
use crate::kernel::rng::Stream;
use crate::kernel::{Seat, Viewer};
use crate::script::ruleset::reference::Reference;
use crate::script::ruleset::rules::{games, variants};
use crate::script::ruleset::variant::{choices, did_you_mean};
use crate::script::{Budget, LoadOptions, Rules};
use crate::session::save::SaveFile;
use crate::session::{Event, Game, Origin, Session, Status, picture};
use crate::sim;
use crate::sim::bots::{Bot, BotSpec};
use commands::{GameOptions, Line, MachineQuery, ReplCommand};
pub use machine::machine_moves;

/// Where a command prints a line as soon as it has it.
pub type LiveOutput = Box<dyn FnMut(&str)>;

pub struct Repl {
    pub rules_dir: PathBuf,
    pub color: bool,
    pub budget: Budget,
    pub session: Option<Session>,
    pub quit: bool,
    /// Whose view every command shows (`as <seat>`, `as spectator`, `as referee`).
    pub viewer: Viewer,
    /// Bots set with `bot`, by seat: `auto` lets them take their seats' decisions.
    bots: BTreeMap<Seat, Bot>,
    /// The width help is wrapped to; `None`: the terminal's (at most 100 columns).
    pub width: Option<usize>,
    /// `watch on`: the game's rule files as last seen, to reload when one is saved.
    watch: Option<watch::Watch>,
    /// Where a long command prints as it goes, on a terminal (`auto`: what each step did, as
    /// the steps are taken); `None`: it prints when done.
    pub live: Option<LiveOutput>,
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

/// The most log lines `auto` prints of what its steps did.
const AUTO_LINES: usize = 12;
/// Chance events `roll --all` draws at most before it gives the prompt back.
const ROLL_ALL_LIMIT: usize = 1000;

/// The most lines an error message keeps, and the most characters of each.
const ERROR_LINES: usize = 8;
const ERROR_LINE_CHARS: usize = 240;

/// `text` cut to a few terminal lines: a long line keeps its start and its end (where the
/// reason usually is) around a count of what was left out, and lines past the first few are
/// counted, not printed. A 20,000-character move typed by mistake gives an error that fits
/// on the screen.
pub fn bounded(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = lines
        .iter()
        .take(ERROR_LINES)
        .map(|line| {
            let n = line.chars().count();
            if n <= ERROR_LINE_CHARS {
                return line.to_string();
            }
            let (head, tail) = (ERROR_LINE_CHARS * 2 / 3, ERROR_LINE_CHARS / 4);
            let start: String = line.chars().take(head).collect();
            let end: String = line.chars().skip(n - tail).collect();
            format!("{start}…({} characters)…{end}", n - head - tail)
        })
        .collect();
    if lines.len() > ERROR_LINES {
        out.push(format!("… ({} more lines)", lines.len() - ERROR_LINES));
    }
    out.join("\n")
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
            viewer: Viewer::Referee,
            bots: BTreeMap::new(),
            width: Some(100),
            watch: None,
            live: None,
        }
    }

    fn session(&mut self) -> Result<&mut Session> {
        self.session
            .as_mut()
            .ok_or_else(|| anyhow!("no game yet: start one with `new <game>` (`games` lists them)"))
    }

    /// Runs one command line and returns what it prints. An error is a few lines at most,
    /// however long the line typed (see [`bounded`]).
    pub fn handle_line(&mut self, line: &str) -> Result<String> {
        self.run_line(line)
            .map_err(|e| anyhow!("{}", bounded(&format!("{e:#}"))))
    }

    fn run_line(&mut self, line: &str) -> Result<String> {
        crate::script::lua::limits::clear_interrupt();
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(String::new());
        }
        let words = words(line);
        let first = &words[0].1;
        // An option's label typed alone plays it (`8/5 6/5`), and so does a word the game
        // declares (`double`, `take`), whose parse hook says why it cannot when it is not offered.
        let declared = words.len() == 1 && self.game_commands().contains_key(first);
        let names = commands::names();
        let is_command = names.contains(first);
        if !is_command && (declared || self.offers(line) || self.reads(line)) {
            return self.play(line).map(|out| self.with_printed(out));
        }
        if first == "help"
            && let Some(out) = self.authoring_help(&words)
        {
            return out;
        }
        if let ("help", Some((_, word))) = (first.as_str(), words.get(1))
            && let Some(help) = self.game_commands().get(word)
        {
            return Ok(format!(
                "{word}: {help} (typed alone, when the game offers it)"
            ));
        }
        // The grammar takes a first word that names a file (`x/show`, `show.txt`) for the
        // command it ends with: only a plain word is a command's name.
        let plain = std::path::Path::new(first)
            .file_stem()
            .and_then(|f| f.to_str())
            == Some(first);
        // A first word that is no command (not a plain word, or no typo of a command's name)
        // is a move the game refuses (`24/18 13/11`, `W1 G1-G3`): the game's reason, with the
        // options nearest the text, is the one to give.
        let typo = || did_you_mean(first, &names.iter().map(String::as_str).collect::<Vec<_>>());
        if !is_command
            && (!plain || typo().is_none())
            && self.session.is_some()
            && self.sees_decision().unwrap_or(false)
            && let Err(e) = self.session()?.resolve_option(line)
        {
            bail!("{e:#}");
        }
        if !plain {
            bail!("unknown command '{first}' (type help)");
        }
        let mut grammar = Line::command();
        if let Some(width) = self.width {
            grammar = grammar.term_width(width);
        }
        let parsed = grammar
            .try_get_matches_from(words.iter().map(|(_, w)| w))
            .and_then(|m| Line::from_arg_matches(&m));
        let command = match parsed {
            Ok(parsed) => parsed.command,
            Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {
                let help = e.render().to_string().trim_end().to_string();
                return Ok(match words.get(1) {
                    Some((_, w)) if w == "lua" => {
                        format!("{help}\n\n{}", Reference::load(&self.rules_dir)?.listing())
                    }
                    None => help + &self.game_commands_help(),
                    Some(_) => help,
                });
            }
            Err(e) => bail!("{}", grammar_error(&e)),
        };
        // The text of the last `n` words as typed, for arguments whose spacing and quotes matter
        // (Lua code, option labels, positions).
        let tail = |n: usize| line[words[words.len() - n].0..].to_string();
        let out = match command {
            ReplCommand::Games => self.games(),
            ReplCommand::New { game, options } => self.new_game(&game, &options),
            ReplCommand::Show { seat, legend, svg } => {
                self.show(seat.as_deref(), legend, svg.as_deref())
            }
            ReplCommand::Moves { query } => self.moves(&query),
            ReplCommand::Play { option } => self.play(&tail(option.len())),
            ReplCommand::Roll { values, all } => {
                let refs: Vec<&str> = values.iter().map(String::as_str).collect();
                let viewer = self.viewer;
                let mark = self.session()?.events.len();
                let mut drawn = vec![self.session()?.roll(&refs)?];
                while all
                    && drawn.len() < ROLL_ALL_LIMIT
                    && matches!(self.session()?.status()?, Status::Chance(..))
                {
                    drawn.push(self.session()?.roll(&[])?);
                }
                let echo = self.echo(drawn.join("; "), viewer, mark);
                self.stepped(mark, echo)
            }
            ReplCommand::Pending { hooks } => self.pending(hooks),
            ReplCommand::As { who } => self.view_as(who.as_deref()),
            ReplCommand::Auto { steps, any } => self.auto(steps, any),
            ReplCommand::Bot { seat, kind, budget } => self.bot(&seat, &kind, budget.as_deref()),
            ReplCommand::Hint { top } => self.hint(top),
            ReplCommand::Sim(args) => sim::command::sim(
                &self.rules_dir,
                &args,
                &self.budget,
                &std::sync::atomic::AtomicBool::new(false),
                &mut sim::command::progress_bar(args.json || args.shard.is_some()),
            ),
            ReplCommand::Train(args) => sim::train::train(
                &self.rules_dir,
                &args,
                &self.budget,
                &mut sim::train::progress_bar(),
            ),
            ReplCommand::Undo => {
                let viewer = self.viewer;
                let s = self.session()?;
                let seen = s.last_seen_by();
                let e = s.undo()?;
                // A step hidden from the viewer stays taken: undoing it would reopen a choice
                // or a draw the viewer may not see (and let it be made again).
                if !viewer.sees(seen) {
                    let what = e.hidden().describe();
                    s.redo()?;
                    let who = match viewer {
                        Viewer::Seat(n) if n > 0 => s.game.with_state(|st| st.turn.player_name(n)),
                        _ => "a spectator".to_string(),
                    };
                    bail!(
                        "the last step ({what}) is hidden from {who}: undoing it would reopen it (`as referee` undoes it)"
                    );
                }
                Ok(format!("undid {}\n{}", e.describe(), self.status_line()?))
            }
            ReplCommand::Redo => {
                let viewer = self.viewer;
                let s = self.session()?;
                let mark = s.events.len();
                let e = s.redo()?;
                let e = if viewer.sees(s.last_seen_by()) {
                    e
                } else {
                    e.hidden()
                };
                self.stepped(mark, format!("redid {}", e.describe()))
            }
            ReplCommand::Log { lines } => self.log(lines),
            ReplCommand::Save { file } => self.save(&file),
            ReplCommand::Load { file } => self.load(&file, false),
            ReplCommand::Replay { file } => self.load(&file, true),
            ReplCommand::Position { format } => self.position(format),
            ReplCommand::Setup {
                game,
                options,
                position,
            } => self.setup(&game, options, &tail(position.len())),
            ReplCommand::Rules { hook } => self.rules(hook.as_deref()),
            ReplCommand::Reload { keep } => self.reload(keep.is_some()),
            ReplCommand::Watch { state } => self.watch(state.as_deref()),
            ReplCommand::Lua { code } => {
                let viewer = self.viewer;
                lua::eval(self.session()?, viewer, &tail(code.len()))
            }
            ReplCommand::Quit => {
                self.quit = true;
                Ok(String::new())
            }
        }?;
        Ok(self.with_printed(out))
    }

    /// `help lua <name>`, `help tile <name>` and `help rule <name>`: the API reference's entry,
    /// or what a tile's or house rule's file says of itself; `None` for any other `help`.
    fn authoring_help(&self, words: &[(usize, String)]) -> Option<Result<String>> {
        let what = words.get(1).map(|w| w.1.as_str());
        let name = match (what, words.get(2..)) {
            (Some("lua"), Some([])) => return None,
            (Some("lua" | "tile" | "rule"), Some([(_, name)])) => name,
            (Some(w @ ("lua" | "tile" | "rule")), _) => {
                return Some(Err(anyhow!(
                    "help {w} takes one name: help lua place, help tile ice, help rule nackgammon"
                )));
            }
            _ => return None,
        };
        let current = self.session.as_ref().map(|s| &*s.game.rules);
        Some(match what {
            Some("lua") => Reference::load(&self.rules_dir).and_then(|r| r.lookup(name)),
            Some("tile") => help::tile(&self.rules_dir, current, name),
            _ => help::rule(&self.rules_dir, current, name),
        })
    }

    /// The words the current game declares (its game table's `commands`), to their help.
    fn game_commands(&self) -> BTreeMap<String, String> {
        self.session
            .as_ref()
            .map(|s| s.game.rules.commands.clone())
            .unwrap_or_default()
    }

    /// `help`'s list of the current game's own words, if it declares any.
    fn game_commands_help(&self) -> String {
        let commands = self.game_commands();
        if commands.is_empty() {
            return String::new();
        }
        let width = commands.keys().map(String::len).max().unwrap_or(0);
        let game = self.session.as_ref().map_or("", |s| s.origin.game.as_str());
        let mut out = format!("\n\n{game}'s own words (typed alone, when the game offers them):");
        for (word, help) in &commands {
            out += &format!("\n  {word:width$}  {help}");
        }
        out
    }

    /// Whether the current decision, seen by the REPL's viewer, has an option with this label.
    fn offers(&mut self, text: &str) -> bool {
        self.visible_labels()
            .iter()
            .any(|l| l.eq_ignore_ascii_case(text))
    }

    /// Whether the game's notation reads `text` as one option of the current decision the
    /// viewer sees (`R2 I9` for `R2 I10->I9`). A bare number is not read: typed alone, it is
    /// more likely a slip than an option's number.
    fn reads(&mut self, text: &str) -> bool {
        text.parse::<usize>().is_err()
            && self.sees_decision().unwrap_or(false)
            && self
                .session
                .as_mut()
                .is_some_and(|s| s.game.parse_input(text).is_ok_and(|i| i.is_some()))
    }

    /// The labels of the current decision when the REPL's viewer may see them (none otherwise).
    fn visible_labels(&mut self) -> Vec<String> {
        if self.session.is_none() || !self.sees_decision().unwrap_or(false) {
            return Vec::new();
        }
        let Some(s) = self.session.as_mut() else {
            return Vec::new();
        };
        match s.status() {
            Ok(Status::Decision { .. }) => s.game.labels().unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Takes an option of the current decision (by label, number or the game's notation).
    fn play(&mut self, text: &str) -> Result<String> {
        self.own_decision()?;
        let viewer = self.viewer;
        let mark = self.session()?.events.len();
        let label = self.session()?.play(text)?;
        let echo = self.echo(format!("played {label}"), viewer, mark);
        let out = self.stepped(mark, echo.clone())?;
        // A step whose chance event values `roll` queued drew keeps its echo before what the
        // draw did.
        Ok(if !out.starts_with(&echo) {
            format!("{echo}\n{out}")
        } else {
            out
        })
    }

    /// What a command that took steps prints: its echo, then what the rules logged while
    /// applying the steps from the `mark`-th on (a pass, a hit, a capture, a tile turned up), in
    /// the viewer's view as `log` shows it, then what the game waits for.
    /// A chance event's codes (`deck cv`) give way to the rules' words when they said what the
    /// outcome did (`W1 turns up a cave at G2`); a roll they are silent on keeps its values
    /// (`dice 6 5`).
    fn stepped(&mut self, mark: usize, echo: String) -> Result<String> {
        let viewer = self.viewer;
        let s = self.session()?;
        let said = s.consequences(mark, viewer);
        // A viewer who may not see the draw keeps its echo (`deck: drawn, hidden`).
        let chance =
            matches!(s.events.last(), Some(Event::Chance { .. })) && viewer.sees(s.last_seen_by());
        let mut out = if chance && !said.is_empty() {
            Vec::new()
        } else {
            vec![echo]
        };
        out.extend(said);
        out.push(self.status_line()?);
        Ok(out.join("\n"))
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

    /// Loads a ruleset afresh: every new game, load, replay and reload starts from a fresh
    /// rules state, so that nothing a rule kept from an earlier game changes this one.
    fn load_rules(&mut self, game: &str, f: &GameOptions) -> Result<Rc<Rules>> {
        let opts = LoadOptions {
            variant: f.variant.clone(),
            house: f.house.clone(),
            overrides: f.sets.clone(),
            budget: self.budget.clone(),
        };
        Ok(Rc::new(Rules::load(&self.rules_dir, game, &opts)?))
    }

    /// Starts a new game (`new`), as the prompt does at start.
    pub fn new_game(&mut self, game: &str, options: &GameOptions) -> Result<String> {
        self.start(game, options, None)
    }

    fn start(&mut self, game: &str, f: &GameOptions, position: Option<String>) -> Result<String> {
        let rules = self.load_rules(game, f)?;
        // Without --players, a position may say how many seats it is for.
        let seats = match (f.players, &position) {
            (Some(n), _) => n,
            (None, Some(text)) => position_seats(&rules, text)?,
            (None, None) => rules.seats.default,
        };
        let origin = Origin {
            game: game.to_string(),
            variant: f.variant.clone(),
            house: f.house.clone(),
            overrides: f.sets.clone(),
            seats,
            seed: f.seed.unwrap_or_else(|| rand::random::<u64>() >> 12),
            // A seed the user gives sets both; a random public seed gets a random secret one,
            // so that the printed seed does not predict secret draws.
            secret_seed: f.seed.is_none().then(rand::random::<u64>),
            position,
        };
        let seed = origin.seed;
        let from_position = origin.position.is_some();
        self.set_session(Session::new(rules, origin)?);
        let board = self.render(None)?;
        // what reading the position logged (e.g. a rule it names that this game plays apart)
        let noted = if from_position {
            self.log_from(0)?.into_iter().map(|l| l + "\n").collect()
        } else {
            String::new()
        };
        Ok(format!(
            "{board}\n{noted}new {game} (seed {seed})\n{}",
            self.status_line()?
        ))
    }

    fn setup(&mut self, game: &str, options: GameOptions, text: &str) -> Result<String> {
        let position = position_text(text)?;
        let options = GameOptions {
            seed: options.seed.or(Some(0)),
            ..options
        };
        self.start(game, &options, Some(position))
    }

    /// The board as a seat sees it: the REPL's own seat, or another one named when the REPL
    /// views as the referee. The render hook runs in that seat's view.
    fn render(&mut self, asked: Option<&str>) -> Result<String> {
        let color = self.color;
        let text = self.in_view(asked, |game, seat| game.text_hook("render", seat))?;
        Ok(paint::paint(text.trim_end(), color))
    }

    /// Runs `f` on the game in the view of the seat `show` names (see `render`).
    fn in_view<R>(
        &mut self,
        asked: Option<&str>,
        f: impl FnOnce(&Game, Seat) -> Result<R>,
    ) -> Result<R> {
        let me = self.viewer;
        let s = self.session()?;
        let seat = match asked {
            None => me.seat().unwrap_or(0),
            Some(v) => s
                .game
                .with_state(|st| st.turn.find(v))
                .ok_or_else(|| anyhow!("no seat '{v}' {}", seat_choices(&s.game, v)))?,
        };
        let view = match (me, asked) {
            (Viewer::Referee, None) => Viewer::Referee,
            (Viewer::Referee, Some(_)) => Viewer::Seat(seat),
            (mine, _) if mine == Viewer::Seat(seat) => mine,
            _ => bail!(
                "you view the game as {}: `as referee` shows other seats' boards",
                self.viewer_name()
            ),
        };
        s.game.view = view;
        let result = f(&s.game, seat);
        s.game.view = me;
        result
    }

    /// Installs a new session, seen from the REPL's view.
    fn set_session(&mut self, mut session: Session) {
        session.game.view = self.viewer;
        self.session = Some(session);
    }

    /// The REPL's viewer in words.
    fn viewer_name(&self) -> String {
        match self.viewer {
            Viewer::Referee => "the referee".into(),
            Viewer::Seat(0) => "a spectator".into(),
            Viewer::Seat(s) => self
                .session
                .as_ref()
                .map(|x| x.game.with_state(|st| st.turn.player_name(s)))
                .unwrap_or_else(|| format!("seat {s}")),
        }
    }

    /// What the prompt shows: `tortuga[X]> ` in a seat's view, `tortuga> ` as the referee.
    pub fn prompt_tag(&self) -> Option<String> {
        match self.viewer {
            Viewer::Referee => None,
            Viewer::Seat(0) => Some("spectator".into()),
            Viewer::Seat(_) => Some(self.viewer_name()),
        }
    }

    /// `as <seat>`, `as spectator`, `as referee`: whose view every command shows.
    fn view_as(&mut self, who: Option<&str>) -> Result<String> {
        let Some(who) = who else {
            return Ok(format!("viewing as {}", self.viewer_name()));
        };
        self.viewer = match who.to_ascii_lowercase().as_str() {
            "referee" => Viewer::Referee,
            "spectator" => Viewer::Seat(0),
            _ => {
                let s = self.session()?;
                Viewer::Seat(s.game.with_state(|st| st.turn.find(who)).ok_or_else(|| {
                    let mut known = seat_names(&s.game);
                    known.extend(["spectator".into(), "referee".into()]);
                    let known: Vec<&str> = known.iter().map(String::as_str).collect();
                    anyhow!("no seat '{who}' {}", choices(who, &known, "views"))
                })?)
            }
        };
        let viewer = self.viewer;
        if let Some(s) = self.session.as_mut() {
            s.game.view = viewer;
        }
        Ok(format!("viewing as {}", self.viewer_name()))
    }

    /// `text`, which tells of the steps from the `mark`-th on, or when the viewer may not
    /// see one of them (a `roll` that forced a chain of chance events), each step as the
    /// viewer knows it.
    fn echo(&self, text: String, viewer: Viewer, mark: usize) -> String {
        let Some(s) = &self.session else { return text };
        let steps = s.events.iter().zip(&s.seen).skip(mark);
        if steps.clone().all(|(_, &seen)| viewer.sees(seen)) {
            return text;
        }
        let known: Vec<String> = steps
            .map(|(e, &seen)| {
                if viewer.sees(seen) {
                    e.describe()
                } else {
                    e.hidden().describe()
                }
            })
            .collect();
        known.join("; ")
    }

    /// In a seat's view, only that seat may take its decisions.
    fn own_decision(&mut self) -> Result<()> {
        let me = self.viewer;
        let Viewer::Seat(mine) = me else {
            return Ok(());
        };
        let s = self.session()?;
        if let Status::Decision { actor, .. } = s.status()?
            && *actor != mine
        {
            let actor = *actor;
            let who = s.game.with_state(|st| st.turn.player_name(actor));
            bail!(
                "it is {who}'s decision and you view the game as {} (`as {who}` or `as referee`)",
                self.viewer_name()
            );
        }
        Ok(())
    }

    /// Whether the REPL's viewer may see the current decision's options and prompt.
    fn sees_decision(&mut self) -> Result<bool> {
        let me = self.viewer;
        let s = self.session()?;
        Ok(me.sees(s.game.seen_by()?))
    }

    fn show(&mut self, viewer: Option<&str>, legend: bool, svg: Option<&Path>) -> Result<String> {
        if let Some(path) = svg {
            let text = self.in_view(viewer, picture::svg)?;
            write_atomically(path, &text)?;
            let who = viewer.map_or_else(|| self.viewer_name(), str::to_string);
            return Ok(format!(
                "wrote {} (the board as {who} sees it)",
                path.display()
            ));
        }
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
        let sees = self.sees_decision()?;
        let s = self.session()?;
        let status = s.status()?.clone();
        Ok(match status {
            Status::Chance(name, _) => {
                format!("waiting for {name}: `roll` draws it, `roll <values>` forces it")
            }
            Status::Decision {
                actor,
                count,
                prompt,
                ..
            } => {
                let who = s.game.with_state(|st| st.turn.player_name(actor));
                if !sees {
                    return Ok(format!("{who} to decide (hidden from you)"));
                }
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
                // Scores are the seats', named as the game names its players (the result
                // line says "yellow wins", so yellow's seat reads "yellow").
                let names = s.game.with_state(|st| {
                    (1..=st.turn.seats())
                        .map(|i| st.turn.player_name(i))
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
        if !self.sees_decision()? {
            bail!(
                "the options of this decision are hidden from {} (`as referee` shows them)",
                self.viewer_name()
            );
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

    /// `auto [N]`: N steps, or to the end. A turn cap, a stall or Ctrl-C stops it with an
    /// error; the steps taken are kept. The uniform-random bot takes the first option the game
    /// prefers (`auto_prefers`) when a decision offers one (a backgammon bot would otherwise
    /// double and drop a money game away in a few steps), unless `--any` lets it choose among
    /// every option.
    fn auto(&mut self, limit: Option<u64>, any: bool) -> Result<String> {
        let s = self
            .session
            .as_mut()
            .ok_or_else(|| anyhow!("no game yet: start one with `new <game>`"))?;
        let logged = s.game.with_state(|st| st.log.len());
        let mut bot = Stream::new(s.origin.seed ^ s.events.len() as u64, "bots");
        let mut watch = crate::sim::Watch::new(s.game.rules.host.limits.budget().steps);
        let mut steps = 0;
        let bots = &mut self.bots;
        let (live, color) = (&mut self.live, self.color);
        // the log lines printed as they came (on a terminal)
        let mut shown = logged;
        let ran = (|| -> Result<()> {
            while limit.is_none_or(|n| steps < n) {
                if let Some(print) = live.as_mut() {
                    let viewer = s.game.view;
                    let lines: Vec<String> = s.game.with_state(|st| {
                        let new = st.log.iter().skip(shown);
                        shown = st.log.len();
                        new.filter_map(|l| l.for_viewer(viewer).map(str::to_string))
                            .collect()
                    });
                    for line in lines {
                        print(&paint::paint(&line, color));
                    }
                }
                let status = s.status()?.clone();
                if !matches!(status, Status::Over { .. }) {
                    watch.step(&s.game)?;
                }
                match status {
                    Status::Over { .. } => break,
                    Status::Chance(..) => {
                        s.roll(&[])?;
                    }
                    Status::Decision { count, actor, .. } => {
                        let i = match bots.get_mut(&actor) {
                            Some(b) => b.choose(&mut s.game)?,
                            None => {
                                let rules = s.game.rules.clone();
                                let labels = s.game.labels().ok();
                                let preferred = (!any)
                                    .then(|| preferred(&rules.auto_prefers, &labels?))
                                    .flatten();
                                preferred.unwrap_or_else(|| bot.below(count as u64) as usize)
                            }
                        };
                        s.play_index(i)?;
                    }
                }
                steps += 1;
            }
            Ok(())
        })();
        // Ctrl-C stops the steps where they are: the game keeps those taken.
        let stopped = match ran {
            Err(_) if crate::script::lua::limits::interrupted() => true,
            Err(e) => return Err(e),
            Ok(()) => false,
        };
        // What the steps did, as `log` reads it: what was not printed as it came, or the last
        // few lines, the rest counted.
        let said = self.log_from(if self.live.is_some() { shown } else { logged })?;
        let cut = said.len().saturating_sub(AUTO_LINES);
        let mut out: Vec<String> = Vec::new();
        if cut > 0 {
            out.push(format!("… {cut} earlier lines (`log` shows them)"));
        }
        out.extend_from_slice(&said[cut..]);
        out.push(if stopped {
            format!("interrupted (Ctrl-C) after {steps} steps")
        } else {
            format!("{steps} steps")
        });
        out.push(self.status_line()?);
        Ok(out.join("\n"))
    }

    /// The pending stack, top first, as the viewer may read it: in players' words, or with
    /// each continuation's hook and arguments (`hooks`).
    fn pending(&mut self, hooks: bool) -> Result<String> {
        let s = self.session()?;
        let viewer = s.game.view;
        let (told, all) = s.game.with_state(|st| {
            let told: Vec<String> = st
                .pending
                .iter()
                .rev()
                .filter_map(|c| match hooks {
                    true => Some(c.describe(viewer)),
                    false => c.tell(viewer, |seat| st.turn.player_name(seat)),
                })
                .enumerate()
                .map(|(i, line)| format!("{}. {line}", i + 1))
                .collect();
            (told, st.pending.len())
        });
        if all == 0 {
            return Ok("nothing pending".into());
        }
        let mut out = told.join("\n");
        let quiet = all - told.len();
        if quiet > 0 {
            if !out.is_empty() {
                out += "\n";
            }
            out += &format!(
                "then {quiet} step{} of the rules (`pending --hooks` names {})",
                if quiet == 1 { "" } else { "s" },
                if quiet == 1 { "it" } else { "them" }
            );
        }
        Ok(out)
    }

    /// `bot <seat> random|greedy|mcts [budget]`, or `bot <seat> off`: who `auto` plays for.
    fn bot(&mut self, who: &str, kind: &str, budget: Option<&str>) -> Result<String> {
        let s = self.session()?;
        let seat = s
            .game
            .with_state(|st| {
                who.parse()
                    .ok()
                    .and_then(|n| st.turn.check(n).ok())
                    .or(st.turn.find(who))
            })
            .ok_or_else(|| anyhow!("bot: no seat '{who}' {}", seat_choices(&s.game, who)))?;
        let name = s.game.with_state(|st| st.turn.player_name(seat));
        if kind == "off" {
            self.bots.remove(&seat);
            return Ok(format!("{name}: no bot (auto plays at random)"));
        }
        let spec: BotSpec = match budget {
            Some(budget) => format!("{kind}:{budget}").parse()?,
            None => kind.parse()?,
        };
        spec.check(&s.game.rules)?;
        let seed = s.origin.seed;
        let said = format!("{name}: {spec} bot (`auto` lets it play)");
        self.bots.insert(seat, Bot::new(spec, seed, seat));
        Ok(said)
    }

    /// `hint [N]`: the options of the decision waiting for the viewed seat, best first.
    fn hint(&mut self, top: Option<usize>) -> Result<String> {
        let viewer = self.viewer;
        let viewer_name = self.viewer_name();
        let s = self.session()?;
        let Status::Decision { actor, .. } = *s.game.status()? else {
            bail!("hint: no decision waits (the game waits for chance, or is over)");
        };
        let name = s.game.with_state(|st| st.turn.player_name(actor));
        if matches!(viewer, Viewer::Seat(v) if v != actor) {
            bail!(
                "hint: the decision is {name}'s, not {viewer_name}'s (`as {name}` or `as referee`)"
            );
        }
        let seed = s.origin.seed ^ s.events.len() as u64;
        let (by, ranked) = Bot::new(BotSpec::Learned(None), seed, actor).rank(&s.game, actor)?;
        let shown = top.unwrap_or(ranked.len()).min(ranked.len());
        let width = ranked[..shown]
            .iter()
            .map(|r| r.label.chars().count())
            .max()
            .unwrap_or(0);
        let mut out = vec![format!("{name}'s options by {by}:")];
        for (i, r) in ranked[..shown].iter().enumerate() {
            let win = r
                .win
                .map(|w| format!("  win {:5.1}%", 100.0 * w))
                .unwrap_or_default();
            out.push(format!(
                "{:>3}. {:<width$}  {:+.3}{win}",
                i + 1,
                r.label,
                r.worth
            ));
        }
        if shown < ranked.len() {
            out.push(format!("     ({} more)", ranked.len() - shown));
        }
        Ok(out.join("\n"))
    }

    fn log(&mut self, n: Option<usize>) -> Result<String> {
        let lines = self.log_from(0)?;
        let n = n.unwrap_or(lines.len());
        Ok(lines[lines.len().saturating_sub(n)..].join("\n"))
    }

    /// The log's lines from the `from`-th on, as the viewer reads them.
    fn log_from(&mut self, from: usize) -> Result<Vec<String>> {
        let s = self.session()?;
        let viewer = s.game.view;
        Ok(s.game.with_state(|st| {
            st.log
                .iter()
                .skip(from)
                .filter_map(|l| l.for_viewer(viewer).map(str::to_string))
                .collect()
        }))
    }

    fn save(&mut self, path: &str) -> Result<String> {
        let viewer = self.viewer;
        let whose = match viewer {
            Viewer::Referee => String::new(),
            _ => format!(" ({}'s view)", self.viewer_name()),
        };
        let s = self.session()?;
        let text = SaveFile::of(s, viewer)?.to_text();
        write_atomically(Path::new(path), &text)?;
        Ok(format!("saved {} steps to {path}{whose}", s.events.len()))
    }

    /// `load` (strict about rule changes) and `replay` (reports the first divergence).
    fn load(&mut self, path: &str, replay: bool) -> Result<String> {
        let text = crate::files::read_text(Path::new(path), crate::files::MAX_INPUT_FILE, path)
            .map_err(|e| anyhow!(e))?;
        let save = SaveFile::parse(path, &text)?;
        if let Some(view) = &save.view {
            let hidden = save
                .events
                .iter()
                .filter(|e| matches!(e, crate::session::Event::Hidden { .. }))
                .count();
            bail!(
                "{path} holds {view}'s view of the game ({hidden} hidden steps, no seeds): only the referee's save restores the whole game"
            );
        }
        let f = GameOptions {
            variant: save.origin.variant.clone(),
            house: save.origin.house.clone(),
            sets: save.origin.overrides.clone(),
            ..GameOptions::default()
        };
        let rules = self.load_rules(&save.origin.game, &f)?;
        // After the setup, which reads the data files (a map) the save lists too.
        let mut session = Session::new(rules.clone(), save.origin.clone())?;
        let changed = save.changed_files(&rules.files());
        if !changed.is_empty() && !replay {
            bail!(
                "{path}: the rules changed since it was saved ({}); `replay {path}` replays it on the current rules",
                changed.join(", ")
            );
        }
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
        self.set_session(session);
        // the board as the game now stands, and what it waits for
        let board = self.show(None, false, None)?;
        match result {
            Ok(()) => Ok(format!("loaded {path}: {steps} steps\n{board}")),
            Err(d) => Ok(format!(
                "{path}: replay diverges at step {} ({}): {}\nstopped after {steps} steps\n{board}",
                d.index,
                d.event.describe(),
                d.reason
            )),
        }
    }

    /// `position [format]`: the game's text format, or another it offers. A game that declares
    /// its formats (the game table's `formats`) refuses any other, naming those it has.
    fn position(&mut self, format: Option<String>) -> Result<String> {
        let s = self.session()?;
        let rules = s.game.rules.clone();
        if let (Some(f), Some(formats)) = (&format, &rules.formats)
            && !formats.contains_key(f)
        {
            if formats.is_empty() {
                bail!(
                    "position: {} has no format '{f}', only its own (`position`)",
                    rules.game
                );
            }
            let offered: Vec<String> = formats
                .iter()
                .map(|(name, help)| format!("{name} ({help})"))
                .collect();
            bail!(
                "position: unknown format '{f}' ({} offers: {})",
                rules.game,
                offered.join(", ")
            );
        }
        s.game.text_hook("export", format)
    }

    fn rules(&mut self, hook: Option<&str>) -> Result<String> {
        let Some(s) = self.session.as_mut() else {
            let dir = self.rules_dir.canonicalize();
            return Ok(format!(
                "rules folder: {}\nno game yet: start one with `new <game>` (`games` lists them)",
                dir.as_deref().unwrap_or(&self.rules_dir).display()
            ));
        };
        let rules = s.game.rules.clone();
        if let Some(h) = hook {
            let h = &rules.hook_by_code(h);
            let layers = rules.stacks.get(h).ok_or_else(|| {
                // the hooks are too many for one line: `rules` lists them
                let known: Vec<&str> = rules.stacks.keys().map(String::as_str).collect();
                let near = did_you_mean(h, &known).map_or(String::new(), |d| format!("{d} "));
                anyhow!("no hook '{h}' ({near}`rules` lists every hook)")
            })?;
            let files: Vec<String> = layers
                .iter()
                .rev()
                .map(|l| format!("  {}", l.file))
                .collect();
            return Ok(format!("{h} (top first):\n{}", files.join("\n")));
        }
        let mut out = format!(
            "{} — {}\nrules folder: {}\nfiles:\n",
            rules.game,
            rules.title,
            rules.host.root.display()
        );
        for (file, hash) in rules.files() {
            out += &format!("  {file}  {}\n", &hash[..12]);
        }
        if let Some(formats) = &rules.formats {
            out += "position formats (besides its own):";
            out += &if formats.is_empty() {
                " none\n".to_string()
            } else {
                formats
                    .iter()
                    .map(|(f, help)| format!("\n  {f}  {help}"))
                    .collect::<String>()
                    + "\n"
            };
        }
        if !rules.auto_prefers.is_empty() {
            out += &format!(
                "auto's random bot takes, when offered: {} (`auto --any` lets it pick any)\n",
                rules.auto_prefers.join(", ")
            );
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

    /// Re-reads the rule files and replays the session on them. A load that fails changes
    /// nothing; a replay that stops at a step keeps the game as it was on the rules it had,
    /// unless `keep` says to go on with the steps that still fit.
    fn reload(&mut self, keep: bool) -> Result<String> {
        let s = self.session()?;
        let origin = s.origin.clone();
        let events = s.events.clone();
        let f = GameOptions {
            variant: origin.variant.clone(),
            house: origin.house.clone(),
            sets: origin.overrides.clone(),
            ..GameOptions::default()
        };
        let rules = self.load_rules(&origin.game, &f)?;
        let mut session = Session::new(rules, origin)?;
        let result = session.replay(&events);
        let n = session.events.len();
        let out = match result {
            Ok(()) => format!(
                "reloaded; replayed {n} step{}",
                if n == 1 { "" } else { "s" }
            ),
            Err(d) if keep => format!(
                "reloaded; step {} ({}) no longer fits: {}\nkept the first {n} steps",
                d.index,
                d.event.describe(),
                d.reason
            ),
            Err(d) => bail!(
                "reload: step {} ({}) no longer fits the edited rules: {}; the game is unchanged \
                 (`reload keep` keeps its first {n} steps on the edited rules)",
                d.index,
                d.event.describe(),
                d.reason
            ),
        };
        self.set_session(session);
        Ok(format!("{out}\n{}", self.status_line()?))
    }

    /// `watch on` / `watch off`, or whether it is on.
    fn watch(&mut self, state: Option<&str>) -> Result<String> {
        match state {
            Some("on") => {
                let game = self.session()?.origin.game.clone();
                self.watch = Some(watch::Watch::new(&self.rules_dir, &game));
            }
            Some(_) => self.watch = None,
            None => {}
        }
        Ok(match (&self.watch, &self.session) {
            (Some(_), Some(s)) => format!(
                "watch on: a file saved under {} of the rules folder reloads the game before \
                 the next command",
                watch::folders(&s.origin.game).join(" or ")
            ),
            _ => "watch off".into(),
        })
    }

    /// With `watch on`, when a file of the current game's rules changed since the last look:
    /// the rules reloaded as `reload` does, and what it printed after the files that changed
    /// (`None` when nothing changed). The prompt calls this before each command, an empty
    /// one included, so a reload never interrupts a command.
    pub fn watched(&mut self) -> Option<Result<String>> {
        let game = self.session.as_ref()?.origin.game.clone();
        let changed = self.watch.as_mut()?.changed(&self.rules_dir, &game);
        if changed.is_empty() {
            return None;
        }
        crate::script::lua::limits::clear_interrupt();
        let what = format!("watch: {} changed", changed.join(", "));
        Some(match self.reload(false) {
            Ok(out) => Ok(format!("{what}\n{}", self.with_printed(out))),
            Err(e) => Err(anyhow!("{}", bounded(&format!("{what}: {e:#}")))),
        })
    }

    /// Runs a script of commands; stops at the first failing line with its number.
    pub fn run_script(&mut self, text: &str, out: impl FnMut(&str)) -> Result<(), (usize, String)> {
        self.run_script_echoed(text, false, out)
    }

    /// [`Repl::run_script`]; with `echo`, each command is printed before its output
    /// (`> command`), as a transcript.
    pub fn run_script_echoed(
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
            if let Some((head, tag)) = here_document(&line) {
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

    /// Labels of the current decision, when the REPL's viewer may see them.
    pub fn option_labels(&mut self) -> Vec<String> {
        self.visible_labels()
    }

    /// What completion offers now: the games and their variants, and the current game's
    /// options (those the viewer may see), seats, hooks, switches and tiles.
    pub fn known(&mut self) -> editor::Known {
        let games = games(&self.rules_dir);
        let variants = games.iter().map(|g| variants(&self.rules_dir, g)).collect();
        let labels = self.visible_labels();
        let mut known = editor::Known {
            games,
            variants,
            labels,
            ..editor::Known::default()
        };
        if let Some(s) = self.session.as_ref() {
            known.game = Some(s.game.rules.game.clone());
            known.seats = s.game.with_state(|st| {
                (1..=st.turn.seats())
                    .map(|i| st.turn.name(i).to_string())
                    .collect()
            });
            let rules = &s.game.rules;
            known.hooks = rules.stacks.keys().cloned().collect();
            known.switches = rules.switch_defs.iter().map(|d| d.name.clone()).collect();
            known.tiles = rules.tiles.iter().map(|t| t.code.clone()).collect();
            known.commands = rules.commands.keys().cloned().collect();
            known.formats = rules
                .formats
                .iter()
                .flatten()
                .map(|(f, _)| f.clone())
                .collect();
        }
        known
    }
}

/// Writes one line to standard output. A closed pipe (`tortuga run … | head`) ends the process
/// quietly, as it ends other command-line tools.
pub fn print_out(text: &str) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{text}") {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: standard output: {e}");
        }
        std::process::exit(if e.kind() == std::io::ErrorKind::BrokenPipe {
            0
        } else {
            1
        });
    }
}

/// The index of the first of `prefers` that `labels` offers.
fn preferred(prefers: &[String], labels: &[String]) -> Option<usize> {
    prefers
        .iter()
        .find_map(|p| labels.iter().position(|l| l == p))
}

/// A command that opens a here-document (`setup backgammon <<END`): the command up to `<<`,
/// and the tag, one word of capitals (`END`, `POS`), that closes it on a line of its own.
pub fn here_document(line: &str) -> Option<(String, String)> {
    let (head, tag) = line.rsplit_once("<<")?;
    let tag = tag.trim();
    let is_tag = !tag.is_empty() && tag.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    is_tag.then(|| (head.to_string(), tag.to_string()))
}

/// A position as `setup` and `moves --position` take it: the text itself, or `@FILE` for the
/// text of a file (a position of several lines).
fn position_text(text: &str) -> Result<String> {
    match text.strip_prefix('@') {
        Some(file) => crate::files::read_text(Path::new(file), crate::files::MAX_INPUT_FILE, file)
            .map_err(|e| anyhow!(e)),
        None => Ok(text.to_string()),
    }
}

/// The seats a game set up in `position` is for: as many as the position says (the game's
/// `position_seats` hook), or the game's default.
fn position_seats(rules: &Rc<Rules>, position: &str) -> Result<u32> {
    Ok(Game::new(rules.clone(), rules.seats.default, 0)?
        .position_seats(position)?
        .unwrap_or(rules.seats.default))
}

/// The game's seats by name, in seat order.
fn seat_names(game: &Game) -> Vec<String> {
    game.with_state(|st| {
        (1..=st.turn.seats())
            .map(|i| st.turn.player_name(i))
            .collect()
    })
}

/// What follows "no seat 'name'": the seats a typo away, then every seat.
fn seat_choices(game: &Game, name: &str) -> String {
    let known = seat_names(game);
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    choices(name, &known, "seats")
}

#[cfg(test)]
mod tests {
    use super::{ERROR_LINE_CHARS, ERROR_LINES, bounded, words};

    #[test]
    fn errors_are_bounded_to_a_few_lines_keeping_both_ends() {
        assert_eq!(bounded("short\ntwo lines"), "short\ntwo lines");
        let long = format!(
            "illegal move \"{}\" with 3-1: the reason",
            "é".repeat(20_000)
        );
        let cut = bounded(&long);
        assert!(cut.starts_with("illegal move \"éé"), "{cut}");
        assert!(cut.ends_with("éé\" with 3-1: the reason"), "{cut}");
        assert!(cut.contains("characters)…"), "{cut}");
        assert!(cut.chars().count() <= ERROR_LINE_CHARS + 40, "{cut}");
        let many: Vec<String> = (0..50).map(|i| format!("line {i}")).collect();
        let cut = bounded(&many.join("\n"));
        assert_eq!(cut.lines().count(), ERROR_LINES + 1);
        assert!(
            cut.ends_with(&format!("… ({} more lines)", 50 - ERROR_LINES)),
            "{cut}"
        );
    }

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
