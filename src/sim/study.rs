//! A study: N games of one variant, or of two side by side, played by bots on all cores.
//!
//! Game k is seeded from (seed, k) alone, and its bots' streams from that seed and their seat,
//! so a game is the same whichever worker plays it and however many there are; results are
//! kept in game order. With two variants, game k of each starts from the same seed: their
//! dice and bots draw from the same streams wherever the rules draw alike (common random
//! numbers), and the report pairs them game by game.
//!
//! Each worker loads its own rules (a rules state holds an `Rc` and a Lua state, so it stays
//! on its thread) and plays without undo history or log: memory stays flat however many games.

use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use super::bots::{Bot, BotSpec, parse_bots};
use super::drama::{Drama, drama};
use super::learned;
use super::pool;
use super::shard::MAX_PLAYERS;
use super::{Runaway, Starter, Watch};
use crate::kernel::rng::Stream;
use crate::kernel::{Seat, State, Value};
use crate::learn::net::Net;
use crate::script::ruleset::variant::parse_assignment;
use crate::script::{Budget, LoadOptions, Rules};
use crate::session::driven::Taken;
use crate::session::{Game, Status};

/// What a study plays: everything its results depend on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    pub game: String,
    /// Variant A, then B with `--vs`; `None` is the game's own rules.
    pub variants: Vec<Option<String>>,
    /// House rules switched on beyond the variants' (`--house`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub house: Vec<String>,
    /// Switch values on top of the variants (`switch=value`).
    pub sets: Vec<String>,
    pub players: u32,
    pub games: u64,
    pub seed: u64,
    /// One bot a seat, by name (`random`, `greedy`, `mcts:200`).
    pub bots: Vec<String>,
    /// A skill study (`--skill strong,weak`): game k seats the strong bot at seat k mod
    /// players, the weak one everywhere else, in place of `bots`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<[String; 2]>,
    /// Trace the learned evaluation through every game (`--drama`): lead changes, when the
    /// result was settled, how far behind the winner was ([`super::drama`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drama: bool,
}

/// The bots of a study's games: the same at every game, or a strong one moving round the
/// table against weak ones.
#[derive(Clone)]
enum Lineup {
    Fixed(Vec<BotSpec>),
    Skill(BotSpec, BotSpec),
}

impl Lineup {
    /// Every bot the lineup seats, to check against the rules.
    fn bots(&self) -> Vec<&BotSpec> {
        match self {
            Lineup::Fixed(bots) => bots.iter().collect(),
            Lineup::Skill(strong, weak) => vec![strong, weak],
        }
    }

    /// The bots of game k, seat by seat.
    fn of_game(&self, k: u64, players: u32) -> Vec<BotSpec> {
        match self {
            Lineup::Fixed(bots) => bots.clone(),
            Lineup::Skill(strong, weak) => (0..players as usize)
                .map(|s| {
                    if s == strong_seat(k, players) {
                        strong
                    } else {
                        weak
                    }
                    .clone()
                })
                .collect(),
        }
    }
}

/// The seat (0-based) of the strong bot in game k of a skill study.
pub fn strong_seat(k: u64, players: u32) -> usize {
    (k % u64::from(players.max(1))) as usize
}

/// A variant's display name.
pub fn variant_name(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("default")
}

/// Facts found when the rules load, that a merge must find equal in every shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ruleset {
    pub variant: String,
    /// SHA-256 over the rule files' names and content hashes.
    pub hash: String,
    pub seat_names: Vec<String>,
    /// The team of each seat after setup.
    pub teams: Vec<u32>,
    /// What each counter counts, as the rules declare (`counters`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub units: BTreeMap<String, String>,
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub game: u64,
    #[serde(deserialize_with = "super::shard::at_most::<_, _, MAX_PLAYERS>")]
    pub scores: Vec<f64>,
    /// Decisions taken.
    pub decisions: u64,
    /// Turns: runs of consecutive decisions by one seat (a reply such as a take is a turn).
    pub turns: u64,
    /// Options offered, summed over the decisions.
    pub options: u64,
    /// Decisions with a single option.
    pub forced: u64,
    /// The counters the rules emitted with `G:stat`.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "super::shard::counters"
    )]
    pub stats: BTreeMap<String, i64>,
    /// Why the game was stopped before its end, if it was (its scores are then all 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<Cut>,
    /// With `--drama`, what the evaluation traced through a decided game says of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drama: Option<Drama>,
}

