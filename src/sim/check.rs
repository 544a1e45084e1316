//! `tortuga check`: random games under the invariants a game declares, looking for script
//! errors, limit hits, stalls, broken invariants and replays that differ; each failure shrunk
//! to the shortest decision sequence found that still fails, and written as a save file that
//! `tortuga replay` reproduces.
//!
//! A game is its seed and its choices: the bot's pick at each decision, taken modulo the
//! number of options, so any list of numbers is a game (missing picks are 0). Shrinking edits
//! that list — drops runs of picks, lowers picks — and keeps an edit while the game still
//! fails the same way in no more decisions, in the manner of Hypothesis.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, anyhow, bail};
use clap::Args;

use super::pool;
use super::study::game_seed;
use super::{Starter, Watch};
use crate::files::write_atomically;
use crate::kernel::Value;
use crate::kernel::rng::Stream;
use crate::script::lua::limits::interrupted;
use crate::script::ruleset::variant::parse_assignment;
use crate::script::{Budget, LoadOptions, Rules};
use crate::session::save::SaveFile;
use crate::session::{Event, Game, Origin, Session, Status};

#[derive(Args, Clone, Debug)]
pub struct CheckArgs {
    pub game: String,
    #[arg(long)]
    pub variant: Option<String>,
    /// A house rule to switch on beyond the variant's (repeatable).
    #[arg(long = "house", value_name = "RULE")]
    pub house: Vec<String>,
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long)]
    pub players: Option<u32>,
    #[arg(long = "set")]
    pub sets: Vec<String>,
    /// The folder the shrunk replays are written to (made if missing).
    #[arg(long, default_value = ".")]
    pub out: PathBuf,
    /// Worker threads (default: every core; at most 4 a core). The report is the same.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Stop starting games once one has failed.
    #[arg(long)]
    pub first_failure: bool,
}

/// How a game failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    ScriptError,
    LimitHit,
    Stall,
    Invariant,
    Nondeterminism,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::ScriptError => "script error",
            Kind::LimitHit => "limit hit",
            Kind::Stall => "stall",
            Kind::Invariant => "invariant broken",
            Kind::Nondeterminism => "replay differs",
        }
    }
}

/// A failing game: its kind, what went wrong, and the choices that led there.
#[derive(Clone, Debug)]
pub struct Failure {
    pub kind: Kind,
    pub message: String,
    pub choices: Vec<u64>,
}

/// What a game with given choices did.
enum Outcome {
    Ended {
        fingerprint: String,
        choices: Vec<u64>,
    },
    Failed(Failure),
}

/// The rules' invariant hook on the current state: what is broken, if anything. A game
/// without the hook has no invariants.
pub fn broken_invariant(game: &Game) -> Result<Option<String>> {
    if !game.has_hook("invariant") {
        return Ok(None);
    }
    let text: Option<String> = game.query_hook("invariant", ())?;
    Ok(text.filter(|t| !t.is_empty()))
}

/// Whether an error is `Watch` stopping a runaway game (a turn cap or a stall).
fn is_runaway(text: &str) -> bool {
    text.contains("turn cap: ") || text.contains("stalled: ")
}

fn classify(e: &anyhow::Error) -> Kind {
    let text = format!("{e:#}");
    if text.contains("limit exceeded") || text.contains("not enough memory") {
        Kind::LimitHit
    } else if text.contains("with no options") || is_runaway(&text) {
        Kind::Stall
    } else {
        Kind::ScriptError
    }
}

