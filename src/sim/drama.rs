//! How a game went, as the learned evaluation saw it: lead changes, when the result was
//! settled, and how far behind the winner was (Browne's drama, lead change and decisiveness,
//! which Ludii computes as `Drama`, `LeadChange` and `Decisiveness`). `sim --drama` traces
//! each side's estimate of winning at every decision of a game, each seat reading its own
//! view, and keeps these three numbers of each decided game.

use serde::{Deserialize, Serialize};

/// The estimate of winning from which a side's result counts as settled.
pub const SETTLED: f64 = 0.9;

/// What one decided game's trace says.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Drama {
    /// How often the leading side (the highest estimate) changed.
    pub lead_changes: u64,
    /// The share of the game's decisions before the winner's estimate reached [`SETTLED`] for
    /// good: 1 if it never did before the end.
    pub settled_at: f64,
    /// The most the winner's estimate ever fell short of the leader's (0 if it always led).
    pub deficit: f64,
}

impl Drama {
    /// Whether the numbers are ones a trace can give (a shard is checked with it).
    pub fn possible(&self, decisions: u64) -> bool {
        self.lead_changes <= decisions
            && (0.0..=1.0).contains(&self.settled_at)
            && (0.0..=1.0).contains(&self.deficit)
    }
}

/// The drama of a game whose sides' estimates were `trace[t][side]` at its decisions t, won
/// by side `winner`; `None` without a decision to judge.
pub fn drama(trace: &[Vec<f64>], winner: usize) -> Option<Drama> {
    let first = trace.first()?;
    let leader_of = |row: &[f64], last: usize| {
        // a tie keeps the lead where it was
        (0..row.len()).fold(last, |best, s| if row[s] > row[best] { s } else { best })
    };
    let mut leader = leader_of(first, 0);
    let mut lead_changes = 0;
    let mut deficit: f64 = 0.0;
    for row in trace {
        let now = leader_of(row, leader);
        lead_changes += u64::from(now != leader);
        leader = now;
        deficit = deficit.max(row[leader] - row[winner]);
    }
    let unsettled = trace
        .iter()
        .rposition(|row| row[winner] < SETTLED)
        .map_or(0, |t| t + 1);
    Some(Drama {
        lead_changes,
        settled_at: unsettled as f64 / trace.len() as f64,
        deficit: deficit.clamp(0.0, 1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(a: &[f64]) -> Vec<Vec<f64>> {
        a.iter().map(|&x| vec![x, 1.0 - x]).collect()
    }

    #[test]
    fn a_winner_who_led_throughout_has_no_drama() {
        let d = drama(&rows(&[0.6, 0.7, 0.95, 0.97]), 0).unwrap();
        assert_eq!(d.lead_changes, 0);
        assert_eq!(
            d.settled_at, 0.5,
            "settled from the third of four decisions"
        );
        assert_eq!(d.deficit, 0.0);
    }

    #[test]
    fn a_comeback_counts_its_lead_changes_and_how_far_behind_it_was() {
        // side 0 leads, falls to 0.2 (0.6 behind), retakes the lead, and is never settled
        let d = drama(&rows(&[0.55, 0.4, 0.2, 0.6, 0.8]), 0).unwrap();
        assert_eq!(d.lead_changes, 2);
        assert!((d.deficit - 0.6).abs() < 1e-12, "{d:?}");
        assert_eq!(d.settled_at, 1.0);
        // the same game won by the other side: it led from the second decision on
        let d = drama(&rows(&[0.55, 0.4, 0.2, 0.6, 0.8]), 1).unwrap();
        assert!((d.deficit - 0.6).abs() < 1e-12, "{d:?}");
    }

    #[test]
    fn ties_keep_the_lead_and_no_decision_means_no_drama() {
        let d = drama(&rows(&[0.5, 0.5, 0.5]), 1).unwrap();
        assert_eq!(d.lead_changes, 0);
        assert_eq!(d.deficit, 0.0, "a tie is no deficit");
        let three = vec![
            vec![0.2, 0.3, 0.5],
            vec![0.4, 0.3, 0.3],
            vec![0.1, 0.1, 0.8],
        ];
        assert_eq!(drama(&three, 2).unwrap().lead_changes, 2);
        assert_eq!(drama(&[], 0), None);
    }
}
