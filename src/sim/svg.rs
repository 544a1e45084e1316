//! A study's chart as SVG: every measure with its 95% interval, one row a measure (forest
//! plots, so that twenty measures keep their labels apart), the paired differences of an A/B
//! study with the significant ones marked, and the game-length histograms side by side. Plain
//! SVG 1.1, no script, no external font.
//!
//! Shares (wins, draws, counters of games, forced decisions) share one axis from 0 to 100%;
//! a mean (length, points, a counter) and each difference get their own axis, fitted to its
//! intervals, with round ticks. Every mark carries its meaning in attributes (`class`,
//! `data-variant`, `data-measure`, `data-bin`, `data-significant`) so that tests and tools
//! can read the chart back; that is also why the chart is written here rather than through a
//! plotting library, whose SVG output says nothing of what a mark stands for.

use std::fmt::Write;

use super::report::{Kind, Report};
use super::stats::Interval;
use crate::svg::{esc, num, open};

const WIDTH: f64 = 760.0;
/// Where the plots start: the labels' column is left of it.
const LEFT: f64 = 230.0;
const RIGHT: f64 = WIDTH - 30.0;
/// A row's height for each variant, and the gap between measures.
const LINE: f64 = 13.0;
const GAP: f64 = 9.0;
const HISTOGRAM: f64 = 240.0;
const COLOURS: [&str; 2] = ["#3b6ea8", "#d9822b"];

pub fn chart(report: &Report) -> String {
    let names: Vec<&str> = report.variants.iter().map(|v| v.variant.as_str()).collect();
    let mut body = String::new();
    let mut y = 70.0;
    y = measures(&mut body, report, y);
    if !report.differences.is_empty() {
        y = differences(&mut body, report, y + 30.0);
    }
    y = lengths(&mut body, report, y + 30.0);
    let mut s = String::new();
    let title = format!(
        "{}: {} ({} games each)",
        report.game,
        names.join(" vs "),
        report.finished
    );
    open(&mut s, WIDTH, y + 20.0, &title);
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="10" y="24" font-size="16">{}: {} — {} games each, bots {}</text>"#,
        esc(&report.game),
        esc(&names.join(" vs ")),
        report.finished,
        esc(&report.bots.join(","))
    );
    for (i, n) in names.iter().enumerate() {
        let x = 10.0 + 200.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<g class="legend"><rect x="{x}" y="36" width="12" height="12" fill="{}"/><text x="{}" y="47">{}</text></g>"#,
            COLOURS[i % 2],
            x + 18.0,
            esc(n)
        );
    }
    s.push_str(&body);
    s.push_str("</svg>\n");
    s
}

/// Round tick values covering `[lo, hi]`: steps of 1, 2, 2.5 or 5 times a power of ten, at
/// most six of them.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let step = [1.0, 2.0, 2.5, 5.0]
        .iter()
        .flat_map(|m| (-9..10).map(move |e| m * 10f64.powi(e)))
        .filter(|&s| span / s <= 5.0)
        .fold(f64::INFINITY, f64::min);
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// A tick's label: no more decimals than the ticks' `step` needs (25%, 0.5, 0.25).
fn tick_label(v: f64, step: f64, unit: &str) -> String {
    let decimals = (0..10)
        .find(|&d| {
            let x = step * 10f64.powi(d);
            (x - x.round()).abs() < 1e-6
        })
        .unwrap_or(2) as usize;
    format!("{v:.decimals$}{unit}")
}

/// The step between round ticks (1 for a single tick).
fn step(ticks: &[f64]) -> f64 {
    ticks.windows(2).map(|w| w[1] - w[0]).next().unwrap_or(1.0)
}

/// An axis along the bottom of a plot from `top` to `bottom`, mapping `[lo, hi]` to the plot's
/// width; returns the map.
fn axis(
    s: &mut String,
    top: f64,
    bottom: f64,
    ticks: &[f64],
    unit: &str,
    scale: f64,
) -> impl Fn(f64) -> f64 + use<> {
    let (lo, hi) = (ticks[0], ticks[ticks.len() - 1]);
    let x = move |v: f64| LEFT + (RIGHT - LEFT) * (v - lo) / (hi - lo);
    let _ = writeln!(
        s,
        r##"<path class="axis" d="M{} {}H{}" stroke="#444" fill="none"/>"##,
        num(LEFT),
        num(bottom),
        num(RIGHT)
    );
    for &t in ticks {
        let _ = writeln!(
            s,
            r##"<path class="grid" d="M{} {}V{}" stroke="#ddd" fill="none"/><text x="{}" y="{}" text-anchor="middle" font-size="10">{}</text>"##,
            num(x(t)),
            num(top),
            num(bottom),
            num(x(t)),
            num(bottom + 12.0),
            tick_label(t * scale, step(ticks) * scale, unit)
        );
    }
    x
}

