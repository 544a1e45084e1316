//! The `tortuga` command: the REPL, batch scripts, the machine interface and benchmarks.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Duration;

use clap::Parser;

use tortuga::cli::{BenchArgs, Cli, Cmd, DEFAULT_GAME};
use tortuga::repl::{Repl, editor, machine_moves, print_out};
use tortuga::script::ruleset::variant::parse_assignment;
use tortuga::script::{Budget, LoadOptions, Rules};
use tortuga::{scaffold, sim};

/// Exit statuses: 0 done, 1 a command failed, 2 the command line or its files are wrong, 130
/// a `sim` or `check` stopped by Ctrl-C (its report covers the games that finished, so a
/// script can tell it from a whole one).
const FAILED: u8 = 1;
const USAGE: u8 = 2;
const INTERRUPTED: u8 = 130;

/// The rules shipped with Tortuga, built into the binary, so that an installed `tortuga`
/// (`cargo install --path .`) finds them wherever it runs, even once the sources are gone.
/// Each file is an `include_bytes!`, so editing one rebuilds the binary (not the library);
/// a file added since is only seen at the next rebuild, and the rules on disk come first.
static SHIPPED: include_dir::Dir<'static> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/rules");

/// The `--rules` word that asks for the copy built into the binary.
const SHIPPED_WORD: &str = "shipped";

/// The rules folder: the one named, ./rules, the one Tortuga was built from, or else the
/// copy built into the binary (written out once to a cache folder, since rules are read as
/// files: `require`, data files, variants and house rules).
fn rules_dir(flag: Option<PathBuf>) -> Result<PathBuf, String> {
    let named = flag.or_else(|| std::env::var_os("TORTUGA_RULES").map(PathBuf::from));
    match named {
        Some(dir) if dir.as_os_str() == SHIPPED_WORD && !dir.is_dir() => shipped_rules(),
        Some(dir) => Ok(dir),
        None => {
            let local = PathBuf::from("rules");
            let built = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules");
            if local.join(DEFAULT_GAME).is_dir() {
                Ok(local)
            } else if built.join(DEFAULT_GAME).is_dir() {
                Ok(built)
            } else {
                shipped_rules()
            }
        }
    }
}

/// The shipped rules as a folder: `<cache>/tortuga/rules-<version>-<digest>`, written on first
/// use (into a fresh folder renamed into place, so a run that is stopped halfway or two that
/// start at once never leave a partial one). The digest of the files names it, so a binary
/// with other rules writes its own.
fn shipped_rules() -> Result<PathBuf, String> {
    use sha2::Digest;
    let mut files = Vec::new();
    let mut dirs = vec![&SHIPPED];
    while let Some(d) = dirs.pop() {
        for entry in d.entries() {
            match entry {
                include_dir::DirEntry::Dir(sub) => dirs.push(sub),
                include_dir::DirEntry::File(f) => files.push(f),
            }
        }
    }
    files.sort_by_key(|f| f.path());
    let mut digest = sha2::Sha256::new();
    for f in &files {
        digest.update(f.path().to_string_lossy().as_bytes());
        digest.update([0]);
        digest.update(f.contents());
    }
    let hex: String = digest.finalize()[..6]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("tortuga");
    let dir = cache.join(format!("rules-{}-{hex}", env!("CARGO_PKG_VERSION")));
    if dir.is_dir() {
        return Ok(dir);
    }
    let fail =
        |e: std::io::Error| format!("cannot write the shipped rules to {}: {e}", cache.display());
    let fresh = cache.join(format!(".rules-{}-{hex}", std::process::id()));
    for f in &files {
        let path = fresh.join(f.path());
        std::fs::create_dir_all(path.parent().unwrap_or(&fresh)).map_err(fail)?;
        std::fs::write(&path, f.contents()).map_err(fail)?;
    }
    if let Err(e) = std::fs::rename(&fresh, &dir) {
        let _ = std::fs::remove_dir_all(&fresh);
        if !dir.is_dir() {
            return Err(fail(e));
        }
    }
    Ok(dir)
}

