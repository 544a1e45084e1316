//! Uniform-random backgammon playouts with the native move generator: the
//! speed reference for the Lua rules.
//!
//! `cargo bench --bench native_backgammon` runs 5 rounds of about 2 s each;
//! with `TORTUGA_BENCH_QUICK` set it runs 5 rounds of 20 games, so that test
//! runs stay short.

#[path = "native/backgammon.rs"]
mod backgammon;

use std::time::{Duration, Instant};

const ROUNDS: usize = 5;
const ROUND_TIME: Duration = Duration::from_secs(2);
const QUICK_GAMES: u64 = 20;

fn main() {
    let quick = std::env::var_os("TORTUGA_BENCH_QUICK").is_some();
    // A fixed seed keeps rounds comparable from run to run.
    let mut rng = backgammon::Rng::new(0x7061_6E64_6F72_6131);
    let mut rates = Vec::with_capacity(ROUNDS);
    let (mut games, mut plies, mut x_wins) = (0u64, 0u64, 0u64);
    for round in 1..=ROUNDS {
        let start = Instant::now();
        let mut round_games = 0u64;
        loop {
            let (winner, length) = backgammon::random_playout(&mut rng);
            round_games += 1;
            plies += u64::from(length);
            x_wins += u64::from(winner == 0);
            let done = if quick {
                round_games >= QUICK_GAMES
            } else {
                start.elapsed() >= ROUND_TIME
            };
            if done {
                break;
            }
        }
        let rate = round_games as f64 / start.elapsed().as_secs_f64();
        println!("round {round}: {round_games} playouts, {rate:.0} playouts/s");
        games += round_games;
        rates.push(rate);
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "mean plies per game: {:.1} ({games} games, X won {:.1}%)",
        plies as f64 / games as f64,
        100.0 * x_wins as f64 / games as f64
    );
    println!(
        "native backgammon: {:.0} playouts/s (median of {ROUNDS})",
        rates[ROUNDS / 2]
    );
}
