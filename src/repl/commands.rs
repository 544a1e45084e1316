//! The command table: one list drives dispatch, `help`, completion and hints.

/// A REPL command.
pub struct Command {
    pub name: &'static str,
    pub usage: &'static str,
    pub help: &'static str,
}

pub const COMMANDS: &[Command] = &[
    Command {
        name: "games",
        usage: "",
        help: "List the games in the rules folder, with their seats and variants.",
    },
    Command {
        name: "new",
        usage: "<game> [--variant V] [--seed N] [--players N] [--set switch=value]…",
        help: "Start a new game. Without --seed a random seed is chosen (and shown, so the game can be replayed).",
    },
    Command {
        name: "show",
        usage: "[seat]",
        help: "Show the board (as seen by a seat: hidden information stays hidden) and what the game waits for.",
    },
    Command {
        name: "moves",
        usage: "[--position P [--dice D] [--json] [--absolute]]",
        help: "List the options of the current decision, numbered. With --position: the machine interface — the legal moves from a position, without touching the game.",
    },
    Command {
        name: "play",
        usage: "<label | number>",
        help: "Take an option of the current decision, by its label in the game's notation or its number in `moves`.",
    },
    Command {
        name: "roll",
        usage: "[values…]",
        help: "Resolve the pending chance event: drawn from the seeded stream, or forced to the values given (`roll 6 5`, `roll arrow`). At a decision that offers `roll`, plays it first. Given while a decision is pending, the values are kept for the next chance event.",
    },
    Command {
        name: "pending",
        usage: "",
        help: "What is being resolved in the middle of a move: the rules' continuations, top first, each with its hook, its arguments, why it is there and what it waits for.",
    },
    Command {
        name: "auto",
        usage: "[N]",
        help: "Let the bots take the next N steps (decisions and chance events; default: to the end of the game): each seat's `bot`, or the uniform-random bot.",
    },
    Command {
        name: "bot",
        usage: "<seat> random|greedy|mcts [iterations|200ms|2s] | <seat> off",
        help: "Let a bot take a seat's decisions when `auto` runs: uniform random, greedy on the game's eval hook, or Monte Carlo tree search (200 iterations unless given). A bot sees only what its seat may see.",
    },
    Command {
        name: "sim",
        usage: "<game> [--variant A] [--vs B] [--games N] [--seed S] [--bots B,…] [--jobs N] [--json] [--svg FILE]",
        help: "Play N games by bots on every core and report wins with 95% intervals, draws, game length and the rules' counters; with --vs, the paired differences between two variants and which are significant.",
    },
    Command {
        name: "undo",
        usage: "",
        help: "Take back the last step (a decision or a chance event).",
    },
    Command {
        name: "redo",
        usage: "",
        help: "Apply again the step that undo took back.",
    },
    Command {
        name: "log",
        usage: "[N]",
        help: "The game's log (the last N lines).",
    },
    Command {
        name: "save",
        usage: "<file>",
        help: "Save the session (seed, rules hashes, every step) as a small text file; written atomically. In a seat's view (`as X`) the file holds only what that seat may see, and only the referee's save can be loaded.",
    },
    Command {
        name: "load",
        usage: "<file>",
        help: "Load a saved session. Refused if the rule files changed since: use `replay` then.",
    },
    Command {
        name: "replay",
        usage: "<file>",
        help: "Replay a saved session on the current rule files; reports the first step that no longer fits.",
    },
    Command {
        name: "position",
        usage: "[format]",
        help: "Export the current position in the game's text format, or in another format the game offers (`position id`: a GNU Backgammon Position ID).",
    },
    Command {
        name: "setup",
        usage: "<game> [--variant V] [--set switch=value]… <position | @file>",
        help: "Start a game from a position in the game's text format (or read from a file).",
    },
    Command {
        name: "rules",
        usage: "[hook]",
        help: "The loaded rule files with their hashes, the switches, and for every hook the files that stack on it.",
    },
    Command {
        name: "reload",
        usage: "[keep]",
        help: "Re-read the rule files and replay the current session on them. A file that fails to load changes nothing; when a step no longer fits, the game stays as it was and `reload keep` keeps the steps before it.",
    },
    Command {
        name: "lua",
        usage: "<code>",
        help: "Evaluate Lua against a read-only view of the game (`G`); expressions print their value. Multi-line input continues until the code is complete.",
    },
    Command {
        name: "as",
        usage: "[seat | spectator | referee]",
        help: "View the game as a seat, a spectator or the referee (who sees everything); every command then shows only what that viewer may see, and the prompt names the viewer. In a seat's view only that seat's decisions can be played, and `save` writes that seat's view.",
    },
    Command {
        name: "help",
        usage: "[command]",
        help: "List the commands, or explain one.",
    },
    Command {
        name: "quit",
        usage: "",
        help: "Leave the REPL (also: exit, Ctrl-D).",
    },
];

pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// `help` and `help <command>`.
pub fn help(topic: Option<&str>) -> Result<String, String> {
    match topic {
        None => {
            let width = COMMANDS.iter().map(|c| c.name.len()).max().unwrap_or(0);
            let mut out = String::from("Commands (help <command> for more):\n");
            for c in COMMANDS {
                let first = c
                    .help
                    .split(". ")
                    .next()
                    .unwrap_or(c.help)
                    .trim_end_matches('.');
                out += &format!("  {:width$}  {first}\n", c.name);
            }
            Ok(out.trim_end().to_string())
        }
        Some(name) => {
            let c = find(name).ok_or_else(|| format!("no command '{name}' (type help)"))?;
            Ok(format!("{} {}\n  {}", c.name, c.usage, c.help)
                .trim_end()
                .to_string())
        }
    }
}
