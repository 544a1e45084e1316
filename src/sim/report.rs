//! The report of a study, from its per-game records: wins per seat and team with Wilson
//! intervals, draws, game length, the rules' counters, and for two variants the paired
//! differences with a plain statement of which are significant. The same records give the
//! same report, whether they come from one run or from merged shards.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde::Serialize;

use super::drama::Drama;
use super::stats::{
    Interval, LEVEL, Summary, holm, mean_test_at, paired_test_at, summary, wilson_at,
};
use super::study::{Cut, Results, game_seed, strong_seat, variant_name, winners};

/// The reward of each seat at the end of a game: the winners (highest score) share 1.
pub fn rewards(scores: &[f64], seats: usize) -> Vec<f64> {
    let winners = winners(scores);
    let mut out = vec![0.0; seats];
    if winners.is_empty() {
        out.fill(1.0 / seats as f64);
    }
    for &w in &winners {
        out[w] = 1.0 / winners.len() as f64;
    }
    out
}

/// A measured quantity: a proportion of games (wins, draws), a mean per game, or the mean of
/// a share each game has (of its decisions that were forced).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Each game counts 0 or 1: a Wilson interval.
    Proportion,
    /// Any number a game: Student's t.
    Mean,
    /// A share in [0, 1] a game: Student's t, clamped to [0, 1].
    Share,
}

/// One quantity in one variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measure {
    pub name: String,
    pub kind: Kind,
    /// Games it counted (for a proportion), or the sum (for a mean).
    pub total: f64,
    pub interval: Interval,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantReport {
    pub variant: String,
    pub games: u64,
    pub measures: Vec<Measure>,
    /// Each seat's fair share of the decided games (1 / seats), and how far the first seat's
    /// share of them is from it.
    pub balance: Balance,
    /// Decisions per game.
    pub length: Summary,
    /// Turns per game.
    pub turns: Summary,
    /// Game-length histogram on the bins of [`Report::bins`].
    pub histogram: Vec<u64>,
    /// The first games stopped before their end, with their seeds, to look at again.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub first_cut: Vec<CutGame>,
}

/// The first seat's edge: its share of the games someone won, against a fair share.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Balance {
    pub fair_share: f64,
    /// Games someone won (neither drawn nor stopped).
    pub decided: u64,
    /// The first seat's share of the decided games minus its fair share.
    pub first_seat_edge: Interval,
}

/// A game stopped before its end: which, its seed, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CutGame {
    pub game: u64,
    pub seed: u64,
    pub cut: Cut,
}

/// How many stopped games a report names.
const FIRST_CUT: usize = 3;

/// `b − a` of one quantity, paired game by game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    pub name: String,
    pub kind: Kind,
    pub interval: Interval,
    /// The two-sided p-value of "no difference" (paired t test).
    pub p: f64,
    /// Whether Holm's method over every difference of the report rejects "no difference" at
    /// 5% family-wise.
    pub significant: bool,
}

/// The chance that a report calls any difference significant when none is real.
pub const FAMILY_ALPHA: f64 = 0.05;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub game: String,
    pub seed: u64,
    pub players: u32,
    /// The seats' names, in seat order.
    pub seats: Vec<String>,
    /// What a measure counts, by its name, where it says more than the name: the kernel's
    /// (`length`: decisions) and the counters the rules declare (`counters`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub units: BTreeMap<String, String>,
    pub bots: Vec<String>,
    /// What a reader must know about the bots (see [`super::study::Spec::warnings`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The strong and the weak bot of a skill study (`bots` is then unused).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<[String; 2]>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub house: Vec<String>,
    pub sets: Vec<String>,
    /// Games the run was asked for, and how many of each variant finished.
    pub asked: u64,
    pub finished: u64,
    pub variants: Vec<VariantReport>,
    /// Lower edges of the game-length histogram's bins, then the last bin's upper edge.
    pub bins: Vec<u64>,
    pub differences: Vec<Difference>,
    /// The confidence of every interval (0.95 unless a sequential rule asked for more).
    pub level: f64,
}

