//! The weights file of a learned evaluation: a TOML document whose header names exactly the
//! ruleset it was trained for (game, variant, house rules, every switch value, the digest of
//! the rule files), the encoding, the training (games, seed, the tortuga version) and the
//! network's shape, then the weights. Written atomically, so a killed `train` leaves the last
//! checkpoint whole; read back only for the ruleset it names.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use super::net::Net;
use crate::script::Rules;

/// What the first line says: a file of another format version is refused.
pub const FORMAT: &str = "tortuga weights 1";

/// The ruleset a file is for: what must be equal for the weights to apply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ruleset {
    pub game: String,
    pub variant: String,
    pub house: Vec<String>,
    /// Every switch's value, as its literal.
    pub switches: BTreeMap<String, String>,
    /// [`Rules::digest`]: the rule files' names and contents.
    pub rules_digest: String,
}

impl Ruleset {
    pub fn of(rules: &Rules) -> Ruleset {
        Ruleset {
            game: rules.game.clone(),
            variant: rules.variant.name.clone(),
            house: rules.variant.house.clone(),
            switches: rules
                .switches
                .iter()
                .map(|(k, v)| (k.clone(), v.to_literal()))
                .collect(),
            rules_digest: rules.digest(),
        }
    }

    /// The ruleset in a few words, for messages: game, variant, house rules, switches that
    /// differ from `other`'s, and the digest.
    fn describe(&self, other: &Ruleset) -> String {
        let mut words = vec![self.game.clone()];
        if !self.variant.is_empty() {
            words.push(format!("variant {}", self.variant));
        }
        if !self.house.is_empty() {
            words.push(format!("house {}", self.house.join(",")));
        }
        let differ: Vec<String> = self
            .switches
            .iter()
            .filter(|(k, v)| other.switches.get(*k) != Some(v))
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if !differ.is_empty() {
            words.push(differ.join(" "));
        }
        words.push(format!(
            "rules {}",
            &self.rules_digest[..8.min(self.rules_digest.len())]
        ));
        words.join(", ")
    }

    /// A file name for this ruleset's weights in the cache: the game and a hash of the rest.
    pub fn cache_name(&self) -> String {
        use sha2::{Digest, Sha256};
        let text = toml::to_string(self).expect("a ruleset serializes");
        let hash: String = Sha256::digest(text.as_bytes())
            .iter()
            .take(8)
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("{}-{hash}.toml", self.game)
    }
}

/// A weights file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    pub format: String,
    pub ruleset: Ruleset,
    /// Where the inputs come from: `features` (the game's hook) or `generic`
    /// (`learn::encoding`).
    pub encoding: String,
    /// Self-play games trained, in all (a warm start counts its source's).
    pub games: u64,
    pub seed: u64,
    pub version: String,
    pub inputs: usize,
    pub hidden: usize,
    /// What the outputs estimate, in order (the game's `outcomes`; files from before gammons
    /// had `win` alone).
    #[serde(default = "win_alone")]
    pub outcomes: Vec<String>,
    /// Whether the network has a linear part besides its hidden layer ([`Net::linear`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub linear: bool,
    pub params: Vec<f32>,
}

fn win_alone() -> Vec<String> {
    vec!["win".into()]
}

impl Weights {
    pub fn new(
        ruleset: Ruleset,
        encoding: &str,
        outcomes: &[String],
        net: &Net,
        games: u64,
        seed: u64,
    ) -> Weights {
        Weights {
            format: FORMAT.into(),
            ruleset,
            encoding: encoding.into(),
            games,
            seed,
            version: env!("CARGO_PKG_VERSION").into(),
            inputs: net.inputs,
            hidden: net.hidden,
            outcomes: outcomes.to_vec(),
            linear: net.linear,
            params: net.params.clone(),
        }
    }

    pub fn net(&self) -> Net {
        Net {
            inputs: self.inputs,
            hidden: self.hidden,
            outputs: self.outcomes.len(),
            linear: self.linear,
            params: self.params.clone(),
        }
    }

    /// Reads a weights file, refusing a truncated or malformed one and one of another format.
    pub fn read(path: &Path) -> Result<Weights> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read the weights", path.display()))?;
        let format = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("format = \""))
            .and_then(|l| l.strip_suffix('"'));
        if format != Some(FORMAT) {
            bail!(
                "{}: not a weights file of this version (its first line should be `format = \"{FORMAT}\"`)",
                path.display()
            );
        }
        let w: Weights = toml::from_str(&text).map_err(|e| {
            anyhow!(
                "{}: a damaged weights file: {}",
                path.display(),
                e.message()
            )
        })?;
        if w.outcomes.is_empty()
            || w.params.len() != Net::size(w.inputs, w.hidden, w.outcomes.len(), w.linear)
        {
            bail!(
                "{}: a damaged weights file: {} weights for a {}-{}-{} network",
                path.display(),
                w.params.len(),
                w.inputs,
                w.hidden,
                w.outcomes.len()
            );
        }
        Ok(w)
    }

    /// Refuses weights trained for another ruleset, naming both, or on other inputs.
    pub fn check_ruleset(
        &self,
        path: &Path,
        wanted: &Ruleset,
        encoding: &str,
        outcomes: &[String],
    ) -> Result<()> {
        if self.outcomes != outcomes {
            bail!(
                "{}: its outputs estimate {}; this game's outcomes are {}",
                path.display(),
                self.outcomes.join(", "),
                outcomes.join(", ")
            );
        }
        if self.encoding != encoding {
            bail!(
                "{}: trained on the {} encoding; this game's inputs are its {encoding} encoding",
                path.display(),
                self.encoding
            );
        }
        if self.ruleset != *wanted {
            bail!(
                "{} was trained for {}, not for {}",
                path.display(),
                self.ruleset.describe(wanted),
                wanted.describe(&self.ruleset)
            );
        }
        Ok(())
    }

    /// Writes the file atomically ([`crate::files::write_atomically`]), its folder made first.
    pub fn write(&self, path: &Path) -> Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("{}: cannot make the folder", dir.display()))?;
        }
        crate::files::write_atomically(path, &toml::to_string(self).expect("weights serialize"))
    }
}

/// Where weights for `ruleset` live when no `--out` says: the user's cache
/// (`$XDG_CACHE_HOME/tortuga/weights`, else `~/.cache/tortuga/weights`), by ruleset.
pub fn cache_path(ruleset: &Ruleset) -> Result<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .ok_or_else(|| anyhow!("no cache folder: set XDG_CACHE_HOME or HOME, or give --out"))?;
    Ok(base
        .join("tortuga")
        .join("weights")
        .join(ruleset.cache_name()))
}
