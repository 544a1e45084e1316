//! The `sim` and `sim-merge` commands, shared by the command line and the REPL: one grammar
//! (clap), one place that checks the input before anything is played or written.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{Result, anyhow, bail};
use clap::Args;

use super::report::Report;
use super::sequential::{self, Stopped, Target};
use super::shard::{Shard, merge};
use super::study::{self, Spec, parse_shard, shard_games};
use crate::files::write_atomically;
use crate::script::Budget;

#[derive(Args, Clone, Debug)]
pub struct SimArgs {
    pub game: String,
    /// Variant A (default: the game's own rules).
    #[arg(long)]
    pub variant: Option<String>,
    /// Variant B, played on the same seeds as A (common random numbers).
    #[arg(long)]
    pub vs: Option<String>,
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// One bot for every seat, or one a seat, comma-separated: random, greedy, mcts[:500|:200ms],
    /// learned (default: learned where `tortuga train` made weights for every variant, else
    /// random).
    #[arg(long)]
    pub bots: Option<String>,
    /// How much skill decides the game: a strong bot against weak ones (default greedy,random),
    /// the strong one's seat moving round the table game by game; in place of --bots.
    #[arg(
        long,
        value_name = "STRONG,WEAK",
        num_args = 0..=1,
        default_missing_value = "greedy,random",
        conflicts_with = "bots"
    )]
    pub skill: Option<String>,
    /// Trace the learned evaluation through every game: lead changes, when the result was
    /// settled, how far behind the winner was (needs weights: `tortuga train`).
    #[arg(long)]
    pub drama: bool,
    #[arg(long)]
    pub players: Option<u32>,
    /// A house rule to switch on beyond the variants' (repeatable).
    #[arg(long = "house", value_name = "RULE")]
    pub house: Vec<String>,
    /// Switch values on top of the variants (`--set cube=false`).
    #[arg(long = "set")]
    pub sets: Vec<String>,
    /// Worker threads (default: every core; at most 4 a core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Play until this measure's interval (its difference, with --vs) is at most this wide:
    /// 'X wins=2%', length=1.5. --games is the first look; each next look doubles it.
    #[arg(long, value_name = "MEASURE=WIDTH", conflicts_with = "shard")]
    pub until_ci: Option<String>,
    /// Play only the games of shard i of n and write them as a shard file (to --out, or stdout).
    #[arg(long)]
    pub shard: Option<String>,
    /// Where --shard writes its file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write a chart of the result (win rates, game lengths) as SVG.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

#[derive(Args, Clone, Debug)]
pub struct MergeArgs {
    /// Shard files written by `sim --shard i/n`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[arg(long)]
    pub json: bool,
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

/// Every core the process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most worker threads `--jobs` may ask for, per core: each worker loads its own rules,
/// so more threads than this only take memory.
pub const JOBS_PER_CORE: usize = 4;

/// The worker threads of `--jobs` (every core when not given): 1 to [`JOBS_PER_CORE`] × the
/// cores, else one clear error before anything runs. Results do not depend on it.
pub fn jobs(asked: Option<usize>) -> Result<usize> {
    let max = JOBS_PER_CORE * cores();
    match asked {
        None => Ok(cores()),
        Some(n) if (1..=max).contains(&n) => Ok(n),
        Some(n) => bail!(
            "--jobs {n}: this machine runs 1 to {max} ({JOBS_PER_CORE} per core, {} cores)",
            cores()
        ),
    }
}

/// Runs `sim`; returns what it prints. `progress` is told the games to expect, then each one
/// finished. Nothing is written when the input is bad or a game fails.
pub fn sim(
    dir: &Path,
    args: &SimArgs,
    budget: &Budget,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Option<u64>),
) -> Result<String> {
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    let jobs = jobs(args.jobs)?;
    if args.out.is_some() && shard.is_none() {
        return Err(anyhow!("--out names the shard file: it needs --shard i/n"));
    }
    if shard.is_some() && args.svg.is_some() {
        return Err(anyhow!(
            "--svg charts a whole study: give it to `sim-merge`, not to a shard"
        ));
    }
    let players = match args.players {
        Some(p) => p,
        None => default_players(dir, args, budget)?,
    };
    let mut variants = vec![args.variant.clone()];
    if args.vs.is_some() {
        variants.push(args.vs.clone());
    }
    let bots = match &args.bots {
        Some(bots) => bots.split(',').map(|b| b.trim().to_string()).collect(),
        None => default_bots(dir, args, &variants, budget)?,
    };
    let spec = Spec {
        game: args.game.clone(),
        variants,
        house: args.house.clone(),
        sets: args.sets.clone(),
        players,
        games: args.games,
        seed: args.seed,
        bots,
        skill: args.skill.as_deref().map(skill_pair).transpose()?,
        drama: args.drama,
    };
    spec.validate()?;
    if let Some(text) = &args.until_ci {
        let target = Target::parse(text)?;
        let (results, stopped) =
            sequential::play(dir, &spec, budget, jobs, stop, &target, progress)?;
        return output(
            &Report::of(&results),
            stopped.as_ref(),
            args.json,
            args.svg.as_deref(),
        );
    }
    let range = match shard {
        Some(s) => shard_games(spec.games, s),
        None => 0..spec.games,
    };
    progress(Some(range.end - range.start));
    let results = study::run(dir, &spec, budget, range, jobs, stop, |n| {
        for _ in 0..n {
            progress(None)
        }
    })?;
    if let Some(shard) = shard {
        let finished = results.records.first().map_or(0, |r| r.len() as u64);
        if finished < results.asked {
            bail!(
                "interrupted: {finished} of {} games of shard {}/{} finished; no shard written",
                results.asked,
                shard.0,
                shard.1
            );
        }
        let text = Shard::new(results, shard).to_json();
        return match &args.out {
            Some(path) => {
                write_atomically(path, &text)?;
                Ok(format!(
                    "shard {}/{} written to {}",
                    shard.0,
                    shard.1,
                    path.display()
                ))
            }
            None => Ok(text),
        };
    }
    output(&Report::of(&results), None, args.json, args.svg.as_deref())
}