/// Whether some game of the study scored beyond 0 and 1: then its scores are points (a
/// backgammon game won with the cube at 4, Jackal's coins) and the report gives each seat's.
fn scores_points(results: &Results) -> bool {
    results
        .records
        .iter()
        .flatten()
        .any(|r| r.scores.iter().any(|&x| x != 0.0 && x != 1.0))
}

/// `part / whole` per game; not measured (NaN) in a game without decisions.
fn per_decision(part: u64, decisions: u64) -> f64 {
    if decisions == 0 {
        f64::NAN
    } else {
        part as f64 / decisions as f64
    }
}

/// Every quantity's per-game values in one variant, by name, in report order; NaN where a
/// game does not measure it (a share of decisions, in a game with none).
fn per_game(results: &Results, v: usize, counters: &[String]) -> Vec<(String, Kind, Vec<f64>)> {
    let records = &results.records[v];
    let rules = &results.rulesets[v];
    let wins: Vec<Vec<usize>> = records.iter().map(|r| winners(&r.scores)).collect();
    let mut out = Vec::new();
    if let Some([strong, weak]) = &results.spec.skill {
        let players = results.spec.players;
        let xs = records
            .iter()
            .zip(&wins)
            .map(|(r, w)| f64::from(u8::from(w.contains(&strong_seat(r.game, players)))))
            .collect();
        out.push((
            format!("{strong} wins against {weak}"),
            Kind::Proportion,
            xs,
        ));
    }
    for (s, name) in rules.seat_names.iter().enumerate() {
        let xs = wins
            .iter()
            .map(|w| f64::from(u8::from(w.contains(&s))))
            .collect();
        out.push((format!("{name} wins"), Kind::Proportion, xs));
    }
    let teams: BTreeSet<u32> = rules.teams.iter().copied().collect();
    if teams.len() < rules.teams.len() {
        for t in teams {
            let seats: Vec<usize> = (0..rules.teams.len())
                .filter(|&s| rules.teams[s] == t)
                .collect();
            let names: Vec<&str> = seats
                .iter()
                .map(|&s| rules.seat_names[s].as_str())
                .collect();
            let xs = wins
                .iter()
                .map(|w| f64::from(u8::from(w.iter().any(|s| seats.contains(s)))))
                .collect();
            out.push((
                format!("team {} wins", names.join("+")),
                Kind::Proportion,
                xs,
            ));
        }
    }
    let draws = wins
        .iter()
        .zip(records)
        .map(|(w, r)| f64::from(u8::from(w.is_empty() && r.cut.is_none())))
        .collect();
    out.push(("draws".into(), Kind::Proportion, draws));
    // games stopped before their end, apart from natural draws, in every study that had any
    for (cut, name) in [(Cut::Cap, "cut at the cap"), (Cut::Stall, "stalled")] {
        if results.records.iter().flatten().any(|r| r.cut == Some(cut)) {
            let xs = records
                .iter()
                .map(|r| f64::from(u8::from(r.cut == Some(cut))))
                .collect();
            out.push((name.into(), Kind::Proportion, xs));
        }
    }
    let length = records.iter().map(|r| r.decisions as f64).collect();
    out.push(("length".into(), Kind::Mean, length));
    let turns: Vec<f64> = records.iter().map(|r| r.turns as f64).collect();
    let seats = rules.seat_names.len().max(1) as f64;
    let rounds = turns.iter().map(|t| t / seats).collect();
    // rules that count their own turns or rounds (`G:stat`) know them better
    for (name, xs) in [("turns", turns), ("rounds", rounds)] {
        if !counters.iter().any(|c| c == name) {
            out.push((name.into(), Kind::Mean, xs));
        }
    }
    let options = records.iter().map(|r| per_decision(r.options, r.decisions));
    out.push(("options a decision".into(), Kind::Mean, options.collect()));
    let forced = records.iter().map(|r| per_decision(r.forced, r.decisions));
    out.push(("forced decisions".into(), Kind::Share, forced.collect()));
    // `--drama`: the learned evaluation traced through each decided game
    if results.spec.drama {
        type Of = fn(&Drama) -> f64;
        let measures: [(&str, Kind, Of); 3] = [
            ("lead changes", Kind::Mean, |d| d.lead_changes as f64),
            ("settled at", Kind::Share, |d| d.settled_at),
            ("winner's deficit", Kind::Share, |d| d.deficit),
        ];
        for (name, kind, of) in measures {
            let xs = records
                .iter()
                .map(|r| r.drama.as_ref().map_or(f64::NAN, of))
                .collect();
            out.push((name.into(), kind, xs));
        }
    }
    if scores_points(results) {
        for (s, name) in rules.seat_names.iter().enumerate() {
            let xs = records
                .iter()
                .map(|r| {
                    let others: f64 = r.scores.iter().sum::<f64>() - r.scores[s];
                    r.scores[s] - others / (seats - 1.0).max(1.0)
                })
                .collect();
            out.push((format!("{name} points"), Kind::Mean, xs));
        }
    }
    for c in counters {
        let xs = records
            .iter()
            .map(|r| r.stats.get(c).copied().unwrap_or(0) as f64)
            .collect();
        // a counter that is 0 or 1 in every game of the study counts games: a proportion
        let yes_or_no = results
            .records
            .iter()
            .flatten()
            .all(|r| matches!(r.stats.get(c).copied().unwrap_or(0), 0 | 1));
        let kind = if yes_or_no {
            Kind::Proportion
        } else {
            Kind::Mean
        };
        out.push((c.clone(), kind, xs));
    }
    out
}

