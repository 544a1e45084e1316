//! `tortuga train`: learns by self-play an evaluation for exactly one ruleset, the estimate
//! that each seat wins, by TD(λ) on a small network (`learn::net`) over the game's `features`.
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

use super::command::cores;
use super::learned::{best_option, features};
use super::report::rewards;
use super::study::{game_seed, load_rules};
use crate::kernel::rng::Stream;
use crate::learn::net::Net;
use crate::learn::weights::{Ruleset, Weights, cache_path};
use crate::script::{Budget, Rules, limits};
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
    /// Worker threads (default: every core); the weights are the same for any number.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Start from these weights (trained for the same ruleset) instead of small random ones.
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Where to write the weights (default: the user's cache, by ruleset, where the `learned`
    /// bot looks).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Hidden units of a new network.
    #[arg(long, default_value_t = 40)]
    pub hidden: usize,
    /// The learning rate α of TD(λ) at the start; it falls linearly to a tenth of this over the
    /// run, so the last games refine what the first ones found.
    #[arg(long, default_value_t = 0.1)]
    pub alpha: f32,
    /// The trace decay λ of TD(λ), from 0 (one step) to 1 (the game's outcome).
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
}

/// Games per batch: played with the same weights, their changes added in game order.
const BATCH: u64 = 8;
/// How often the weights are written while training goes on.
const CHECKPOINT_SECONDS: u64 = 60;
/// Steps a self-play game may take before it is refused as a runaway.
const MAX_STEPS: u64 = 100_000;

/// The rules of `args`, loaded on this thread.
fn load(dir: &Path, args: &TrainArgs, budget: &Budget) -> Result<Rules> {
    load_rules(
        dir,
        &args.game,
        &args.variant,
        &args.house,
        &args.sets,
        budget,
    )
}

/// Plays self-play game `k` with `net` and returns the change TD(λ) makes to its weights.
fn play(rules: &Rc<Rules>, args: &TrainArgs, players: u32, net: &Net, k: u64) -> Result<Vec<f32>> {
    let alpha = args.alpha * (1.0 - 0.9 * k as f32 / args.games as f32);
    let lambda = args.lambda;
    let mut game = Game::new(rules.clone(), players, game_seed(args.seed, k))?;
    game.transactional = false;
    game.check_returned_status = false;
    game.with_state_mut(|s| s.logging = false);
    let seats = players as usize;
    let mut delta = vec![0.0f32; net.params.len()];
    let mut traces = vec![vec![0.0f32; net.params.len()]; seats];
    let mut last: Vec<Option<f32>> = vec![None; seats];
    for _ in 0..MAX_STEPS {
        match game.status()?.clone() {
            Status::Over { scores, .. } => {
                for (s, r) in rewards(&scores, seats).into_iter().enumerate() {
                    if let Some(v) = last[s] {
                        add(&mut delta, &traces[s], alpha * (r as f32 - v));
                    }
                }
                return Ok(delta);
            }
            Status::Chance(..) => {
                game.resolve_chance(None)?;
            }
            Status::Decision { actor, count, .. } => {
                let pick = if count == 1 {
                    0
                } else {
                    best_option(&mut game, net, actor, count)?.0
                };
                game.apply(pick)?;
                if matches!(game.status()?, Status::Over { .. }) {
                    continue;
                }
                for s in 0..seats {
                    let x = features(&game, s as u32 + 1, net.inputs)?;
                    let v = net.value(&x);
                    if let Some(before) = last[s] {
                        add(&mut delta, &traces[s], alpha * (v - before));
                    }
                    traces[s].iter_mut().for_each(|e| *e *= lambda);
                    net.value_and_gradient(&x, &mut traces[s], 1.0);
                    last[s] = Some(v);
                }
            }
        }
    }
    bail!("self-play game {k}: no end after {MAX_STEPS} steps")
}