/// Plays the game of `seed` with `choices` (drawn from `bot` once they run out, or 0 without
/// a bot), recording every pick. The limits' turn cap and stall watch end a runaway game; an
/// interrupt ends the check.
fn play(
    starter: &mut Starter,
    seed: u64,
    choices: &[u64],
    mut bot: Option<&mut Stream>,
) -> Result<Outcome> {
    let mut game = starter.start(seed)?;
    game.transactional = false;
    game.with_state_mut(|s| s.logging = false);
    let mut watch = Watch::new(game.rules.host.limits.budget().steps);
    let mut taken = Vec::new();
    let fail = |kind, message: String, taken: &Vec<u64>| {
        Ok(Outcome::Failed(Failure {
            kind,
            message,
            choices: taken.clone(),
        }))
    };
    loop {
        let step = (|| -> Result<Option<String>> {
            let status = game.status()?.clone();
            if !matches!(status, Status::Over { .. }) {
                watch.step(&game)?;
            }
            match status {
                Status::Over { .. } => return Ok(Some(game.with_state(|s| s.fingerprint()))),
                Status::Chance(..) => {
                    game.resolve_chance(None)?;
                }
                Status::Decision { count, .. } => {
                    let pick = match (choices.get(taken.len()), bot.as_deref_mut()) {
                        (Some(&c), _) => c,
                        (None, Some(b)) => b.below(count as u64),
                        (None, None) => 0,
                    };
                    taken.push(pick);
                    game.apply((pick % count as u64) as usize)?;
                }
            }
            Ok(None)
        })();
        match step {
            Ok(Some(fingerprint)) => {
                return Ok(Outcome::Ended {
                    fingerprint,
                    choices: taken,
                });
            }
            Ok(None) => {}
            Err(e) if game.rules.host.limits.interrupted() => return Err(e),
            Err(e) => return fail(classify(&e), format!("{e:#}"), &taken),
        }
        match broken_invariant(&game) {
            Ok(None) => {}
            Ok(Some(problem)) => return fail(Kind::Invariant, problem, &taken),
            Err(e) => return fail(classify(&e), format!("invariant: {e:#}"), &taken),
        }
    }
}

/// Plays game `seed` at random, then replays its choices and compares the final states.
fn check_game(starter: &mut Starter, seed: u64) -> Result<Option<Failure>> {
    let mut bot = Stream::new(seed, "bots");
    let (fingerprint, choices) = match play(starter, seed, &[], Some(&mut bot))? {
        Outcome::Failed(f) => return Ok(Some(f)),
        Outcome::Ended {
            fingerprint,
            choices,
        } => (fingerprint, choices),
    };
    match play(starter, seed, &choices, None)? {
        Outcome::Ended {
            fingerprint: again, ..
        } if again == fingerprint => Ok(None),
        Outcome::Ended { .. } => Ok(Some(Failure {
            kind: Kind::Nondeterminism,
            message: "the same seed and decisions gave another final state".into(),
            choices,
        })),
        Outcome::Failed(f) => Ok(Some(Failure {
            kind: Kind::Nondeterminism,
            message: format!("the first play ended, its replay failed: {}", f.message),
            choices,
        })),
    }
}

/// Replays worth trying per failure while shrinking.
const SHRINK_TRIES: usize = 600;

/// The shortest variation of `failure` found that fails the same way.
fn shrink(starter: &mut Starter, seed: u64, failure: Failure) -> Result<Failure> {
    if is_runaway(&failure.message) {
        return Ok(failure);
    }
    let mut s = Shrinker {
        starter,
        seed,
        tries: 0,
        best: failure,
    };
    let mut improved = true;
    while improved && s.tries < SHRINK_TRIES {
        improved = false;
        let mut size = s.best.choices.len().div_ceil(2).max(1);
        while size >= 1 && s.tries < SHRINK_TRIES {
            let mut i = 0;
            while i + size <= s.best.choices.len() && s.tries < SHRINK_TRIES {
                let mut c = s.best.choices.clone();
                c.drain(i..i + size);
                if s.attempt(c)? {
                    improved = true;
                } else {
                    i += size;
                }
            }
            size /= 2;
        }
        for i in 0..s.best.choices.len() {
            if s.tries >= SHRINK_TRIES || s.best.choices.get(i).is_none_or(|&c| c == 0) {
                continue;
            }
            let mut c = s.best.choices.clone();
            c[i] = 0;
            improved |= s.attempt(c)?;
        }
    }
    Ok(s.best)
}

struct Shrinker<'a> {
    starter: &'a mut Starter,
    seed: u64,
    tries: usize,
    best: Failure,
}

