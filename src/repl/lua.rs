//! `lua` at the prompt: code evaluated against a read-only view of the game (`G`), values
//! printed readably (tables with their keys, nested, bounded), the state handle's API listed by
//! `lua G` and `help lua`, and a note when an assignment will not outlive the line.

use anyhow::{Result, anyhow};
use mlua::chunk::ChunkMode;
use mlua::{Table, Value as LuaValue};

use crate::kernel::Viewer;
use crate::session::Session;

/// The rule author's API reference; `lua G` lists the calls it documents for `G`.
const API_DOC: &str = include_str!("../../docs/lua-api.md");

/// How deep and how wide a printed table goes before it is elided.
const DEPTH: usize = 3;
const ITEMS: usize = 40;

/// Evaluates `code` with `G` bound to a read-only copy of the game in `viewer`'s view: an
/// expression prints its values, a statement runs. No write reaches the game, not even from a
/// finalizer that runs later, and what the viewer may not see cannot be read.
pub fn eval(session: &Session, viewer: Viewer, code: &str) -> Result<String> {
    if code.trim() == "G" {
        return Ok(api());
    }
    let rules = session.game.rules.clone();
    let host = &rules.host;
    let lua = &host.lua;
    let mut state = session.game.snapshot();
    state.read_only = true;
    state.viewer = viewer;
    let env = lua.create_table()?;
    env.raw_set("G", crate::script::raw::handle(lua, state)?)?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", host.env().clone())?;
    env.set_metatable(Some(meta))?;
    let load = |src: String| {
        lua.load(src)
            .set_name("=lua")
            .set_mode(ChunkMode::Text)
            .set_environment(env.clone())
            .into_function()
    };
    let f = load(format!("return {code}")).or_else(|_| load(code.to_string()));
    let f = f.map_err(|e| anyhow!(crate::script::error::message(&e)))?;
    let result = host.limits.run(lua, || f.call::<mlua::MultiValue>(()));
    host.check_sealed("`lua`", || host.limits.run(lua, || f.call::<()>(())))?;
    let values = result.map_err(|e| anyhow!(crate::script::error::message(&e)))?;
    let mut out: Vec<String> = vec![
        values
            .iter()
            .map(|v| pretty(v, 0))
            .collect::<Vec<_>>()
            .join("\t"),
    ];
    let mut gone: Vec<String> = env
        .pairs::<LuaValue, LuaValue>()
        .filter_map(|kv| kv.ok())
        .map(|(k, _)| pretty(&k, 0))
        .filter(|k| k != "G")
        .collect();
    gone.sort();
    if !gone.is_empty() {
        out.push(format!(
            "note: {} lasts only for this line (each `lua` line starts afresh and cannot change the game)",
            gone.join(", ")
        ));
    }
    Ok(out
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n"))
}

/// A Lua value as the REPL prints it: arrays as `{a, b}`, other tables as `{key = value}` in
/// sorted key order, nesting and length bounded. A string inside a table is quoted only when
/// bare it would be misread (empty, or holding a separator, a brace, `=`, a quote or spaces at
/// its ends), so that `{plus, plus}` stays as short as it reads.
pub fn pretty(v: &LuaValue, depth: usize) -> String {
    match v {
        LuaValue::String(s) if depth > 0 => {
            let text = s.to_string_lossy();
            let misread = text.is_empty()
                || text.trim() != text
                || text.contains([',', '{', '}', '=', '"', '\n']);
            if misread { format!("{text:?}") } else { text }
        }
        LuaValue::Table(t) => table(t, depth),
        LuaValue::UserData(u) if u.is::<crate::kernel::state::State>() => {
            "G (the game: `lua G` lists its calls)".into()
        }
        other => crate::script::host::display_value(other),
    }
}

fn table(t: &Table, depth: usize) -> String {
    if depth >= DEPTH {
        return "{…}".into();
    }
    let n = t.raw_len();
    let mut keyed: Vec<(String, String)> = t
        .pairs::<LuaValue, LuaValue>()
        .filter_map(|kv| kv.ok())
        .filter(|(k, _)| !matches!(k, LuaValue::Integer(i) if (1..=n as i64).contains(i)))
        .map(|(k, v)| {
            let key = match &k {
                LuaValue::String(s) => s.to_string_lossy(),
                other => format!("[{}]", pretty(other, depth + 1)),
            };
            (key, pretty(&v, depth + 1))
        })
        .collect();
    keyed.sort();
    let mut items: Vec<String> = (1..=n)
        .map(|i| {
            pretty(
                &t.raw_get::<LuaValue>(i).unwrap_or(LuaValue::Nil),
                depth + 1,
            )
        })
        .collect();
    items.extend(keyed.into_iter().map(|(k, v)| format!("{k} = {v}")));
    let total = items.len();
    items.truncate(ITEMS);
    if total > ITEMS {
        items.push(format!("… {} more", total - ITEMS));
    }
    format!("{{{}}}", items.join(", "))
}

/// The calls on `G` that docs/lua-api.md documents, by section, one line each.
pub fn api() -> String {
    let section = API_DOC
        .split("\n## ")
        .find(|s| s.starts_with("The state handle"))
        .unwrap_or_default();
    let mut out = String::from(
        "G, the game (read-only at the prompt); docs/lua-api.md explains each call:\n",
    );
    for part in section.split("\n### ").skip(1) {
        let (title, body) = part.split_once('\n').unwrap_or((part, ""));
        let mut calls: Vec<&str> = Vec::new();
        for chunk in body.split('`').skip(1).step_by(2) {
            if let Some(call) = chunk.strip_prefix("G:") {
                let name = call.split('(').next().unwrap_or(call);
                if !calls.contains(&name) {
                    calls.push(name);
                }
            }
        }
        if !calls.is_empty() {
            // "Properties (nil, boolean, …)": the heading without its parenthesis.
            let title = title.split(" (").next().unwrap_or(title);
            out += &wrapped(&format!("  {title}: {}", calls.join(" ")), "    ");
        }
    }
    out += &wrapped(
        "Globals: hook (the game's hooks), tiles, tile_names, json, sorted_keys, data, require, \
         print; no math.random (chance goes through the game's randomizers)",
        "  ",
    );
    out.trim_end().to_string()
}

/// `text` wrapped at word boundaries to 100 columns, continuation lines indented by `indent`.
fn wrapped(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let body = text.trim_start();
    let mut line = text[..text.len() - body.len()].to_string();
    let mut fresh = true;
    for word in body.split(' ') {
        if !fresh && line.chars().count() + 1 + word.chars().count() > 100 {
            out += &line;
            out.push('\n');
            line = indent.to_string();
        } else if !fresh {
            line.push(' ');
        }
        line += word;
        fresh = false;
    }
    out + &line + "\n"
}