/// One measure's marks: the estimate as a dot, the interval as a whiskered line.
fn marks(s: &mut String, x: &dyn Fn(f64) -> f64, y: f64, i: &Interval, attrs: &str, colour: &str) {
    let _ = writeln!(
        s,
        r#"<path class="interval" {attrs} d="M{} {}H{}M{} {}v6M{} {}v6" stroke="{colour}" fill="none"/><circle class="estimate" {attrs} cx="{}" cy="{}" r="3" fill="{colour}"/>"#,
        num(x(i.low)),
        num(y),
        num(x(i.high)),
        num(x(i.low)),
        num(y - 3.0),
        num(x(i.high)),
        num(y - 3.0),
        num(x(i.estimate)),
        num(y)
    );
}

/// Every measure of every variant, shares first on one 0–100% axis, then each mean on its own.
fn measures(s: &mut String, report: &Report, top: f64) -> f64 {
    let Some(first) = report.variants.first() else {
        return top;
    };
    let per_row = LINE * report.variants.len() as f64 + GAP;
    let _ = writeln!(s, r#"<g id="measures">"#);
    let _ = writeln!(
        s,
        r#"<text x="10" y="{}">each measure with its 95% interval</text>"#,
        num(top)
    );
    let shares: Vec<usize> = (0..first.measures.len())
        .filter(|&m| first.measures[m].kind != Kind::Mean)
        .collect();
    let means: Vec<usize> = (0..first.measures.len())
        .filter(|&m| first.measures[m].kind == Kind::Mean)
        .collect();
    let mut y = top + 14.0;
    if !shares.is_empty() {
        let bottom = y + per_row * shares.len() as f64;
        let x = axis(s, y, bottom, &ticks(0.0, 1.0), "%", 100.0);
        for &m in &shares {
            row(s, report, m, y, &x);
            y += per_row;
        }
        y = bottom + 24.0;
    }
    for &m in &means {
        let intervals: Vec<&Interval> = report
            .variants
            .iter()
            .map(|v| &v.measures[m].interval)
            .filter(|i| !i.estimate.is_nan())
            .collect();
        let lo = intervals
            .iter()
            .map(|i| i.low)
            .fold(f64::INFINITY, f64::min);
        let hi = intervals
            .iter()
            .map(|i| i.high)
            .fold(f64::NEG_INFINITY, f64::max);
        let t = if lo.is_finite() {
            ticks(lo, hi)
        } else {
            ticks(0.0, 1.0)
        };
        let bottom = y + per_row;
        let x = axis(s, y, bottom, &t, "", 1.0);
        row(s, report, m, y, &x);
        y = bottom + 24.0;
    }
    s.push_str("</g>\n");
    y
}

/// Measure `m`'s label and each variant's marks, from `y` down.
fn row(s: &mut String, report: &Report, m: usize, y: f64, x: &dyn Fn(f64) -> f64) {
    let name = &report.variants[0].measures[m].name;
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
        num(LEFT - 8.0),
        num(y + LINE),
        esc(name)
    );
    for (v, variant) in report.variants.iter().enumerate() {
        let i = &variant.measures[m].interval;
        if i.estimate.is_nan() {
            continue; // not measured in this variant
        }
        let attrs = format!(
            r#"data-variant="{}" data-measure="{}""#,
            esc(&variant.variant),
            esc(name)
        );
        let yy = y + LINE * (v as f64 + 1.0);
        marks(s, x, yy, i, &attrs, COLOURS[v % 2]);
    }
}

