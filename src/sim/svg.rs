//! A study's chart as SVG: win and draw rates with their 95% intervals, one bar per variant,
//! and the game-length histograms side by side. Plain SVG 1.1, no script, no external font.
//!
//! Every mark carries its meaning in attributes (`class`, `data-variant`, `data-measure`,
//! `data-bin`) so that tests and tools can read the chart back.

use std::fmt::Write;

use super::report::{Kind, Report};
use crate::svg::{esc, open};

const WIDTH: f64 = 760.0;
const PANEL: f64 = 260.0;
const LEFT: f64 = 60.0;
const COLOURS: [&str; 2] = ["#3b6ea8", "#d9822b"];

pub fn chart(report: &Report) -> String {
    let mut s = String::new();
    let height = 2.0 * PANEL + 140.0;
    let names: Vec<&str> = report.variants.iter().map(|v| v.variant.as_str()).collect();
    let title = format!(
        "{}: {} ({} games each)",
        report.game,
        names.join(" vs "),
        report.finished
    );
    open(&mut s, WIDTH, height, &title);
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="24" font-size="16">{}: {} — {} games each, bots {}</text>"#,
        esc(&report.game),
        esc(&names.join(" vs ")),
        report.finished,
        esc(&report.bots.join(","))
    );
    for (i, n) in names.iter().enumerate() {
        let x = LEFT + 200.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<g class="legend"><rect x="{x}" y="36" width="12" height="12" fill="{}"/><text x="{}" y="47">{}</text></g>"#,
            COLOURS[i % 2],
            x + 18.0,
            esc(n)
        );
    }
    rates(&mut s, report, 70.0);
    lengths(&mut s, report, 110.0 + PANEL);
    s.push_str("</svg>\n");
    s
}

/// Bars of every share (wins, draws, forced decisions), grouped by measure, with interval
/// whiskers.
fn rates(s: &mut String, report: &Report, top: f64) {
    let _ = writeln!(s, r#"<g id="win-rates">"#);
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="{}">shares of games (wins, draws, counters) and of decisions (forced), 95% intervals</text>"#,
        top + 4.0
    );
    let (y0, h) = (top + PANEL, PANEL - 40.0);
    axis(s, y0, h, 100.0, "%");
    let Some(first) = report.variants.first() else {
        s.push_str("</g>\n");
        return;
    };
    let measures: Vec<usize> = (0..first.measures.len())
        .filter(|&i| first.measures[i].kind != Kind::Mean)
        .collect();
    let group = (WIDTH - LEFT - 20.0) / measures.len().max(1) as f64;
    let bar = (group * 0.7 / report.variants.len() as f64).min(60.0);
    for (g, &m) in measures.iter().enumerate() {
        let gx = LEFT + group * g as f64 + group * 0.15;
        for (v, variant) in report.variants.iter().enumerate() {
            let i = &variant.measures[m].interval;
            if i.estimate.is_nan() {
                continue; // not measured in this variant
            }
            let x = gx + bar * v as f64;
            let y = |p: f64| y0 - h * p;
            let _ = writeln!(
                s,
                r#"<rect class="bar" data-variant="{}" data-measure="{}" x="{x:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {:.1}% [{:.1}, {:.1}]</title></rect>"#,
                esc(&variant.variant),
                esc(&variant.measures[m].name),
                y(i.estimate),
                bar - 2.0,
                h * i.estimate,
                COLOURS[v % 2],
                esc(&variant.measures[m].name),
                100.0 * i.estimate,
                100.0 * i.low,
                100.0 * i.high
            );
            let cx = x + (bar - 2.0) / 2.0;
            let _ = writeln!(
                s,
                r#"<path class="interval" data-variant="{}" data-measure="{}" d="M{cx:.1} {:.1}V{:.1}M{:.1} {:.1}h8M{:.1} {:.1}h8" stroke="black" fill="none"/>"#,
                esc(&variant.variant),
                esc(&variant.measures[m].name),
                y(i.low),
                y(i.high),
                cx - 4.0,
                y(i.low),
                cx - 4.0,
                y(i.high)
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            gx + bar * report.variants.len() as f64 / 2.0,
            y0 + 16.0,
            esc(&first.measures[m].name)
        );
    }
    s.push_str("</g>\n");
}

/// The game-length histograms, each bin's bars side by side, as shares of each variant's games.
fn lengths(s: &mut String, report: &Report, top: f64) {
    let _ = writeln!(s, r#"<g id="lengths">"#);
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="{}">game length (decisions), share of games</text>"#,
        top + 4.0
    );
    let (y0, h) = (top + PANEL, PANEL - 40.0);
    let shares: Vec<Vec<f64>> = report
        .variants
        .iter()
        .map(|v| {
            let n = v.games.max(1) as f64;
            v.histogram.iter().map(|&c| c as f64 / n).collect()
        })
        .collect();
    let peak = shares
        .iter()
        .flatten()
        .copied()
        .fold(0.0, f64::max)
        .max(1e-9);
    axis(s, y0, h, 100.0 * peak, "%");
    let bins = report.bins.len() - 1;
    let slot = (WIDTH - LEFT - 20.0) / bins.max(1) as f64;
    let bar = slot / report.variants.len() as f64;
    for b in 0..bins {
        let x0 = LEFT + slot * b as f64;
        for (v, share) in shares.iter().enumerate() {
            let hh = h * share[b] / peak;
            let _ = writeln!(
                s,
                r#"<rect class="bin" data-variant="{}" data-bin="{}-{}" x="{:.1}" y="{:.1}" width="{:.1}" height="{hh:.1}" fill="{}"/>"#,
                esc(&report.variants[v].variant),
                report.bins[b],
                report.bins[b + 1],
                x0 + bar * v as f64,
                y0 - hh,
                (bar - 1.0).max(0.5),
                COLOURS[v % 2]
            );
        }
        if b % (bins / 8).max(1) == 0 {
            let _ = writeln!(
                s,
                r#"<text x="{x0:.1}" y="{:.1}">{}</text>"#,
                y0 + 16.0,
                report.bins[b]
            );
        }
    }
    s.push_str("</g>\n");
}

/// A vertical axis from 0 to `max` (in `unit`) with four ticks.
fn axis(s: &mut String, y0: f64, h: f64, max: f64, unit: &str) {
    let _ = writeln!(
        s,
        r##"<path class="axis" d="M{LEFT} {:.1}V{y0:.1}H{:.1}" stroke="#444" fill="none"/>"##,
        y0 - h,
        WIDTH - 20.0
    );
    for t in 0..=4 {
        let y = y0 - h * t as f64 / 4.0;
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{:.0}{unit}</text>"#,
            LEFT - 6.0,
            y + 4.0,
            max * t as f64 / 4.0
        );
    }
}
