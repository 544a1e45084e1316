//! `tortuga train`: learns by self-play an evaluation for exactly one ruleset, the estimate
//! that each seat wins, by TD(λ) on a small network (`learn::net`) over the game's inputs (its
//! `features` hook, or the generic encoding of `learn::encoding`).
//!
//! Each decision takes the option whose result the network rates best for the seat that acts
//! (0-ply, as TD-Gammon trained), and after it every seat's estimate of the new position moves
//! its eligibility trace; the end of the game gives each seat its reward (the winners share 1).
//! Chance goes through the rules' declared randomizers, seeded per game.
//!
//! Games are played in batches with the weights of the batch's start; each game's change is
//! added in game order, so the weights depend on the seed and the ruleset only, whatever
//! `--jobs` is.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use clap::Args;

use super::bots::{Bot, BotSpec, SeatView};
use super::command::jobs;
use super::learned::{best_option, encoding_of, features, outcome};
use super::stats::wilson;
use super::study::{game_seed, load_rules, winners};
use crate::kernel::Seat;
use crate::kernel::rng::Stream;
use crate::learn::encoding::DEFAULT_INPUTS;
use crate::learn::net::{Net, set_inputs};
use crate::learn::weights::{Ruleset, Weights, cache_path};
use crate::script::lua::limits;
use crate::script::{Budget, Rules, Training};
use crate::session::{Game, Status};

#[derive(Args, Clone, Debug)]
pub struct TrainArgs {
    pub game: String,
    #[arg(long)]
    pub variant: Option<String>,
    /// A house rule to switch on beyond the variant's (repeatable).
    #[arg(long = "house", value_name = "RULE")]
    pub house: Vec<String>,
    /// Switch values on top of the variant (`--set cube=false`).
    #[arg(long = "set")]
    pub sets: Vec<String>,
    #[arg(long)]
    pub players: Option<u32>,
    /// Self-play games to train.
    #[arg(long)]
    pub games: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core; at most 4 a core); the weights are the same for any
    /// number.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Start from these weights (trained for the same ruleset) instead of small random ones.
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Where to write the weights (default: the user's cache, by ruleset, where the `learned`
    /// bot looks).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Steps after which a self-play game stops (a game whose players have not yet learned to
    /// end it); it teaches what it saw, and its last estimates stand for its outcome.
    /// [default: the game's `training.max_steps`, else 10000]
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// The share of decisions taken at random rather than by the evaluation (ε-greedy), for
    /// games whose chance alone does not vary the play enough; drawn from each game's seed.
    /// [default: the game's `training.explore`, else 0]
    #[arg(long)]
    pub explore: Option<f64>,
    /// Slots of the generic encoding (games without a `features` hook).
    #[arg(long)]
    pub inputs: Option<usize>,
    /// Hidden units of a new network [default: the game's `training.hidden`, else 40]
    #[arg(long)]
    pub hidden: Option<usize>,
    /// The learning rate α of TD(λ) at the start; it falls linearly to a tenth of this over the
    /// run, so the last games refine what the first ones found [default: the game's
    /// `training.alpha`, else 0.1]
    #[arg(long)]
    pub alpha: Option<f32>,
    /// The trace decay λ of TD(λ), from 0 (one step) to 1 (the game's outcome) [default: the
    /// game's `training.lambda`, else 0.7]
    #[arg(long)]
    pub lambda: Option<f32>,
    /// Give a new network a linear part, each estimate also summing the inputs directly
    /// (`--linear false`: none) [default: the game's `training.linear`, else none]
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub linear: Option<bool>,
    /// The bot the running strength figure plays against: one game per batch, the learned
    /// seat at 0-ply against this bot in every other seat (`none`: no gauge games).
    #[arg(long, default_value = "random")]
    pub gauge: String,
}

/// What self-play needs of `train`'s options, each given on the command line, else by the
/// game's `training` table, else built in.
struct Settings {
    games: u64,
    seed: u64,
    alpha: f32,
    lambda: f32,
    linear: bool,
    hidden: usize,
    max_steps: u64,
    explore: f64,
}

