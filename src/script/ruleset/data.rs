//! Data files: text a rule reads from its own game folder through the kernel
//! (`data.read("maps/atlantic.map")`), at load or in a hook. A file is read once per ruleset
//! (later reads return the same text, so a game cannot see a file change under it), bounded in
//! size, only a regular file inside the game folder, and hashed into the ruleset's identity
//! like a rule file. `data.fail` raises a parse error that names the file, line and column.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;

use mlua::{Lua, LuaString, Table, Value as LuaValue};

use super::host::{Host, sha256_hex};

/// The largest data file a rule may read.
pub const MAX_DATA_FILE: u64 = 1 << 20;

/// Reads the text file `rel` (a relative path of plain names) under the folder `dir`: only a
/// regular file whose real path stays inside `dir`, read as `files::read_text` reads any file,
/// at most [`MAX_DATA_FILE`] bytes. `name` is how errors call the file.
pub fn read_text(dir: &Path, rel: &str, name: &str) -> Result<String, String> {
    let plain = !rel.is_empty()
        && rel.split('/').all(|part| {
            !part.is_empty()
                && part != "."
                && part != ".."
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        });
    if !plain {
        return Err(format!(
            "data file '{rel}': a path inside the game folder, names of letters, digits, '_', '-', '.' joined by '/'"
        ));
    }
    let dir = dir
        .canonicalize()
        .map_err(|e| format!("{name}: game folder: {e}"))?;
    let real = dir.join(rel).canonicalize().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{name}: no such data file"),
        _ => format!("{name}: {e}"),
    })?;
    if !real.starts_with(&dir) {
        return Err(format!("{name}: outside the game folder"));
    }
    crate::files::read_text(&real, MAX_DATA_FILE, name)
}

/// Installs the global `data` for the rules of `game`: `read(path)` → text,
/// `lines(path)` → {line…}, `fail(path, line, column, message)` raises a parse error.
pub fn install(host: &Host, game: &str) -> mlua::Result<()> {
    let lua = &host.lua;
    let dir = host.root.join(game);
    let prefix = host.chunk_name(game);
    let cache: Rc<RefCell<BTreeMap<String, LuaString>>> = Rc::default();
    let files = host.files.clone();
    let read = move |lua: &Lua, rel: &str| -> mlua::Result<LuaString> {
        if let Some(s) = cache.borrow().get(rel) {
            return Ok(s.clone());
        }
        let name = format!("{prefix}/{rel}");
        let text = read_text(&dir, rel, &name).map_err(mlua::Error::runtime)?;
        files.borrow_mut().insert(name, sha256_hex(text.as_bytes()));
        let s = lua.create_string(&text)?;
        cache.borrow_mut().insert(rel.to_string(), s.clone());
        Ok(s)
    };
    let read = Rc::new(read);
    let t = lua.create_table()?;
    let r = read.clone();
    t.raw_set(
        "read",
        lua.create_function(move |lua, rel: String| r(lua, &rel))?,
    )?;
    t.raw_set(
        "lines",
        lua.create_function(move |lua, rel: String| {
            let text = read(lua, &rel)?;
            let lines: Table = lua.create_table()?;
            for (i, line) in text.to_str()?.lines().enumerate() {
                lines.raw_set(i + 1, line)?;
            }
            Ok(lines)
        })?,
    )?;
    let prefix = host.chunk_name(game);
    t.raw_set(
        "fail",
        lua.create_function(
            move |_,
                  (rel, line, col, msg): (String, i64, Option<i64>, LuaValue)|
                  -> mlua::Result<()> {
                let msg = super::host::display_value(&msg);
                let at = match col {
                    Some(c) => format!("{prefix}/{rel}:{line}:{c}"),
                    None => format!("{prefix}/{rel}:{line}"),
                };
                Err(mlua::Error::runtime(format!("{at}: {msg}")))
            },
        )?,
    )?;
    host.set_global("data", LuaValue::Table(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_only_plain_regular_files_inside_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("g");
        std::fs::create_dir_all(game.join("maps")).unwrap();
        std::fs::write(game.join("maps/a.map"), "1 2\n3 4\n").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "x").unwrap();
        assert_eq!(
            read_text(&game, "maps/a.map", "g/maps/a.map").unwrap(),
            "1 2\n3 4\n"
        );
        let err = |rel: &str| read_text(&game, rel, rel).unwrap_err();
        assert!(err("../secret.txt").contains("a path inside the game folder"));
        assert!(err("/etc/passwd").contains("a path inside the game folder"));
        assert!(err("maps/none.map").contains("no such data file"));
        assert!(err("maps").contains("not a regular file"));
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), game.join("link")).unwrap();
        assert!(err("link").contains("outside the game folder"));
        std::fs::write(game.join("big"), vec![b'x'; MAX_DATA_FILE as usize + 1]).unwrap();
        assert!(err("big").contains("too large"));
        let fifo = game.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(
                err("fifo").contains("not a regular file"),
                "a FIFO is refused unopened"
            );
        }
        std::fs::write(game.join("bin"), b"ok\n\xff").unwrap();
        assert!(
            err("bin").ends_with("bin:2:1: not UTF-8 text"),
            "{}",
            err("bin")
        );
    }
}