/// Makes Ctrl-C an interrupt of the running command (see `limits::catch_interrupts`).
fn catch_interrupts() {
    if let Err(e) = tortuga::script::lua::limits::catch_interrupts() {
        eprintln!("warning: Ctrl-C will end the program: {e}");
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let dir = match rules_dir(cli.rules) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(USAGE);
        }
    };
    let dir = dir.canonicalize().unwrap_or(dir);
    if cli.version {
        print_out(&format!(
            "tortuga {}\nrules: {}",
            env!("CARGO_PKG_VERSION"),
            dir.display()
        ));
        return ExitCode::SUCCESS;
    }
    if !dir.is_dir() {
        eprintln!("error: no rules folder at {}", dir.display());
        return ExitCode::from(USAGE);
    }
    let budget = match cli.limits.budget() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(USAGE);
        }
    };
    match cli.command {
        None => {
            let interactive = cli.commands.is_empty();
            let color = interactive
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none();
            let mut repl = Repl::new(&dir, color);
            repl.budget = budget;
            if interactive && std::io::stdout().is_terminal() {
                // `auto` prints each step's lines as it takes them
                repl.live = Some(Box::new(|line| println!("{line}")));
            }
            // Ctrl-C stops the running command and returns to the prompt, never ends the REPL.
            catch_interrupts();
            match repl.new_game(&cli.game, &cli.options) {
                Ok(out) if interactive => {
                    print_out(&format!("{out}\n(type help for the commands)"))
                }
                Ok(_) => {}
                Err(e) => {
                    eprintln!("error: {e:#}");
                    return ExitCode::from(USAGE);
                }
            }
            if !interactive {
                for (i, command) in cli.commands.iter().enumerate() {
                    match repl.handle_line(command) {
                        Ok(out) if !out.is_empty() => print_out(&out),
                        Ok(_) => {}
                        Err(e) => {
                            eprintln!("--command {}: error: {e:#}", i + 1);
                            return ExitCode::from(FAILED);
                        }
                    }
                    if repl.quit {
                        break;
                    }
                }
                return ExitCode::SUCCESS;
            }
            if let Err(e) = editor::run(&mut repl) {
                eprintln!("error: {e:#}");
                return ExitCode::from(FAILED);
            }
            ExitCode::SUCCESS
        }
        Some(Cmd::Run { file, echo }) => run_script(&dir, &file, echo, budget),
        Some(Cmd::Moves {
            game,
            query,
            variant,
            house,
        }) => {
            let result = Rules::load(
                &dir,
                &game,
                &LoadOptions {
                    variant,
                    house,
                    budget,
                    ..LoadOptions::default()
                },
            )
            .and_then(|rules| {
                let position = query
                    .position
                    .as_deref()
                    .ok_or_else(|| anyhow::anyhow!("--position is required"))?;
                machine_moves(
                    Rc::new(rules),
                    position,
                    query.dice.as_deref(),
                    query.absolute,
                )
            });
            print_result(result)
        }
        Some(Cmd::Bench(args)) => bench(&dir, args, &budget),
        Some(Cmd::Sim(args)) => {
            // Ctrl-C ends the games in play and reports those that finished.
            catch_interrupts();
            let mut bar = sim::command::progress_bar(args.json || args.shard.is_some());
            let stop = std::sync::atomic::AtomicBool::new(false);
            let code = print_result(sim::command::sim(&dir, &args, &budget, &stop, &mut bar));
            or_interrupted(code)
        }
        Some(Cmd::SimMerge(args)) => print_result(sim::command::sim_merge(&args)),
        Some(Cmd::Train(args)) => {
            // Ctrl-C ends training after the batch in play and keeps the weights so far.
            catch_interrupts();
            let mut bar = sim::train::progress_bar();
            print_result(sim::train::train(&dir, &args, &budget, &mut bar))
        }
        Some(Cmd::Check(args)) => {
            catch_interrupts();
            let mut bar = sim::command::progress_bar(false);
            or_interrupted(print_verdict(sim::check::check(
                &dir, &args, &budget, &mut bar,
            )))
        }
        Some(Cmd::Replay { file }) => print_verdict(sim::check::replay(&dir, &file, &budget)),
        Some(Cmd::NewGame { name }) => print_result(scaffold::new_game(&dir, &name)),
        Some(Cmd::NewTile { game, name }) => print_result(scaffold::new_tile(&dir, &game, &name)),
        Some(Cmd::NewHouse { game, name }) => print_result(scaffold::new_house(&dir, &game, &name)),
    }
}

/// Prints a command's output, or its error on one line (exit status 2).
fn print_result(result: anyhow::Result<String>) -> ExitCode {
    match result {
        Ok(out) => {
            print_out(&out);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(USAGE)
        }
    }
}

/// `code`, or [`INTERRUPTED`] when Ctrl-C stopped the command.
fn or_interrupted(code: ExitCode) -> ExitCode {
    if tortuga::script::lua::limits::interrupted() {
        ExitCode::from(INTERRUPTED)
    } else {
        code
    }
}

/// Prints a check's output; exit status 1 when it found a failure, 2 on bad input.
fn print_verdict(result: anyhow::Result<(String, bool)>) -> ExitCode {
    match result {
        Ok((out, clean)) => {
            print_out(&out);
            if clean {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(FAILED)
            }
        }
        Err(e) => print_result(Err(e)),
    }
}

fn run_script(dir: &std::path::Path, file: &str, echo: bool, budget: Budget) -> ExitCode {
    let text = if file == "-" {
        let mut s = String::new();
        let max = tortuga::files::MAX_INPUT_FILE;
        if let Err(e) = std::io::stdin().take(max + 1).read_to_string(&mut s) {
            eprintln!("error: standard input: {e}");
            return ExitCode::from(USAGE);
        }
        if s.len() as u64 > max {
            eprintln!("error: standard input: more than {max} bytes");
            return ExitCode::from(USAGE);
        }
        s
    } else {
        match tortuga::files::read_text(
            std::path::Path::new(file),
            tortuga::files::MAX_INPUT_FILE,
            file,
        ) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(USAGE);
            }
        }
    };
    let mut repl = Repl::new(dir, false);
    repl.budget = budget;
    match repl.run_script_echoed(&text, echo, print_out) {
        Ok(()) => ExitCode::SUCCESS,
        Err((line, e)) => {
            eprintln!("{file}:{line}: error: {e}");
            ExitCode::from(FAILED)
        }
    }
}