impl Settings {
    fn of(args: &TrainArgs, game: &Training) -> Result<Settings> {
        let set = Settings {
            games: args.games,
            seed: args.seed,
            alpha: args.alpha.or(game.alpha).unwrap_or(0.1),
            lambda: args.lambda.or(game.lambda).unwrap_or(0.7),
            linear: args.linear.or(game.linear).unwrap_or(false),
            hidden: args.hidden.or(game.hidden).unwrap_or(40),
            max_steps: args.max_steps.or(game.max_steps).unwrap_or(10_000),
            explore: args.explore.or(game.explore).unwrap_or(0.0),
        };
        if set.max_steps == 0 {
            bail!("--max-steps 0 plays nothing");
        }
        if !(0.0..=1.0).contains(&set.explore) {
            bail!("--explore is a share of the decisions, from 0 to 1");
        }
        if set.hidden == 0 {
            bail!("--hidden 0: the network needs hidden units");
        }
        if !(set.alpha > 0.0 && set.alpha.is_finite() && (0.0..=1.0).contains(&set.lambda)) {
            bail!("--alpha must be above 0 and --lambda from 0 to 1");
        }
        Ok(set)
    }
}

/// Games per batch: played with the same weights, their changes added in game order.
const BATCH: u64 = 8;
/// How often the weights are written while training goes on.
const CHECKPOINT_SECONDS: u64 = 60;

/// The ruleset `args` name, loaded on this thread.
fn asked_rules(dir: &Path, args: &TrainArgs, budget: &Budget) -> Result<Rules> {
    load_rules(
        dir,
        &args.game,
        &args.variant,
        &args.house,
        &args.sets,
        budget,
    )
}

/// The rules `asked` trains: those it plays by (the game table's `learns`;
/// `Rules::evaluated_as`).
fn evaluated(asked: Rules) -> Result<Rules> {
    Ok(asked.load_evaluated()?.unwrap_or(asked))
}

/// The rules `args` train, loaded on this thread.
fn load(dir: &Path, args: &TrainArgs, budget: &Budget) -> Result<Rules> {
    evaluated(asked_rules(dir, args, budget)?)
}

/// What `train` says when the ruleset plays by another's evaluation (the game table's
/// `learns`): the switches it trains with instead.
fn learns_note(asked: &Rules) -> String {
    if asked.evaluated_as().is_none() {
        return String::new();
    }
    let set: Vec<String> = asked
        .learns_switches
        .iter()
        .filter(|(k, v)| asked.switches.get(k) != Some(v))
        .map(|(k, v)| format!("{k}={}", v.to_literal()))
        .collect();
    let set = if set.is_empty() {
        "its switches".to_string()
    } else {
        set.join(" ")
    };
    format!(
        "{}'s evaluation is learned with {set} (the game table's `learns`), for every ruleset that differs only in those switches; ",
        asked.game
    )
}

/// A state a seat saw in a self-play game: its inputs that were set, and its estimates there.
type Visit = (Vec<(u32, f32)>, Vec<f32>);

/// Decides for a seat as the `learned` bot does, at 0-ply, in what the seat may know (a
/// [`SeatView`]), so that neither the choice nor what it teaches reads the true state.
struct Chooser {
    look: SeatView,
    rng: Stream,
}

impl Chooser {
    fn new(seed: u64) -> Chooser {
        Chooser {
            look: SeatView::default(),
            rng: Stream::new(seed, "view"),
        }
    }

    fn pick(&mut self, game: &Game, net: &Net, seat: Seat, count: usize) -> Result<usize> {
        let g = self.look.at(game, seat, &mut self.rng)?;
        Ok(best_option(g, net, seat, count)?.0)
    }
}

/// A new game for training, without the safety nets interactive play needs.
fn fresh(rules: &Rc<Rules>, players: u32, seed: u64) -> Result<Game> {
    let mut game = Game::new(rules.clone(), players, seed)?;
    game.simulated();
    Ok(game)
}

/// Plays self-play game `k` with `net` and returns the change TD(λ) makes to its weights, and
/// whether the game was cut at `--max-steps`.
fn play(
    rules: &Rc<Rules>,
    set: &Settings,
    players: u32,
    net: &Net,
    k: u64,
) -> Result<(Vec<f32>, bool)> {
    let alpha = set.alpha * (1.0 - 0.9 * k as f32 / set.games as f32);
    let seed = game_seed(set.seed, k);
    let mut game = fresh(rules, players, seed)?;
    // each seat's inputs after every decision, with its estimate there
    let mut seen: Vec<Vec<Visit>> = vec![Vec::new(); players as usize];
    let mut explore = Stream::new(seed, "explore");
    let mut chooser = Chooser::new(seed);
    let mut steps = 0;
    loop {
        let status = game.status()?.clone();
        let over = matches!(status, Status::Over { .. });
        if over || steps == set.max_steps {
            let mut delta = vec![0.0f32; net.params.len()];
            for (s, states) in seen.iter().enumerate() {
                // A game cut short has no outcome: its last estimates stand for it (the
                // time limit is not part of the game, so teaching that long games are draws
                // would teach the players to stall).
                let end = if over {
                    outcome(&mut game, s as u32 + 1)?
                } else {
                    match states.last() {
                        Some((_, v)) => v.clone(),
                        None => continue,
                    }
                };
                td_lambda(net, states, &end, alpha, set.lambda, &mut delta);
            }
            return Ok((delta, !over));
        }
        steps += 1;
        match status {
            Status::Over { .. } => unreachable!("ended above"),
            Status::Chance(..) => {
                game.resolve_chance(None)?;
            }
            Status::Decision { actor, count, .. } => {
                let pick = if count == 1 {
                    0
                } else if set.explore > 0.0 && explore.unit() < set.explore {
                    explore.below(count as u64) as usize
                } else {
                    chooser.pick(&game, net, actor, count)?
                };
                game.apply(pick)?;
                if matches!(game.status()?, Status::Over { .. }) {
                    continue;
                }
                for (s, states) in seen.iter_mut().enumerate() {
                    let x = set_inputs(&features(&mut game, s as u32 + 1, net.inputs)?);
                    let v = net.values_of_set(&x);
                    states.push((x, v));
                }
            }
        }
    }
}

