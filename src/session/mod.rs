//! Sessions: a ruleset + a seed + the list of decisions and chance outcomes. Everything else —
//! undo, redo, save, load, replay, reload — is derived from that list.

pub mod check;
pub mod driven;
pub mod game;
pub mod picture;
pub mod save;
pub mod status;

use std::collections::VecDeque;
use std::rc::Rc;

use anyhow::{Result, anyhow, bail};

pub use game::Game;
pub use status::Status;

use crate::kernel::view::{ALL_SEATS, LogLine};
use crate::kernel::{Kind, Outcome, State, Value, Viewer};
use crate::script::Rules;

/// Where a session starts: enough to rebuild it from nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Origin {
    pub game: String,
    pub variant: Option<String>,
    /// House rules switched on beyond the variant's (`new --house`).
    pub house: Vec<String>,
    pub overrides: Vec<(String, Value)>,
    pub seats: u32,
    pub seed: u64,
    /// The seed of the secret streams; `None`: derived from `seed` (a seed the user chose
    /// sets both, so experiments stay reproducible). Only the referee's save holds it.
    pub secret_seed: Option<u64>,
    /// A position imported with `setup`, in the game's own format.
    pub position: Option<String>,
}

/// One step of a session.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A decision, by its option label.
    Play(String),
    /// A chance outcome, as the words `roll` would take; `forced` when the user chose it.
    Chance {
        name: String,
        words: Vec<String>,
        forced: bool,
    },
    /// A step a seat's save does not show: a decision (`chance` None) or an outcome of the
    /// named randomizer hidden from that seat. It cannot be replayed.
    Hidden { chance: Option<String> },
}

impl Event {
    pub fn describe(&self) -> String {
        match self {
            Event::Play(label) => format!("play {label}"),
            Event::Chance {
                name,
                words,
                forced,
            } => {
                format!(
                    "{name} {}{}",
                    words.join(" "),
                    if *forced { " (forced)" } else { "" }
                )
            }
            Event::Hidden { chance: None } => "a hidden decision".into(),
            Event::Hidden { chance: Some(name) } => format!("{name}: drawn, hidden"),
        }
    }

    /// The event as a viewer who may not see it knows it.
    pub fn hidden(&self) -> Event {
        Event::Hidden {
            chance: match self {
                Event::Chance { name, .. } => Some(name.clone()),
                Event::Hidden { chance } => chance.clone(),
                Event::Play(_) => None,
            },
        }
    }
}

/// Where a replay left the recorded events.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// 1-based number of the first event that could not be replayed.
    pub index: usize,
    pub event: Event,
    pub reason: String,
}

/// The words that force `outcome` again with `roll`.
pub fn outcome_words(kind: &Kind, outcome: &Outcome) -> Vec<String> {
    match kind {
        Kind::Cowries { .. } => vec![format!(
            "up={}",
            outcome.get(1).map_or(String::new(), Value::to_string)
        )],
        _ => outcome.iter().map(Value::to_string).collect(),
    }
}

/// The refusal of values that split into chance events more than one way.
fn ambiguous(words: &[&str], ways: usize) -> String {
    format!(
        "'{}' splits into chance events {ways} ways: roll one event's values at a time",
        words.join(" ")
    )
}

/// The ways `words` split into pieces that each fit some chance event (`fits`), queued for
/// the events to come (`roll hurricane W` before the spin is asked): per way, the length of
/// each piece.
fn queue_splits(words: &[&str], fits: &dyn Fn(&[&str]) -> bool) -> Vec<Vec<usize>> {
    if words.is_empty() {
        return vec![vec![]];
    }
    let mut ways = Vec::new();
    for k in 1..=words.len() {
        if fits(&words[..k]) {
            for mut rest in queue_splits(&words[k..], fits) {
                rest.insert(0, k);
                ways.push(rest);
            }
        }
    }
    ways
}

/// What an undo point costs beyond what its state counts (`State::bytes`).
const SNAPSHOT_BYTES: usize = 1024;

pub struct Session {
    pub origin: Origin,
    pub game: Game,
    pub events: Vec<Event>,
    /// Per event, the seats that may see it (its status's `seen_by`).
    pub seen: Vec<u64>,
    /// Per event, where in the log the lines the rules wrote while applying it lie (after the
    /// event's own line): what the REPL prints as the step's consequences.
    said: Vec<std::ops::Range<usize>>,
    /// The state before each event. Only the newest are kept in memory, as many as fit in the
    /// memory limit (`State::bytes`); an older one is `None` and `undo` rebuilds it by
    /// replaying the events from the origin, so a long game's memory stays linear.
    undo: Vec<Option<State>>,
    /// What the kept undo points hold, in bytes, and the first one still kept.
    kept: (usize, usize),
    redo: Vec<Event>,
    /// Outcomes forced ahead of time with `roll`, used by the next chance events.
    queued: VecDeque<Vec<String>>,
}

