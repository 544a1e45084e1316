//! Reading the files that users and rule files name: only regular files, each with a size
//! bound, and text only. A FIFO, a device, a directory, a huge or a binary file is one clear
//! error at once instead of a hang or a machine out of memory (SECURITY.md).

use std::io::Read;
use std::path::Path;

/// The largest rule file (`.lua`, `.toml`) read.
pub const MAX_RULE_FILE: u64 = 1 << 20;
/// The largest save file, script or position file read.
pub const MAX_INPUT_FILE: u64 = 16 << 20;
/// The largest simulation shard file read (a game's record takes about a hundred bytes).
pub const MAX_SHARD_FILE: u64 = 1 << 30;

/// The text of the regular file at `path`, at most `max` bytes; errors start with `what`.
pub fn read_text(path: &Path, max: u64, what: &str) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{what}: {e}"))?;
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "a device, FIFO or socket"
        };
        return Err(format!("{what}: not a regular file ({kind})"));
    }
    if meta.len() > max {
        return Err(format!(
            "{what}: too large ({} bytes; at most {max})",
            meta.len()
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{what}: {e}"))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{what}: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!("{what}: too large (more than {max} bytes)"));
    }
    if bytes.contains(&0) {
        return Err(format!("{what}: a binary file, not text"));
    }
    String::from_utf8(bytes).map_err(|e| format!("{what}: not UTF-8 text ({e})"))
}

/// Whether a file in a rules folder is one a ruleset can read (the rest is never read).
pub fn is_rule_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "lua" || e == "toml")
}