/// Gauge game `n`: `net` at 0-ply holds one seat (each in turn) against the `--gauge` bot in
/// every other; whether the net's seat is among the winners (a partner's win is its win too;
/// a game every seat ends level is no win), or `None` if cut. It does not train: it is the
/// running strength figure `train` shows.
fn gauge(
    rules: &Rc<Rules>,
    set: &Settings,
    players: u32,
    net: &Net,
    opponent: &BotSpec,
    n: u64,
) -> Result<Option<bool>> {
    let seed = game_seed(set.seed ^ GAUGE_SALT, n);
    let mut game = fresh(rules, players, seed)?;
    let me = (n % u64::from(players)) as Seat + 1;
    let mut bots: Vec<Bot> = (1..=players)
        .map(|s| Bot::new(opponent.clone(), seed, s))
        .collect();
    let mut chooser = Chooser::new(seed);
    for _ in 0..set.max_steps {
        match *game.status()? {
            Status::Over { ref scores, .. } => {
                return Ok(Some(winners(scores).contains(&(me as usize - 1))));
            }
            Status::Chance(..) => {
                game.resolve_chance(None)?;
            }
            Status::Decision { actor, count, .. } => {
                let pick = if count == 1 {
                    0
                } else if actor == me {
                    chooser.pick(&game, net, actor, count)?
                } else {
                    bots[actor as usize - 1].choose(&mut game)?
                };
                game.apply(pick)?;
            }
        }
    }
    Ok(None)
}

/// Gauge games are seeded apart from the training games.
const GAUGE_SALT: u64 = 0x6761_7567_6520_2020;
/// The gauge games the running strength figure counts: the last this many that ended.
const GAUGE_WINDOW: usize = 100;

/// TD(λ) for one seat's game, added to `delta`, for each output apart: the estimates `v_k`
/// at its states and the outcome at the end (`v_T`) give the errors `δ_k = v_{k+1} - v_k`,
/// and each state's gradient counts with the λ-discounted sum of the errors from there on,
/// `c_k = δ_k + λ c_{k+1}`. This is the eligibility trace's sum taken backwards, exact
/// because the weights stay fixed during a game, and it touches only the weights of the
/// inputs that were set.
fn td_lambda(net: &Net, states: &[Visit], end: &[f32], alpha: f32, lambda: f32, delta: &mut [f32]) {
    let mut c = vec![0.0f32; net.outputs];
    let mut next = end.to_vec();
    for (x, v) in states.iter().rev() {
        for k in 0..net.outputs {
            c[k] = next[k] - v[k] + lambda * c[k];
        }
        next.clone_from(v);
        if c.iter().any(|&ck| ck != 0.0) {
            let scales: Vec<f32> = c.iter().map(|ck| alpha * ck).collect();
            net.gradient_of_set(x, delta, &scales);
        }
    }
}

fn add(to: &mut [f32], v: &[f32], scale: f32) {
    for (t, x) in to.iter_mut().zip(v) {
        *t += scale * x;
    }
}

/// A batch for one worker: the weights to play with, the games to play and the gauge game.
struct Job {
    net: Arc<Net>,
    games: Vec<u64>,
    gauge: Option<u64>,
}

/// What a worker sends back: each game's change and whether it was cut, and a gauge result.
type Played = (Vec<(u64, (Vec<f32>, bool))>, Option<Option<bool>>);

