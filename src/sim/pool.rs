//! Games played on several threads, for `sim` and `check`: each thread loads its own rules (a
//! rules state holds an `Rc` and a Lua state, so it stays on its thread), takes the next game
//! number, plays it and hands the result back to the calling thread as it finishes.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use anyhow::Result;

use crate::script::lua::limits;

/// Plays the games `range` on `jobs` threads. Each thread makes its worker with `start`, then
/// `play`s game after game; `done` hears each result on this thread, in the order the games
/// finish. No new game starts once `halt()` holds, a game has failed or an interrupt (Ctrl-C)
/// arrived. A worker that took every game it could runs `finish` before it ends. Returns the
/// first error, unless an interrupt cut it short: then the game in play is dropped,
/// unfinished rather than failed.
pub fn play<W, T: Send>(
    jobs: usize,
    range: Range<u64>,
    halt: &(dyn Fn() -> bool + Sync),
    start: &(dyn Fn() -> Result<W> + Sync),
    play: &(dyn Fn(&mut W, u64) -> Result<T> + Sync),
    finish: &(dyn Fn(&W) -> Result<()> + Sync),
    mut done: impl FnMut(u64, T),
) -> Result<()> {
    let next = AtomicU64::new(range.start);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<(u64, T)>>();
    let mut error = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let (tx, next, failed, end) = (tx.clone(), &next, &failed, range.end);
            scope.spawn(move || {
                let worker = || -> Result<()> {
                    let mut w = start()?;
                    loop {
                        if halt() || failed.load(Ordering::Relaxed) || limits::interrupted() {
                            return Ok(());
                        }
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= end {
                            return finish(&w);
                        }
                        let result = play(&mut w, k)?;
                        if tx.send(Ok((k, result))).is_err() {
                            return Ok(());
                        }
                    }
                };
                if let Err(e) = worker() {
                    if limits::interrupted() {
                        return; // the game in play was cut short: unfinished, not failed
                    }
                    failed.store(true, Ordering::Relaxed);
                    let _ = tx.send(Err(e));
                }
            });
        }
        drop(tx);
        for message in rx {
            match message {
                Ok((k, result)) => done(k, result),
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
        }
    });
    error.map_or(Ok(()), Err)
}
