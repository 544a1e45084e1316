//! Shard files: one part of a study, self-describing, so that any batch system (GNU parallel,
//! a Slurm job array, a Kubernetes Indexed Job) can run the parts and `sim-merge` can put them
//! back together into exactly the report one run prints.
//!
//! A shard holds the study's spec, the rulesets' hashes, the Tortuga version, which shard it is,
//! and its games' records. Merging refuses shards of different studies, missing or repeated
//! shards, and a shard that did not finish its games.

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use super::study::{Results, Ruleset, Spec, shard_games};

/// The format's name and version, the first field of every shard file.
const FORMAT: &str = "tortuga-sim-shard 1";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    pub format: String,
    pub version: String,
    /// This shard's number (1-based) and the number of shards.
    pub shard: (u64, u64),
    pub spec: Spec,
    pub rulesets: Vec<Ruleset>,
    pub records: Vec<Vec<super::study::Record>>,
}

impl Shard {
    pub fn new(results: Results, shard: (u64, u64)) -> Shard {
        Shard {
            format: FORMAT.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            shard,
            spec: results.spec,
            rulesets: results.rulesets,
            records: results.records,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("shards serialize") + "\n"
    }

    pub fn read(path: &Path) -> Result<Shard> {
        let what = path.display();
        let text = crate::files::read_text(path, crate::files::MAX_SHARD_FILE, &what.to_string())
            .map_err(|e| anyhow!(e))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| anyhow!("{what}: not a shard file ({e})"))?;
        if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            bail!("{what}: not a shard file of this Tortuga (want format \"{FORMAT}\")");
        }
        serde_json::from_value(value).map_err(|e| anyhow!("{what}: malformed shard: {e}"))
    }
}

/// The results of the whole study from all its shards, in any order.
pub fn merge(mut shards: Vec<Shard>) -> Result<Results> {
    let Some(first) = shards.first().cloned() else {
        bail!("sim-merge needs shard files");
    };
    let n = first.shard.1;
    for s in &shards {
        let which = format!("shard {}/{}", s.shard.0, s.shard.1);
        let differs = |what: &str| {
            anyhow!(
                "{which} is of another study than shard {}/{n}: its {what} differs",
                first.shard.0
            )
        };
        if s.version != first.version {
            return Err(differs("Tortuga version"));
        }
        if s.spec.game != first.spec.game || s.spec.variants != first.spec.variants {
            return Err(differs("game or variant"));
        }
        if s.spec.seed != first.spec.seed {
            return Err(differs("seed"));
        }
        if s.spec != first.spec {
            return Err(differs("games, players, bots or switches"));
        }
        if s.rulesets != first.rulesets {
            return Err(differs("rules hash"));
        }
        if s.shard.1 != n {
            return Err(differs("number of shards"));
        }
        let want = shard_games(s.spec.games, s.shard);
        let played: Vec<u64> = s
            .records
            .first()
            .map_or(vec![], |r| r.iter().map(|g| g.game).collect());
        if played != want.clone().collect::<Vec<_>>() {
            bail!(
                "{which} holds {} of its {} games (was it interrupted?)",
                played.len(),
                want.end - want.start
            );
        }
    }
    shards.sort_by_key(|s| s.shard.0);
    let numbers: Vec<u64> = shards.iter().map(|s| s.shard.0).collect();
    if let Some(w) = numbers.windows(2).find(|w| w[0] == w[1]) {
        bail!("shard {}/{n} is given twice", w[0]);
    }
    if let Some(missing) = (1..=n).find(|i| !numbers.contains(i)) {
        bail!("shard {missing}/{n} is missing");
    }
    let mut records = vec![Vec::new(); first.spec.variants.len()];
    for s in shards {
        for (all, part) in records.iter_mut().zip(s.records) {
            all.extend(part);
        }
    }
    Ok(Results {
        asked: first.spec.games,
        spec: first.spec,
        rulesets: first.rulesets,
        records,
    })
}
