//! Values rules keep from one call to the next for the state as it is (`G:keep`, `G:kept`):
//! a board read once and followed move by move need not be read again by the next event.
//!
//! The kernel, not the rules, decides when a kept value still applies: only for the very
//! state it was kept for (the same `Stamp`: no change by rules since, not a copy, not a
//! rollback), only as the referee (a seat's view never reads what the referee built), only
//! to a hook that changes the game (a query handed the live value could change what the next
//! event finds, and so the game, while the state it reads stays the same), and never after
//! an invocation failed part-way (it may have left the value half-changed). A
//! value kept with the game properties it was built from (`G:keep(name, value, props)`) also
//! outlives changes that leave those properties as they were: the kernel compares them when
//! the value is asked for. Rules stay responsible for one thing: a kept value must equal what
//! they would build from the state (from those properties, when they name them); with
//! `State::keeping` off they always build it, and the differential tests compare.

use std::ffi::c_int;

use mlua::ffi;

use super::stack::{str_arg, str_at};
use crate::kernel::state::PropsAsThey;
use crate::kernel::{State, Viewer};
use crate::script::lua::limits::KEPT;

/// The longest name a value is kept under.
const MAX_NAME: usize = 64;

/// Argument 2, the name, checked.
fn name_arg<'a>(l: *mut ffi::lua_State, method: &str) -> Result<&'a str, String> {
    let name = str_arg(l, 2, method)?;
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
        if ffi::lua_getfield(l, ffi::LUA_REGISTRYINDEX, KEPT.as_ptr()) == ffi::LUA_TTABLE {
            return true;
        }
        ffi::lua_pop(l, 1);
        if !create {
            return false;
        }
        ffi::lua_createtable(l, 0, 4);
        ffi::lua_pushvalue(l, -1);
        ffi::lua_setfield(l, ffi::LUA_REGISTRYINDEX, KEPT.as_ptr());
        true
    }
}

/// The most game properties a value may be kept with.
const MAX_PROPS: usize = 16;

/// Argument 4 of `G:keep`, the game properties a value was built from, as they are now (none
/// when it is absent).
fn props_arg(l: *mut ffi::lua_State, state: &State) -> Result<Option<PropsAsThey>, String> {
    // SAFETY: reads argument 4 and pushes one value at a time, popped before the next.
    unsafe {
        if ffi::lua_isnoneornil(l, 4) != 0 {
            return Ok(None);
        }
        if ffi::lua_type(l, 4) != ffi::LUA_TTABLE {
            return Err(
                "keep: the properties a value was built from come as a list of names".into(),
            );
        }
        let n = ffi::lua_rawlen(l, 4);
        if n > MAX_PROPS {
            return Err(format!("keep: at most {MAX_PROPS} properties, not {n}"));
        }
        let mut out = Vec::with_capacity(n);
        for i in 1..=n as i64 {
            ffi::lua_rawgeti(l, 4, i);
            let key = str_at(l, -1).and_then(Result::ok).map(str::to_owned);
            ffi::lua_pop(l, 1);
            let key = key.ok_or_else(|| format!("keep: property {i} is not a name"))?;
            let value = state.props.get(&key).cloned();
            out.push((key, value));
        }
        Ok(Some(out))
    }
}

/// Whether the game properties `name` was kept with (if it was kept with any) hold what they
/// held then.
fn props_unchanged(state: &State, name: &str) -> bool {
    state
        .kept_from
        .0
        .iter()
        .any(|(n, props)| n == name && props.iter().all(|(k, v)| state.props.get(k) == v.as_ref()))
}

/// `G:keep(name, value [, props])`: keeps `value` for the state as it is now (nil forgets
/// it); with `props`, the names of the game properties it was built from, for as long as they
/// hold what they hold now. An entry is rewritten in place, so keeping a value again makes no
/// table.
pub(super) fn keep(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let name = name_arg(l, "keep")?;
    if state.read_only {
        return Err("keep: queries (status, label, render, …) and `lua` cannot keep values".into());
    }
    let from = props_arg(l, state)?;
    let kept_from = &mut state.kept_from.0;
    kept_from.retain(|(n, _)| n != name);
    // SAFETY: argument 3 is the value.
    if let Some(props) = from.filter(|_| unsafe { ffi::lua_isnil(l, 3) } == 0) {
        kept_from.push((name.to_owned(), props));
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

/// `G:kept(name)`: the value kept under `name` for this very state, or for an earlier version
/// of it whose properties the value was kept with are unchanged, else nil; always nil to a
/// query.
pub(super) fn kept(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let name = name_arg(l, "kept")?;
    if !state.keeping || state.read_only || state.viewer != Viewer::Referee {
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
        if ffi::lua_rawget(l, 3) != ffi::LUA_TTABLE || stamp_part(l, 2) != Some(id) {
            ffi::lua_pushnil(l);
            return Ok(1);
        }
        if stamp_part(l, 3) != Some(version) {
            if !props_unchanged(state, name) {
                ffi::lua_pushnil(l);
                return Ok(1);
            }
            // It applies to this version too: the next call finds it without comparing.
            ffi::lua_pushinteger(l, version);
            ffi::lua_rawseti(l, 4, 3);
        }
        ffi::lua_rawgeti(l, 4, 1);
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