fn add(to: &mut [f32], v: &[f32], scale: f32) {
    for (t, x) in to.iter_mut().zip(v) {
        *t += scale * x;
    }
}

/// A batch for one worker: the weights to play with and the games to play.
struct Job {
    net: Arc<Net>,
    games: Vec<u64>,
}

/// Trains; `progress(done, total, games_per_second)` after each batch. Returns what it prints.
pub fn train(
    dir: &Path,
    args: &TrainArgs,
    budget: &Budget,
    progress: &mut dyn FnMut(u64, u64, f64),
) -> Result<String> {
    if args.games == 0 {
        bail!("--games 0 trains nothing");
    }
    if args.hidden == 0 {
        bail!("--hidden 0: the network needs hidden units");
    }
    if !(args.alpha > 0.0 && args.alpha.is_finite() && (0.0..=1.0).contains(&args.lambda)) {
        bail!("--alpha must be above 0 and --lambda from 0 to 1");
    }
    let rules = Rc::new(load(dir, args, budget)?);
    let players = args.players.unwrap_or(rules.seats.default);
    if rules.hook("features").is_none() {
        bail!(
            "{} declares no features hook: training needs the game's inputs (rules/<game>: hooks.features)",
            rules.game
        );
    }
    let ruleset = Ruleset::of(&rules);
    let out = match &args.out {
        Some(p) => p.clone(),
        None => cache_path(&ruleset)?,
    };
    let probe = Game::new(rules.clone(), players, args.seed)?;
    let inputs = probe.query_hook::<_, Vec<f32>>("features", 1u32)?.len();
    let (mut net, mut trained) = match &args.from {
        Some(path) => {
            let w = Weights::read(path)?;
            w.check_ruleset(path, &ruleset)?;
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
            (Net::new(inputs, args.hidden, || draw.unit()), 0)
        }
    };
    let jobs = args.jobs.unwrap_or_else(cores).max(1);
    let started = Instant::now();
    let mut saved = Instant::now();
    let mut done = 0u64;
    let interrupted = std::thread::scope(|scope| -> Result<bool> {
        let (back_tx, back_rx) = mpsc::channel::<Result<Vec<(u64, Vec<f32>)>>>();
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
                        let played = job
                            .games
                            .iter()
                            .map(|&k| Ok((k, play(&rules, args, players, &job.net, k)?)))
                            .collect();
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
            for (w, tx) in workers.iter().enumerate() {
                let games: Vec<u64> = batch.iter().copied().skip(w).step_by(jobs).collect();
                if !games.is_empty() {
                    tx.send(Job {
                        net: shared.clone(),
                        games,
                    })
                    .map_err(|_| anyhow!("a training worker stopped"))?;
                }
            }
            let mut deltas: Vec<(u64, Vec<f32>)> = Vec::new();
            for _ in 0..jobs.min(batch.len()) {
                deltas.extend(
                    back_rx
                        .recv()
                        .map_err(|_| anyhow!("a training worker stopped"))??,
                );
            }
            deltas.sort_by_key(|(k, _)| *k);
            for (_, d) in &deltas {
                add(&mut net.params, d, 1.0);
            }
            done += batch.len() as u64;
            if saved.elapsed().as_secs() >= CHECKPOINT_SECONDS {
                Weights::new(ruleset.clone(), &net, trained + done, args.seed).write(&out)?;
                saved = Instant::now();
            }
            progress(
                done,
                args.games,
                done as f64 / started.elapsed().as_secs_f64(),
            );
        }
        Ok(false)
    })?;
    trained += done;
    Weights::new(ruleset, &net, trained, args.seed).write(&out)?;
    let secs = started.elapsed().as_secs_f64();
    let what = if interrupted { "interrupted: " } else { "" };
    Ok(format!(
        "{what}{done} self-play games in {secs:.0} s ({:.1} games/s, {jobs} jobs); weights ({trained} games) written to {}",
        done as f64 / secs,
        out.display()
    ))
}