/// A game stopped before its end: a result of the study (its bots did not end it), counted
/// apart from natural draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cut {
    /// It reached the turn cap (`--max-steps`).
    Cap,
    /// It came back to where it was a thousand steps before.
    Stall,
}

impl From<Runaway> for Cut {
    fn from(runaway: Runaway) -> Cut {
        match runaway {
            Runaway::Cap(_) => Cut::Cap,
            Runaway::Stall(_) => Cut::Stall,
        }
    }
}

/// The games of a study that were played: per variant, records in game order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub spec: Spec,
    pub rulesets: Vec<Ruleset>,
    pub records: Vec<Vec<Record>>,
    /// Games the run was asked for (the whole study, or one shard's games).
    pub asked: u64,
}

/// The seats (0-based) with the highest score; none when every seat scores the same (a draw).
pub fn winners(scores: &[f64]) -> Vec<usize> {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if scores.iter().all(|&s| s == best) {
        return vec![];
    }
    (0..scores.len()).filter(|&i| scores[i] == best).collect()
}

/// The seed of game k of a study seeded `seed`.
pub fn game_seed(seed: u64, k: u64) -> u64 {
    Stream::new(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15), "game").next_u64()
}

/// Shard i of n (1-based) as written `i/n`.
pub fn parse_shard(text: &str) -> Result<(u64, u64)> {
    let bad = || anyhow!("--shard takes i/n with 1 ≤ i ≤ n (e.g. 3/8), not '{text}'");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The games of shard i of n: a contiguous block, the blocks covering 0..games in order.
pub fn shard_games(games: u64, (i, n): (u64, u64)) -> std::ops::Range<u64> {
    let at = |j: u64| (games as u128 * j as u128 / n as u128) as u64;
    at(i - 1)..at(i)
}

impl Spec {
    /// Checks what can be checked before loading anything.
    pub fn validate(&self) -> Result<()> {
        if self.games == 0 {
            bail!("--games 0: a study needs at least one game");
        }
        Ok(())
    }

    fn load(&self, dir: &Path, variant: &Option<String>, budget: &Budget) -> Result<Rules> {
        load_rules(dir, &self.game, variant, &self.house, &self.sets, budget)
    }

    /// What a reader of the study's figures must know about its bots: those that decide by
    /// the clock (their games depend on the machine and its load, not on the seed alone), and
    /// a study of random play only.
    pub fn warnings(&self) -> Vec<String> {
        let Ok(lineup) = self.lineup() else {
            return vec![];
        };
        let bots = lineup.bots();
        let mut out: Vec<String> = bots
            .iter()
            .filter(|b| b.by_the_clock())
            .map(|b| {
                format!(
                    "{b} decides by the clock: its games depend on the machine's speed and load, so the same seed will not give the same figures"
                )
            })
            .collect();
        out.dedup();
        if bots.iter().all(|b| **b == BotSpec::Random) {
            out.push(format!(
                "every seat is played by random: the figures describe random play (`tortuga train {}` makes learned players; `--bots learned` seats them)",
                self.game
            ));
        }
        out
    }

    fn lineup(&self) -> Result<Lineup> {
        match &self.skill {
            None => Ok(Lineup::Fixed(parse_bots(
                &self.bots.join(","),
                self.players,
            )?)),
            Some([strong, weak]) => {
                let parse = |b: &str| b.parse().map_err(|e| anyhow!("--skill: {e}"));
                Ok(Lineup::Skill(parse(strong)?, parse(weak)?))
            }
        }
    }

    /// Loads every variant once on this thread: the rulesets' facts, or the first error
    /// (an unknown game, variant, switch or bot), before any game is played.
    pub fn rulesets(&self, dir: &Path, budget: &Budget) -> Result<Vec<Ruleset>> {
        self.validate()?;
        let lineup = self.lineup()?;
        self.variants
            .iter()
            .map(|v| {
                let rules = Rc::new(self.load(dir, v, budget)?);
                for spec in lineup.bots() {
                    spec.check(&rules)?;
                }
                if self.drama {
                    learned::weights_for(&rules).map_err(|e| anyhow!("--drama: {e:#}"))?;
                }
                let mut starter = Starter::new(rules.clone(), self.players);
                let game = starter.start(game_seed(self.seed, 0))?;
                let (seat_names, teams) = game.with_state(|s: &State| {
                    let n = s.turn.seats();
                    (
                        (1..=n).map(|i| s.turn.player_name(i)).collect(),
                        (1..=n).map(|i| s.turn.team(i)).collect(),
                    )
                });
                Ok(Ruleset {
                    variant: variant_name(v).to_string(),
                    hash: rules.digest(),
                    seat_names,
                    teams,
                    units: rules.counters.clone(),
                })
            })
            .collect()
    }
}

/// A game's rules as a command line names them: a variant, house rules and `--set` values.
pub fn load_rules(
    dir: &Path,
    game: &str,
    variant: &Option<String>,
    house: &[String],
    sets: &[String],
    budget: &Budget,
) -> Result<Rules> {
    let overrides = sets
        .iter()
        .map(|s| parse_assignment(s).map_err(|e| anyhow!("--set {s}: {e}")))
        .collect::<Result<Vec<(String, Value)>>>()?;
    let opts = LoadOptions {
        variant: variant.clone(),
        house: house.to_vec(),
        overrides,
        budget: budget.clone(),
    };
    Rules::load(dir, game, &opts)
}

/// Plays game `k` to the end with one bot a seat, with `drama` tracing the learned evaluation
/// at every decision ([`Trace`]); a game that changed a rule table fails (see
/// [`super::watched`]).
pub fn play(
    starter: &mut Starter,
    specs: &[BotSpec],
    seed: u64,
    k: u64,
    drama: bool,
) -> Result<Record> {
    let rules = starter.rules.clone();
    super::watched(
        &rules,
        |r: &Record| r.decisions,
        || play_game(starter, specs, seed, k, drama),
    )
}

fn play_game(
    starter: &mut Starter,
    specs: &[BotSpec],
    seed: u64,
    k: u64,
    drama: bool,
) -> Result<Record> {
    let seed_k = game_seed(seed, k);
    let mut game = starter.start(seed_k)?;
    game.simulated();
    let mut trace = match drama {
        true => Some(Trace::new(&game)?),
        false => None,
    };
    let mut bots: Vec<Bot> = specs
        .iter()
        .zip(1..)
        .map(|(spec, seat)| Bot::new(spec.clone(), seed_k, seat))
        .collect();
    let mut pace = Pace::default();
    let mut watch = Watch::new(game.rules.host.limits.budget().steps);
    // Bots that only draw take their steps in the kernel's loop (`Game::play_steps`); the
    // others, and a traced game, go step by step.
    let drawing = trace.is_none() && bots.iter().all(|b| b.spec == BotSpec::Random);
    // the scores, or why the game was stopped before its end
    let (scores, cut) = loop {
        if let Status::Over { ref scores, .. } = *game.status()? {
            break (scores.clone(), None);
        }
        let room = match watch.allow(&game) {
            Ok(room) => room,
            Err(e) => match e.downcast_ref::<Runaway>() {
                Some(&runaway) => break (vec![0.0; specs.len()], Some(Cut::from(runaway))),
                None => return Err(e),
            },
        };
        let taken = if drawing {
            game.play_steps(
                room,
                &mut |actor, count| match bots.get_mut(actor as usize - 1) {
                    Some(bot) => {
                        pace.decide(actor, count);
                        Ok(bot.draw(count))
                    }
                    None => bail!("seat {actor} has no bot"),
                },
            )?
        } else {
            if let Some(trace) = trace.as_mut()
                && matches!(*game.status()?, Status::Decision { .. })
            {
                trace.read(&mut game)?;
            }
            look_ahead_step(&mut game, &mut bots, &mut pace)?
        };
        watch.took(taken.steps());
    };
    let drama = match (trace, cut) {
        (Some(trace), None) => trace.drama(&scores),
        _ => None,
    };
    Ok(Record {
        game: k,
        scores,
        decisions: pace.decisions,
        turns: pace.turns,
        options: pace.options,
        forced: pace.forced,
        stats: game.with_state(|s| s.stats.clone()),
        cut,
        drama,
    })
}

/// Each side's estimate of winning at every decision of a game, by the learned evaluation,
/// each seat reading its own view: a side (a team) estimates as its seats do on average.
struct Trace {
    net: Rc<Net>,
    /// The side of each seat (0-based), in seat order.
    sides: Vec<usize>,
    rows: Vec<Vec<f64>>,
}

impl Trace {
    fn new(game: &Game) -> Result<Trace> {
        let net = learned::weights_for(&game.rules)?;
        let teams: Vec<u32> =
            game.with_state(|s| (1..=s.turn.seats()).map(|i| s.turn.team(i)).collect());
        let mut order: Vec<u32> = teams.clone();
        order.sort_unstable();
        order.dedup();
        let sides = teams
            .iter()
            .map(|t| order.iter().position(|o| o == t).unwrap_or(0))
            .collect();
        Ok(Trace {
            net,
            sides,
            rows: Vec::new(),
        })
    }

    fn side_count(&self) -> usize {
        self.sides.iter().max().map_or(0, |m| m + 1)
    }

    /// Reads every seat's estimate in the state of `game`.
    fn read(&mut self, game: &mut Game) -> Result<()> {
        let mut sum = vec![0.0; self.side_count()];
        let mut seats = vec![0.0; self.side_count()];
        for (seat, &side) in (1..).zip(&self.sides) {
            sum[side] += f64::from(learned::estimates(game, &self.net, seat)?[0]);
            seats[side] += 1.0;
        }
        self.rows
            .push(sum.iter().zip(&seats).map(|(s, n)| s / n).collect());
        Ok(())
    }

    /// The drama of the game, if one side won it.
    fn drama(&self, scores: &[f64]) -> Option<Drama> {
        let won: Vec<usize> = winners(scores).iter().map(|&s| self.sides[s]).collect();
        match won.as_slice() {
            [side, rest @ ..] if rest.iter().all(|s| s == side) => drama(&self.rows, *side),
            _ => None,
        }
    }
}

/// The decisions of a game as they were taken: who took them, among how many options.
#[derive(Default)]
struct Pace {
    decisions: u64,
    turns: u64,
    options: u64,
    forced: u64,
    last: Option<Seat>,
}

impl Pace {
    fn decide(&mut self, actor: Seat, count: usize) {
        self.decisions += 1;
        self.options += count as u64;
        self.forced += u64::from(count == 1);
        if self.last != Some(actor) {
            self.turns += 1;
            self.last = Some(actor);
        }
    }
}

/// One step of a game whose bots look ahead: they play on copies of the game to choose.
fn look_ahead_step(game: &mut Game, bots: &mut [Bot], pace: &mut Pace) -> Result<Taken> {
    let Status::Decision { actor, count, .. } = *game.status()? else {
        game.resolve_chance(None)?;
        return Ok(Taken::CHANCE);
    };
    pace.decide(actor, count);
    let bot = bots
        .get_mut(actor as usize - 1)
        .ok_or_else(|| anyhow!("seat {actor} has no bot"))?;
    let i = bot.choose(game)?;
    game.apply(i)?;
    Ok(Taken::DECISION)
}

/// Runs the study's games `range` on `jobs` threads. `progress` hears of each finished game
/// (of every variant); once `stop` is set or an interrupt arrives (Ctrl-C, see
/// [`limits::interrupted`]) no new game starts, a game in play is dropped unfinished (of both
/// variants, so pairs stay whole), and the games finished so far are returned. An error in any
/// other game stops the run and is returned, naming the game.
pub fn run(
    dir: &Path,
    spec: &Spec,
    budget: &Budget,
    range: std::ops::Range<u64>,
    jobs: usize,
    stop: &AtomicBool,
    mut progress: impl FnMut(u64),
) -> Result<Results> {
    let rulesets = spec.rulesets(dir, budget)?;
    let lineup = spec.lineup()?;
    let mut records: Vec<Vec<Record>> = vec![Vec::new(); spec.variants.len()];
    let start = || {
        spec.variants
            .iter()
            .map(|v| {
                let rules = Rc::new(spec.load(dir, v, budget)?);
                Ok(Starter::new(rules, spec.players))
            })
            .collect::<Result<Vec<_>>>()
    };
    let play_k = |starters: &mut Vec<Starter>, k: u64| {
        let bots = lineup.of_game(k, spec.players);
        starters
            .iter_mut()
            .zip(&spec.variants)
            .map(|(s, v)| {
                play(s, &bots, spec.seed, k, spec.drama).map_err(|e| {
                    anyhow!(
                        "{} {}, game {k} (seed {}): {e:#}",
                        spec.game,
                        variant_name(v),
                        game_seed(spec.seed, k)
                    )
                })
            })
            .collect::<Result<Vec<_>>>()
    };
    let finish = |starters: &Vec<Starter>| {
        starters
            .iter()
            .try_for_each(|s| super::unchanged_rules_at_end(&s.rules))
    };
    pool::play(
        jobs,
        range.clone(),
        &|| stop.load(Ordering::Relaxed),
        &start,
        &play_k,
        &finish,
        |_, game| {
            for (r, g) in records.iter_mut().zip(game) {
                r.push(g);
            }
            progress(1);
        },
    )?;
    for r in &mut records {
        r.sort_by_key(|g| g.game);
    }
    Ok(Results {
        spec: spec.clone(),
        rulesets,
        records,
        asked: range.end - range.start,
    })
}