/// The first seat's share of the decided games against its fair share, with Wilson's
/// interval moved by the fair share (so it stays within what a share can be).
fn balance(records: &[super::study::Record], level: f64) -> Balance {
    let seats = records.first().map_or(1, |r| r.scores.len().max(1));
    let fair_share = 1.0 / seats as f64;
    let (mut decided, mut first) = (0, 0);
    for r in records {
        let w = winners(&r.scores);
        if r.cut.is_none() && !w.is_empty() {
            decided += 1;
            first += u64::from(w.contains(&0));
        }
    }
    let share = if decided > 0 {
        wilson_at(first, decided, level)
    } else {
        Interval {
            estimate: 0.0,
            low: 0.0,
            high: 1.0,
        }
    };
    Balance {
        fair_share,
        decided,
        first_seat_edge: Interval {
            estimate: share.estimate - fair_share,
            low: share.low - fair_share,
            high: share.high - fair_share,
        },
    }
}

/// The variants' measures under the same names in the same order: a measure only one variant
/// has (a team, in a variant that seats teams) is not measured (NaN) in the other.
fn aligned(mut samples: Vec<Vec<(String, Kind, Vec<f64>)>>) -> Vec<Vec<(String, Kind, Vec<f64>)>> {
    let mut names: Vec<(String, Kind)> = Vec::new();
    for sample in &samples {
        for (name, kind, _) in sample {
            if !names.iter().any(|(n, _)| n == name) {
                names.push((name.clone(), *kind));
            }
        }
    }
    for sample in &mut samples {
        let games = sample.first().map_or(0, |(_, _, xs)| xs.len());
        let mut by_name: Vec<Option<(String, Kind, Vec<f64>)>> =
            std::mem::take(sample).into_iter().map(Some).collect();
        for (name, kind) in &names {
            let found = by_name
                .iter_mut()
                .find(|m| m.as_ref().is_some_and(|(n, _, _)| n == name))
                .and_then(Option::take);
            sample.push(found.unwrap_or_else(|| (name.clone(), *kind, vec![f64::NAN; games])));
        }
    }
    samples
}

/// A piece of a name in natural order: numbers by value, so that "cube 16" follows "cube 4".
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Chunk {
    Number(u64),
    Text(String),
}

/// `name` as chunks of digits and of other characters, compared in that order.
fn natural(name: &str) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        let digits = c.is_ascii_digit();
        let end = rest
            .find(|c: char| c.is_ascii_digit() != digits)
            .unwrap_or(rest.len());
        let (chunk, tail) = rest.split_at(end);
        out.push(match chunk.parse() {
            Ok(n) if digits => Chunk::Number(n),
            _ => Chunk::Text(chunk.to_string()),
        });
        rest = tail;
    }
    out
}