impl Session {
    /// A new session: setup, then the imported position if any.
    pub fn new(rules: Rc<Rules>, origin: Origin) -> Result<Session> {
        let mut game =
            Game::with_secret_seed(rules, origin.seats, origin.seed, origin.secret_seed)?;
        if let Some(position) = &origin.position {
            game.import(position)?;
        }
        // Every step below is rolled back from the session's own undo point.
        game.transactional = false;
        Ok(Session {
            origin,
            game,
            events: Vec::new(),
            seen: Vec::new(),
            said: Vec::new(),
            undo: Vec::new(),
            kept: (0, 0),
            redo: Vec::new(),
            queued: VecDeque::new(),
        })
    }

    pub fn status(&mut self) -> Result<&Status> {
        self.game.status()
    }

    /// The states before each step taken, oldest first (the undo points); `None` for one no
    /// longer kept in memory.
    pub fn states(&self) -> impl Iterator<Item = Option<&State>> {
        self.undo.iter().map(Option::as_ref)
    }

    /// Finds the option the user means: its label, its 1-based number, or the game's parser.
    pub fn resolve_option(&mut self, text: &str) -> Result<usize> {
        let labels = match self.game.status()? {
            Status::Decision { .. } => self.game.labels()?,
            Status::Chance(name, _) => {
                let name = name.clone();
                if let Some(why) = self.game.why_not_now(text.trim()) {
                    bail!("{why} (the game waits for a chance event, {name}: use `roll`)")
                }
                bail!("the game waits for a chance event ({name}): use `roll`")
            }
            Status::Over { .. } => bail!("the game is over"),
        };
        let text = text.trim();
        if let Some(i) = labels.iter().position(|l| l == text) {
            return Ok(i);
        }
        if let Ok(n) = text.parse::<usize>()
            && (1..=labels.len()).contains(&n)
        {
            return Ok(n - 1);
        }
        if let Some(i) = labels.iter().position(|l| l.eq_ignore_ascii_case(text)) {
            return Ok(i);
        }
        if text.parse::<usize>().is_ok() {
            // A number is an option's number, unless the game's notation reads it.
            return match self.game.parse_input(text) {
                Ok(Some(i)) => Ok(i),
                _ => bail!(
                    "there is no option {text}: the options are numbered 1 to {} (`moves` lists them)",
                    labels.len()
                ),
            };
        }
        // the game's reason, or the kernel's, with the options nearest the text
        let why = match self.game.parse_input(text) {
            Ok(Some(i)) => return Ok(i),
            Ok(None) => format!("'{text}' is not a legal option here (`moves` lists them)"),
            Err(e) => format!("{e:#}"),
        };
        match nearest_labels(text, &labels).as_slice() {
            [] => bail!("{why}"),
            near => bail!(
                "{why}; did you mean {}? ({} options)",
                near.join(" or "),
                labels.len()
            ),
        }
    }

    /// Plays an option; returns its label.
    pub fn play(&mut self, text: &str) -> Result<String> {
        let i = self.resolve_option(text)?;
        self.play_index(i)
    }

    /// Plays option i (0-based) of the current decision; returns its label.
    pub fn play_index(&mut self, i: usize) -> Result<String> {
        let label = self.game.label(i)?;
        self.record(Event::Play(label.clone()), |game| game.apply(i))?;
        self.use_queued()?;
        Ok(label)
    }

    /// Runs one event with an undo point; nothing is recorded if it fails.
    fn record(&mut self, event: Event, f: impl FnOnce(&mut Game) -> Result<()>) -> Result<()> {
        let before = self.game.snapshot();
        let actor = match self.game.status()? {
            Status::Decision { actor, .. } => Some(*actor),
            _ => None,
        };
        let seen_by = self.game.seen_by()?;
        if let Err(e) = f(&mut self.game) {
            self.game.restore(before);
            return Err(e);
        }
        let line = match (&event, actor) {
            (Event::Play(label), Some(a)) => {
                let name = self.game.with_state(|s| s.turn.player_name(a));
                LogLine {
                    text: format!("{name}: {label}"),
                    seen_by,
                    otherwise: Some(format!("{name} chose")),
                }
            }
            _ => LogLine::public(event.describe()),
        };
        self.push(before, event, line, seen_by);
        Ok(())
    }

