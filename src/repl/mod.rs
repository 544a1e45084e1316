//! The REPL's core: a [`Repl`] turns one command line into output, with no terminal I/O, so
//! that the same commands serve the interactive prompt, batch scripts and tests.

pub mod commands;
pub mod editor;
pub mod paint;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use anyhow::{Result, anyhow, bail};
use mlua::Value as LuaValue;
use mlua::chunk::ChunkMode;

use crate::kernel::rng::Stream;
use crate::kernel::{Seat, Value, Viewer};
use crate::script::host::display_value;
use crate::script::rules::{games, variants};
use crate::script::variant::parse_assignment;
use crate::script::{Budget, LoadOptions, Rules};
use crate::session::save::{SaveFile, write_atomically};
use crate::session::{Origin, Session, Status};
use crate::sim;
use crate::sim::bots::{Bot, BotSpec};

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
}

/// Splits a command line into words: `"…"` groups words, and a word that opens with `{` or `[`
/// runs to its matching bracket (so JSON positions may contain spaces and quotes).
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut word = String::new();
        if c == '"' {
            chars.next();
            word.extend(chars.by_ref().take_while(|&c| c != '"'));
        } else if c == '{' || c == '[' {
            let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
            for c in chars.by_ref() {
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
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        out.push(word);
    }
    out
}

/// `--name value` options of a command, and the remaining words.
#[derive(Default)]
struct Flags {
    variant: Option<String>,
    seed: Option<u64>,
    players: Option<u32>,
    sets: Vec<(String, Value)>,
    position: Option<String>,
    dice: Option<String>,
    json: bool,
    absolute: bool,
    rest: Vec<String>,
}

