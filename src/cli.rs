//! The `tortuga` command line: its options, which are the REPL's own (`repl::commands`), and
//! its subcommands. The binary runs them; the tests parse every command the docs show with it.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::repl::commands::{GameOptions, MachineQuery};
use crate::script::Budget;
use crate::sim;

/// The game the REPL starts with.
pub const DEFAULT_GAME: &str = "backgammon";

/// The command line. Its options and the REPL's commands come from one grammar
/// (`tortuga::repl::commands`): `--seed` here is `new --seed` there, with the same help and errors.
#[derive(Parser)]
#[command(
    name = "tortuga",
    about = "A scripting-driven rules sandbox for board games",
    disable_version_flag = true,
    max_term_width = 100,
    after_help = "Examples:\n  tortuga                                  the REPL, with a game of backgammon\n  tortuga --game jackal --players 4 --seed 7\n  tortuga --command 'roll 3 1' --command show\n  tortuga run --echo scripts/backgammon-tour.tort"
)]
pub struct Cli {
    /// The rules folder (default: $TORTUGA_RULES, ./rules, the one Tortuga was built from, or
    /// the copy built into it; `shipped`: that copy).
    #[arg(long, global = true, value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// The game the REPL starts with.
    #[arg(long, default_value = DEFAULT_GAME)]
    pub game: String,
    #[command(flatten)]
    pub options: GameOptions,
    /// Run this REPL command on the game instead of the prompt (repeatable; stops at the first
    /// error).
    #[arg(long = "command", short = 'c', value_name = "COMMAND")]
    pub commands: Vec<String>,
    /// Print the version and the rules folder in use.
    #[arg(long, short = 'V')]
    pub version: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(subcommand)]
    pub command: Option<Cmd>,
}

/// Limits on rule code and games (defaults in SECURITY.md); a variant may lower them.
#[derive(clap::Args)]
pub struct LimitArgs {
    /// Lua instructions per rule invocation.
    #[arg(long, global = true, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// Seconds of CPU time per rule invocation.
    #[arg(long, global = true, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// MiB the Lua heap, and each game state, may hold.
    #[arg(long, global = true, value_name = "MIB")]
    pub memory_limit: Option<usize>,
    /// Steps `auto` may take before it stops a game (the turn cap).
    #[arg(long, global = true, value_name = "N")]
    pub max_steps: Option<u64>,
}

impl LimitArgs {
    pub fn budget(&self) -> anyhow::Result<Budget> {
        let mut b = Budget::default();
        if let Some(n) = self.max_instructions {
            b.instructions = n;
        }
        if let Some(s) = self.time_limit {
            b.wall = Duration::try_from_secs_f64(s)
                .map_err(|_| anyhow::anyhow!("--time-limit takes seconds, not {s}"))?;
        }
        if let Some(m) = self.memory_limit {
            b.memory = m.saturating_mul(1 << 20);
        }
        if let Some(n) = self.max_steps {
            b.steps = n;
        }
        Ok(b)
    }
}

#[derive(Subcommand)]
pub enum Cmd {
    /// Run REPL commands from a file, or from standard input with `-`; stops at the first error.
    #[command(after_help = "Example: tortuga run --echo scripts/backgammon-tour.tort")]
    Run {
        file: String,
        /// Print each command before its output, as a transcript.
        #[arg(long)]
        echo: bool,
    },
    /// What a game waits for in a position, on the variant's and house rules, as JSON (the
    /// machine interface).
    ///
    /// Backgammon lists its legal moves with the positions they lead to. Any other game reads the
    /// position as `setup` does, forces the chance event it waits for with --dice as `roll` does,
    /// and prints one line: {"game", "variant", "house", "waiting": "decision", "actor": {"seat",
    /// "name"}, "prompt", "options": [labels as `moves` lists them]}, or "waiting": "chance" with
    /// "chance": its name, or "waiting": "over" with "result" and "scores": [{"seat", "name",
    /// "score"}].
    #[command(
        after_help = "Examples:\n  tortuga moves backgammon --position 4HPwATDgc/ABMA --dice 61\n  tortuga moves chaupar --variant safe_blocks --position @chaupar.txt --dice '2 1 1'\n  tortuga moves jackal --house safe_gold --position \"$(tortuga --game jackal -c position)\""
    )]
    Moves {
        /// The game (`tortuga -c games` lists them).
        game: String,
        #[command(flatten)]
        query: MachineQuery,
        /// The variant, a file of the game's `variants/` folder.
        #[arg(long)]
        variant: Option<String>,
        /// A house rule to switch on beyond the variant's (repeatable).
        #[arg(long = "house", value_name = "RULE")]
        house: Vec<String>,
    },
    /// Uniform-random playouts per second (one core, the full Lua rules).
    #[command(after_help = "Example: tortuga bench backgammon --rounds 3")]
    Bench(BenchArgs),
    /// Play many games by bots, in parallel; compare two variants with `--vs`.
    Sim(sim::command::SimArgs),
    /// Learn by self-play an evaluation for one ruleset, for the `learned` bot.
    #[command(
        after_help = "Example: tortuga train backgammon --set cube=false --games 20000 --seed 1"
    )]
    Train(sim::train::TrainArgs),
    /// Merge the shard files of one study into the report one run prints.
    SimMerge(sim::command::MergeArgs),
    /// Random games under the game's invariants; each failure shrunk and saved as a replay.
    Check(sim::check::CheckArgs),
    /// Replay a save file on the current rules, checking the invariants after every step.
    Replay { file: PathBuf },
    /// Create a new game: its game table, hooks doc, a variant and a Lua test, ready to play.
    #[command(after_help = "Example: tortuga new-game dice_race")]
    NewGame {
        /// The game's name (lower case, digits, '_').
        name: String,
    },
    /// Create a new tile of a game with tiles: its file, a variant that deals it and a test.
    #[command(after_help = "Example: tortuga new-tile jackal quicksand")]
    NewTile { game: String, name: String },
    /// Create a new house rule of a game: its file, a variant that switches it on and a test.
    #[command(after_help = "Example: tortuga new-house backgammon no_gammons")]
    NewHouse { game: String, name: String },
}

#[derive(clap::Args)]
pub struct BenchArgs {
    /// The game (or --all).
    pub game: Option<String>,
    /// Every game and variant of the rules folder, one table.
    #[arg(long, conflicts_with = "game")]
    pub all: bool,
    #[arg(long)]
    pub players: Option<u32>,
    #[arg(long, default_value_t = 5)]
    pub rounds: usize,
    /// Seconds per round.
    #[arg(long, default_value_t = 2.0)]
    pub seconds: f64,
    #[arg(long)]
    pub variant: Option<String>,
    /// A house rule to switch on beyond the variant's (repeatable).
    #[arg(long = "house", value_name = "RULE", conflicts_with = "all")]
    pub house: Vec<String>,
    /// Switch values (`--set cube=false`), on top of the game's own benchmark settings.
    #[arg(long = "set")]
    pub sets: Vec<String>,
    /// After the rounds, one more of --seconds with a sampling profiler on: the rules' busiest
    /// functions and lines (the first N of each).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "25", conflicts_with = "all")]
    pub profile: Option<usize>,
}