/// `--skill strong,weak` as its two bots.
fn skill_pair(text: &str) -> Result<[String; 2]> {
    match text.split(',').map(str::trim).collect::<Vec<_>>()[..] {
        [strong, weak] if !strong.is_empty() && !weak.is_empty() => {
            Ok([strong.to_string(), weak.to_string()])
        }
        _ => bail!("--skill {text}: two bots, strong then weak (--skill greedy,random)"),
    }
}

/// The default number of players of the game (loading its rules once).
fn default_players(dir: &Path, args: &SimArgs, budget: &Budget) -> Result<u32> {
    let opts = crate::script::LoadOptions {
        variant: args.variant.clone(),
        house: args.house.clone(),
        budget: budget.clone(),
        ..Default::default()
    };
    Ok(crate::script::Rules::load(dir, &args.game, &opts)?
        .seats
        .default)
}

/// The bots of a study that names none: `learned` where weights exist for the ruleset of
/// every variant, so that a study describes players worth studying once they are trained;
/// else `random` (and the report warns that it describes random play).
fn default_bots(
    dir: &Path,
    args: &SimArgs,
    variants: &[Option<String>],
    budget: &Budget,
) -> Result<Vec<String>> {
    for v in variants {
        let rules = study::load_rules(dir, &args.game, v, &args.house, &args.sets, budget)?;
        if crate::sim::learned::weights_for(&rules).is_err() {
            return Ok(vec!["random".into()]);
        }
    }
    Ok(vec!["learned".into()])
}

/// Runs `sim-merge`: the report the whole study would print.
pub fn sim_merge(args: &MergeArgs) -> Result<String> {
    let shards = args
        .files
        .iter()
        .map(|f| Ok((f.display().to_string(), Shard::read(f)?)))
        .collect::<Result<Vec<_>>>()?;
    output(
        &Report::of(&merge(shards)?),
        None,
        args.json,
        args.svg.as_deref(),
    )
}

/// The report as text or JSON; the chart written first, if asked for, and where said (after
/// the text, or on stderr beside JSON, which stays whole for the programs that read it).
fn output(
    report: &Report,
    stopped: Option<&Stopped>,
    json: bool,
    svg: Option<&Path>,
) -> Result<String> {
    let wrote = match svg {
        Some(path) => {
            write_atomically(path, &super::svg::chart(report))?;
            Some(format!("chart written to {}", path.display()))
        }
        None => None,
    };
    /// The report with how a sequential study stopped, for `--json`.
    #[derive(serde::Serialize)]
    struct Whole<'a> {
        #[serde(flatten)]
        report: &'a Report,
        #[serde(skip_serializing_if = "Option::is_none")]
        until_ci: Option<&'a Stopped>,
    }
    if json {
        if let Some(w) = wrote {
            eprintln!("{w}");
        }
        let whole = Whole {
            report,
            until_ci: stopped,
        };
        return Ok(serde_json::to_string_pretty(&whole).expect("reports serialize"));
    }
    let mut text = report.text();
    if let Some(s) = stopped {
        text = format!("{text}\n\n{}", s.text());
    }
    if let Some(w) = wrote {
        text = format!("{text}\n{w}");
    }
    Ok(text)
}

/// A progress bar on standard error when it is a terminal (the CLI's `sim` and the REPL's):
/// told the games to expect, then each one finished.
pub fn progress_bar(quiet: bool) -> impl FnMut(Option<u64>) {
    let mut bar: Option<indicatif::ProgressBar> = None;
    let shown = !quiet && std::io::IsTerminal::is_terminal(&std::io::stderr());
    move |event| match event {
        Some(total) if shown => {
            let b = indicatif::ProgressBar::new(total);
            b.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left")
                    .expect("a valid template"),
            );
            bar = Some(b);
        }
        None => {
            if let Some(b) = &bar {
                b.inc(1);
                if b.position() == b.length().unwrap_or(0) {
                    b.finish_and_clear();
                }
            }
        }
        Some(_) => {}
    }
}
