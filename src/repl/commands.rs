//! The command grammar, shared by the REPL and the `tortuga` command line: one clap definition
//! drives parsing, `help`, "did you mean" suggestions, error messages and completion, so a
//! command reads and fails the same way wherever it is typed.
//!
//! A new command is a variant of [`ReplCommand`] (with an `after_help` example); options that
//! several commands share are the `Args` structs below.

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::kernel::Value;
use crate::script::ruleset::variant::parse_assignment;
use crate::sim::command::SimArgs;
use crate::sim::train::TrainArgs;

/// `--set switch=value`, checked as it is parsed.
fn switch_value(text: &str) -> Result<(String, Value), String> {
    parse_assignment(text)
}

/// What picks a game's rules and starts it: `new`, `setup`, `tortuga` and `tortuga bench`.
#[derive(Args, Clone, Debug, Default, PartialEq)]
pub struct GameOptions {
    /// A variant of the game (`games` lists them).
    #[arg(long, value_name = "VARIANT")]
    pub variant: Option<String>,
    /// A house rule to switch on beyond the variant's (repeatable; `rules` lists them).
    #[arg(long = "house", value_name = "RULE")]
    pub house: Vec<String>,
    /// The seed of every random stream (default: chosen at random, and shown).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// The number of seats (default: the game's).
    #[arg(long, value_name = "N")]
    pub players: Option<u32>,
    /// A switch's value, on top of the variant's (`rules` lists the switches).
    #[arg(long = "set", value_name = "SWITCH=VALUE", value_parser = switch_value)]
    pub sets: Vec<(String, Value)>,
}

/// The machine interface's query: `moves --position` in the REPL, `tortuga moves` outside.
#[derive(Args, Clone, Debug, Default, PartialEq)]
pub struct MachineQuery {
    /// A position in the game's own text (what `position` prints), or @FILE; backgammon's:
    /// a Position ID or JSON.
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
    /// The outcome of the chance event the position waits for, as `roll` takes it
    /// (`--dice '6 5'`); backgammon's dice to move with (`61`, `6-1`).
    #[arg(long, value_name = "DICE", requires = "position")]
    pub dice: Option<String>,
    /// Print JSON (the only format; accepted for clarity).
    #[arg(long, requires = "position")]
    pub json: bool,
    /// Backgammon: positions in the oracle's absolute orientation.
    #[arg(long, requires = "position")]
    pub absolute: bool,
}

/// A REPL command line. `multicall` makes the first word the command, as at a shell prompt.
#[derive(Parser, Debug)]
#[command(
    multicall = true,
    disable_help_flag = true,
    help_template = "Commands (help <command> for more, Tab completes):\n{subcommands}",
    max_term_width = 100
)]
pub struct Line {
    #[command(subcommand)]
    pub command: ReplCommand,
}

