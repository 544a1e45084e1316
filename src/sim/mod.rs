//! Playing many games fast: uniform-random playouts and the `bench` command; bots, studies
//! (`sim`, `sim-merge`) and their statistics, reports, shards and charts.

pub mod bots;
pub mod check;
pub mod command;
pub mod drama;
pub mod learned;
pub mod pool;
pub mod profile;
pub mod report;
pub mod sequential;
pub mod shard;
pub mod stats;
pub mod study;
pub mod svg;
pub mod train;

use std::rc::Rc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use crate::kernel::State;
use crate::kernel::rng::Stream;
use crate::script::Rules;
use crate::script::lua::limits::thread_cpu_seconds;
use crate::session::{Game, Status};

/// How one random game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Playout {
    pub scores: Vec<f64>,
    pub result: String,
    /// Decisions taken and chance events resolved.
    pub decisions: u64,
    pub chances: u64,
    /// Why the game was stopped before its end, if it was (no scores then).
    pub cut: Option<Runaway>,
}

/// Starts the games of a simulation. A setup that neither draws from a random stream nor
/// reseeds makes the same state for every seed: it runs once, and later games start from a
/// copy with their own seed (a backgammon setup costs about as much as twenty moves).
pub struct Starter {
    rules: Rc<Rules>,
    seats: u32,
    /// The state after setup, once the first game showed that it does not depend on the seed.
    template: Option<State>,
    first: bool,
}

impl Starter {
    pub fn new(rules: Rc<Rules>, seats: u32) -> Starter {
        Starter {
            rules,
            seats,
            template: None,
            first: true,
        }
    }

    /// Whether later games copy the first one's setup.
    pub fn copies_setup(&self) -> bool {
        self.template.is_some()
    }

    /// The game of `seed`, set up.
    pub fn start(&mut self, seed: u64) -> Result<Game> {
        if let Some(t) = &self.template {
            let mut state = t.clone();
            state.reseed(seed);
            return Game::from_state(self.rules.clone(), state);
        }
        let game = Game::new(self.rules.clone(), self.seats, seed)?;
        if std::mem::take(&mut self.first) {
            let state = game.snapshot();
            self.template = state.seed_untouched(seed).then_some(state);
        }
        Ok(game)
    }
}

/// How often [`Watch`] compares the game with what it was: a game that is exactly where it
/// was this many steps before is stalled.
pub const STALL_STEPS: u64 = 1000;

/// Why [`Watch`] stopped a game: a result of the game and its bots (they did not end it), not
/// a failure of the rules, so studies count it and go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runaway {
    /// No end after this many steps (the turn cap).
    Cap(u64),
    /// After this many steps the game was where it was [`STALL_STEPS`] steps before.
    Stall(u64),
}

impl std::fmt::Display for Runaway {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Runaway::Cap(n) => write!(
                f,
                "turn cap: no end after {n} steps (a runaway game? the cap is a limit: --max-steps)"
            ),
            Runaway::Stall(n) => write!(
                f,
                "stalled: after {n} steps the game is where it was {STALL_STEPS} steps before"
            ),
        }
    }
}

impl std::error::Error for Runaway {}

/// Stops a runaway game: more steps than the turn cap, a repeated state (the same game as
/// STALL_STEPS steps before, random streams aside: a chance event that changes nothing, a
/// decision that undoes itself), or an interrupt. Comparing only every STALL_STEPS steps
/// keeps it out of the cost of a step.
pub struct Watch {
    cap: u64,
    steps: u64,
    mark: Option<State>,
}

impl Watch {
    pub fn new(cap: u64) -> Watch {
        Watch {
            cap,
            steps: 0,
            mark: None,
        }
    }

    /// Asks before each step on `game` whether it may be taken; an error says why not.
    pub fn step(&mut self, game: &Game) -> Result<()> {
        self.allow(game)?;
        self.took(1);
        Ok(())
    }