/// `train`'s progress after each batch.
pub struct Progress {
    pub done: u64,
    pub total: u64,
    pub games_per_second: f64,
    /// The running strength figure, as shown: e.g. `vs random 87% [79, 92] of 100`.
    pub strength: Option<String>,
}

/// The last gauge games that ended: whether the learned seat won each.
struct Gauge {
    opponent: BotSpec,
    results: std::collections::VecDeque<bool>,
}

impl Gauge {
    fn push(&mut self, won: bool) {
        if self.results.len() == GAUGE_WINDOW {
            self.results.pop_front();
        }
        self.results.push_back(won);
    }

    /// The share of the last games won, with its interval.
    fn figure(&self) -> Option<String> {
        let n = self.results.len() as u64;
        if n == 0 {
            return None;
        }
        let wins = self.results.iter().filter(|&&w| w).count() as u64;
        let i = wilson(wins, n);
        Some(format!(
            "vs {} {:.0}% [{:.0}, {:.0}] of {n}",
            self.opponent,
            100.0 * wins as f64 / n as f64,
            100.0 * i.low,
            100.0 * i.high
        ))
    }
}

/// Trains, calling `progress` after each batch. Returns what it prints.
/// `train`'s progress on standard error when it is a terminal (the CLI's `train` and the
/// REPL's): games, games per second, the running strength figure and the time left.
pub fn progress_bar() -> impl FnMut(&Progress) {
    let mut bar: Option<indicatif::ProgressBar> = None;
    let shown = std::io::IsTerminal::is_terminal(&std::io::stderr());
    move |p| {
        if !shown {
            return;
        }
        let (done, total) = (p.done, p.total);
        let b = bar.get_or_insert_with(|| {
            let b = indicatif::ProgressBar::new(total);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games, {msg}, {eta} left",
                )
                .expect("a valid template"),
            );
            b
        });
        b.set_position(done);
        b.set_message(match &p.strength {
            Some(s) => format!("{:.1} games/s, {s}", p.games_per_second),
            None => format!("{:.1} games/s", p.games_per_second),
        });
        if done == total {
            b.finish_and_clear();
        }
    }
}