/// The rules `bench` plays: the game's own benchmark switches, then `--set` values; and those
/// switches as text.
fn bench_rules(
    dir: &std::path::Path,
    game: &str,
    variant: Option<String>,
    house: &[String],
    sets: &[String],
    budget: &Budget,
) -> anyhow::Result<(Rc<Rules>, String)> {
    let load = |overrides| {
        let opts = LoadOptions {
            variant: variant.clone(),
            house: house.to_vec(),
            overrides,
            budget: budget.clone(),
        };
        Rules::load(dir, game, &opts)
    };
    let mut overrides = load(vec![])?.bench_switches;
    for s in sets {
        overrides.push(parse_assignment(s).map_err(anyhow::Error::msg)?);
    }
    let shown: Vec<String> = overrides
        .iter()
        .map(|(k, v)| format!(" {k}={}", v.to_literal()))
        .collect();
    Ok((Rc::new(load(overrides)?), shown.concat()))
}

fn bench(dir: &std::path::Path, args: BenchArgs, budget: &Budget) -> ExitCode {
    let per_round = Duration::from_secs_f64(args.seconds);
    let rounds = args.rounds;
    let result = (|| -> anyhow::Result<()> {
        if rounds == 0 {
            anyhow::bail!(
                "--rounds 0: bench plays 1 round or more (its figures are medians of rounds)"
            );
        }
        if args.all {
            return bench_all(dir, &args, budget);
        }
        let Some(game) = &args.game else {
            anyhow::bail!("bench: name a game, or give --all");
        };
        let (rules, shown) = bench_rules(
            dir,
            game,
            args.variant.clone(),
            &args.house,
            &args.sets,
            budget,
        )?;
        let seats = args.players.unwrap_or(rules.seats.default);
        let results = sim::bench(rules.clone(), seats, rounds, per_round, 1, |i, r| {
            let cut = if r.cut > 0 {
                format!("; {} stopped at the turn cap or stalled", r.cut)
            } else {
                String::new()
            };
            print_out(&format!(
                "round {}: {} games in {:.2}s = {:.0} playouts/s, {:.0} per CPU second ({:.0} decisions per game, {:.1} µs of CPU per decision{cut})",
                i + 1,
                r.games,
                r.seconds,
                r.rate(),
                r.cpu_rate(),
                r.decisions as f64 / r.games as f64,
                r.cpu_per_decision()
            ));
        })?;
        let house: String = args.house.iter().map(|h| format!(" +{h}")).collect();
        let variant = args
            .variant
            .as_deref()
            .unwrap_or("default variant")
            .to_string()
            + &house;
        print_out(&format!(
            "{game}, {variant} ({seats} players{shown}): {:.0} playouts/s, {:.0} per CPU second, {:.1} µs of CPU per decision (medians of {})",
            sim::median_rate(&results),
            sim::median_cpu_rate(&results),
            sim::median_cpu_per_decision(&results),
            results.len()
        ));
        if let Some(n) = args.profile {
            print_out(&sim::profile::profile(rules, seats, per_round)?.report(n));
        }
        Ok(())
    })();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(FAILED)
        }
    }
}

/// `bench --all`: every game and variant of the rules folder, one table.
fn bench_all(dir: &std::path::Path, args: &BenchArgs, budget: &Budget) -> anyhow::Result<()> {
    let per_round = Duration::from_secs_f64(args.seconds);
    print_out(&format!(
        "{:<12} {:<22} {:>7} {:>12} {:>14} {:>15}  switches",
        "game", "variant", "players", "playouts/s", "decisions/game", "CPU µs/decision"
    ));
    for game in tortuga::script::ruleset::rules::games(dir) {
        let mut variants = vec![None];
        variants.extend(
            tortuga::script::ruleset::rules::variants(dir, &game)
                .into_iter()
                .map(Some),
        );
        for variant in variants {
            let (rules, shown) = bench_rules(dir, &game, variant.clone(), &[], &args.sets, budget)?;
            let seats = args.players.unwrap_or(rules.seats.default);
            let results = sim::bench(rules, seats, args.rounds, per_round, 1, |_, _| {})?;
            let rate = sim::median_rate(&results);
            let (games, decisions) = results
                .iter()
                .fold((0, 0), |(g, d), r| (g + r.games, d + r.decisions));
            let per_game = decisions as f64 / games as f64;
            let cpu = sim::median_cpu_per_decision(&results);
            print_out(&format!(
                "{:<12} {:<22} {:>7} {:>12.0} {:>14.0} {:>15.1} {shown}",
                game,
                variant.as_deref().unwrap_or("default"),
                seats,
                rate,
                per_game,
                cpu
            ));
        }
    }
    Ok(())
}

/// Rules make and drop several small Lua tables per event (board reads, move lists, statuses);
/// mimalloc serves those faster than the system allocator (measured: +5% playouts per second).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