fn flags(args: &[String], allowed: &[&str]) -> Result<Flags> {
    let mut f = Flags::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if !a.starts_with("--") {
            f.rest.push(a.clone());
            continue;
        }
        let name = &a[2..];
        if !allowed.contains(&name) {
            bail!(
                "unknown option '{a}' (options here: {})",
                allowed
                    .iter()
                    .map(|o| format!("--{o}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| anyhow!("{a} needs a value"))
        };
        match name {
            "variant" => f.variant = Some(value()?),
            "seed" => {
                let v = value()?;
                f.seed = Some(
                    v.parse()
                        .map_err(|_| anyhow!("--seed takes a whole number, not '{v}'"))?,
                );
            }
            "players" => {
                let v = value()?;
                f.players = Some(
                    v.parse()
                        .map_err(|_| anyhow!("--players takes a number, not '{v}'"))?,
                );
            }
            "set" => f
                .sets
                .push(parse_assignment(&value()?).map_err(|e| anyhow!(e))?),
            "position" => f.position = Some(value()?),
            "dice" => f.dice = Some(value()?),
            "json" => f.json = true,
            "absolute" => f.absolute = true,
            _ => unreachable!("checked against allowed"),
        }
    }
    Ok(f)
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
        }
    }

    fn session(&mut self) -> Result<&mut Session> {
        self.session
            .as_mut()
            .ok_or_else(|| anyhow!("no game yet: start one with `new <game>` (`games` lists them)"))
    }

    /// Runs one command line and returns what it prints.
    pub fn handle_line(&mut self, line: &str) -> Result<String> {
        crate::script::limits::clear_interrupt();
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(String::new());
        }
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let args = words(rest);
        let out = match cmd {
            "games" => self.games(),
            "new" => self.new_game(&args),
            "show" => self.show(args.first().map(String::as_str)),
            "moves" => self.moves(&args),
            "play" => {
                if rest.is_empty() {
                    bail!("play what? (`moves` lists the options)");
                }
                self.own_decision()?;
                let viewer = self.viewer;
                let s = self.session()?;
                let label = s.play(rest)?;
                let echo = self.echo(format!("played {label}"), viewer);
                Ok(format!("{echo}\n{}", self.status_line()?))
            }
            "roll" => {
                let refs: Vec<&str> = args.iter().map(String::as_str).collect();
                let viewer = self.viewer;
                let what = self.session()?.roll(&refs)?;
                let echo = self.echo(what, viewer);
                Ok(format!("{echo}\n{}", self.status_line()?))
            }
            "pending" => self.pending(),
            "as" => self.view_as(args.first().map(String::as_str)),
            "auto" => self.auto(args.first()),
            "bot" => self.bot(&args),
            "sim" => sim::command::sim_line(&self.rules_dir, line, &self.budget),
            "undo" => {
                let viewer = self.viewer;
                let s = self.session()?;
                let seen = s.last_seen_by();
                let e = s.undo()?;
                let e = if viewer.sees(seen) { e } else { e.hidden() };
                Ok(format!("undid {}\n{}", e.describe(), self.status_line()?))
            }
            "redo" => {
                let viewer = self.viewer;
                let s = self.session()?;
                let e = s.redo()?;
                let e = if viewer.sees(s.last_seen_by()) {
                    e
                } else {
                    e.hidden()
                };
                Ok(format!("redid {}\n{}", e.describe(), self.status_line()?))
            }
            "log" => self.log(args.first()),
            "save" => self.save(rest),
            "load" => self.load(rest, false),
            "replay" => self.load(rest, true),
            "position" => {
                let format = args.first().cloned();
                self.session()?.game.text_hook("export", format)
            }
            "setup" => self.setup(rest),
            "rules" => self.rules(args.first().map(String::as_str)),
            "reload" => self.reload(&args),
            "lua" => self.lua(rest),
            "help" => commands::help(args.first().map(String::as_str)).map_err(|e| anyhow!(e)),
            "quit" | "exit" => {
                self.quit = true;
                Ok(String::new())
            }
            other => {
                let close: Vec<&str> = commands::COMMANDS
                    .iter()
                    .map(|c| c.name)
                    .filter(|n| other.chars().next().is_some_and(|c| n.starts_with(c)))
                    .collect();
                bail!(
                    "unknown command '{other}'{} (type help)",
                    if close.is_empty() {
                        String::new()
                    } else {
                        format!(": did you mean {}?", close.join(", "))
                    }
                )
            }
        }?;
        Ok(self.with_printed(out))
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
    fn load_rules(&mut self, game: &str, f: &Flags) -> Result<Rc<Rules>> {
        let opts = LoadOptions {
            variant: f.variant.clone(),
            overrides: f.sets.clone(),
            budget: self.budget.clone(),
        };
        Ok(Rc::new(Rules::load(&self.rules_dir, game, &opts)?))
    }

    fn start(&mut self, game: &str, f: &Flags, position: Option<String>) -> Result<String> {
        let rules = self.load_rules(game, f)?;
        let origin = Origin {
            game: game.to_string(),
            variant: f.variant.clone(),
            overrides: f.sets.clone(),
            seats: f.players.unwrap_or(rules.seats.default),
            seed: f.seed.unwrap_or_else(|| rand::random::<u64>() >> 12),
            // A seed the user gives sets both; a random public seed gets a random secret one,
            // so that the printed seed does not predict secret draws.
            secret_seed: f.seed.is_none().then(rand::random::<u64>),
            position,
        };
        let seed = origin.seed;
        self.set_session(Session::new(rules, origin)?);
        let board = self.render(None)?;
        Ok(format!(
            "{board}\nnew {game} (seed {seed})\n{}",
            self.status_line()?
        ))
    }

    fn new_game(&mut self, args: &[String]) -> Result<String> {
        let f = flags(args, &["variant", "seed", "players", "set"])?;
        let [game] = f.rest.as_slice() else {
            bail!("usage: new <game> [--variant V] [--seed N] [--players N] [--set switch=value]");
        };
        self.start(&game.clone(), &f, None)
    }

    fn setup(&mut self, rest: &str) -> Result<String> {
        let (game, rest) = rest
            .split_once(char::is_whitespace)
            .ok_or_else(|| anyhow!("usage: setup <game> <position>"))?;
        let mut opts = Vec::new();
        let mut text = rest.trim();
        while text.starts_with("--") {
            let mut parts = text.splitn(3, char::is_whitespace);
            opts.push(parts.next().unwrap_or_default().to_string());
            opts.push(
                parts
                    .next()
                    .ok_or_else(|| anyhow!("option without a value"))?
                    .to_string(),
            );
            text = parts.next().unwrap_or("").trim();
        }
        let f = flags(&opts, &["variant", "seed", "players", "set"])?;
        if text.is_empty() {
            bail!("setup {game}: no position given");
        }
        let position = match text.strip_prefix('@') {
            Some(file) => {
                crate::files::read_text(Path::new(file), crate::files::MAX_INPUT_FILE, file)
                    .map_err(|e| anyhow!(e))?
            }
            None => text.to_string(),
        };
        let f = Flags {
            seed: f.seed.or(Some(0)),
            ..f
        };
        self.start(game, &f, Some(position))
    }

    /// The board as a seat sees it: the REPL's own seat, or another one named when the REPL
    /// views as the referee. The render hook runs in that seat's view.
    fn render(&mut self, asked: Option<&str>) -> Result<String> {
        let (color, me) = (self.color, self.viewer);
        let s = self.session()?;
        let seat = match asked {
            None => me.seat().unwrap_or(0),
            Some(v) => s
                .game
                .with_state(|st| st.turn.find(v))
                .ok_or_else(|| anyhow!("no seat '{v}'"))?,
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
        let text = s.game.text_hook("render", seat);
        s.game.view = me;
        Ok(paint::paint(text?.trim_end(), color))
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
                .map(|x| x.game.with_state(|st| st.turn.name(s).to_string()))
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
                    anyhow!("no seat '{who}' (a seat's name, spectator or referee)")
                })?)
            }
        };
        let viewer = self.viewer;
        if let Some(s) = self.session.as_mut() {
            s.game.view = viewer;
        }
        Ok(format!("viewing as {}", self.viewer_name()))
    }

    /// `text`, or what a viewer who may not see the last step reads instead.
    fn echo(&self, text: String, viewer: Viewer) -> String {
        let Some(s) = &self.session else { return text };
        if viewer.sees(s.last_seen_by()) {
            text
        } else {
            s.events.last().map_or(text, |e| e.hidden().describe())
        }
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
            let who = s.game.with_state(|st| st.turn.name(actor).to_string());
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

    fn show(&mut self, viewer: Option<&str>) -> Result<String> {
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
                let who = s.game.with_state(|st| st.turn.name(actor).to_string());
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

    fn moves(&mut self, args: &[String]) -> Result<String> {
        let f = flags(args, &["position", "dice", "json", "absolute"])?;
        if let Some(position) = &f.position {
            let rules = self.session()?.game.rules.clone();
            return machine_moves(rules, position, f.dice.as_deref(), f.absolute);
        }
        if f.json || f.dice.is_some() || f.absolute {
            bail!("--dice, --json and --absolute go with --position");
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
    /// error; the steps taken are kept.
    fn auto(&mut self, n: Option<&String>) -> Result<String> {
        let limit: Option<u64> = match n {
            Some(v) => Some(
                v.parse()
                    .map_err(|_| anyhow!("auto takes a number of steps, not '{v}'"))?,
            ),
            None => None,
        };
        let s = self
            .session
            .as_mut()
            .ok_or_else(|| anyhow!("no game yet: start one with `new <game>`"))?;
        let mut bot = Stream::new(s.origin.seed ^ s.events.len() as u64, "bots");
        let mut watch = crate::sim::Watch::new(s.game.rules.host.limits.budget().steps);
        let mut steps = 0;
        while limit.is_none_or(|n| steps < n) {
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
                    let i = match self.bots.get_mut(&actor) {
                        Some(b) => b.choose(&mut s.game)?,
                        None => bot.below(count as u64) as usize,
                    };
                    s.play_index(i)?;
                }
            }
            steps += 1;
        }
        Ok(format!("{steps} steps\n{}", self.status_line()?))
    }

    /// The pending stack, top first, as the viewer may read it.
    fn pending(&mut self) -> Result<String> {
        let s = self.session()?;
        let viewer = s.game.view;
        let lines: Vec<String> = s.game.with_state(|st| {
            st.pending
                .iter()
                .rev()
                .enumerate()
                .map(|(i, c)| format!("{}. {}", i + 1, c.describe(viewer)))
                .collect()
        });
        if lines.is_empty() {
            return Ok("nothing pending".into());
        }
        Ok(lines.join("\n"))
    }

    /// `bot <seat> random|greedy|mcts [budget]`, or `bot <seat> off`: who `auto` plays for.
    fn bot(&mut self, args: &[String]) -> Result<String> {
        let usage = "usage: bot <seat> random|greedy|mcts [iterations|200ms|2s] (or off)";
        let (Some(who), Some(kind)) = (args.first(), args.get(1)) else {
            bail!("{usage}");
        };
        let s = self.session()?;
        let seat = s
            .game
            .with_state(|st| {
                who.parse()
                    .ok()
                    .and_then(|n| st.turn.check(n).ok())
                    .or(st.turn.find(who))
            })
            .ok_or_else(|| anyhow!("bot: no seat '{who}' in this game"))?;
        let name = s.game.with_state(|st| st.turn.name(seat).to_string());
        if kind == "off" {
            self.bots.remove(&seat);
            return Ok(format!("{name}: no bot (auto plays at random)"));
        }
        let spec: BotSpec = match args.get(2) {
            Some(budget) => format!("{kind}:{budget}").parse()?,
            None => kind.parse()?,
        };
        if spec == BotSpec::Greedy && !s.game.has_hook("eval") {
            bail!(
                "{} has no eval hook: the greedy bot needs one",
                s.origin.game
            );
        }
        let seed = s.origin.seed;
        self.bots.insert(seat, Bot::new(spec, seed, seat));
        Ok(format!("{name}: {spec} bot (`auto` lets it play)"))
    }

    fn log(&mut self, n: Option<&String>) -> Result<String> {
        let s = self.session()?;
        let viewer = s.game.view;
        let lines: Vec<String> = s.game.with_state(|st| {
            st.log
                .iter()
                .filter_map(|l| l.for_viewer(viewer).map(str::to_string))
                .collect()
        });
        let n = match n {
            Some(v) => v
                .parse()
                .map_err(|_| anyhow!("log takes a number of lines, not '{v}'"))?,
            None => lines.len(),
        };
        Ok(lines[lines.len().saturating_sub(n)..].join("\n"))
    }

    fn save(&mut self, path: &str) -> Result<String> {
        if path.is_empty() {
            bail!("usage: save <file>");
        }
        let viewer = self.viewer;
        let whose = match viewer {
            Viewer::Referee => String::new(),
            _ => format!(" ({}'s view)", self.viewer_name()),
        };
        let s = self.session()?;
        let text = SaveFile::of(s, viewer).to_text();
        write_atomically(Path::new(path), &text)?;
        Ok(format!("saved {} steps to {path}{whose}", s.events.len()))
    }

    /// `load` (strict about rule changes) and `replay` (reports the first divergence).
    fn load(&mut self, path: &str, replay: bool) -> Result<String> {
        if path.is_empty() {
            bail!("usage: {} <file>", if replay { "replay" } else { "load" });
        }
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
                "{path} holds {view}'s view of the game ({hidden} hidden steps, no secret seed): only the referee's save restores the whole game"
            );
        }
        let f = Flags {
            variant: save.origin.variant.clone(),
            sets: save.origin.overrides.clone(),
            ..Flags::default()
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
        let steps = session.events.len();
        self.set_session(session);
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

    /// Re-reads the rule files and replays the session on them. A load that fails changes
    /// nothing; a replay that stops at a step keeps the game as it was on the rules it had,
    /// unless `keep` says to go on with the steps that still fit.
    fn reload(&mut self, args: &[String]) -> Result<String> {
        let keep = match args {
            [] => false,
            [k] if k == "keep" => true,
            _ => bail!("usage: reload [keep]"),
        };
        let s = self.session()?;
        let origin = s.origin.clone();
        let events = s.events.clone();
        let f = Flags {
            variant: origin.variant.clone(),
            sets: origin.overrides.clone(),
            ..Flags::default()
        };
        let rules = self.load_rules(&origin.game, &f)?;
        let mut session = Session::new(rules, origin)?;
        let result = session.replay(&events);
        let n = session.events.len();
        let out = match result {
            Ok(()) => format!("reloaded; replayed {n} steps"),
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

    /// Evaluates Lua with `G` bound to a read-only copy of the game in the REPL's view: no
    /// write reaches the game, not even from a finalizer that runs later, and what the
    /// viewer may not see cannot be read.
    fn lua(&mut self, code: &str) -> Result<String> {
        if code.is_empty() {
            bail!("usage: lua <code>");
        }
        let viewer = self.viewer;
        let s = self.session()?;
        let rules = s.game.rules.clone();
        let host = &rules.host;
        let lua = &host.lua;
        let mut state = s.game.snapshot();
        state.read_only = true;
        state.viewer = viewer;
        let env = lua.create_table()?;
        env.raw_set("G", crate::script::raw::handle(lua, state)?)?;
        let meta = lua.create_table()?;
        meta.raw_set("__index", host.env().clone())?;
        env.set_metatable(Some(meta))?;
        let load = |src: String| {
            lua.load(src)
                .set_name("=lua")
                .set_mode(ChunkMode::Text)
                .set_environment(env.clone())
                .into_function()
        };
        let f = load(format!("return {code}")).or_else(|_| load(code.to_string()));
        let f = f.map_err(|e| anyhow!(crate::script::error::message(&e)))?;
        let result = host.limits.run(lua, || f.call::<mlua::MultiValue>(()));
        host.check_sealed("`lua`", || host.limits.run(lua, || f.call::<()>(())))?;
        let values = result.map_err(|e| anyhow!(crate::script::error::message(&e)))?;
        Ok(values
            .iter()
            .map(display_value)
            .collect::<Vec<_>>()
            .join("\t"))
    }

    /// Runs a script of commands; stops at the first failing line with its number.
    pub fn run_script(
        &mut self,
        text: &str,
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

    /// Labels of the current decision, for completion.
    pub fn option_labels(&mut self) -> Vec<String> {
        self.session
            .as_mut()
            .and_then(|s| s.game.labels().ok())
            .unwrap_or_default()
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
    fn words_keep_json_and_quoted_text_whole() {
        assert_eq!(words(r#"a  "b c" d"#), ["a", "b c", "d"]);
        assert_eq!(
            words(r#"--position {"board": [1, 2], "s": "x}"} --dice 61"#),
            [
                "--position",
                r#"{"board": [1, 2], "s": "x}"}"#,
                "--dice",
                "61"
            ]
        );
        assert_eq!(words("[1, [2]] x"), ["[1, [2]]", "x"]);
    }
}