pub fn train(
    dir: &Path,
    args: &TrainArgs,
    budget: &Budget,
    progress: &mut dyn FnMut(&Progress),
) -> Result<String> {
    if args.games == 0 {
        bail!("--games 0 trains nothing");
    }
    let jobs = jobs(args.jobs)?;
    let asked = asked_rules(dir, args, budget)?;
    let learns = learns_note(&asked);
    let rules = Rc::new(evaluated(asked)?);
    let set = &Settings::of(args, &rules.training)?;
    let players = args.players.unwrap_or(rules.seats.default);
    let mut gauge = match args.gauge.as_str() {
        "none" => None,
        text => {
            let opponent: BotSpec = text.parse()?;
            if matches!(opponent, BotSpec::Learned(_) | BotSpec::LearnedOnePly) {
                bail!(
                    "--gauge {text}: the gauge plays the weights being trained against another bot (random, greedy, mcts:N)"
                );
            }
            opponent.check(&rules)?;
            Some(Gauge {
                opponent,
                results: Default::default(),
            })
        }
    };
    let opponent = gauge.as_ref().map(|g| g.opponent.clone());
    let opponent = opponent.as_ref();
    let encoding = encoding_of(&rules);
    let ruleset = Ruleset::of(&rules);
    let out = match &args.out {
        Some(p) => p.clone(),
        None => cache_path(&ruleset)?,
    };
    let inputs = match (encoding, args.inputs) {
        ("features", None) => Game::new(rules.clone(), players, args.seed)?
            .query_hook::<_, Vec<f32>>("features", 1u32)?
            .len(),
        ("features", Some(_)) => bail!(
            "--inputs sizes the generic encoding; {} declares its own inputs (the features hook)",
            rules.game
        ),
        (_, Some(0)) => bail!("--inputs 0: the generic encoding needs slots"),
        (_, n) => n.unwrap_or(DEFAULT_INPUTS),
    };
    let (mut net, mut trained) = match &args.from {
        Some(path) => {
            let w = Weights::read(path)?;
            w.check_ruleset(path, &ruleset, encoding, &rules.outcomes)?;
            if w.inputs != inputs {
                bail!(
                    "{}: {} inputs, the game's features give {inputs}",
                    path.display(),
                    w.inputs
                );
            }
            (w.net(), w.games)
        }
        None => {
            let mut draw = Stream::new(args.seed, "weights");
            (
                Net::new(inputs, set.hidden, rules.outcomes.len(), set.linear, || {
                    draw.unit()
                }),
                0,
            )
        }
    };
    let started = Instant::now();
    let mut saved = Instant::now();
    let (mut done, mut cut) = (0u64, 0u64);
    let interrupted = std::thread::scope(|scope| -> Result<bool> {
        let (back_tx, back_rx) = mpsc::channel::<Result<Played>>();
        let workers: Vec<mpsc::Sender<Job>> = (0..jobs)
            .map(|_| {
                let (tx, rx) = mpsc::channel::<Job>();
                let back = back_tx.clone();
                scope.spawn(move || {
                    let rules = match load(dir, args, budget) {
                        Ok(r) => Rc::new(r),
                        Err(e) => return back.send(Err(e)).unwrap_or(()),
                    };
                    for job in rx {
                        let played = (|| -> Result<Played> {
                            let games = job
                                .games
                                .iter()
                                .map(|&k| {
                                    let game = || play(&rules, set, players, &job.net, k);
                                    Ok((k, super::watched(&rules, |_| u64::MAX, game)?))
                                })
                                .collect::<Result<_>>()?;
                            let gauged = match (job.gauge, opponent) {
                                (Some(n), Some(o)) => {
                                    let game = || self::gauge(&rules, set, players, &job.net, o, n);
                                    Some(super::watched(&rules, |_| u64::MAX, game)?)
                                }
                                _ => None,
                            };
                            Ok((games, gauged))
                        })();
                        if back.send(played).is_err() {
                            return;
                        }
                    }
                });
                tx
            })
            .collect();
        while done < args.games {
            if limits::interrupted() {
                return Ok(true);
            }
            let batch: Vec<u64> = (done..(done + BATCH).min(args.games)).collect();
            let shared = Arc::new(net.clone());
            // the gauge game goes to the worker with the fewest games
            let busy = jobs.min(batch.len());
            for (w, tx) in workers.iter().enumerate().take(busy) {
                let games: Vec<u64> = batch.iter().copied().skip(w).step_by(jobs).collect();
                tx.send(Job {
                    net: shared.clone(),
                    games,
                    gauge: (w + 1 == busy).then_some(done / BATCH),
                })
                .map_err(|_| anyhow!("a training worker stopped"))?;
            }
            let mut deltas: Vec<(u64, (Vec<f32>, bool))> = Vec::new();
            let mut failed = None;
            for _ in 0..busy {
                match back_rx
                    .recv()
                    .map_err(|_| anyhow!("a training worker stopped"))?
                {
                    Ok((played, gauged)) => {
                        deltas.extend(played);
                        if let (Some(g), Some(Some(won))) = (&mut gauge, gauged) {
                            g.push(won);
                        }
                    }
                    Err(e) => failed = Some(e),
                }
            }
            // Ctrl-C stops the games under way: the batches before it are kept and written.
            match failed {
                Some(_) if limits::interrupted() => return Ok(true),
                Some(e) => return Err(e),
                None => {}
            }
            deltas.sort_by_key(|(k, _)| *k);
            for (_, (d, was_cut)) in &deltas {
                add(&mut net.params, d, 1.0);
                cut += u64::from(*was_cut);
            }
            done += batch.len() as u64;
            if saved.elapsed().as_secs() >= CHECKPOINT_SECONDS {
                Weights::new(
                    ruleset.clone(),
                    encoding,
                    &rules.outcomes,
                    &net,
                    trained + done,
                    args.seed,
                )
                .write(&out)?;
                saved = Instant::now();
            }
            progress(&Progress {
                done,
                total: args.games,
                games_per_second: done as f64 / started.elapsed().as_secs_f64(),
                strength: gauge.as_ref().and_then(Gauge::figure),
            });
        }
        Ok(false)
    })?;
    trained += done;
    Weights::new(ruleset, encoding, &rules.outcomes, &net, trained, args.seed).write(&out)?;
    let secs = started.elapsed().as_secs_f64();
    let what = if interrupted { "interrupted: " } else { "" };
    let cut = if cut > 0 {
        format!(
            "; {cut} cut at {} steps, scored by their last estimates",
            set.max_steps
        )
    } else {
        String::new()
    };
    let strength = match gauge.as_ref().and_then(Gauge::figure) {
        Some(f) => format!("; the last gauge games: {f}"),
        None => String::new(),
    };
    let jobs = if jobs == 1 {
        "1 job".into()
    } else {
        format!("{jobs} jobs")
    };
    Ok(format!(
        "{learns}{what}{done} self-play games in {secs:.0} s ({:.1} games/s, {jobs}{cut}{strength}); weights ({trained} games) written to {}",
        done as f64 / secs,
        out.display()
    ))
}