    /// What the rules logged while applying the steps from the `from`-th on (passes, hits,
    /// captures, reveals), without the steps' own lines, as `viewer` may read it: the same
    /// viewer-aware lines `log` shows.
    pub fn consequences(&self, from: usize, viewer: Viewer) -> Vec<String> {
        let said = self.said.get(from..).unwrap_or_default();
        let Some(start) = said.first().map(|r| r.start) else {
            return Vec::new();
        };
        self.game.with_state(|st| {
            st.log
                .iter()
                .enumerate()
                .skip(start)
                .filter(|(i, _)| said.iter().any(|r| r.contains(i)))
                .filter_map(|(_, l)| l.for_viewer(viewer).map(str::to_string))
                .collect()
        })
    }

    /// Who may see the last step taken.
    pub fn last_seen_by(&self) -> u64 {
        self.seen.last().copied().unwrap_or(ALL_SEATS)
    }

    /// Resolves the pending chance event: forced with `words`, or drawn if `words` is empty.
    /// At a decision that offers `roll`, that option is played first. All or nothing: if the
    /// outcome is refused, the `roll` option is taken back too.
    pub fn roll(&mut self, words: &[&str]) -> Result<String> {
        let (mark, redo, queued) = (self.events.len(), self.redo.clone(), self.queued.clone());
        // a tile may be named by its name where a deck holds codes (`roll cave` is `roll cv`)
        let rules = self.game.rules.clone();
        let words: Vec<&str> = words
            .iter()
            .map(|&w| rules.tile_code(w).unwrap_or(w))
            .collect();
        let result = self.roll_steps(&words);
        if result.is_err() {
            while self.events.len() > mark {
                self.undo()?;
            }
            self.redo = redo;
            self.queued = queued;
        }
        result
    }

    fn roll_steps(&mut self, words: &[&str]) -> Result<String> {
        if let Status::Decision { .. } = self.game.status()?
            && self.game.labels()?.iter().any(|l| l == "roll")
        {
            self.play("roll")?;
            // Values queued earlier resolve the chance event that `roll` started.
            if words.is_empty() && !matches!(self.game.status()?, Status::Chance(..)) {
                let last = self.events.last().expect("roll was just played");
                return Ok(last.describe());
            }
        }
        match self.game.status()?.clone() {
            Status::Chance(..) => {
                let event = match self.chance(if words.is_empty() { None } else { Some(words) }) {
                    Err(e) if words.len() > 1 => self.chain(words)?.ok_or(e)?,
                    drawn => drawn?.describe(),
                };
                self.use_queued()?;
                Ok(event)
            }
            _ if !words.is_empty() => {
                let split = match self.producible(words) {
                    Err(e) if words.len() > 1 => {
                        let ways = queue_splits(words, &|w| self.producible(w).is_ok());
                        match &ways[..] {
                            [] => return Err(e),
                            [one] => one.clone(),
                            many => bail!(ambiguous(words, many.len())),
                        }
                    }
                    fits => fits.map(|()| vec![words.len()])?,
                };
                let (mut at, mut said) = (0, Vec::new());
                for k in split {
                    let piece = &words[at..at + k];
                    self.queued
                        .push_back(piece.iter().map(|w| w.to_string()).collect());
                    said.push(piece.join(" "));
                    at += k;
                }
                Ok(format!(
                    "queued for the next chance event: {}",
                    said.join("; ")
                ))
            }
            Status::Decision { .. } => bail!("the game waits for a decision, not a chance event"),
            Status::Over { .. } => bail!("the game is over"),
        }
    }

    /// Forces `words`, which the pending chance event refused whole, on a chain of chance
    /// events one after another (`roll hurricane W`: the spin, then the direction it asks
    /// for), each taking the next of the words; only when exactly one split of the words
    /// fits. Returns the events, as `roll` describes them; None when no split fits.
    fn chain(&mut self, words: &[&str]) -> Result<Option<String>> {
        let redo = self.redo.clone();
        let splits = self.splits(words);
        self.redo = redo;
        let split = match &splits?[..] {
            [] => return Ok(None),
            [one] => one.clone(),
            many => bail!(ambiguous(words, many.len())),
        };
        let (mut said, mut at) = (Vec::new(), 0);
        for k in split {
            said.push(self.chance(Some(&words[at..at + k]))?.describe());
            at += k;
        }
        Ok(Some(said.join("; ")))
    }

