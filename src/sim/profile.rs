//! `tortuga bench --profile`: where a game's rules spend their Lua instructions under random
//! play. A count hook samples the interpreter every [`EVERY`] instructions and charges the
//! sample to the running line (self) and to every function on the stack (inclusive), so a rule
//! author sees which lines and which functions to make leaner. Time spent inside the kernel's
//! own functions runs no Lua instruction and is not sampled: compare the sample count with the
//! CPU time `bench` reports.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::time::{Duration, Instant};

use anyhow::Result;
use mlua::debug::Debug;
use mlua::{HookTriggers, Lua, VmState};

use crate::script::Rules;

use super::{Starter, random_playout_with};

/// Lua instructions between two samples (prime, so that no loop of the rules beats in step).
const EVERY: u32 = 997;
/// Stack levels walked for the inclusive counts.
const DEPTH: usize = 64;

/// Samples by place: lines (self) and functions (inclusive), with the totals.
#[derive(Default)]
pub struct Profile {
    pub samples: u64,
    pub games: u64,
    pub decisions: u64,
    lines: HashMap<String, u64>,
    functions: HashMap<String, u64>,
}

impl Profile {
    /// The `n` places of `counts` with the most samples, most first (ties by name).
    fn top(counts: &HashMap<String, u64>, n: usize) -> Vec<(&str, u64)> {
        let mut v: Vec<(&str, u64)> = counts.iter().map(|(k, c)| (k.as_str(), *c)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v.truncate(n);
        v
    }

    /// The report: the `n` busiest lines and functions, in per cent of the samples.
    pub fn report(&self, n: usize) -> String {
        let pct = |c: u64| 100.0 * c as f64 / self.samples.max(1) as f64;
        let mut out = format!(
            "{} samples (one per {EVERY} Lua instructions) over {} games, {} decisions: {:.0} instructions per decision\n",
            self.samples,
            self.games,
            self.decisions,
            (self.samples * EVERY as u64) as f64 / self.decisions.max(1) as f64
        );
        out.push_str("\nfunctions, inclusive (the function and what it calls):\n");
        for (place, c) in Profile::top(&self.functions, n) {
            out.push_str(&format!("{:>6.1}%  {place}\n", pct(c)));
        }
        out.push_str("\nlines, self:\n");
        for (place, c) in Profile::top(&self.lines, n) {
            out.push_str(&format!("{:>6.1}%  {place}\n", pct(c)));
        }
        out
    }
}

/// The name of the function at a stack level: where it is defined and what its caller calls it.
fn function_name(d: &Debug) -> Option<String> {
    let src = d.source();
    if src.what == "C" {
        return None;
    }
    let name = d.names().name.map(|n| n.to_string());
    let file = src.short_src.as_deref().unwrap_or("?");
    Some(match name {
        Some(name) => format!("{file}:{} {name}", src.line_defined.unwrap_or(0)),
        None => format!("{file}:{}", src.line_defined.unwrap_or(0)),
    })
}

/// Records one sample of the running stack.
fn sample(lua: &Lua, d: &Debug, profile: &RefCell<Profile>) {
    let src = d.source();
    let line = format!(
        "{}:{}",
        src.short_src.as_deref().unwrap_or("?"),
        d.current_line().unwrap_or(0)
    );
    let mut p = profile.borrow_mut();
    p.samples += 1;
    *p.lines.entry(line).or_default() += 1;
    // A function on the stack twice (recursion) is charged once per sample.
    let mut seen = BTreeSet::new();
    for level in 0..DEPTH {
        match lua.inspect_stack(level, function_name) {
            None => break,
            Some(Some(f)) => {
                if seen.insert(f.clone()) {
                    *p.functions.entry(f).or_default() += 1;
                }
            }
            Some(None) => {}
        }
    }
}

/// Plays random games for `duration` with the sampling hook on, and returns the profile.
pub fn profile(rules: Rc<Rules>, seats: u32, duration: Duration) -> Result<Profile> {
    let profile = Rc::new(RefCell::new(Profile::default()));
    let lua = rules.host.lua.clone();
    let cap = rules.host.limits.budget().steps;
    let mut starter = Starter::new(rules, seats);
    let start = Instant::now();
    let mut seed = 1;
    // The hook is set again only where the limits removed it: setting it restarts Lua's
    // count, so setting it before every step would drop each step's last instructions.
    let install = |removed: &mut Option<u64>, game: &crate::session::Game| {
        let now = game.rules.host.limits.hooks_removed();
        if *removed == Some(now) {
            return Ok(());
        }
        *removed = Some(now);
        let p = profile.clone();
        lua.set_hook(
            HookTriggers::new().every_nth_instruction(EVERY),
            move |lua, d| {
                sample(lua, d, &p);
                Ok(VmState::Continue)
            },
        )
    };
    while start.elapsed() < duration || profile.borrow().games == 0 {
        // Checked before every step: the limits' watchdog replaces the hook on a call that
        // runs long and removes it when the call returns (that call's samples are lost).
        let mut removed = None;
        let played = random_playout_with(&mut starter, seed, cap, |game| {
            install(&mut removed, game).map_err(anyhow::Error::from)
        });
        lua.remove_hook();
        let played = played?;
        let mut p = profile.borrow_mut();
        p.games += 1;
        p.decisions += played.decisions;
        seed += 1;
    }
    Ok(profile.take())
}
