//! Values rules keep from one call to the next for the state as it is (`G:keep`, `G:kept`):
//! a board read once and followed move by move need not be read again by the next event.
//!
//! The kernel, not the rules, decides when a kept value still applies: only for the very
//! state it was kept for (the same `Stamp`: no change by rules since, not a copy, not a
//! rollback), only as the referee (a seat's view never reads what the referee built), and
//! never after an invocation failed part-way (it may have left the value half-changed). Rules
//! stay responsible for one thing: a kept value must equal what they would build from the
//! state; with `State::keeping` off they always build it, and the differential tests compare.

use std::ffi::c_int;

use mlua::{Lua, ffi};

use crate::kernel::{State, Viewer};

/// The registry field holding the table name → { value, stamp id, stamp version }.
const REGISTRY: &std::ffi::CStr = c"tortuga.kept";

/// The longest name a value is kept under.
const MAX_NAME: usize = 64;

/// Argument 2, the name, checked.
fn name_arg<'a>(l: *mut ffi::lua_State, method: &str) -> Result<&'a str, String> {
    let name = super::raw::str_arg(l, 2, method)?;
    if name.is_empty() || name.len() > MAX_NAME {
        return Err(format!(
            "{method}: a name of 1 to {MAX_NAME} bytes, not {} bytes",
            name.len()
        ));
    }
    Ok(name)
}

/// Pushes the kept table (creating it when `create`), or nothing and returns false.
///
/// # Safety
/// Inside a C function called by Lua, with room for two values; may raise a memory error
/// when creating, with nothing to drop alive.
unsafe fn push_table(l: *mut ffi::lua_State, create: bool) -> bool {
    // SAFETY: per the contract.
    unsafe {
        if ffi::lua_getfield(l, ffi::LUA_REGISTRYINDEX, REGISTRY.as_ptr()) == ffi::LUA_TTABLE {
            return true;
        }
        ffi::lua_pop(l, 1);
        if !create {
            return false;
        }
        ffi::lua_createtable(l, 0, 4);
        ffi::lua_pushvalue(l, -1);
        ffi::lua_setfield(l, ffi::LUA_REGISTRYINDEX, REGISTRY.as_ptr());
        true
    }
}

/// `G:keep(name, value)`: keeps `value` for the state as it is now (nil forgets it). An
/// entry is rewritten in place, so keeping a value again makes no table.
pub(super) fn keep(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    name_arg(l, "keep")?;
    if state.read_only {
        return Err("keep: queries (status, label, render, …) and `lua` cannot keep values".into());
    }
    let (id, version) = state.stamp().parts();
    // SAFETY: a C function's stack has room for LUA_MINSTACK values; arguments 2 and 3 are
    // the name and the value; a memory error raised here leaves nothing to drop.
    unsafe {
        ffi::lua_settop(l, 3);
        push_table(l, true);
        if ffi::lua_isnil(l, 3) != 0 {
            ffi::lua_pushvalue(l, 2);
            ffi::lua_pushnil(l);
            ffi::lua_rawset(l, 4);
            return Ok(0);
        }
        ffi::lua_pushvalue(l, 2);
        if ffi::lua_rawget(l, 4) != ffi::LUA_TTABLE {
            ffi::lua_pop(l, 1);
            ffi::lua_createtable(l, 3, 0);
            ffi::lua_pushvalue(l, 2);
            ffi::lua_pushvalue(l, -2);
            ffi::lua_rawset(l, 4);
        }
        ffi::lua_pushvalue(l, 3);
        ffi::lua_rawseti(l, -2, 1);
        ffi::lua_pushinteger(l, id);
        ffi::lua_rawseti(l, -2, 2);
        ffi::lua_pushinteger(l, version);
        ffi::lua_rawseti(l, -2, 3);
    }
    Ok(0)
}

/// `G:kept(name)`: the value kept under `name` for this very state, else nil.
pub(super) fn kept(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    name_arg(l, "kept")?;
    if !state.keeping || state.viewer != Viewer::Referee {
        // SAFETY: a C function may push one result.
        unsafe { ffi::lua_pushnil(l) };
        return Ok(1);
    }
    let (id, version) = state.stamp().parts();
    // SAFETY: room for LUA_MINSTACK values; only raw reads, which raise nothing.
    unsafe {
        ffi::lua_settop(l, 2);
        if !push_table(l, false) {
            ffi::lua_pushnil(l);
            return Ok(1);
        }
        ffi::lua_pushvalue(l, 2);
        if ffi::lua_rawget(l, 3) == ffi::LUA_TTABLE
            && stamp_part(l, 2) == Some(id)
            && stamp_part(l, 3) == Some(version)
        {
            ffi::lua_rawgeti(l, 4, 1);
        } else {
            ffi::lua_pushnil(l);
        }
    }
    Ok(1)
}

/// Integer `i` of the entry on top of the stack.
///
/// # Safety
/// A table is on top, with room for one value.
unsafe fn stamp_part(l: *mut ffi::lua_State, i: i64) -> Option<i64> {
    // SAFETY: per the contract; the value pushed is popped.
    unsafe {
        ffi::lua_rawgeti(l, -1, i);
        let mut ok = 0;
        let v = ffi::lua_tointegerx(l, -1, &mut ok);
        ffi::lua_pop(l, 1);
        (ok != 0).then_some(v)
    }
}

/// Forgets every kept value: an invocation failed, and may have left one half-changed.
pub fn forget_all(lua: &Lua) {
    // Dropping the table cannot fail in a way that matters: nothing is kept either way.
    let _ = lua.unset_named_registry_value(REGISTRY.to_str().unwrap_or_default());
}
