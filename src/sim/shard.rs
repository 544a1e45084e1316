//! Shard files: one part of a study, self-describing, so that any batch system (GNU parallel,
//! a Slurm job array, a Kubernetes Indexed Job) can run the parts and `sim-merge` can put them
//! back together into exactly the report one run prints.
//!
//! A shard holds the study's spec, the rulesets' hashes, the Tortuga version, which shard it is,
//! its games' records and a digest over all of that. A shard is untrusted input: reading one
//! checks every field against the study it claims (so that no report panics or runs away on
//! it) and its digest (so that an edited record is caught); merging refuses shards of different
//! studies, missing or repeated shards, and a shard that did not finish its games.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::marker::PhantomData;
use std::path::Path;

use anyhow::{Result, anyhow, bail};
use serde::de::{Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::study::{Record, Results, Ruleset, Spec, shard_games, variant_name};

/// The format's name and version, the first field of every shard file.
const FORMAT: &str = "tortuga-sim-shard 3";

/// The most seats a shard's study may have: more than any game seats, few enough that a
/// record's scores stay small.
pub const MAX_PLAYERS: usize = 64;
/// The most distinct counters (`G:stat` names) a merged study may have: the report keeps one
/// value per game for each.
pub const MAX_COUNTERS: usize = 64;
/// The most variants a study compares.
const MAX_VARIANTS: usize = 2;
/// The most decisions a game may record: above it a length is no longer exact as a number.
const MAX_DECISIONS: u64 = 1 << 53;

/// More options than one decision offers (a list of them would outgrow the memory limit).
const MAX_OPTIONS: u64 = 1 << 24;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    pub format: String,
    pub version: String,
    /// This shard's number (1-based) and the number of shards.
    pub shard: (u64, u64),
    pub spec: Spec,
    #[serde(deserialize_with = "at_most::<_, _, MAX_VARIANTS>")]
    pub rulesets: Vec<Ruleset>,
    /// Per variant (one or two), the records in game order.
    #[serde(deserialize_with = "at_most::<_, _, MAX_VARIANTS>")]
    pub records: Vec<Vec<Record>>,
    /// What a reader must know about the study's bots (from its spec: a bot that decides by
    /// the clock makes the shard impossible to reproduce).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// SHA-256 over the fields above (see [`Shard::digest`]), in hex.
    pub digest: String,
}

impl Shard {
    pub fn new(results: Results, shard: (u64, u64)) -> Shard {
        let warnings = results.spec.warnings();
        let mut s = Shard {
            format: FORMAT.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            shard,
            spec: results.spec,
            rulesets: results.rulesets,
            records: results.records,
            warnings,
            digest: String::new(),
        };
        s.seal();
        s
    }

    /// Sets the digest to that of the shard's content.
    pub fn seal(&mut self) {
        self.digest = self.content_digest();
    }

    /// SHA-256 chained over the study (format, version, shard number, spec, rulesets), then
    /// each variant's count of records and each record in order, every piece length-prefixed:
    /// any field changed, a record added, dropped, moved or edited gives another digest.
    fn content_digest(&self) -> String {
        let mut h = Sha256::new();
        let mut feed = |bytes: &[u8]| {
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(bytes);
        };
        let study = (
            &self.format,
            &self.version,
            self.shard,
            &self.spec,
            &self.rulesets,
        );
        feed(&serde_json::to_vec(&study).expect("shards serialize"));
        for records in &self.records {
            feed(&(records.len() as u64).to_le_bytes());
            for r in records {
                feed(&serde_json::to_vec(r).expect("shards serialize"));
            }
        }
        h.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("shards serialize") + "\n"
    }

    pub fn read(path: &Path) -> Result<Shard> {
        let what = path.display().to_string();
        let text = crate::files::read_text(path, crate::files::MAX_SHARD_FILE, &what)
            .map_err(|e| anyhow!(e))?;
        Shard::parse(&text, &what)
    }

    /// The shard in `text`, checked; errors start with `what` (the file's name).
    pub fn parse(text: &str, what: &str) -> Result<Shard> {
        /// Only the format, read first so that another file or format gets its own error.
        #[derive(Deserialize)]
        struct Format {
            format: Option<String>,
        }
        let format = serde_json::from_str::<Format>(text)
            .map_err(|e| anyhow!("{what}: not a shard file ({e})"))?;
        if format.format.as_deref() != Some(FORMAT) {
            bail!("{what}: not a shard file of this Tortuga (want format \"{FORMAT}\")");
        }
        let shard: Shard =
            serde_json::from_str(text).map_err(|e| anyhow!("{what}: malformed shard: {e}"))?;
        shard.check().map_err(|e| anyhow!("{what}: {e}"))?;
        Ok(shard)
    }