impl Shrinker<'_> {
    /// Plays `choices`; keeps them if the game fails the same way, shorter (or with lower picks).
    fn attempt(&mut self, choices: Vec<u64>) -> Result<bool> {
        self.tries += 1;
        if let Outcome::Failed(f) = play(self.starter, self.seed, &choices, None)? {
            let best = &self.best;
            let shorter = f.choices.len() < best.choices.len()
                || (f.choices.len() == best.choices.len() && f.choices < best.choices);
            if f.kind == best.kind && shorter {
                self.best = f;
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The session of `choices` on the game of `seed`, as a save file: every step that succeeded,
/// then the failing one, so that a replay stops on it.
fn save_file(rules: &Rc<Rules>, origin: Origin, choices: &[u64]) -> Result<SaveFile> {
    let mut session = Session::new(rules.clone(), origin)?;
    let mut picks = choices.iter();
    // A game stopped as a runaway is saved up to where the watch stopped it, not played on.
    let mut watch = Watch::new(rules.host.limits.budget().steps);
    loop {
        let status = session.status()?.clone();
        if !matches!(status, Status::Over { .. }) && watch.step(&session.game).is_err() {
            break;
        }
        match status {
            Status::Over { .. } => break,
            Status::Chance(name, _) => {
                if session.roll(&[]).is_err() {
                    session.events.push(Event::Chance {
                        name,
                        words: vec![],
                        forced: false,
                    });
                    break;
                }
            }
            Status::Decision { count, .. } => {
                let Some(&pick) = picks.next() else { break };
                let i = (pick % count as u64) as usize;
                let label = session.game.label(i)?;
                if session.play_index(i).is_err() {
                    session.events.push(Event::Play(label));
                    break;
                }
                if broken_invariant(&session.game).ok().flatten().is_some() {
                    break;
                }
            }
        }
    }
    SaveFile::of(&session, crate::kernel::Viewer::Referee)
}

/// Runs `check` on `--jobs` threads; returns what it prints and whether every game passed.
/// `progress` is told the games to expect, then each one checked. Games are judged and
/// shrunk alone, so the report lists the same failures in game order with any `--jobs`
/// (with `--first-failure`, those found before the workers stopped). An interrupt (Ctrl-C)
/// ends the run with the games checked so far, and says so.
pub fn check(
    dir: &Path,
    args: &CheckArgs,
    budget: &Budget,
    progress: &mut dyn FnMut(Option<u64>),
) -> Result<(String, bool)> {
    if args.games == 0 {
        bail!("--games 0: check needs at least one game");
    }
    let jobs = super::command::jobs(args.jobs)?;
    let overrides = args
        .sets
        .iter()
        .map(|s| parse_assignment(s).map_err(|e| anyhow!("--set {s}: {e}")))
        .collect::<Result<Vec<(String, Value)>>>()?;
    let opts = LoadOptions {
        variant: args.variant.clone(),
        house: args.house.clone(),
        overrides: overrides.clone(),
        budget: budget.clone(),
    };
    let seats = match args.players {
        Some(n) => n,
        None => Rules::load(dir, &args.game, &opts)?.seats.default,
    };
    if args.out.exists() && !args.out.is_dir() {
        bail!("--out {}: not a folder", args.out.display());
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| anyhow!("--out {}: cannot make the folder: {e}", args.out.display()))?;
    let stop = AtomicBool::new(false);
    let mut lines: Vec<(u64, String)> = Vec::new();
    let mut checked = 0;
    progress(Some(args.games));
    let start = || {
        let rules = Rc::new(Rules::load(dir, &args.game, &opts)?);
        Ok((Starter::new(rules.clone(), seats), rules))
    };
    let judge_k = |(starter, rules): &mut (Starter, Rc<Rules>), k: u64| {
        let line = judge(starter, rules, args, &overrides, seats, k)?;
        if line.is_some() && args.first_failure {
            stop.store(true, Ordering::Relaxed);
        }
        Ok(line)
    };
    pool::play(
        jobs,
        0..args.games,
        &|| stop.load(Ordering::Relaxed),
        &start,
        &judge_k,
        &|_| Ok(()),
        |k, line| {
            checked += 1;
            lines.extend(line.map(|l| (k, l)));
            progress(None);
        },
    )?;
    lines.sort_by_key(|(k, _)| *k);
    let variant = args.variant.as_deref().unwrap_or("default");
    let failures = lines.len();
    let mut head = format!(
        "check {} ({variant}, {seats} players): {} games from seed {}, {failures} failed",
        args.game, args.games, args.seed
    );
    if checked < args.games {
        let why = if interrupted() {
            "interrupted"
        } else {
            "stopped at the first failure"
        };
        head += &format!(" ({why}: {checked} of {} games checked)", args.games);
    }
    let mut out = vec![head];
    out.extend(lines.into_iter().map(|(_, l)| l));
    Ok((out.join("\n"), failures == 0 && checked == args.games))
}

/// Checks game k; when it fails, shrinks it, writes the replay and returns the report's line.
fn judge(
    starter: &mut Starter,
    rules: &Rc<Rules>,
    args: &CheckArgs,
    overrides: &[(String, Value)],
    seats: u32,
    k: u64,
) -> Result<Option<String>> {
    let seed = game_seed(args.seed, k);
    let Some(failure) = check_game(starter, seed)? else {
        return Ok(None);
    };
    let found = failure.choices.len();
    let small = shrink(starter, seed, failure)?;
    let origin = Origin {
        game: args.game.clone(),
        variant: args.variant.clone(),
        house: args.house.clone(),
        overrides: overrides.to_vec(),
        seats,
        seed,
        secret_seed: None,
        position: None,
    };
    let path = args.out.join(format!("check-{}-{k}.sav", args.game));
    write_atomically(&path, &save_file(rules, origin, &small.choices)?.to_text())?;
    Ok(Some(format!(
        "game {k} (seed {seed}): {} after {found} decisions: {}\n  shrunk to {} decisions, written to {} (`tortuga replay {}` reproduces it)",
        small.kind.name(),
        first_line(&small.message),
        small.choices.len(),
        path.display(),
        path.display()
    )))
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// `tortuga replay <file>`: replays a save on the current rules, checking the invariants
/// after every step. Returns what it prints and whether the replay ran clean.
pub fn replay(dir: &Path, path: &Path, budget: &Budget) -> Result<(String, bool)> {
    let what = path.display().to_string();
    let text = crate::files::read_text(path, crate::files::MAX_INPUT_FILE, &what)
        .map_err(|e| anyhow!(e))?;
    let save = SaveFile::parse(&what, &text)?;
    let opts = LoadOptions {
        variant: save.origin.variant.clone(),
        house: save.origin.house.clone(),
        overrides: save.origin.overrides.clone(),
        budget: budget.clone(),
    };
    let rules = Rc::new(Rules::load(dir, &save.origin.game, &opts)?);
    // After the setup, which reads the data files (a map) the save lists too.
    let mut session = Session::new(rules.clone(), save.origin.clone())?;
    let changed = save.changed_files(&rules.files());
    let mut out = Vec::new();
    if !changed.is_empty() {
        out.push(format!("the rules changed since: {}", changed.join(", ")));
    }
    for (i, event) in save.events.iter().enumerate() {
        if let Err(e) = session.apply_event(event) {
            out.push(format!(
                "{what}: step {} ({}) fails: {e:#}",
                i + 1,
                event.describe()
            ));
            return Ok((out.join("\n"), false));
        }
        let broken = broken_invariant(&session.game).unwrap_or_else(|e| Some(format!("{e:#}")));
        if let Some(problem) = broken {
            out.push(format!(
                "{what}: after step {} ({}) an invariant breaks: {problem}",
                i + 1,
                event.describe()
            ));
            return Ok((out.join("\n"), false));
        }
    }
    out.push(format!(
        "{what}: replayed {} steps, every invariant holds",
        save.events.len()
    ));
    Ok((out.join("\n"), true))
}
