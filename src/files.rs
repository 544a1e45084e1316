//! Reading and writing the files that users and rule files name. Reading takes only regular
//! files, each with a size bound, and text only: a FIFO, a device, a directory, a huge or a
//! binary file is one clear error at once instead of a hang or a machine out of memory.
//! Writing replaces only a regular file, atomically, and never writes through a symlink
//! (SECURITY.md).

use std::io::{Read, Write};
use std::path::Path;

use anyhow::{Context, anyhow};

/// The largest rule file (`.lua`, `.toml`) read.
pub const MAX_RULE_FILE: u64 = 1 << 20;
/// The largest save file, script or position file read.
pub const MAX_INPUT_FILE: u64 = 16 << 20;
/// The largest simulation shard file read (a game's record takes about a hundred bytes).
pub const MAX_SHARD_FILE: u64 = 1 << 30;

/// The text of the regular file at `path`, at most `max` bytes; errors start with `what`.
/// The one reader of such files (rule, data, save, script, position and shard files).
pub fn read_text(path: &Path, max: u64, what: &str) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{what}: {e}"))?;
    regular(&meta, what)?;
    if meta.len() > max {
        return Err(format!(
            "{what}: too large ({} bytes; at most {max})",
            meta.len()
        ));
    }
    let file = open_nonblocking(path).map_err(|e| format!("{what}: {e}"))?;
    // The file may have been swapped since it was looked at: check what was opened.
    regular(&file.metadata().map_err(|e| format!("{what}: {e}"))?, what)?;
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
    String::from_utf8(bytes).map_err(|e| {
        let (line, col) = line_col(&e.as_bytes()[..e.utf8_error().valid_up_to()]);
        format!("{what}:{line}:{col}: not UTF-8 text")
    })
}

/// An error unless `meta` is a regular file's.
fn regular(meta: &std::fs::Metadata, what: &str) -> Result<(), String> {
    if meta.is_file() {
        return Ok(());
    }
    let kind = if meta.is_dir() {
        "a directory"
    } else {
        "a device, FIFO or socket"
    };
    Err(format!("{what}: not a regular file ({kind})"))
}

/// Whether a regular file is at `path` (false: nothing is), or an error naming what else is:
/// a symlink (dangling or not), a device, a FIFO, a socket or a directory, none of which a
/// write may replace or write through. The one check before every write of a named file.
pub fn regular_or_absent(path: &Path) -> Result<bool, String> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    if meta.is_file() {
        return Ok(true);
    }
    let kind = if meta.is_symlink() {
        "a symlink"
    } else if meta.is_dir() {
        "a directory"
    } else {
        "a device, FIFO or socket"
    };
    Err(format!(
        "{}: {kind}, not a regular file: not written",
        path.display()
    ))
}

/// Writes `text` to `path` so that a reader sees the old file or the new one, never half: a
/// fresh temporary file beside it (created, never opened through a link), then a rename. Only
/// a regular file is replaced ([`regular_or_absent`]).
pub fn write_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    regular_or_absent(path).map_err(|e| anyhow!(e))?;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| anyhow!("{}: not a file name", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> anyhow::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot save to {}", path.display()))
}

/// Opens a file for reading without blocking on a FIFO put in its place.
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        const O_NONBLOCK: i32 = 0o4000;
        opts.custom_flags(O_NONBLOCK);
    }
    opts.open(path)
}

/// Line and column (1-based, in characters) just after `before`.
fn line_col(before: &[u8]) -> (usize, usize) {
    let text = String::from_utf8_lossy(before);
    let line = text.matches('\n').count() + 1;
    let col = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Whether a file in a rules folder is one a ruleset can read (the rest is never read).
pub fn is_rule_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "lua" || e == "toml")
}