    /// An error unless every field fits the study the shard claims and the digest matches.
    fn check(&self) -> Result<(), String> {
        let (i, n) = self.shard;
        if i == 0 || n == 0 || i > n {
            return Err(format!("shard [{i},{n}] is not i of n with 1 ≤ i ≤ n"));
        }
        let spec = &self.spec;
        let variants = spec.variants.len();
        if spec.games == 0 {
            return Err("a study of 0 games".into());
        }
        if !(1..=MAX_VARIANTS).contains(&variants) {
            return Err(format!("a study has one variant or two, not {variants}"));
        }
        let players = spec.players as usize;
        if !(1..=MAX_PLAYERS).contains(&players) {
            return Err(format!(
                "{players} players (a shard has 1 to {MAX_PLAYERS})"
            ));
        }
        if self.rulesets.len() != variants || self.records.len() != variants {
            return Err(format!(
                "{} rulesets and {} lists of records for {variants} variants",
                self.rulesets.len(),
                self.records.len()
            ));
        }
        let want = shard_games(spec.games, self.shard);
        for ((rules, records), v) in self.rulesets.iter().zip(&self.records).zip(&spec.variants) {
            let v = variant_name(v);
            if rules.seat_names.len() != players || rules.teams.len() != players {
                return Err(format!("{v}: seat names or teams not one a seat"));
            }
            if records.len() as u64 != want.end - want.start {
                return Err(format!(
                    "shard {i}/{n} holds {} of its {} games of {v} (was it interrupted?)",
                    records.len(),
                    want.end - want.start
                ));
            }
            for (r, k) in records.iter().zip(want.clone()) {
                if r.game != k {
                    return Err(format!(
                        "{v}: record of game {} where game {k} belongs",
                        r.game
                    ));
                }
                if r.scores.len() != players || r.scores.iter().any(|s| !s.is_finite()) {
                    return Err(format!("{v}, game {k}: not one finite score a seat"));
                }
                if r.decisions > MAX_DECISIONS {
                    return Err(format!("{v}, game {k}: {} decisions", r.decisions));
                }
                if r.drama.is_some_and(|d| !d.possible(r.decisions)) {
                    return Err(format!("{v}, game {k}: a drama no trace can give"));
                }
                // every decision offers at least one option, and starts at most one turn
                if r.turns > r.decisions
                    || r.forced > r.decisions
                    || r.options < r.decisions
                    || r.options > r.decisions.saturating_mul(MAX_OPTIONS)
                {
                    return Err(format!(
                        "{v}, game {k}: {} turns, {} options and {} forced of {} decisions",
                        r.turns, r.options, r.forced, r.decisions
                    ));
                }
            }
        }
        if self.warnings != spec.warnings() {
            return Err("its warnings are not those of the bots it names".into());
        }
        if self.digest != self.content_digest() {
            return Err(
                "its records or study were altered since it was written (digest mismatch)".into(),
            );
        }
        Ok(())
    }
}

/// A JSON array of at most `N` items, refused at the item after the `N`th before it is kept.
pub fn at_most<'de, D, T, const N: usize>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Bounded<T, const N: usize>(PhantomData<T>);
    impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for Bounded<T, N> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "a list of at most {N} items")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out = Vec::new();
            while let Some(item) = seq.next_element()? {
                if out.len() == N {
                    return Err(A::Error::invalid_length(N + 1, &self));
                }
                out.push(item);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Bounded::<T, N>(PhantomData))
}

/// A record's counters: at most [`MAX_COUNTERS`], refused at the one after before it is kept.
pub fn counters<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, i64>, D::Error> {
    struct Bounded;
    impl<'de> Visitor<'de> for Bounded {
        type Value = BTreeMap<String, i64>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "at most {MAX_COUNTERS} counters")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((name, n)) = map.next_entry()? {
                if out.len() == MAX_COUNTERS {
                    return Err(A::Error::invalid_length(MAX_COUNTERS + 1, &self));
                }
                out.insert(name, n);
            }
            Ok(out)
        }
    }
    d.deserialize_map(Bounded)
}

/// The results of the whole study from all its shards, in any order, each with its file name.
pub fn merge(mut shards: Vec<(String, Shard)>) -> Result<Results> {
    let Some((first_file, first)) = shards.first() else {
        bail!("sim-merge needs shard files");
    };
    let n = first.shard.1;
    for (file, s) in &shards {
        let differs = |what: &str| {
            anyhow!(
                "{file}: shard {}/{} is of another study than {first_file}: its {what} differs",
                s.shard.0,
                s.shard.1
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
    }
    let mut counters = BTreeSet::new();
    for (file, s) in &shards {
        counters.extend(s.records.iter().flatten().flat_map(|r| r.stats.keys()));
        if counters.len() > MAX_COUNTERS {
            bail!("{file}: more than {MAX_COUNTERS} distinct counters in the study");
        }
    }
    let (spec, rulesets) = (first.spec.clone(), first.rulesets.clone());
    shards.sort_by_key(|(_, s)| s.shard.0);
    let numbers: Vec<u64> = shards.iter().map(|(_, s)| s.shard.0).collect();
    if let Some(w) = numbers.windows(2).find(|w| w[0] == w[1]) {
        bail!("shard {}/{n} is given twice", w[0]);
    }
    if let Some(missing) = (1..=n).find(|i| !numbers.contains(i)) {
        bail!("shard {missing}/{n} is missing");
    }
    let mut records = vec![Vec::new(); spec.variants.len()];
    for (_, s) in shards {
        for (all, part) in records.iter_mut().zip(s.records) {
            all.extend(part);
        }
    }
    Ok(Results {
        asked: spec.games,
        spec,
        rulesets,
        records,
    })
}
