//! Kernel values on the Lua stack, read and pushed with the C API. Going through mlua values
//! costs a protected call per created string or table and a registry reference per argument,
//! which is more than the kernel work of a property read; these are the one copy of the
//! conversion that both the mlua side (`api::to_lua`, `api::from_lua`) and the C functions of
//! `raw` use.

use std::ffi::{CStr, c_int};

use mlua::ffi;

use crate::kernel::view::seat_bit;
use crate::kernel::{Seat, Value};

/// How deep property lists may nest.
pub const MAX_DEPTH: usize = 16;

/// The name of the value's type at `idx`, as rules know it ("integer" apart from "number").
///
/// # Safety
/// `idx` is a valid index on `l`'s stack.
pub unsafe fn type_name(l: *mut ffi::lua_State, idx: i32) -> &'static str {
    // SAFETY: per the contract; lua_typename returns static strings.
    unsafe {
        match ffi::lua_type(l, idx) {
            ffi::LUA_TNUMBER if ffi::lua_isinteger(l, idx) != 0 => "integer",
            t => CStr::from_ptr(ffi::lua_typename(l, t))
                .to_str()
                .unwrap_or("value"),
        }
    }
}

/// Argument `i` as a string, borrowed from the stack.
pub fn str_arg<'a>(l: *mut ffi::lua_State, i: c_int, method: &str) -> Result<&'a str, String> {
    // SAFETY: `i` is an argument index of the running C function; the string stays on the stack for the whole call.
    unsafe {
        match str_at(l, i) {
            Some(s) => s.map_err(|e| format!("{method}: {e}")),
            None => Err(format!(
                "{method}: argument {} must be a string, not a {}",
                i - 1,
                type_name(l, i)
            )),
        }
    }
}

/// The string at `idx` (which must be a string: numbers are not converted in place).
///
/// # Safety
/// `idx` is a valid index on `l`'s stack; the string lives while it stays there.
pub unsafe fn str_at<'a>(l: *mut ffi::lua_State, idx: i32) -> Option<Result<&'a str, String>> {
    // SAFETY: per the contract.
    let bytes = unsafe { bytes_at(l, idx) }?;
    // Rules pass short ASCII keys and values many times per move: checking for ASCII costs a
    // fraction of a full UTF-8 validation.
    if bytes.is_ascii() {
        // SAFETY: ASCII is UTF-8.
        return Some(Ok(unsafe { std::str::from_utf8_unchecked(bytes) }));
    }
    Some(std::str::from_utf8(bytes).map_err(|_| "strings must be UTF-8".to_string()))
}

/// The bytes of the string at `idx`, as `str_at` but unchecked for UTF-8 (for comparing).
///
/// # Safety
/// As for `str_at`.
pub unsafe fn bytes_at<'a>(l: *mut ffi::lua_State, idx: i32) -> Option<&'a [u8]> {
    // SAFETY: per the contract; lua_tolstring on a string neither allocates nor moves it.
    unsafe {
        if ffi::lua_type(l, idx) != ffi::LUA_TSTRING {
            return None;
        }
        let mut len = 0;
        let p = ffi::lua_tolstring(l, idx, &mut len);
        Some(std::slice::from_raw_parts(p.cast::<u8>(), len))
    }
}

/// Pushes a kernel value; nested lists recurse (each level needs two stack slots).
///
/// # Safety
/// Runs where a Lua error may be raised (inside a protected call or a C function called by
/// Lua) with no Rust value that needs dropping alive in the caller; room for two values.
pub unsafe fn push_value(l: *mut ffi::lua_State, v: &Value) {
    // SAFETY (whole body): per the contract; deeper lists make room first.
    unsafe {
        match v {
            Value::Bool(b) => ffi::lua_pushboolean(l, *b as i32),
            Value::Int(n) => ffi::lua_pushinteger(l, *n),
            Value::Num(n) => ffi::lua_pushnumber(l, *n),
            Value::Str(s) => {
                ffi::lua_pushlstring(l, s.as_ptr().cast(), s.len());
            }
            Value::List(items) => push_list(l, items),
            Value::Map(entries) => {
                ffi::luaL_checkstack(l, 3, c"nested property tables".as_ptr());
                ffi::lua_createtable(l, 0, entries.len() as i32);
                for (k, v) in entries {
                    ffi::lua_pushlstring(l, k.as_ptr().cast(), k.len());
                    push_value(l, v);
                    ffi::lua_rawset(l, -3);
                }
            }
        }
    }
}

/// Pushes `items` as a new Lua array (a list value, a chance outcome).
///
/// # Safety
/// As for [`push_value`].
pub unsafe fn push_list(l: *mut ffi::lua_State, items: &[Value]) {
    // SAFETY (whole body): per the contract; the room for the next level is made first.
    unsafe {
        ffi::luaL_checkstack(l, 3, c"nested property lists".as_ptr());
        ffi::lua_createtable(l, items.len() as i32, 0);
        for (i, item) in items.iter().enumerate() {
            push_value(l, item);
            ffi::lua_rawseti(l, -2, i as i64 + 1);
        }
    }
}