    /// The ways `words` split over the chance events that come pending one after another
    /// from here, each taking one or more of them in order: per way, how many each event
    /// takes. The game is left as it was (its redo list aside).
    fn splits(&mut self, words: &[&str]) -> Result<Vec<Vec<usize>>> {
        if words.is_empty() {
            return Ok(vec![vec![]]);
        }
        if !matches!(self.game.status()?, Status::Chance(..)) {
            return Ok(vec![]);
        }
        let mut ways = Vec::new();
        for k in 1..=words.len() {
            if self.chance(Some(&words[..k])).is_ok() {
                for mut rest in self.splits(&words[k..])? {
                    rest.insert(0, k);
                    ways.push(rest);
                }
                self.undo()?;
            }
        }
        Ok(ways)
    }

    /// Checks that some randomizer of the game could produce `words` now, before they are
    /// queued for a chance event that is not pending yet (as the randomizers are declared: an
    /// event whose status changes a randomizer's parameters is checked when it comes). A bag
    /// hidden from the game's view is not consulted: whether it holds an item is a secret, and
    /// its draws cannot be forced in that view anyway.
    fn producible(&self, words: &[&str]) -> Result<()> {
        let rules = self.game.rules.clone();
        let view = self.game.view;
        let mut refusals = Vec::new();
        for r in rules.randomizers.values() {
            let refusal = self.game.with_state(|st| match &r.kind {
                Kind::Bag { bag } if !st.bag_visible(bag, view) => Err(format!(
                    "bag '{bag}' is hidden from this view, so its draws cannot be forced here"
                )),
                _ => r.force(words, &mut st.clone()).map(|_| ()),
            });
            match refusal {
                Ok(()) => return Ok(()),
                Err(e) => refusals.push(e),
            }
        }
        refusals.dedup();
        bail!(
            "'{}' cannot be rolled: {}",
            words.join(" "),
            refusals.join("; ")
        )
    }

    fn chance(&mut self, forced: Option<&[&str]>) -> Result<Event> {
        let before = self.game.snapshot();
        let seen_by = self.game.seen_by()?;
        let (name, outcome) = match self.game.resolve_chance(forced) {
            Ok(drawn) => drawn,
            Err(e) => {
                self.game.restore(before);
                return Err(e);
            }
        };
        let kind = &self.game.rules.randomizers[&name].kind;
        let event = Event::Chance {
            words: outcome_words(kind, &outcome),
            name,
            forced: forced.is_some(),
        };
        let line = LogLine {
            text: event.describe(),
            seen_by,
            otherwise: Some(event.hidden().describe()),
        };
        self.push(before, event.clone(), line, seen_by);
        Ok(event)
    }

    /// Records an applied event: its undo point, and its log line placed before the lines the
    /// rules logged while applying it.
    fn push(&mut self, before: State, event: Event, mut line: LogLine, seen_by: u64) {
        if seen_by == ALL_SEATS {
            line.otherwise = None;
        }
        let at = before.log.len();
        let said = self.game.with_state_mut(|s| {
            if s.logging && at <= s.log.len() {
                // Counted, not refused: the step itself already passed every limit.
                let _ = s.grow_log(line.bytes());
                s.log.insert(at, line);
                at + 1..s.log.len()
            } else {
                at.min(s.log.len())..s.log.len()
            }
        });
        self.said.push(said);
        self.kept.0 += SNAPSHOT_BYTES + before.own_bytes();
        self.undo.push(Some(before));
        self.events.push(event);
        self.seen.push(seen_by);
        self.redo.clear();
        let limit = self.game.rules.host.limits.memory();
        while self.kept.0 > limit && self.kept.1 + 1 < self.undo.len() {
            if let Some(old) = self.undo[self.kept.1].take() {
                self.kept.0 -= SNAPSHOT_BYTES + old.own_bytes();
            }
            self.kept.1 += 1;
        }
    }

    /// Takes the newest undo point: the kept state, or the state rebuilt by replaying.
    fn pop_undo(&mut self) -> Result<Option<State>> {
        let Some(kept) = self.undo.pop() else {
            return Ok(None);
        };
        self.kept.1 = self.kept.1.min(self.undo.len());
        if let Some(state) = kept {
            self.kept.0 -= SNAPSHOT_BYTES + state.own_bytes();
            return Ok(Some(state));
        }
        let mut fresh = Session::new(self.game.rules.clone(), self.origin.clone())?;
        let n = self.undo.len();
        fresh
            .replay(&self.events[..n])
            .map_err(|d| anyhow!("cannot rebuild step {}: {}", d.index, d.reason))?;
        Ok(Some(fresh.game.snapshot()))
    }