/// Histogram bins over every variant's lengths: about 20 of a round width.
fn bins(results: &Results) -> Vec<u64> {
    let lengths = results.records.iter().flatten().map(|r| r.decisions);
    let (lo, hi) = lengths.fold((u64::MAX, 0), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if lo > hi {
        return vec![0, 1];
    }
    let raw = ((hi - lo) / 20).max(1);
    let width = [1, 2, 5]
        .iter()
        .flat_map(|m| (0..12).map(move |e| m * 10u64.pow(e)))
        .filter(|&w| w >= raw)
        .min()
        .unwrap_or(raw);
    let start = lo / width * width;
    let mut edges = vec![start];
    while *edges.last().expect("one edge") <= hi {
        edges.push(edges.last().expect("one edge") + width);
    }
    edges
}

impl Report {
    /// The report with 95% intervals.
    pub fn of(results: &Results) -> Report {
        Report::at(results, LEVEL)
    }

    /// The report with intervals at confidence `level` (a sequential rule's looks ask for
    /// more than 95%).
    pub fn at(results: &Results, level: f64) -> Report {
        let spec = &results.spec;
        let mut counters: Vec<String> = results
            .records
            .iter()
            .flatten()
            .flat_map(|r| r.stats.keys().cloned())
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        counters.sort_by_cached_key(|c| natural(c));
        let edges = bins(results);
        let samples = aligned(
            (0..results.records.len())
                .map(|v| per_game(results, v, &counters))
                .collect(),
        );
        let variants = samples
            .iter()
            .zip(&results.records)
            .zip(&spec.variants)
            .map(|((sample, records), v)| {
                let n = records.len() as u64;
                let measures = sample
                    .iter()
                    .map(|(name, kind, xs)| {
                        let xs: Vec<f64> = xs.iter().copied().filter(|x| !x.is_nan()).collect();
                        let total = xs.iter().sum::<f64>();
                        let interval = match kind {
                            _ if xs.is_empty() => Interval::NONE,
                            Kind::Proportion => wilson_at(total as u64, xs.len() as u64, level),
                            Kind::Share => mean_test_at(&xs, level).0.clamped(0.0, 1.0),
                            Kind::Mean => mean_test_at(&xs, level).0,
                        };
                        Measure {
                            name: name.clone(),
                            kind: *kind,
                            total,
                            interval,
                        }
                    })
                    .collect();
                let lengths: Vec<f64> = records.iter().map(|r| r.decisions as f64).collect();
                let turns: Vec<f64> = records.iter().map(|r| r.turns as f64).collect();
                let mut histogram = vec![0; edges.len() - 1];
                for r in records {
                    let bin = edges.partition_point(|&e| e <= r.decisions) - 1;
                    histogram[bin.min(edges.len() - 2)] += 1;
                }
                let first_cut = records
                    .iter()
                    .filter_map(|r| {
                        r.cut.map(|cut| CutGame {
                            game: r.game,
                            seed: game_seed(spec.seed, r.game),
                            cut,
                        })
                    })
                    .take(FIRST_CUT)
                    .collect();
                VariantReport {
                    variant: variant_name(v).to_string(),
                    games: n,
                    measures,
                    balance: balance(records, level),
                    length: summary(&lengths),
                    turns: summary(&turns),
                    histogram,
                    first_cut,
                }
            })
            .collect();
        let mut differences = Vec::new();
        if let [a, b] = &samples[..] {
            for ((name, kind, xs), (_, _, ys)) in a.iter().zip(b) {
                // the games that measure it in both variants
                let (xs, ys): (Vec<f64>, Vec<f64>) = xs
                    .iter()
                    .zip(ys)
                    .filter(|(x, y)| !x.is_nan() && !y.is_nan())
                    .unzip();
                if xs.is_empty() {
                    continue;
                }
                let (mut interval, p) = paired_test_at(&xs, &ys, level);
                if *kind != Kind::Mean {
                    // a difference of two shares lies in [-1, 1]
                    interval = interval.clamped(-1.0, 1.0);
                }
                differences.push(Difference {
                    name: name.clone(),
                    kind: *kind,
                    interval,
                    p,
                    significant: false,
                });
            }
            let ps: Vec<f64> = differences.iter().map(|d| d.p).collect();
            for (d, rejected) in differences.iter_mut().zip(holm(&ps, FAMILY_ALPHA)) {
                d.significant = rejected;
            }
        }
        Report {
            game: spec.game.clone(),
            seed: spec.seed,
            players: spec.players,
            seats: results
                .rulesets
                .first()
                .map_or_else(Vec::new, |r| r.seat_names.clone()),
            units: units(results),
            bots: spec.bots.clone(),
            skill: spec.skill.clone(),
            warnings: spec.warnings(),
            house: spec.house.clone(),
            sets: spec.sets.clone(),
            asked: results.asked,
            finished: results.records.first().map_or(0, |r| r.len() as u64),
            variants,
            bins: edges,
            differences,
            level,
        }
    }

    /// A measure's name as the text report shows it: with what it counts, if that is known
    /// (`flips (tiles turned up)`).
    fn label(&self, name: &str) -> String {
        match self.units.get(name) {
            Some(unit) => format!("{name} ({unit})"),
            None => name.to_string(),
        }
    }

    /// The report as a person reads it.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let names: Vec<&str> = self.variants.iter().map(|v| v.variant.as_str()).collect();
        let bots = match &self.skill {
            Some([strong, weak]) => {
                format!("skill: {strong} against {weak}, its seat moving game by game")
            }
            None => format!("bots {}", self.bots.join(",")),
        };
        let _ = writeln!(
            out,
            "{} ({} players; {bots}; seed {}{}{}): {}",
            self.game,
            self.players,
            self.seed,
            if self.house.is_empty() {
                String::new()
            } else {
                format!("; house {}", self.house.join(" "))
            },
            if self.sets.is_empty() {
                String::new()
            } else {
                format!("; set {}", self.sets.join(" "))
            },
            names.join(" vs ")
        );
        for w in &self.warnings {
            let _ = writeln!(out, "note: {w}");
        }
        if self.finished < self.asked {
            let _ = writeln!(
                out,
                "interrupted: {} of {} games finished; the figures are of those",
                self.finished, self.asked
            );
        } else {
            let _ = writeln!(
                out,
                "{} games each, {}% intervals",
                self.finished,
                percent(self.level)
            );
        }
        // the first seat's share of decided games, against its fair share
        let edge = self.variants.first().map(|v| {
            format!(
                "{} edge on {:.0}% of decided",
                self.seats.first().map_or("P1", String::as_str),
                100.0 * v.balance.fair_share
            )
        });
        let width = self
            .variants
            .first()
            .map_or(0, |v| {
                v.measures
                    .iter()
                    .map(|m| self.label(&m.name).chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .max("length median".len())
            .max(edge.as_ref().map_or(0, |e| e.chars().count()));
        let _ = write!(out, "\n{:width$}", "");
        for n in &names {
            let _ = write!(out, "  {n:>26}");
        }
        out.push('\n');
        let rows = self.variants.first().map_or(0, |v| v.measures.len());
        for i in 0..rows {
            let _ = write!(
                out,
                "{:width$}",
                self.label(&self.variants[0].measures[i].name)
            );
            for v in &self.variants {
                let _ = write!(out, "  {:>26}", cell(&v.measures[i]));
            }
            out.push('\n');
        }
        for what in ["length", "turns"] {
            for (label, pick) in [("p10", 0usize), ("median", 1), ("p90", 2), ("max", 3)] {
                let _ = write!(out, "{:width$}", format!("{what} {label}"));
                for v in &self.variants {
                    let l = if what == "length" {
                        &v.length
                    } else {
                        &v.turns
                    };
                    let x = [l.p10, l.median, l.p90, l.max][pick];
                    let _ = write!(out, "  {x:>26}");
                }
                out.push('\n');
            }
        }
        if let Some(edge) = &edge {
            let _ = write!(out, "{edge:width$}");
            for v in &self.variants {
                let _ = write!(
                    out,
                    "  {:>26}",
                    signed(Kind::Share, &v.balance.first_seat_edge)
                );
            }
            out.push('\n');
        }
        for v in &self.variants {
            if v.first_cut.is_empty() {
                continue;
            }
            let games: Vec<String> = v
                .first_cut
                .iter()
                .map(|c| {
                    let why = match c.cut {
                        Cut::Cap => "cap",
                        Cut::Stall => "stall",
                    };
                    format!("game {} (seed {}, {why})", c.game, c.seed)
                })
                .collect();
            let _ = writeln!(
                out,
                "{}: stopped before the end: {}",
                v.variant,
                games.join(", ")
            );
        }
        if let [a, b] = &names[..] {
            let _ = writeln!(
                out,
                "\n{b} − {a}, paired by game (game k of both shared its random streams); {} comparisons, significant by Holm's method at 5% for them all:",
                self.differences.len()
            );
            for d in &self.differences {
                let _ = writeln!(
                    out,
                    "{:width$}  {:>26}  {}",
                    self.label(&d.name),
                    signed(d.kind, &d.interval),
                    if d.significant { "significant" } else { "" }
                );
            }
            let (yes, no): (Vec<&Difference>, Vec<&Difference>) =
                self.differences.iter().partition(|d| d.significant);
            let _ = writeln!(out, "\n{}", verdict(b, &yes, &no));
        }
        out.trim_end().to_string()
    }
}

/// What the study's measures count: the kernel's own, then the counters the first variant's
/// rules declare.
fn units(results: &Results) -> BTreeMap<String, String> {
    let mut units = BTreeMap::from([("length".to_string(), "decisions".to_string())]);
    if let Some(rules) = results.rulesets.first() {
        units.extend(rules.units.clone());
    }
    units
}

/// A confidence level as a percentage, with no more digits than it needs (95, 99.375).
pub fn percent(level: f64) -> String {
    let text = format!("{:.4}", 100.0 * level);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A measure in a table cell: `50.3% [48.1, 52.5]` or `52.10 [51.2, 53.0]`.
fn cell(m: &Measure) -> String {
    let i = &m.interval;
    if i.estimate.is_nan() {
        return "not measured".into();
    }
    match m.kind {
        Kind::Proportion | Kind::Share => format!(
            "{:.1}% [{:.1}, {:.1}]",
            100.0 * i.estimate,
            100.0 * i.low,
            100.0 * i.high
        ),
        Kind::Mean => format!("{:.2} [{:.2}, {:.2}]", i.estimate, i.low, i.high),
    }
}

/// A difference: points of percentage for proportions, units for means.
fn signed(kind: Kind, i: &Interval) -> String {
    match kind {
        Kind::Proportion | Kind::Share => format!(
            "{:+.1} pts [{:+.1}, {:+.1}]",
            100.0 * i.estimate,
            100.0 * i.low,
            100.0 * i.high
        ),
        Kind::Mean => format!("{:+.2} [{:+.2}, {:+.2}]", i.estimate, i.low, i.high),
    }
}

/// The plain statement: which differences are significant, and which way they go.
fn verdict(b: &str, yes: &[&Difference], no: &[&Difference]) -> String {
    let mut out = String::new();
    if yes.is_empty() {
        out += "No difference is significant.";
    } else {
        let said: Vec<String> = yes
            .iter()
            .map(|d| {
                let way = if d.interval.estimate > 0.0 {
                    "higher"
                } else {
                    "lower"
                };
                format!("{} is {way}", d.name)
            })
            .collect();
        out += &format!("Significant: with {b}, {}.", said.join(", "));
    }
    if !no.is_empty() && !yes.is_empty() {
        let names: Vec<&str> = no.iter().map(|d| d.name.as_str()).collect();
        out += &format!(" Not significant: {}.", names.join(", "));
    }
    out
}