/// The paired differences (B − A), each on its own axis through 0, the significant ones bold.
fn differences(s: &mut String, report: &Report, top: f64) -> f64 {
    let names: Vec<&str> = report.variants.iter().map(|v| v.variant.as_str()).collect();
    let _ = writeln!(s, r#"<g id="differences">"#);
    let _ = writeln!(
        s,
        r#"<text x="10" y="{}">{} − {}, paired by game, 95% intervals; significant (Holm, 5% for all {}) in black</text>"#,
        num(top),
        esc(names.get(1).copied().unwrap_or("")),
        esc(names[0]),
        report.differences.len()
    );
    let mut y = top + 14.0;
    for d in &report.differences {
        let (scale, unit) = if d.kind == Kind::Mean {
            (1.0, "")
        } else {
            (100.0, " pts")
        };
        // an axis through 0 reaching the interval's far end (a point of its unit when the
        // two variants never differed)
        let reach = d.interval.low.abs().max(d.interval.high.abs());
        let reach = if reach > 0.0 { reach } else { 1.0 / scale };
        let t = ticks(-reach, reach);
        let bottom = y + LINE + GAP;
        let x = axis(s, y, bottom, &t, unit, scale);
        let _ = writeln!(
            s,
            r##"<path class="zero" d="M{} {}V{}" stroke="#888" fill="none"/><text x="{}" y="{}" text-anchor="end">{}</text>"##,
            num(x(0.0)),
            num(y),
            num(bottom),
            num(LEFT - 8.0),
            num(y + LINE),
            esc(&d.name)
        );
        let attrs = format!(
            r#"data-measure="{}" data-significant="{}""#,
            esc(&d.name),
            d.significant
        );
        let colour = if d.significant { "black" } else { "#999" };
        marks(s, &x, y + LINE, &d.interval, &attrs, colour);
        y = bottom + 24.0;
    }
    s.push_str("</g>\n");
    y
}

/// The game-length histograms, each bin's bars side by side, as shares of each variant's games.
fn lengths(s: &mut String, report: &Report, top: f64) -> f64 {
    let _ = writeln!(s, r#"<g id="lengths">"#);
    let _ = writeln!(
        s,
        r#"<text x="10" y="{}">game length (decisions), share of games</text>"#,
        num(top)
    );
    let (y0, h) = (top + HISTOGRAM, HISTOGRAM - 30.0);
    let shares: Vec<Vec<f64>> = report
        .variants
        .iter()
        .map(|v| {
            let n = v.games.max(1) as f64;
            v.histogram.iter().map(|&c| c as f64 / n).collect()
        })
        .collect();
    let peak = shares.iter().flatten().copied().fold(0.0, f64::max);
    let t = ticks(0.0, peak.max(0.01));
    let top_tick = t[t.len() - 1];
    let _ = writeln!(
        s,
        r##"<path class="axis" d="M{} {}V{}H{}" stroke="#444" fill="none"/>"##,
        num(LEFT - 170.0),
        num(y0 - h),
        num(y0),
        num(RIGHT)
    );
    let left = LEFT - 170.0;
    for &v in &t {
        let y = y0 - h * v / top_tick;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end" font-size="10">{}</text>"#,
            num(left - 4.0),
            num(y + 4.0),
            tick_label(100.0 * v, 100.0 * step(&t), "%")
        );
    }
    let bins = report.bins.len() - 1;
    let slot = (RIGHT - left) / bins.max(1) as f64;
    let bar = slot / report.variants.len() as f64;
    for b in 0..bins {
        let x0 = left + slot * b as f64;
        for (v, share) in shares.iter().enumerate() {
            let hh = h * share[b] / top_tick;
            let _ = writeln!(
                s,
                r#"<rect class="bin" data-variant="{}" data-bin="{}-{}" x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                esc(&report.variants[v].variant),
                report.bins[b],
                report.bins[b + 1],
                num(x0 + bar * v as f64),
                num(y0 - hh),
                num((bar - 1.0).max(0.5)),
                num(hh),
                COLOURS[v % 2]
            );
        }
        if b % (bins / 8).max(1) == 0 {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" font-size="10">{}</text>"#,
                num(x0),
                num(y0 + 14.0),
                report.bins[b]
            );
        }
    }
    s.push_str("</g>\n");
    y0 + 20.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let shares = ticks(0.0, 1.0);
        let want = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0];
        assert!(
            shares.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12),
            "{shares:?}"
        );
        let t = ticks(0.06, 0.22);
        assert!(t[0] <= 0.06 && *t.last().unwrap() >= 0.22, "{t:?}");
        let steps: Vec<f64> = t.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(steps.iter().all(|s| (s - steps[0]).abs() < 1e-12), "{t:?}");
        assert!(t.len() <= 7, "{t:?}");
        assert_eq!(tick_label(25.0, 25.0, "%"), "25%");
        assert_eq!(tick_label(1.0, 0.5, ""), "1.0");
        assert_eq!(tick_label(0.25, 0.25, ""), "0.25");
    }
}
