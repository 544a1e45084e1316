//! Playing many games fast: uniform-random playouts and the `bench` command.

use std::rc::Rc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use crate::kernel::rng::Stream;
use crate::script::Rules;
use crate::session::{Game, Status};

/// How one random game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Playout {
    pub scores: Vec<f64>,
    pub result: String,
    /// Decisions taken and chance events resolved.
    pub decisions: u64,
    pub chances: u64,
}

/// Plays one game to the end, every decision uniform among the options (bot stream "bots"),
/// every chance event drawn. More than `max_steps` steps is a stall, and an error.
pub fn random_playout(rules: Rc<Rules>, seats: u32, seed: u64, max_steps: u64) -> Result<Playout> {
    let mut game = Game::new(rules, seats, seed)?;
    game.transactional = false;
    game.check_returned_status = false;
    game.with_state_mut(|s| s.logging = false);
    let mut bot = Stream::new(seed, "bots");
    let (mut decisions, mut chances) = (0, 0);
    loop {
        match game.status()? {
            Status::Over { scores, result } => {
                return Ok(Playout {
                    scores: scores.clone(),
                    result: result.clone(),
                    decisions,
                    chances,
                });
            }
            Status::Chance(_) => {
                game.resolve_chance(None)?;
                chances += 1;
            }
            Status::Decision { count, .. } => {
                let i = bot.below(*count as u64) as usize;
                game.apply(i)?;
                decisions += 1;
            }
        }
        if decisions + chances > max_steps {
            bail!("seed {seed}: no end after {max_steps} steps (a stall?)");
        }
    }
}

/// Figures of one benchmark round.
#[derive(Clone, Debug)]
pub struct Round {
    pub games: u64,
    pub seconds: f64,
    pub decisions: u64,
}

impl Round {
    pub fn rate(&self) -> f64 {
        self.games as f64 / self.seconds
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
    for r in 0..rounds {
        let start = Instant::now();
        let mut round = Round {
            games: 0,
            seconds: 0.0,
            decisions: 0,
        };
        while round.games < min_games || start.elapsed() < per_round {
            let p = random_playout(rules.clone(), seats, seed, 1_000_000)?;
            seed += 1;
            round.games += 1;
            round.decisions += p.decisions;
        }
        round.seconds = start.elapsed().as_secs_f64();
        report(r, &round);
        out.push(round);
    }
    Ok(out)
}

/// The median of the rounds' rates.
pub fn median_rate(rounds: &[Round]) -> f64 {
    let mut rates: Vec<f64> = rounds.iter().map(Round::rate).collect();
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}