#[derive(Subcommand, Debug)]
#[command(help_template = "{about-with-newline}\nUsage: {usage}\n\n{all-args}{after-help}")]
pub enum ReplCommand {
    /// List the games in the rules folder, with their variants.
    #[command(after_help = "Example: games")]
    Games,
    /// Start a new game.
    ///
    /// Without --seed a random seed is chosen and shown, so the game can be replayed.
    #[command(after_help = "Example: new backgammon --seed 7")]
    New {
        /// The game (`games` lists them).
        game: String,
        #[command(flatten)]
        options: GameOptions,
    },
    /// Show the board and what the game waits for.
    ///
    /// As the REPL's viewer sees it (`as`); the referee may name a seat to see its board, with
    /// what is hidden from that seat hidden (backgammon draws it in that side's point numbers).
    /// With --svg, the board is drawn as a picture into a file instead, in the same view.
    #[command(after_help = "Examples: show O\n          show --svg board.svg")]
    Show {
        /// The seat to show the board for.
        seat: Option<String>,
        /// Explain the board's symbols.
        #[arg(long)]
        legend: bool,
        /// Write the board as an SVG picture to this file (replaced whole, or left as it was).
        #[arg(long, value_name = "FILE", conflicts_with = "legend")]
        svg: Option<PathBuf>,
    },
    /// List the options of the current decision, numbered.
    ///
    /// With --position: the machine interface, what the game waits for in a position (its
    /// options, as `moves` lists them, or a chance event, or the result) as JSON, on the
    /// current game's rules, without touching the game.
    #[command(
        after_help = "Examples: moves\n          moves --position 4HPwATDgc/ABMA --dice 61\n          moves --position @chaupar.txt --dice '6 5 2'"
    )]
    Moves {
        #[command(flatten)]
        query: MachineQuery,
    },
    /// Take an option of the current decision.
    ///
    /// By its label in the game's notation (forgivingly read) or its number in `moves`.
    #[command(after_help = "Examples: play 8/5 6/5\n          play 3")]
    Play {
        /// The option's label or number.
        #[arg(required = true, num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
        option: Vec<String>,
    },
    /// Resolve the pending chance event.
    ///
    /// Drawn from the seeded stream, or forced to the values given. At a decision that offers
    /// `roll`, plays it first. Values the randomizer cannot produce are refused. `--all` draws
    /// every chance event until a decision waits (a throw-off of four seats in one command).
    /// A chance event always waits for `roll` (or `auto`), whichever command took the step
    /// before it: `play` never draws one, between turns or in the middle of a move (Jackal's
    /// deck under a moving pirate, Pirates' spinner after a shot).
    #[command(after_help = "Examples: roll\n          roll 6 5\n          roll --all")]
    Roll {
        /// The outcome to force.
        #[arg(allow_hyphen_values = true)]
        values: Vec<String>,
        /// Draw chance events until a decision waits (or the game ends).
        #[arg(long, conflicts_with = "values")]
        all: bool,
    },
    /// What is being resolved in the middle of a move, top first.
    ///
    /// The rules' continuations, each with why it is there and what it waits for; with
    /// `--hooks`, each with its hook and arguments too (for rule authors).
    #[command(after_help = "Examples: pending, pending --hooks")]
    Pending {
        /// Name each continuation's hook and arguments
        #[arg(long)]
        hooks: bool,
    },
    /// Let the bots take the next steps (Ctrl-C stops them).
    ///
    /// Decisions and chance events alike, by default to the end of the game: each seat's `bot`,
    /// or the uniform-random bot. That one takes the option the game prefers when offered
    /// (`rules` lists them; in backgammon it rolls rather than doubles and takes rather than
    /// drops, so a money game is not doubled and dropped away in a few steps), and otherwise
    /// picks at random; --any lets it pick at random among every option.
    #[command(after_help = "Examples: auto\n          auto 10 --any")]
    Auto {
        /// How many steps.
        #[arg(allow_negative_numbers = true, value_parser = step_count)]
        steps: Option<u64>,
        /// Let the uniform-random bot pick among every option, the cube's too (`--double`
        /// says the same).
        #[arg(long, visible_alias = "double")]
        any: bool,
    },
    /// Let a bot take a seat's decisions when `auto` runs.
    ///
    /// Uniform random, greedy on the game's eval hook, Monte Carlo tree search (200
    /// iterations unless given), or learned (by the weights `tortuga train` made for the
    /// ruleset). A bot sees only what its seat may see; `off` removes it.
    #[command(after_help = "Examples: bot O greedy\n          bot X mcts 2s\n          bot X off")]
    Bot {
        /// The seat (its name or number).
        seat: String,
        /// random, greedy, mcts, learned or off.
        kind: String,
        /// The search's budget: iterations, or a time (200ms, 2s).
        budget: Option<String>,
    },
    /// Rank the options of the decision waiting for you, best first.
    ///
    /// By the learned evaluation when `tortuga train` made weights for this ruleset (each
    /// option's worth, for backgammon its equity with the cube, and the chance of winning it
    /// estimates), else by the game's eval. In a seat's view (`as X`) it ranks that seat's
    /// decisions from what the seat may see.
    #[command(after_help = "Examples: hint\n          hint 3")]
    Hint {
        /// Only the best N.
        top: Option<usize>,
    },
    /// Play many games by bots on every core and report wins with 95% intervals.
    ///
    /// Also draws, game length and the rules' counters; with --vs, the paired differences
    /// between two variants and which are significant.
    #[command(after_help = "Example: sim backgammon --games 200 --bots greedy,random")]
    Sim(SimArgs),
    /// Learn by self-play an evaluation for exactly this ruleset, for `--bots learned`.
    #[command(after_help = "Example: train backgammon --set cube=false --games 2000 --seed 1")]
    Train(TrainArgs),
    /// Take back the last step (a decision or a chance event).
    #[command(after_help = "Example: undo")]
    Undo,
    /// Apply again the step that undo took back.
    #[command(after_help = "Example: redo")]
    Redo,
    /// The game's log.
    #[command(after_help = "Example: log 5")]
    Log {
        /// Only the last N lines.
        lines: Option<usize>,
    },
    /// Save the session (seed, rules hashes, every step) as a small text file, atomically.
    ///
    /// In a seat's view (`as X`) the file holds only what that seat may see, and only the
    /// referee's save can be loaded.
    #[command(after_help = "Example: save game.tsave")]
    Save { file: String },
    /// Load a saved session.
    ///
    /// Refused, keeping the current game, if the rule files changed since or a step no longer
    /// fits: use `replay` then.
    #[command(after_help = "Example: load game.tsave")]
    Load { file: String },
    /// Replay a saved session on the current rule files, up to the first step that no longer fits.
    #[command(after_help = "Example: replay game.tsave")]
    Replay { file: String },
    /// Export the current position in the game's text format, or in another it offers.
    #[command(after_help = "Examples: position\n          position id")]
    Position {
        /// The format (an unknown one is refused with the list of those the game offers).
        format: Option<String>,
    },
    /// Start a game from a position in the game's text format, or read from a file.
    #[command(after_help = "Example: setup backgammon 4HPwATDgc/ABMA:cAkAAAAAAAAA")]
    Setup {
        /// The game (`games` lists them).
        game: String,
        #[command(flatten)]
        options: GameOptions,
        /// The position, or @file.
        #[arg(required = true, num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
        position: Vec<String>,
    },
    /// The rules folder and files with their hashes, the switches, and the hooks.
    #[command(after_help = "Examples: rules\n          rules on_move")]
    Rules {
        /// Only the files that stack on this hook.
        hook: Option<String>,
    },
    /// Re-read the rule files and replay the current session on them.
    ///
    /// A file that fails to load changes nothing; when a step no longer fits, the game stays as
    /// it was, and `reload keep` keeps the steps before it on the edited rules.
    #[command(after_help = "Examples: reload\n          reload keep")]
    Reload {
        /// `keep`: go on with the steps that still fit.
        #[arg(value_parser = ["keep"])]
        keep: Option<String>,
    },
    /// Reload the rules whenever a file of the current game's rules is saved.
    ///
    /// With `watch on`, before each command (Enter alone included) the prompt looks at the
    /// game's folder and the shared lib/ of the rules folder: when a file changed, it reloads
    /// the rules as `reload` does and prints what reload prints. A command in progress is never
    /// interrupted.
    #[command(after_help = "Examples: watch on\n          watch off")]
    Watch {
        /// on or off (without: whether it is on).
        #[arg(value_parser = ["on", "off"])]
        state: Option<String>,
    },
    /// Evaluate Lua against a read-only view of the game (`G`).
    ///
    /// Expressions print their value; tables print readably. An unfinished block continues on
    /// the next line. `help lua` and `lua G` list the API.
    #[command(after_help = "Examples: lua G:current()\n          lua G:pieces()")]
    Lua {
        /// The code.
        #[arg(required = true, num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
        code: Vec<String>,
    },
    /// View the game as a seat, a spectator or the referee (who sees everything).
    ///
    /// Every command then shows only what that viewer may see, and the prompt names the viewer.
    /// In a seat's view only that seat's decisions can be played, and `save` writes that seat's
    /// view. Without an argument: who views now.
    #[command(after_help = "Examples: as O\n          as referee")]
    As {
        /// A seat's name, spectator or referee.
        who: Option<String>,
    },
    /// Leave the REPL (also: Ctrl-D).
    #[command(visible_alias = "exit", after_help = "Example: quit")]
    Quit,
}

