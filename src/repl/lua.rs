//! `lua` at the prompt: code evaluated against a read-only view of the game (`G`), values
//! printed readably (tables with their keys, nested, bounded), the state handle's API listed by
//! `lua G` (from the API reference, `script::ruleset::reference`), and a note when an
//! assignment will not outlive the line.

use anyhow::{Result, anyhow};
use mlua::chunk::ChunkMode;
use mlua::{Table, Value as LuaValue};

use crate::kernel::Viewer;
use crate::script::ruleset::reference::Reference;
use crate::session::Session;

/// How deep and how wide a printed table goes before it is elided.
const DEPTH: usize = 3;
const ITEMS: usize = 40;

/// Evaluates `code` with `G` bound to a read-only copy of the game in `viewer`'s view: an
/// expression prints its values, a statement runs. No write reaches the game, not even from a
/// finalizer that runs later, and what the viewer may not see cannot be read.
pub fn eval(session: &Session, viewer: Viewer, code: &str) -> Result<String> {
    if code.trim() == "G" {
        return Ok(Reference::load(&session.game.rules.host.root)?.g_listing());
    }
    let rules = session.game.rules.clone();
    let host = &rules.host;
    let lua = &host.lua;
    let mut state = session.game.snapshot();
    state.read_only = true;
    state.viewer = viewer;
    let env = lua.create_table()?;
    env.raw_set("G", crate::script::handle::raw::handle(lua, state)?)?;
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
    let f = f.map_err(|e| anyhow!(crate::script::lua::error::message(&e)))?;
    let result = host.limits.run(lua, || f.call::<mlua::MultiValue>(()));
    host.check_sealed("`lua`", || host.limits.run(lua, || f.call::<()>(())))?;
    let values = result.map_err(|e| anyhow!(crate::script::lua::error::message(&e)))?;
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
        other => crate::script::ruleset::host::display_value(other),
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
