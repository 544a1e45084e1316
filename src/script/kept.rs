//! Values rules keep from one call to the next for the state as it is (`G:keep`, `G:kept`):
//! a board read once and followed move by move need not be read again by the next event.
//!
//! The kernel, not the rules, decides when a kept value still applies: only for the very
//! state it was kept for (the same `Stamp`: no change by rules since, not a copy, not a
//! rollback), only as the referee (a seat's view never reads what the referee built), and
//! never after an invocation failed part-way (it may have left the value half-changed). Rules
//! stay responsible for one thing: a kept value must equal what they would build from the
//! state; with `State::keeping` off they always build it, and the differential tests compare.

use mlua::{Lua, Result, Table, Value as LuaValue};

use crate::kernel::{State, Viewer};

/// The registry table: name → { value, stamp id, stamp version }.
const REGISTRY: &str = "tortuga.kept";

/// The longest name a value is kept under.
const MAX_NAME: usize = 64;

fn table(lua: &Lua) -> Result<Table> {
    match lua.named_registry_value::<Option<Table>>(REGISTRY)? {
        Some(t) => Ok(t),
        None => {
            let t = lua.create_table()?;
            lua.set_named_registry_value(REGISTRY, &t)?;
            Ok(t)
        }
    }
}

/// `G:keep(name, value)`: keeps `value` for the state as it is now (nil forgets it).
pub fn keep(lua: &Lua, state: &State, name: &str, value: LuaValue) -> Result<()> {
    if name.is_empty() || name.len() > MAX_NAME {
        return Err(mlua::Error::runtime(format!(
            "keep: a name of 1 to {MAX_NAME} bytes, not {} bytes",
            name.len()
        )));
    }
    if state.read_only {
        return Err(mlua::Error::runtime(
            "keep: queries (status, label, render, …) and `lua` cannot keep values",
        ));
    }
    let t = table(lua)?;
    if value.is_nil() {
        return t.raw_set(name, LuaValue::Nil);
    }
    let (id, version) = state.stamp().parts();
    t.raw_set(
        name,
        lua.create_sequence_from([value, LuaValue::Integer(id), LuaValue::Integer(version)])?,
    )
}

/// `G:kept(name)`: the value kept under `name` for this very state, else nil.
pub fn kept(lua: &Lua, state: &State, name: &str) -> Result<LuaValue> {
    if !state.keeping || state.viewer != Viewer::Referee {
        return Ok(LuaValue::Nil);
    }
    let Some(t) = lua.named_registry_value::<Option<Table>>(REGISTRY)? else {
        return Ok(LuaValue::Nil);
    };
    let Some(entry) = t.raw_get::<Option<Table>>(name)? else {
        return Ok(LuaValue::Nil);
    };
    let (id, version) = state.stamp().parts();
    if entry.raw_get::<i64>(2)? == id && entry.raw_get::<i64>(3)? == version {
        entry.raw_get(1)
    } else {
        Ok(LuaValue::Nil)
    }
}

/// Forgets every kept value: an invocation failed, and may have left one half-changed.
pub fn forget_all(lua: &Lua) {
    // Dropping the table cannot fail in a way that matters: nothing is kept either way.
    let _ = lua.unset_named_registry_value(REGISTRY);
}
