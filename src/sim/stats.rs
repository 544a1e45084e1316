//! The statistics a study reports: proportions with Wilson intervals, summaries of a sample
//! (mean, quantiles) and differences of two variants, paired game by game or not.
//!
//! Intervals are 95%. Wilson's interval for a proportion stays inside [0, 1] and keeps its
//! coverage near 0 and 1 and for small samples, where the normal ("Wald") interval does not.
//! Differences use the normal approximation to the mean of the per-game differences (paired,
//! for games that shared their random streams) or to the difference of two means (unpaired).

use serde::Serialize;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A 95% interval around an estimate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    pub fn width(&self) -> f64 {
        self.high - self.low
    }

    /// Whether the interval leaves out `value` (a difference leaving out 0 is significant).
    pub fn excludes(&self, value: f64) -> bool {
        value < self.low || value > self.high
    }
}

/// Wilson's 95% interval for `k` successes in `n` trials (n > 0).
pub fn wilson(k: u64, n: u64) -> Interval {
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Interval {
        estimate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Mean and sample variance (n - 1 in the denominator; 0 for fewer than two values).
pub fn mean_var(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, var)
}

/// The 95% interval of a mean from its sample.
pub fn mean_interval(xs: &[f64]) -> Interval {
    let (mean, var) = mean_var(xs);
    let half = Z95 * (var / xs.len().max(1) as f64).sqrt();
    Interval {
        estimate: mean,
        low: mean - half,
        high: mean + half,
    }
}

/// The difference `b - a` of two variants measured on the same games (game k of each shared
/// its random streams): the interval of the mean per-game difference.
pub fn paired_difference(a: &[f64], b: &[f64]) -> Interval {
    assert_eq!(
        a.len(),
        b.len(),
        "paired samples have one value per game each"
    );
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
    mean_interval(&d)
}

/// The difference `b - a` of two independent samples' means.
pub fn unpaired_difference(a: &[f64], b: &[f64]) -> Interval {
    let ((ma, va), (mb, vb)) = (mean_var(a), mean_var(b));
    let half = Z95 * (va / a.len().max(1) as f64 + vb / b.len().max(1) as f64).sqrt();
    Interval {
        estimate: mb - ma,
        low: mb - ma - half,
        high: mb - ma + half,
    }
}

/// Mean, extremes and quantiles of a sample.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub mean: f64,
    pub min: f64,
    pub p10: f64,
    pub median: f64,
    pub p90: f64,
    pub max: f64,
}

/// The `q`-quantile of sorted values, by nearest rank (a value of the sample).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

pub fn summary(xs: &[f64]) -> Summary {
    if xs.is_empty() {
        return Summary {
            mean: 0.0,
            min: 0.0,
            p10: 0.0,
            median: 0.0,
            p90: 0.0,
            max: 0.0,
        };
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    Summary {
        mean: mean_var(xs).0,
        min: sorted[0],
        p10: quantile(&sorted, 0.1),
        median: quantile(&sorted, 0.5),
        p90: quantile(&sorted, 0.9),
        max: sorted[sorted.len() - 1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wilson's interval for 8 of 10, from Newcombe (1998), table I: 0.4902 to 0.9433.
    #[test]
    fn wilson_matches_the_published_interval() {
        let i = wilson(8, 10);
        assert!((i.low - 0.4902).abs() < 1e-4, "{i:?}");
        assert!((i.high - 0.9433).abs() < 1e-4, "{i:?}");
        let zero = wilson(0, 10);
        assert_eq!(zero.low, 0.0);
        assert!((zero.high - 0.2775).abs() < 1e-4, "{zero:?}");
    }

    #[test]
    fn quantiles_are_values_of_the_sample() {
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        let s = summary(&xs);
        assert_eq!(
            (s.min, s.p10, s.median, s.p90, s.max),
            (1.0, 1.0, 5.0, 9.0, 10.0)
        );
        assert_eq!(s.mean, 5.5);
    }

    #[test]
    fn a_constant_shift_is_exact_when_paired_and_wide_when_not() {
        let a: Vec<f64> = (0..50).map(|i| f64::from(i % 7)).collect();
        let b: Vec<f64> = a.iter().map(|x| x + 1.0).collect();
        let paired = paired_difference(&a, &b);
        assert_eq!((paired.low, paired.high), (1.0, 1.0));
        let unpaired = unpaired_difference(&a, &b);
        assert!(unpaired.width() > 0.5 && !unpaired.excludes(1.0));
    }
}