/// The list of seats at `idx` (a frozen table through its values) as a mask, each entry
/// checked by `seat`.
///
/// # Safety
/// `idx` is an absolute index of a value on `l`'s stack.
pub unsafe fn seats_at(
    l: *mut ffi::lua_State,
    idx: i32,
    seat: impl Fn(i64) -> Result<Seat, String>,
) -> Result<u64, String> {
    // SAFETY: per the contract; the room is made first, and every value pushed is popped.
    unsafe {
        if ffi::lua_type(l, idx) != ffi::LUA_TTABLE {
            return Err(format!("a list of seats, not a {}", type_name(l, idx)));
        }
        if ffi::lua_checkstack(l, 3) == 0 {
            return Err("out of Lua stack".into());
        }
        with_thawed(l, idx, |t| {
            let mut mask = 0;
            for i in 1..=ffi::lua_rawlen(l, t) as i64 {
                ffi::lua_rawgeti(l, t, i);
                let mut ok = 0;
                let s = ffi::lua_tointegerx(l, -1, &mut ok);
                ffi::lua_pop(l, 1);
                let s = if ok == 0 {
                    Err("not a seat".into())
                } else {
                    seat(s)
                };
                mask |= seat_bit(s.map_err(|e| format!("entry {i}: {e}"))?);
            }
            Ok(mask)
        })
    }
}

/// Runs `f` on the table holding the values of the table at `idx`: the table itself, or, for
/// a table frozen after loading (whose values sit behind its metatable's `__frozen`), that
/// table, pushed for the call.
///
/// # Safety
/// `idx` is an absolute index of a table on `l`'s stack, with room for two more values.
pub unsafe fn with_thawed<R>(l: *mut ffi::lua_State, idx: i32, f: impl FnOnce(i32) -> R) -> R {
    // SAFETY: per the contract; everything pushed is popped.
    unsafe {
        if ffi::lua_getmetatable(l, idx) == 0 {
            return f(idx);
        }
        if ffi::lua_getfield(l, -1, c"__frozen".as_ptr()) == ffi::LUA_TTABLE {
            let r = f(ffi::lua_gettop(l));
            ffi::lua_pop(l, 2);
            r
        } else {
            ffi::lua_pop(l, 2);
            f(idx)
        }
    }
}

/// The table holding the values of `t` (see [`with_thawed`]).
pub fn thawed(t: mlua::Table) -> mlua::Result<mlua::Table> {
    match t.metatable() {
        Some(mt) => Ok(mt.raw_get::<Option<mlua::Table>>("__frozen")?.unwrap_or(t)),
        None => Ok(t),
    }
}

/// Reads the value at `idx` as a kernel value; `nil` is `None` (a property removed). Tables
/// are arrays (keys 1..n) or string-keyed maps, nesting at most [`MAX_DEPTH`] deep.
///
/// # Safety
/// `idx` is an absolute index on `l`'s stack, with room for three more values. Raises no Lua
/// error.
pub unsafe fn read_value(
    l: *mut ffi::lua_State,
    idx: i32,
    depth: usize,
) -> Result<Option<Value>, String> {
    // SAFETY (whole body): per the contract.
    unsafe {
        Ok(Some(match ffi::lua_type(l, idx) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => return Ok(None),
            ffi::LUA_TBOOLEAN => Value::Bool(ffi::lua_toboolean(l, idx) != 0),
            ffi::LUA_TNUMBER if ffi::lua_isinteger(l, idx) != 0 => {
                Value::Int(ffi::lua_tointeger(l, idx))
            }
            ffi::LUA_TNUMBER => Value::Num(ffi::lua_tonumber(l, idx)),
            ffi::LUA_TSTRING => Value::Str(
                str_at(l, idx)
                    .expect("a string")
                    .map_err(|_| "a property string must be UTF-8")?
                    .to_string(),
            ),
            ffi::LUA_TTABLE => {
                if ffi::lua_checkstack(l, 5) == 0 {
                    return Err("property table too deep".into());
                }
                with_thawed(l, idx, |t| read_table(l, t, depth))?
            }
            _ => return Err(format!("a property cannot hold a {}", type_name(l, idx))),
        }))
    }
}

/// Reads the Lua table at `idx` (see [`read_value`]): an array (keys 1..n, or empty) is a
/// list, a table of string keys a map.
unsafe fn read_table(l: *mut ffi::lua_State, idx: i32, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("property tables nest at most {MAX_DEPTH} deep"));
    }
    // SAFETY (whole body): per read_value's contract; every push is popped before the next,
    // and keys are only read (str_at does not convert numbers in place).
    unsafe {
        let n = ffi::lua_rawlen(l, idx);
        let mut entries = 0;
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, idx) != 0 {
            entries += 1;
            ffi::lua_pop(l, 1);
        }
        if entries == n {
            let mut items = Vec::with_capacity(n);
            for i in 1..=n {
                ffi::lua_rawgeti(l, idx, i as i64);
                if ffi::lua_checkstack(l, 3) == 0 {
                    return Err("property list too deep".into());
                }
                let item = read_value(l, ffi::lua_gettop(l), depth + 1);
                ffi::lua_pop(l, 1);
                items.push(item?.expect("arrays hold no nil"));
            }
            return Ok(Value::List(items));
        }
        if n > 0 {
            return Err("a property table is an array (keys 1..n) or has string keys only".into());
        }
        let mut map = std::collections::BTreeMap::new();
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, idx) != 0 {
            let key = match str_at(l, -2) {
                Some(Ok(k)) => k.to_string(),
                Some(Err(e)) => {
                    ffi::lua_pop(l, 2);
                    return Err(e);
                }
                None => {
                    let t = type_name(l, -2);
                    ffi::lua_pop(l, 2);
                    return Err(format!(
                        "a property table is an array (keys 1..n) or has string keys only, not a {t} key"
                    ));
                }
            };
            if ffi::lua_checkstack(l, 3) == 0 {
                ffi::lua_pop(l, 2);
                return Err("property table too deep".into());
            }
            let value = read_value(l, ffi::lua_gettop(l), depth + 1);
            ffi::lua_pop(l, 1);
            match value {
                Ok(v) => {
                    map.insert(key, v.expect("tables hold no nil"));
                }
                Err(e) => {
                    ffi::lua_pop(l, 1);
                    return Err(e);
                }
            }
        }
        Ok(Value::Map(map))
    }
}
