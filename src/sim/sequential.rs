//! `sim --until-ci MEASURE=WIDTH`: play until a measure's interval is that narrow, by a rule
//! that keeps the interval honest although the number of games depends on what was seen.
//!
//! The rule: look after `--games` games, then after twice as many, four times as many, … (at
//! most [`MAX_LOOKS`] looks). Look k judges the measure's interval at confidence
//! 1 − 5%/2^k, and the study stops at the first look where it is at most WIDTH wide. The
//! chances that look 1, look 2, … mislead add up to at most 5%/2 + 5%/4 + … < 5%, so the
//! interval the study stops on covers the true value at least 95% of the time, whichever look
//! that is (a union bound: the looks need not be independent). In an A/B study the measure is
//! the paired difference of that name.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::{Result, bail};
use serde::Serialize;

use super::report::{FAMILY_ALPHA, Kind, Report};
use super::stats::Interval;
use super::study::{self, Results, Spec};
use crate::script::Budget;

/// The most looks: the last comes after 2^9 times the first look's games.
pub const MAX_LOOKS: u32 = 10;

/// What `--until-ci` asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub measure: String,
    /// In the measure's units; a share's as a fraction (`2%` is 0.02).
    pub width: f64,
}

impl Target {
    /// `MEASURE=WIDTH`, the width a number in the measure's units or a percentage (`2%`).
    pub fn parse(text: &str) -> Result<Target> {
        let usage =
            "give a measure and a width, as --until-ci 'X wins=2%' or --until-ci length=1.5";
        let Some((measure, width)) = text.rsplit_once('=') else {
            bail!("--until-ci {text}: {usage}");
        };
        let (number, scale) = match width.trim().strip_suffix('%') {
            Some(n) => (n, 0.01),
            None => (width.trim(), 1.0),
        };
        let width = number.trim().parse::<f64>().ok().map(|w| w * scale);
        match width {
            Some(w) if w > 0.0 && w.is_finite() && !measure.trim().is_empty() => Ok(Target {
                measure: measure.trim().to_string(),
                width: w,
            }),
            _ => bail!("--until-ci {text}: the width must be a number above 0; {usage}"),
        }
    }
}

/// The confidence of look `k` (from 1).
pub fn level_at(k: u32) -> f64 {
    1.0 - FAMILY_ALPHA / f64::from(2u32.pow(k))
}

/// How the study stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stopped {
    pub measure: String,
    pub width: f64,
    pub kind: Kind,
    /// Whether the measure is a paired difference (an A/B study).
    pub difference: bool,
    /// Looks taken, and the games of each variant at the last.
    pub looks: u32,
    pub games: u64,
    /// The last look's confidence and the measure's interval at it.
    pub level: f64,
    pub interval: Interval,
    /// Whether the interval got as narrow as asked within [`MAX_LOOKS`] looks.
    pub reached: bool,
}

impl Stopped {
    /// How the study stopped, in a paragraph.
    pub fn text(&self) -> String {
        let i = &self.interval;
        let share = self.kind != Kind::Mean;
        let (x, lo, hi) = if share {
            (100.0 * i.estimate, 100.0 * i.low, 100.0 * i.high)
        } else {
            (i.estimate, i.low, i.high)
        };
        let interval = match (share, self.difference) {
            (false, false) => format!("{x:.2} [{lo:.2}, {hi:.2}]"),
            (false, true) => format!("{x:+.2} [{lo:+.2}, {hi:+.2}]"),
            (true, false) => format!("{x:.1}% [{lo:.1}, {hi:.1}]"),
            (true, true) => format!("{x:+.1} pts [{lo:+.1}, {hi:+.1}]"),
        };
        // as typed: 2%, 0.5
        let width = if share {
            format!("{} pts", 100.0 * self.width)
        } else {
            format!("{}", self.width)
        };
        let how = if self.reached {
            format!("at most {width} wide")
        } else {
            format!("still wider than {width} after {MAX_LOOKS} looks")
        };
        let what = if self.difference {
            format!("the difference in {}", self.measure)
        } else {
            self.measure.clone()
        };
        format!(
            "until-ci: {what} is {how}: {interval} at {}% after {} games (look {}; look k is judged at 1 − 5%/2^k, so that all looks together mislead at most 5% of the time)",
            super::report::percent(self.level),
            self.games,
            self.looks
        )
    }
}

/// The measure's interval in `report` (its paired difference in an A/B study), or an error
/// that names the measures there are.
fn interval_of(report: &Report, measure: &str) -> Result<(Kind, Interval)> {
    let found = match &report.variants[..] {
        [_, _] => report
            .differences
            .iter()
            .find(|d| d.name == measure)
            .map(|d| (d.kind, d.interval)),
        _ => report.variants.first().and_then(|v| {
            v.measures
                .iter()
                .find(|m| m.name == measure)
                .map(|m| (m.kind, m.interval))
        }),
    };
    found.ok_or_else(|| {
        let names: Vec<&str> = report
            .variants
            .first()
            .map(|v| v.measures.iter().map(|m| m.name.as_str()).collect())
            .unwrap_or_default();
        anyhow::anyhow!(
            "--until-ci: no measure '{measure}' in this study (measures: {})",
            names.join(", ")
        )
    })
}

/// Plays the study look by look until `target` is met or [`MAX_LOOKS`] looks are taken;
/// `progress` hears of each look's games as `sim`'s does. An interrupted look ends the study
/// with what finished, and no stopping rule applies (`None`).
pub fn play(
    dir: &Path,
    spec: &Spec,
    budget: &Budget,
    jobs: usize,
    stop: &AtomicBool,
    target: &Target,
    progress: &mut dyn FnMut(Option<u64>),
) -> Result<(Results, Option<Stopped>)> {
    let mut results: Option<Results> = None;
    let mut games = 0;
    for k in 1..=MAX_LOOKS {
        let end = spec.games << (k - 1);
        progress(Some(end - games));
        let block = study::run(dir, spec, budget, games..end, jobs, stop, |n| {
            for _ in 0..n {
                progress(None)
            }
        })?;
        let whole = block.records.first().map_or(0, |r| r.len() as u64) == block.asked;
        let all = match results.take() {
            None => block,
            Some(mut all) => {
                for (records, more) in all.records.iter_mut().zip(block.records) {
                    records.extend(more);
                }
                all.asked += block.asked;
                all
            }
        };
        let all = results.insert(all);
        games = end;
        if !whole {
            break;
        }
        let level = level_at(k);
        let (kind, interval) = interval_of(&Report::at(all, level), &target.measure)?;
        let reached = interval.width() <= target.width;
        if reached || k == MAX_LOOKS {
            all.spec.games = games;
            let stopped = Stopped {
                measure: target.measure.clone(),
                width: target.width,
                kind,
                difference: all.records.len() == 2,
                looks: k,
                games,
                level,
                interval,
                reached,
            };
            return Ok((results.expect("played"), Some(stopped)));
        }
    }
    let mut all = results.expect("at least one look");
    all.spec.games = all.records.first().map_or(0, |r| r.len() as u64);
    Ok((all, None))
}