    /// Uses outcomes queued by `roll` while the game waits for chance events.
    fn use_queued(&mut self) -> Result<()> {
        while matches!(self.game.status()?, Status::Chance(..)) {
            let Some(words) = self.queued.pop_front() else {
                break;
            };
            let refs: Vec<&str> = words.iter().map(String::as_str).collect();
            self.chance(Some(&refs))?;
        }
        Ok(())
    }

    pub fn undo(&mut self) -> Result<Event> {
        let state = self.pop_undo()?.ok_or_else(|| anyhow!("nothing to undo"))?;
        let event = self.events.pop().expect("one event per undo point");
        self.seen.pop();
        self.said.pop();
        self.game.restore(state);
        self.redo.push(event.clone());
        Ok(event)
    }

    pub fn redo(&mut self) -> Result<Event> {
        let event = self.redo.pop().ok_or_else(|| anyhow!("nothing to redo"))?;
        let redo = std::mem::take(&mut self.redo);
        let result = self.apply_event(&event);
        self.redo = redo;
        result.map_err(|e| anyhow!("cannot redo {}: {e}", event.describe()))?;
        Ok(event)
    }

    /// Applies a recorded event; an error says why it does not fit this game.
    pub fn apply_event(&mut self, event: &Event) -> Result<()> {
        match event {
            Event::Play(label) => {
                match self.game.status()? {
                    Status::Decision { .. } => {}
                    Status::Chance(name, _) => bail!("the game waits for a chance event ({name})"),
                    Status::Over { .. } => bail!("the game is over"),
                }
                let labels = self.game.labels()?;
                let i = labels
                    .iter()
                    .position(|l| l == label)
                    .ok_or_else(|| anyhow!("'{label}' is not offered here"))?;
                self.record(event.clone(), |game| game.apply(i))
            }
            Event::Chance {
                name,
                words,
                forced,
            } => {
                match self.game.status()? {
                    Status::Chance(n, _) if n == name => {}
                    Status::Chance(n, _) => bail!("the game waits for chance '{n}', not '{name}'"),
                    _ => bail!("the game does not wait for a chance event"),
                }
                let refs: Vec<&str> = words.iter().map(String::as_str).collect();
                let got = self.chance(if *forced { Some(&refs) } else { None })?;
                if &got != event {
                    let state = self.pop_undo()?.expect("the chance just pushed one");
                    self.events.pop();
                    self.seen.pop();
                    self.said.pop();
                    self.game.restore(state);
                    bail!("the stream now gives {}", got.describe());
                }
                Ok(())
            }
            Event::Hidden { .. } => bail!(
                "a hidden step cannot be replayed: this is a seat's view of the game (only the referee's save restores it)"
            ),
        }
    }

    /// Replays recorded events on this session; stops at the first that does not fit.
    pub fn replay(&mut self, events: &[Event]) -> Result<(), Divergence> {
        for (i, event) in events.iter().enumerate() {
            let interrupted = self.game.rules.host.limits.interrupted();
            if let Err(e) = if interrupted {
                Err(anyhow!("interrupted"))
            } else {
                self.apply_event(event)
            } {
                return Err(Divergence {
                    index: i + 1,
                    event: event.clone(),
                    reason: e.to_string(),
                });
            }
        }
        Ok(())
    }
}

/// Labels to offer for a text that names no option, at most [`NEAREST`]: those that begin with
/// its words (`W1` for `W1 G1->G2`), else those that share its first word (`W1 G1-G3`), else
/// those a typo away.
fn nearest_labels(text: &str, labels: &[String]) -> Vec<String> {
    let typed: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    let Some(first) = typed.first() else {
        return Vec::new();
    };
    let words =
        |l: &String| -> Vec<String> { l.split_whitespace().map(str::to_lowercase).collect() };
    let begins = |l: &&String| {
        let w = words(l);
        w.len() > typed.len() && w.iter().zip(&typed).all(|(a, b)| a == b)
    };
    let shares = |l: &&String| words(l).first() == Some(first);
    let near = |l: &&String| crate::script::ruleset::variant::similar(l, text);
    let pick = |f: &dyn Fn(&&String) -> bool| -> Vec<String> {
        labels.iter().filter(f).take(NEAREST).cloned().collect()
    };
    [pick(&begins), pick(&shares), pick(&near)]
        .into_iter()
        .find(|l| !l.is_empty())
        .unwrap_or_default()
}

/// Options a refused text is offered at most.
const NEAREST: usize = 5;
