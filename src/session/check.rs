//! The determinism check: a finished game replayed on a freshly loaded ruleset must pass
//! through the same states, step by step. Lua cannot forbid every way a rule keeps state
//! between calls (an upvalue changed by a hook); this catches the ones that change an outcome,
//! and names the first step where the replay differs.

use std::rc::Rc;

use anyhow::{Result, bail};

use super::{Event, Session, Status};
use crate::kernel::State;
use crate::kernel::rng::Stream;
use crate::script::Rules;
use crate::script::ruleset::host::sha256_hex;

/// The hash of everything that decides the game (the log aside).
pub fn state_hash(state: &State) -> String {
    sha256_hex(state.fingerprint().as_bytes())
}

/// Where a replay left the states of the game it replays.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// 1-based number of the first step after which the states differ (0: the start).
    pub step: usize,
    /// That step, if it was one.
    pub event: Option<Event>,
    pub reason: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.event {
            Some(e) => write!(f, "step {} ({}): {}", self.step, e.describe(), self.reason),
            None => write!(f, "the start: {}", self.reason),
        }
    }
}

/// Replays `session`'s steps on `fresh` (a newly loaded copy of its ruleset) and compares the
/// state after every step with the one the session went through (those it still keeps: a long
/// game drops its oldest undo points past the memory limit).
pub fn replay_check(session: &Session, fresh: Rc<Rules>) -> Result<(), Mismatch> {
    let live: Vec<Option<String>> = session
        .states()
        .map(|s| s.map(state_hash))
        .chain(std::iter::once(Some(session.game.with_state(state_hash))))
        .collect();
    let differs = |replay: &Session, i: usize| {
        live[i]
            .as_ref()
            .is_some_and(|h| *h != replay.game.with_state(state_hash))
    };
    let mismatch = |step: usize, reason: String| Mismatch {
        step,
        event: step
            .checked_sub(1)
            .and_then(|i| session.events.get(i).cloned()),
        reason,
    };
    let mut replay =
        Session::new(fresh, session.origin.clone()).map_err(|e| mismatch(0, e.to_string()))?;
    if differs(&replay, 0) {
        return Err(mismatch(0, "the set-up states differ".into()));
    }
    for (i, event) in session.events.iter().enumerate() {
        replay
            .apply_event(event)
            .map_err(|e| mismatch(i + 1, format!("the replay fails: {e}")))?;
        if differs(&replay, i + 1) {
            return Err(mismatch(i + 1, "the states after it differ".into()));
        }
    }
    Ok(())
}

/// Plays `games` games of uniform-random decisions (seeds `seed`, `seed + 1`, …) in one Lua
/// state, as a simulation would, and checks each with [`replay_check`] against a freshly
/// loaded ruleset from `load`. State a rule kept from one game into the next shows up as a
/// mismatch.
pub fn check_random_games(
    load: impl Fn() -> Result<Rules>,
    games: u64,
    seed: u64,
    max_steps: usize,
) -> Result<()> {
    let rules = Rc::new(load()?);
    for n in 0..games {
        let origin = super::Origin {
            game: rules.game.clone(),
            variant: None,
            house: vec![],
            overrides: vec![],
            seats: rules.seats.default,
            seed: seed + n,
            secret_seed: None,
            position: None,
        };
        let mut session = Session::new(rules.clone(), origin)?;
        let mut bot = Stream::new(seed + n, "bots");
        for _ in 0..max_steps {
            match session.status()?.clone() {
                Status::Over { .. } => break,
                Status::Chance(..) => {
                    session.roll(&[])?;
                }
                Status::Decision { count, .. } => {
                    session.play_index(bot.below(count as u64) as usize)?;
                }
            }
        }
        if let Err(m) = replay_check(&session, Rc::new(load()?)) {
            bail!("game {} (seed {}): {m}", n + 1, seed + n);
        }
    }
    Ok(())
}
