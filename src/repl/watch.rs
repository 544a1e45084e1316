//! `watch on`: the rules are reloaded when a file of the current game's rules is saved. The
//! prompt looks before each command (see [`super::Repl::watched`]): a game's rules are a few
//! hundred kilobytes, read again in a millisecond or two, so polling there needs no thread and
//! no file-system notifications, and a reload can never land in the middle of a command.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

/// The files of one game's rules as last seen: each path (relative to the rules folder) with
/// a digest of what reading it gives.
pub struct Watch {
    game: String,
    files: BTreeMap<PathBuf, u64>,
}

impl Watch {
    pub fn new(rules_dir: &Path, game: &str) -> Watch {
        Watch {
            game: game.to_string(),
            files: snapshot(rules_dir, game),
        }
    }

    /// The files of `game`'s rules that changed, appeared or went since the last look, and
    /// remembers them as they are now. The first look at another game (after `new`) only
    /// starts watching it: loading it read its files as they are.
    pub fn changed(&mut self, rules_dir: &Path, game: &str) -> Vec<String> {
        let now = snapshot(rules_dir, game);
        let before = std::mem::replace(&mut self.files, now);
        if self.game != game {
            self.game = game.to_string();
            return Vec::new();
        }
        let mut out: Vec<&PathBuf> = before
            .iter()
            .filter(|(p, d)| self.files.get(*p) != Some(d))
            .map(|(p, _)| p)
            .collect();
        out.extend(self.files.keys().filter(|p| !before.contains_key(*p)));
        out.sort();
        out.iter().map(|p| p.display().to_string()).collect()
    }
}

/// The folders whose files make `game`'s rules (see `script::ruleset::rules`): its own and the
/// shared `lib/`, relative to the rules folder.
pub fn folders(game: &str) -> [String; 2] {
    [format!("{game}/"), "lib/".to_string()]
}

/// Every file of `game`'s rules, with a digest of its text (or of the reason it cannot be
/// read: a file too large or binary for the rules is one they never read).
fn snapshot(rules_dir: &Path, game: &str) -> BTreeMap<PathBuf, u64> {
    let mut paths = Vec::new();
    for folder in folders(game) {
        let keep = |p: &Path| saved_file(rules_dir, p);
        crate::script::ruleset::rules::walk(&rules_dir.join(folder), &keep, &mut paths);
    }
    paths
        .into_iter()
        .map(|path| {
            let text = crate::files::read_text(&path, crate::files::MAX_RULE_FILE, "");
            let mut h = DefaultHasher::new();
            text.hash(&mut h);
            let rel = path.strip_prefix(rules_dir).unwrap_or(&path).to_path_buf();
            (rel, h.finish())
        })
        .collect()
}

/// Whether `path` is a regular file (not a link) outside editors' swap, lock and backup files
/// and folders (`.x.swp`, `.#x`, `#x#`, `x~`), which change while a file is being edited,
/// before it is saved.
fn saved_file(rules_dir: &Path, path: &Path) -> bool {
    let scratch = |name: &str| name.starts_with(['.', '#']) || name.ends_with('~');
    let rel = path.strip_prefix(rules_dir).unwrap_or(path);
    !rel.components()
        .any(|c| scratch(&c.as_os_str().to_string_lossy()))
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}
