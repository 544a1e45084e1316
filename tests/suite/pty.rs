//! The REPL as a person uses it, in a pseudo-terminal: the prompt, Tab completion, the
//! continuation prompt of a multi-line `lua` block, and Ctrl-C during `auto`, which stops the
//! bots and returns to the prompt with the game intact instead of ending the program; with
//! `watch on`, a rule file saved while the prompt waits is reloaded at the next Enter.

use crate::common;

use std::process::Command;

use rexpect::session::{PtySession, spawn_command};

/// Starts `tortuga` on the shipped rules in a pseudo-terminal, its history in a fresh folder.
fn start(state: &std::path::Path) -> PtySession {
    start_on(state, &common::rules(), &[])
}

/// Starts `tortuga --rules <rules> --seed 7 <args>` in a pseudo-terminal.
fn start_on(state: &std::path::Path, rules: &std::path::Path, args: &[&str]) -> PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tortuga"));
    command
        .args(["--rules", rules.to_str().unwrap(), "--seed", "7"])
        .args(args)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env("XDG_STATE_HOME", state);
    let mut p = spawn_command(command, Some(30_000)).expect("tortuga starts in a pty");
    p.exp_string("tortuga> ").expect("the first prompt");
    p
}

#[test]
fn typing_completing_and_ctrl_c_during_auto_keep_the_game() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path());

    // Tab completes a command's name; the board comes back.
    p.send("sh\t").unwrap();
    p.flush().unwrap();
    p.exp_string("show").expect("Tab completes `sh` to `show`");
    p.send_line("").unwrap();
    p.exp_string("Money game 1").expect("show draws the board");
    p.exp_string("tortuga> ").unwrap();

    // Tab after `new jackal --set pa` offers Jackal's switches, not backgammon's; the line
    // is then thrown away (Ctrl-C).
    p.send("new jackal --set pa\t").unwrap();
    p.flush().unwrap();
    p.exp_string("pack=")
        .expect("Tab completes a switch of the game the line names");
    p.send_control('c').unwrap();
    p.exp_string("tortuga> ").unwrap();

    // A step prints what it did.
    p.send_line("roll 3 1").unwrap();
    p.exp_string("Opening roll: X 3, O 1; X moves first")
        .unwrap();
    p.exp_string("tortuga> ").unwrap();

    // An unfinished Lua block reads on under the continuation prompt.
    p.send_line("lua for i = 1, 2 do").unwrap();
    p.exp_string("...> ").expect("the continuation prompt");
    p.send_line("end").unwrap();
    p.exp_string("tortuga> ").unwrap();

    // Ctrl-C stops a long `auto` (a 20-second search for X's first move) and the game stays.
    p.send_line("bot X mcts 20s").unwrap();
    p.exp_string("tortuga> ").unwrap();
    p.send_line("auto").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    p.send_control('c').unwrap();
    p.exp_string("interrupted (Ctrl-C) after 0 steps")
        .expect("auto reports the interrupt and the steps it took");
    p.exp_string("tortuga> ").expect("the prompt returns");
    p.send_line("show").unwrap();
    p.exp_string("X on roll: 3-1 to play")
        .expect("the game is where auto was stopped");
    p.exp_string("tortuga> ").unwrap();
    p.send_line("quit").unwrap();
    p.exp_eof().unwrap();
}

#[test]
fn watch_on_reloads_a_rule_file_saved_while_the_prompt_waits() {
    let state = tempfile::tempdir().unwrap();
    let scratch = common::scratch_rules();
    let rules = scratch.path().join("rules");
    let mut p = start_on(state.path(), &rules, &["--game", "race"]);
    for (line, said) in [
        ("roll 4", "die 4 (forced)"),
        ("play move", "played move"),
        ("roll 1", "die 1 (forced)"),
    ] {
        p.send_line(line).unwrap();
        p.exp_string(said).unwrap();
        p.exp_string("tortuga> ").unwrap();
    }
    p.send_line("watch on").unwrap();
    p.exp_string("watch on: a file saved under race/").unwrap();
    p.exp_string("tortuga> ").unwrap();

    // Saved while the prompt waits: Enter reloads it and replays the game on it.
    let game = rules.join("race/game.lua");
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        text.replace("runner_cell(G, seat) + n", "runner_cell(G, seat) + 2 * n"),
    )
    .unwrap();
    p.send_line("").unwrap();
    p.exp_string("watch: race/game.lua changed").unwrap();
    p.exp_string("reloaded; replayed 3 steps").unwrap();
    p.exp_string("tortuga> ").unwrap();
    p.send_line("position").unwrap();
    p.exp_string("9,1")
        .expect("the game replayed on the saved rules");
    p.exp_string("tortuga> ").unwrap();
    p.send_line("quit").unwrap();
    p.exp_eof().unwrap();
}

/// The REPL's `sim` shows the progress bar the command line shows, on the terminal.
#[test]
fn sim_and_train_at_the_prompt_show_their_progress() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path());
    p.send_line("sim jackal --players 2 --games 4 --jobs 1")
        .unwrap();
    p.exp_string("/4 games").expect("the progress bar");
    p.exp_string("4 games each").expect("the report");
    p.exp_string("tortuga> ").unwrap();
    // `train` too, with games per second
    let weights = state.path().join("w.toml");
    p.send_line(&format!(
        "train backgammon --set cube=false --games 30 --seed 1 --jobs 1 --out {}",
        weights.display()
    ))
    .unwrap();
    p.exp_string("/30 games, ").expect("the progress bar");
    p.exp_string("weights (30 games) written")
        .expect("the report");
    p.exp_string("tortuga> ").unwrap();
    p.send_line("quit").unwrap();
    p.exp_eof().unwrap();
}

/// `setup <game> <<END` at the prompt reads the lines up to `END` as the position, as a script
/// does (each under the continuation prompt).
#[test]
fn a_here_document_at_the_prompt_sets_up_a_position() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start(state.path());
    p.send_line("setup chaupar <<END").unwrap();
    for line in [
        "chaupar 1",
        "implement dice3",
        "seats 4",
        "turn E",
        "S: home 0, wait 4",
        "E: home 0, wait 4",
        "N: home 0, wait 4",
        "W: home 0, wait 4",
    ] {
        p.exp_string("...> ").expect("the continuation prompt");
        p.send_line(line).unwrap();
    }
    p.exp_string("...> ").unwrap();
    p.send_line("END").unwrap();
    p.exp_string("E (red) to throw")
        .expect("the position is set up");
    p.exp_string("tortuga> ").unwrap();
    p.send_line("position").unwrap();
    p.exp_string("turn E").expect("the position read back");
    p.exp_string("tortuga").unwrap();
    p.send_line("quit").unwrap();
    p.exp_eof().unwrap();
}

/// On a terminal `auto` prints what each step did as it takes it: every line of a long run,
/// none cut to the last few as a script's output is.
#[test]
fn auto_streams_each_step_on_a_terminal() {
    let state = tempfile::tempdir().unwrap();
    let mut p = start_on(
        state.path(),
        &common::fixtures(),
        &["--game", "race", "--set", "goal=100"],
    );
    p.send_line("auto 60").unwrap();
    let before = p.exp_string("60 steps").expect("auto ends");
    assert!(
        !before.contains("earlier lines"),
        "a terminal gets every line:\n{before}"
    );
    let lines = before.lines().filter(|l| l.contains("die ")).count();
    assert!(lines >= 20, "{lines} lines:\n{before}");
    p.exp_string("tortuga> ").unwrap();
}