/// Every command name, for completion.
pub fn names() -> Vec<String> {
    let mut root = Line::command();
    root.build();
    root.get_subcommands()
        .flat_map(|c| std::iter::once(c.get_name()).chain(c.get_visible_aliases()))
        .map(String::from)
        .collect()
}

/// The long flags of a command, for completion and hints.
pub fn flags(command: &str) -> Vec<String> {
    Line::command()
        .find_subcommand(command)
        .map(|c| {
            c.get_arguments()
                .filter_map(|a| a.get_long())
                .map(|l| format!("--{l}"))
                .collect()
        })
        .unwrap_or_default()
}

/// The one-line usage of a command, for hints: `new <GAME> [--variant <VARIANT>]…`.
pub fn usage(command: &str) -> Option<String> {
    let mut root = Line::command();
    root.build();
    let c = root.find_subcommand_mut(command)?;
    let usage = c.render_usage().to_string();
    let usage = usage.trim().strip_prefix("Usage:").unwrap_or(&usage).trim();
    let tail = usage
        .strip_prefix(command)
        .unwrap_or(usage)
        .trim()
        .to_string();
    (!tail.is_empty()).then_some(tail)
}

/// A number of steps for `auto`: a whole number (0 takes none).
fn step_count(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .map_err(|_| format!("auto takes a number of steps (`auto 10`), not '{text}'"))
}