    /// Asks before the next step, as `step` does, and says how many steps may be taken from
    /// here before the watch must be asked again: up to the turn cap or the next comparison.
    /// `took` counts the steps taken.
    pub fn allow(&mut self, game: &Game) -> Result<u64> {
        if game.rules.host.limits.interrupted() {
            bail!("interrupted after {} steps", self.steps);
        }
        if self.steps == self.cap {
            return Err(Runaway::Cap(self.cap).into());
        }
        if self.steps.is_multiple_of(STALL_STEPS) {
            let now = game.snapshot();
            if self.mark.as_ref().is_some_and(|m| m.same_game(&now)) {
                return Err(Runaway::Stall(self.steps).into());
            }
            self.mark = Some(now);
        }
        Ok((self.cap - self.steps).min(STALL_STEPS - self.steps % STALL_STEPS))
    }

    pub fn took(&mut self, steps: u64) {
        self.steps += steps;
    }
}

/// Plays one game to the end, every decision uniform among the options (bot stream "bots"),
/// every chance event drawn. More than `max_steps` steps, a stall or an interrupt is an error.
/// The steps between two looks of the watch run in the kernel's loop inside Lua
/// (`Game::play_steps`).
pub fn random_playout(starter: &mut Starter, seed: u64, max_steps: u64) -> Result<Playout> {
    playout(starter, seed, max_steps, None)
}

/// [`random_playout`] one step at a time, calling `before_step` with the game before every
/// step (the profiler sets its hook there).
pub fn random_playout_with(
    starter: &mut Starter,
    seed: u64,
    max_steps: u64,
    mut before_step: impl FnMut(&Game) -> Result<()>,
) -> Result<Playout> {
    playout(starter, seed, max_steps, Some(&mut before_step))
}

/// What the profiler runs before each step.
type BeforeStep<'a> = dyn FnMut(&Game) -> Result<()> + 'a;

/// A game `play` plays, after which the rule tables are compared when [`Host::check_due`]
/// says so (`steps` of what it returned: the cost is bounded by the steps played), as they
/// are at the end of every run ([`unchanged_rules_at_end`]); interactive play compares them
/// after every hook, which would slow every playout. A change fails the run, naming the table
/// and the key, and `play` again (with the tables trapped) finds the line that wrote when the
/// change is that game's. So no result depends on the games a Lua state played before it,
/// whatever `--jobs` is.
///
/// [`Host::check_due`]: crate::script::ruleset::host::Host::check_due
pub fn watched<T>(
    rules: &Rules,
    steps: impl Fn(&T) -> u64,
    mut play: impl FnMut() -> Result<T>,
) -> Result<T> {
    let played = play()?;
    if rules.host.check_due(steps(&played)) {
        rules.host.check_sealed("a game", || {
            play()
                .map(|_| ())
                .map_err(|e| mlua::Error::runtime(format!("{e:#}")))
        })?;
    }
    Ok(played)
}

/// The last comparison of a run: the games played since the last one.
pub fn unchanged_rules_at_end(rules: &Rules) -> Result<()> {
    if rules.host.unchecked_games() {
        rules.host.check_sealed("a game", || Ok(()))?;
    }
    Ok(())
}

fn playout(
    starter: &mut Starter,
    seed: u64,
    max_steps: u64,
    mut before_step: Option<&mut BeforeStep>,
) -> Result<Playout> {
    let rules = starter.rules.clone();
    watched(
        &rules,
        |p: &Playout| p.decisions + p.chances,
        || play_out(starter, seed, max_steps, before_step.take()),
    )
}

