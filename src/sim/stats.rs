//! The statistics a study reports: proportions with Wilson intervals, summaries of a sample
//! (mean, quantiles) and differences of two variants, paired game by game or not.
//!
//! Intervals are 95%. Wilson's interval for a proportion stays inside [0, 1] and keeps its
//! coverage near 0 and 1 and for small samples, where the normal ("Wald") interval does not.
//! Means use Student's t interval; differences, the t interval of the mean per-game difference
//! (paired, for games that shared their random streams) or Welch's for two means (unpaired).
//! A report that tests many differences controls the chance of any false "significant" by
//! Holm's step-down method on their p-values.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

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
    /// A quantity no game measured (JSON: nulls).
    pub const NONE: Interval = Interval {
        estimate: f64::NAN,
        low: f64::NAN,
        high: f64::NAN,
    };

    pub fn width(&self) -> f64 {
        self.high - self.low
    }

    /// Whether the interval leaves out `value` (a difference leaving out 0 is significant).
    pub fn excludes(&self, value: f64) -> bool {
        value < self.low || value > self.high
    }

    /// The interval cut to `[lo, hi]`, where the quantity it estimates must lie.
    pub fn clamped(self, lo: f64, hi: f64) -> Interval {
        Interval {
            estimate: self.estimate,
            low: self.low.max(lo),
            high: self.high.min(hi),
        }
    }
}

/// The confidence of every interval a report shows, unless a sequential rule asks for more.
pub const LEVEL: f64 = 0.95;

/// The normal quantile that leaves `(1 - level) / 2` above it.
fn z_of(level: f64) -> f64 {
    if level == LEVEL {
        return Z95;
    }
    Normal::new(0.0, 1.0)
        .expect("the standard normal")
        .inverse_cdf(0.5 + level / 2.0)
}

/// Wilson's 95% interval for `k` successes in `n` trials (n > 0).
pub fn wilson(k: u64, n: u64) -> Interval {
    wilson_at(k, n, LEVEL)
}

/// Wilson's interval at confidence `level` for `k` successes in `n` trials (n > 0).
pub fn wilson_at(k: u64, n: u64, level: f64) -> Interval {
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z = z_of(level);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
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

/// Student's t distribution with `df` degrees of freedom (at least one).
fn student(df: f64) -> StudentsT {
    StudentsT::new(0.0, 1.0, df.max(1.0)).expect("a positive number of degrees of freedom")
}

/// The estimate `mean` with standard error `se` on `df` degrees of freedom: its t interval at
/// confidence `level` and the two-sided p-value of "it is 0" (1 when nothing varied).
fn t_test(mean: f64, se: f64, df: f64, level: f64) -> (Interval, f64) {
    let t = student(df);
    let half = t.inverse_cdf(0.5 + level / 2.0) * se;
    let p = if se > 0.0 {
        2.0 * (1.0 - t.cdf((mean / se).abs()))
    } else if mean == 0.0 {
        1.0
    } else {
        0.0
    };
    let interval = Interval {
        estimate: mean,
        low: mean - half,
        high: mean + half,
    };
    (interval, p)
}

/// The 95% t interval of a mean from its sample, and the p-value of "the mean is 0".
pub fn mean_test(xs: &[f64]) -> (Interval, f64) {
    mean_test_at(xs, LEVEL)
}

/// The t interval at confidence `level` of a mean from its sample, and the p-value of "the
/// mean is 0".
pub fn mean_test_at(xs: &[f64], level: f64) -> (Interval, f64) {
    let (mean, var) = mean_var(xs);
    let n = xs.len().max(1) as f64;
    t_test(mean, (var / n).sqrt(), n - 1.0, level)
}

/// The 95% t interval of a mean from its sample.
pub fn mean_interval(xs: &[f64]) -> Interval {
    mean_test(xs).0
}

/// The difference `b - a` of two variants measured on the same games (game k of each shared
/// its random streams): the t interval of the mean per-game difference, and its p-value.
pub fn paired_test(a: &[f64], b: &[f64]) -> (Interval, f64) {
    paired_test_at(a, b, LEVEL)
}

/// [`paired_test`] at confidence `level`.
pub fn paired_test_at(a: &[f64], b: &[f64], level: f64) -> (Interval, f64) {
    assert_eq!(
        a.len(),
        b.len(),
        "paired samples have one value per game each"
    );
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
    mean_test_at(&d, level)
}

/// [`paired_test`]'s interval.
pub fn paired_difference(a: &[f64], b: &[f64]) -> Interval {
    paired_test(a, b).0
}

/// The difference `b - a` of two independent samples' means: Welch's t interval.
pub fn unpaired_difference(a: &[f64], b: &[f64]) -> Interval {
    let ((ma, va), (mb, vb)) = (mean_var(a), mean_var(b));
    let (sa, sb) = (va / a.len().max(1) as f64, vb / b.len().max(1) as f64);
    let df = if sa + sb > 0.0 {
        (sa + sb).powi(2)
            / (sa * sa / (a.len() as f64 - 1.0).max(1.0)
                + sb * sb / (b.len() as f64 - 1.0).max(1.0))
    } else {
        1.0
    };
    t_test(mb - ma, (sa + sb).sqrt(), df, LEVEL).0
}

/// Holm's step-down method: which of the hypotheses with p-values `ps` are rejected so that
/// the chance of rejecting any true one stays at most `alpha`. The smallest p-value is held
/// to alpha/m, the next to alpha/(m-1), and so on, stopping at the first that fails.
pub fn holm(ps: &[f64], alpha: f64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..ps.len()).collect();
    order.sort_by(|&i, &j| ps[i].total_cmp(&ps[j]));
    let mut rejected = vec![false; ps.len()];
    for (rank, &i) in order.iter().enumerate() {
        if ps[i] > alpha / (ps.len() - rank) as f64 {
            break;
        }
        rejected[i] = true;
    }
    rejected
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

    /// The t interval of 1..=10 (mean 5.5, s = 3.0277): t(0.975, 9) = 2.2622, so
    /// 5.5 ± 2.1659; and the p-value of a t statistic of 2.2622 on 9 df is 0.05.
    #[test]
    fn t_intervals_and_p_values_match_the_tables() {
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        let (i, _) = mean_test(&xs);
        assert!((i.high - 5.5 - 2.1659).abs() < 1e-3, "{i:?}");
        let (_, p) = t_test(2.2622, 1.0, 9.0, LEVEL);
        assert!((p - 0.05).abs() < 1e-4, "{p}");
    }

    /// Holm rejects step by step: with p = 0.01, 0.04, 0.03 and 0.005 at 5%, the sorted
    /// bounds are 0.0125, 0.0167, 0.025, 0.05, so 0.005 and 0.01 fall and 0.03 stops the rest.
    #[test]
    fn holm_steps_down_and_stops_at_the_first_kept() {
        assert_eq!(
            holm(&[0.01, 0.04, 0.03, 0.005], 0.05),
            vec![true, false, false, true]
        );
        assert_eq!(holm(&[0.04], 0.05), vec![true]);
        assert_eq!(holm(&[], 0.05), Vec::<bool>::new());
    }
}