fn play_out(
    starter: &mut Starter,
    seed: u64,
    max_steps: u64,
    mut before_step: Option<&mut BeforeStep>,
) -> Result<Playout> {
    let mut game = starter.start(seed)?;
    game.simulated();
    let mut bot = Stream::new(seed, "bots");
    let mut choose = |_, count: usize| Ok(bot.below(count as u64) as usize);
    let (mut decisions, mut chances) = (0, 0);
    let mut watch = Watch::new(max_steps);
    loop {
        if let Status::Over { scores, result } = game.status()? {
            return Ok(Playout {
                scores: scores.clone(),
                result: result.clone(),
                decisions,
                chances,
                cut: None,
            });
        }
        let mut room = match watch.allow(&game) {
            Ok(room) => room,
            Err(e) => match e.downcast_ref::<Runaway>() {
                Some(&cut) => {
                    return Ok(Playout {
                        scores: Vec::new(),
                        result: format!("seed {seed}: {cut}"),
                        decisions,
                        chances,
                        cut: Some(cut),
                    });
                }
                None => bail!("seed {seed}: {e}"),
            },
        };
        if let Some(before_step) = &mut before_step {
            before_step(&game)?;
            room = 1;
        }
        let taken = game.play_steps(room, &mut choose)?;
        watch.took(taken.steps());
        decisions += taken.decisions;
        chances += taken.chances;
    }
}

/// Figures of one benchmark round.
#[derive(Clone, Debug)]
pub struct Round {
    pub games: u64,
    pub seconds: f64,
    /// CPU time of the benchmarking thread over the round.
    pub cpu_seconds: f64,
    pub decisions: u64,
    /// Games stopped at the turn cap or as stalled (counted in `games`).
    pub cut: u64,
}

impl Round {
    pub fn rate(&self) -> f64 {
        self.games as f64 / self.seconds
    }

    /// Playouts per second of the benchmarking thread's CPU time: the figure to set beside
    /// another program's CPU-timed rate, since waiting for a core on a loaded machine does
    /// not count.
    pub fn cpu_rate(&self) -> f64 {
        self.games as f64 / self.cpu_seconds.max(f64::MIN_POSITIVE)
    }

    /// Microseconds of CPU per decision.
    pub fn cpu_per_decision(&self) -> f64 {
        1e6 * self.cpu_seconds / self.decisions.max(1) as f64
    }
}

/// Runs `rounds` rounds of random playouts of about `per_round` each (at least `min_games`).
pub fn bench(
    rules: Rc<Rules>,
    seats: u32,
    rounds: usize,
    per_round: Duration,
    min_games: u64,
    mut report: impl FnMut(usize, &Round),
) -> Result<Vec<Round>> {
    let mut out = Vec::new();
    let mut seed = 1;
    let cap = rules.host.limits.budget().steps;
    let mut starter = Starter::new(rules, seats);
    for r in 0..rounds {
        let start = Instant::now();
        let cpu = thread_cpu_seconds();
        let mut round = Round {
            games: 0,
            seconds: 0.0,
            cpu_seconds: 0.0,
            decisions: 0,
            cut: 0,
        };
        while round.games < min_games || start.elapsed() < per_round {
            let p = random_playout(&mut starter, seed, cap)?;
            seed += 1;
            round.games += 1;
            round.decisions += p.decisions;
            round.cut += u64::from(p.cut.is_some());
        }
        round.seconds = start.elapsed().as_secs_f64();
        round.cpu_seconds = thread_cpu_seconds() - cpu;
        report(r, &round);
        out.push(round);
    }
    unchanged_rules_at_end(&starter.rules)?;
    Ok(out)
}

/// The median of the rounds' CPU microseconds per decision.
pub fn median_cpu_per_decision(rounds: &[Round]) -> f64 {
    median(rounds, Round::cpu_per_decision)
}

/// The median of the rounds' rates.
pub fn median_rate(rounds: &[Round]) -> f64 {
    median(rounds, Round::rate)
}

/// The median of the rounds' rates per CPU second.
pub fn median_cpu_rate(rounds: &[Round]) -> f64 {
    median(rounds, Round::cpu_rate)
}

fn median(rounds: &[Round], figure: fn(&Round) -> f64) -> f64 {
    let mut xs: Vec<f64> = rounds.iter().map(figure).collect();
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}
