//! The `G` methods rules call on every event, bound as plain Lua C functions instead of mlua
//! callbacks. An mlua method call costs a protected call, a userdata borrow check and a
//! registry reference per string argument — several times the kernel work of reading a
//! property or tallying a track — and these methods run a dozen times per move in a
//! simulation. The other methods stay in `api`.
//!
//! How a C function finds the state: `handle` stores a pointer to the `State` inside the
//! userdata as the userdata's first user value, and every function here checks that its
//! first argument has `G`'s metatable (its first upvalue) before following the pointer.
//!
//! Why following it is sound: the `State` lives in mlua's heap cell, which neither moves nor
//! dies while the userdata is on the stack (it is this call's first argument); the kernel
//! replaces the state in place (`Game::restore`), never moves it out; and no Rust code holds a
//! borrow of the state while Lua runs — the kernel borrows it only between calls into Lua, and
//! no method in `api` calls back into Lua. A Lua error is raised only with no Rust value that
//! needs dropping alive in these frames (`raise`).

use std::ffi::{c_int, c_void};
use std::sync::Arc;

use mlua::{AnyUserData, Lua, ffi};

use super::stack::{push_value, read_value, seats_at, str_arg, str_at, type_name};
use crate::kernel::state::Props;
use crate::kernel::view::{ALL_SEATS, LogLine};
use crate::kernel::{Seat, State, Value, Viewer};

type Method = fn(*mut ffi::lua_State, &mut State) -> Result<c_int, String>;

/// The methods bound here, by name.
const METHODS: [(&str, Method); 27] = [
    ("current", current),
    ("switch", switch),
    ("get", get),
    ("set", set),
    ("cell_get", cell_get),
    ("cell_set", cell_set),
    ("piece_get", piece_get),
    ("piece_set", piece_set),
    ("player_get", player_get),
    ("player_set", player_set),
    ("count", count),
    ("tally", tally),
    ("move_tops", move_tops),
    ("mask", mask),
    ("pieces_get", pieces_get),
    ("cells_get", cells_get),
    ("keep", super::kept::keep),
    ("kept", super::kept::kept),
    ("move", move_piece),
    ("kind", kind),
    ("where", where_is),
    ("seat_name", seat_name),
    ("set_unit", set_unit),
    ("stat", stat),
    ("log", log),
    ("secret_get", secret_get),
    ("can_see", can_see),
];

/// `METHODS[i]` as a Lua C function.
const BOUND: [ffi::lua_CFunction; METHODS.len()] = [
    bind::<0>, bind::<1>, bind::<2>, bind::<3>, bind::<4>, bind::<5>, bind::<6>, bind::<7>,
    bind::<8>, bind::<9>, bind::<10>, bind::<11>, bind::<12>, bind::<13>, bind::<14>, bind::<15>,
    bind::<16>, bind::<17>, bind::<18>, bind::<19>, bind::<20>, bind::<21>, bind::<22>, bind::<23>,
    bind::<24>, bind::<25>, bind::<26>,
];

/// Adds the methods to `G`'s metatable (shared by every state of this Lua).
pub fn install(lua: &Lua) -> mlua::Result<()> {
    let probe = handle(lua, State::new(vec!["A".into()], 0, Arc::default()))?;
    // SAFETY: works on the userdata exec_raw pushed (index 1) and the values it pushes, in one
    // protected call.
    unsafe {
        lua.exec_raw::<()>(&probe, |l| {
            ffi::lua_getmetatable(l, 1);
            if ffi::lua_getfield(l, 2, c"__index".as_ptr()) != ffi::LUA_TTABLE {
                ffi::luaL_error(l, c"G's methods are not a table".as_ptr());
            }
            let advance: (&str, ffi::lua_CFunction) = ("advance", advance);
            for (name, f) in METHODS.iter().map(|(n, _)| *n).zip(BOUND).chain([advance]) {
                ffi::lua_pushlstring(l, name.as_ptr().cast(), name.len());
                ffi::lua_pushvalue(l, 2);
                ffi::lua_pushcclosure(l, f, 1);
                ffi::lua_rawset(l, 3);
            }
        })
    }
}

/// A new `G` for `state`.
pub fn handle(lua: &Lua, state: State) -> mlua::Result<AnyUserData> {
    let g = lua.create_userdata(state)?;
    let p: *mut State = &mut *g.borrow_mut::<State>()?;
    // SAFETY: stores a light userdata as user value 1 of the userdata exec_raw pushed.
    unsafe {
        lua.exec_raw::<()>(&g, |l| {
            ffi::lua_pushlightuserdata(l, p.cast::<c_void>());
            ffi::lua_setiuservalue(l, 1, 1);
        })?;
    }
    Ok(g)
}

/// Method `I` of [`METHODS`] as a Lua C function.
unsafe extern "C-unwind" fn bind<const I: usize>(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua with the metatable as upvalue 1 (install); see the module header.
    unsafe {
        let outcome = match state_arg(l) {
            Some(state) => METHODS[I].1(l, state),
            None => Err(format!("{0}: call it as G:{0}(…)", METHODS[I].0)),
        };
        match outcome {
            Ok(n) => n,
            Err(msg) => match caller_place(l) {
                Some(place) => raise(l, format!("{place}{msg}")),
                None => raise(l, msg),
            },
        }
    }
}

/// `file:line: ` of the Lua code that called the running C function, if it is Lua code.
///
/// # Safety
/// Called from a C function that Lua called.
unsafe fn caller_place(l: *mut ffi::lua_State) -> Option<String> {
    // SAFETY: lua_getstack and lua_getinfo fill a zeroed lua_Debug; "Sl" allocates nothing.
    unsafe {
        let mut ar: ffi::lua_Debug = std::mem::zeroed();
        if ffi::lua_getstack(l, 1, &mut ar) == 0
            || ffi::lua_getinfo(l, c"Sl".as_ptr(), &mut ar) == 0
            || ar.currentline < 0
        {
            return None;
        }
        let src = std::ffi::CStr::from_ptr(ar.short_src.as_ptr()).to_string_lossy();
        Some(format!("{src}:{}: ", ar.currentline))
    }
}

/// The state behind argument 1, if it is a `G`.
unsafe fn state_arg<'a>(l: *mut ffi::lua_State) -> Option<&'a mut State> {
    // SAFETY: see the module header for the pointer.
    unsafe { state_ptr(l).as_mut() }
}

/// The pointer to the state behind argument 1, null if it is not a `G`.
unsafe fn state_ptr(l: *mut ffi::lua_State) -> *mut State {
    // SAFETY: a C function's stack has room for LUA_MINSTACK values.
    unsafe {
        if ffi::lua_getmetatable(l, 1) == 0 {
            return std::ptr::null_mut();
        }
        let ours = ffi::lua_rawequal(l, -1, ffi::lua_upvalueindex(1)) != 0;
        ffi::lua_pop(l, 1);
        if !ours {
            return std::ptr::null_mut();
        }
        ffi::lua_getiuservalue(l, 1, 1);
        let p = ffi::lua_touserdata(l, -1).cast::<State>();
        ffi::lua_pop(l, 1);
        p
    }
}

/// Raises `msg` as a Lua error. The string is pushed inside a protected call, so that a
/// memory error there cannot skip dropping `msg`.
pub(crate) unsafe fn raise(l: *mut ffi::lua_State, msg: String) -> ! {
    unsafe extern "C-unwind" fn push(l: *mut ffi::lua_State) -> c_int {
        // SAFETY: argument 1 is the light userdata `raise` pushed, pointing at its String.
        unsafe {
            let msg = &*ffi::lua_touserdata(l, 1).cast::<String>();
            ffi::lua_pushlstring(l, msg.as_ptr().cast(), msg.len());
        }
        1
    }
    // SAFETY: pushing a light C function and a light userdata allocates nothing; after the
    // protected call the top is the message or the memory error, and nothing is left to drop.
    unsafe {
        ffi::lua_pushcfunction(l, push);
        ffi::lua_pushlightuserdata(l, (&msg as *const String).cast_mut().cast());
        ffi::lua_pcall(l, 1, 1, 0);
        drop(msg);
        ffi::lua_error(l)
    }
}

/// Refuses a mutation while the state is shown read-only: in a query hook (status, label,
/// render, export, parse, …) and in the REPL's `lua`; else records that the state changes
/// (`State::touch`). Every mutating method calls it first; `api` uses it too.
pub(super) fn writable(state: &mut State) -> Result<(), String> {
    if state.read_only {
        Err("the game is read-only here: queries (status, label, render, export, parse …) and `lua` cannot change it".into())
    } else {
        state.touch();
        Ok(())
    }
}

/// The viewer of a view, as error messages name it.
pub(super) fn viewer_name(state: &State) -> String {
    match state.viewer.seat() {
        None => "the referee".into(),
        Some(0) => "spectators".into(),
        Some(s) => format!("seat {}", state.turn.player_name(s)),
    }
}

/// Argument `i` (self is 1) as an integer.
fn int_arg(l: *mut ffi::lua_State, i: c_int, method: &str) -> Result<i64, String> {
    // SAFETY: `i` is an argument index of the running C function.
    unsafe {
        let mut ok = 0;
        let v = ffi::lua_tointegerx(l, i, &mut ok);
        if ok != 0 && ffi::lua_type(l, i) == ffi::LUA_TNUMBER {
            Ok(v)
        } else {
            Err(format!(
                "{method}: argument {} must be an integer, not a {}",
                i - 1,
                type_name(l, i)
            ))
        }
    }
}

/// Argument `i` as an integer, or `None` when absent or nil.
fn opt_int_arg(l: *mut ffi::lua_State, i: c_int, method: &str) -> Result<Option<i64>, String> {
    // SAFETY: as in int_arg.
    if unsafe { ffi::lua_isnoneornil(l, i) } != 0 {
        Ok(None)
    } else {
        int_arg(l, i, method).map(Some)
    }
}

fn current(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    // SAFETY: a C function may push one result.
    unsafe { ffi::lua_pushinteger(l, state.turn.current().into()) };
    Ok(1)
}

/// `G:advance([skip])`: passes the turn and returns the unit to play. With a function
/// `skip(u) → bool`, the units for which it returns true are passed over (it is called once
/// per unit, in order, with the game read-only); when every unit is, the result is nil and
/// nothing changes.
///
/// Bound on its own, not through `bind`: `skip` runs Lua, which reaches the state through
/// the same pointer, so no reference to the state may be alive while it runs (each access
/// below is a short borrow through the pointer).
unsafe extern "C-unwind" fn advance(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua with the metatable as upvalue 1 (install); see the module header.
    // `skip` runs in a protected call, so its error is re-raised here with nothing to drop.
    unsafe {
        let p = state_ptr(l);
        if p.is_null() {
            raise(l, "advance: call it as G:advance(…)".into());
        }
        if let Err(e) = writable(&mut *p) {
            raise(l, e);
        }
        let passed = match ffi::lua_type(l, 2) {
            ffi::LUA_TNONE | ffi::LUA_TNIL => 0,
            ffi::LUA_TFUNCTION => {
                let n = (*p).turn.units();
                let mut passed = 0u64;
                (*p).read_only = true;
                for u in 1..=n {
                    ffi::lua_pushvalue(l, 2);
                    ffi::lua_pushinteger(l, u.into());
                    if ffi::lua_pcall(l, 1, 1, 0) != ffi::LUA_OK {
                        (*p).read_only = false;
                        ffi::lua_error(l);
                    }
                    if ffi::lua_toboolean(l, -1) != 0 {
                        passed |= 1 << (u - 1);
                    }
                    ffi::lua_pop(l, 1);
                }
                (*p).read_only = false;
                passed
            }
            _ => {
                let t = type_name(l, 2);
                raise(l, format!("advance takes a function skip(unit), not a {t}"));
            }
        };
        match (*p).turn.advance_past(passed) {
            Some(u) => ffi::lua_pushinteger(l, u.into()),
            None => ffi::lua_pushnil(l),
        }
        1
    }
}

fn switch(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let k = str_arg(l, 2, "switch")?;
    let v = state
        .switches
        .get(k)
        .ok_or_else(|| format!("unknown switch '{k}'"))?;
    // SAFETY: as in current; nothing to drop is alive.
    unsafe { push_value(l, v) };
    Ok(1)
}

/// Pushes the properties named by arguments 3.. (`first`..top).
fn push_props(
    l: *mut ffi::lua_State,
    props: &Props,
    first: c_int,
    method: &str,
) -> Result<c_int, String> {
    // SAFETY: reads arguments and pushes one value per key after making room.
    unsafe {
        let top = ffi::lua_gettop(l);
        if top < first {
            return Err(format!("{method}: which property?"));
        }
        if ffi::lua_checkstack(l, top - first + 3) == 0 {
            return Err(format!("{method}: too many keys"));
        }
        for i in first..=top {
            match props.get(str_arg(l, i, method)?) {
                Some(v) => push_value(l, v),
                None => ffi::lua_pushnil(l),
            }
        }
        Ok(top - first + 1)
    }
}

/// Stores the key, value pairs of arguments `first`..top; returns how many bytes the map grew
/// by, for `State::grow`.
fn store_props(
    l: *mut ffi::lua_State,
    props: &mut Props,
    first: c_int,
    method: &str,
) -> Result<isize, String> {
    // SAFETY: reads arguments only; read_value raises no Lua error and needs three free slots,
    // which a C function has.
    unsafe {
        let top = ffi::lua_gettop(l);
        if top < first + 1 || (top - first) % 2 == 0 {
            return Err(format!("{method} takes key, value pairs"));
        }
        let mut grown = 0isize;
        let size = |v: &Value| v.bytes() as isize;
        for i in (first..top).step_by(2) {
            let Some(key) = str_at(l, i) else {
                return Err(format!(
                    "{method}: a key must be a string, not a {}",
                    type_name(l, i)
                ));
            };
            let key = key?;
            // One lookup per key; a phase-like string changes every event: reuse its buffer.
            match (props.get_mut(key), str_at(l, i + 1)) {
                (Some(Value::Str(old)), Some(Ok(s))) => {
                    grown += s.len() as isize - old.len() as isize;
                    old.clear();
                    old.push_str(s);
                }
                (Some(slot), _) => match read_value(l, i + 1, 0)? {
                    Some(v) => {
                        grown += size(&v) - size(slot);
                        *slot = v;
                    }
                    None => {
                        grown -= size(slot) + 24 + key.len() as isize;
                        props.remove(key);
                    }
                },
                (None, _) => {
                    if let Some(v) = read_value(l, i + 1, 0)? {
                        grown += size(&v) + 24 + key.len() as isize;
                        props.insert(key.to_owned(), v);
                    }
                }
            }
        }
        Ok(grown)
    }
}

fn get(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    push_props(l, &state.props, 2, "get")
}

fn set(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    writable(state)?;
    let grown = store_props(l, &mut state.props, 2, "set")?;
    state.grow(grown).map(|()| 0)
}

fn cell_get(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let c = state.check_loc(int_arg(l, 2, "cell_get")?)?;
    push_props(l, state.cell_props(c), 3, "cell_get")
}

fn cell_set(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    writable(state)?;
    let c = state.check_loc(int_arg(l, 2, "cell_set")?)?;
    let grown = store_props(l, state.cell_props_mut(c), 3, "cell_set")?;
    state.grow(grown).map(|()| 0)
}

fn piece_get(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let p = state.check_piece(int_arg(l, 2, "piece_get")?)?;
    push_props(l, &state.piece(p).props, 3, "piece_get")
}

fn piece_set(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    writable(state)?;
    let p = state.check_piece(int_arg(l, 2, "piece_set")?)?;
    let grown = store_props(l, &mut state.piece_mut(p).props, 3, "piece_set")?;
    state.grow(grown).map(|()| 0)
}

fn player_get(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let s = state.turn.check(int_arg(l, 2, "player_get")?)?;
    push_props(l, &state.player_props[s as usize - 1], 3, "player_get")
}

fn player_set(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    writable(state)?;
    let s = state.turn.check(int_arg(l, 2, "player_set")?)?;
    let grown = store_props(l, &mut state.player_props[s as usize - 1], 3, "player_set")?;
    state.grow(grown).map(|()| 0)
}

/// `G:pieces_get({p…}, k [, k2 …])` → {v…} [, {v2…} …]: one array per key, entry i the
/// property of the i-th piece (nil where it has none).
fn pieces_get(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    bulk_get(l, "pieces_get", |id| {
        let p = state.check_piece(id)?;
        Ok(&state.piece(p).props)
    })
}

/// `G:cells_get({loc…}, k [, k2 …])`: as `pieces_get`, for locations.
fn cells_get(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    bulk_get(l, "cells_get", |id| {
        Ok(state.cell_props(state.check_loc(id)?))
    })
}

/// Reads properties of many pieces or places in one call: argument 2 the ids, 3.. the keys.
fn bulk_get<'a>(
    l: *mut ffi::lua_State,
    method: &str,
    props: impl Fn(i64) -> Result<&'a Props, String>,
) -> Result<c_int, String> {
    // SAFETY: reads the arguments, makes room before pushing one table per key (above the
    // arguments), and pops every id it pushes.
    unsafe {
        if ffi::lua_type(l, 2) != ffi::LUA_TTABLE {
            return Err(format!(
                "{method} takes a table of ids first, not a {}",
                type_name(l, 2)
            ));
        }
        let top = ffi::lua_gettop(l);
        if top < 3 {
            return Err(format!("{method}: which property?"));
        }
        let keys = top - 2;
        for k in 3..=top {
            str_arg(l, k, method)?;
        }
        if ffi::lua_checkstack(l, keys + 3) == 0 {
            return Err(format!("{method}: too many keys"));
        }
        let n = ffi::lua_rawlen(l, 2);
        for _ in 0..keys {
            ffi::lua_createtable(l, n as c_int, 0);
        }
        for i in 1..=n as i64 {
            ffi::lua_rawgeti(l, 2, i);
            let mut ok = 0;
            let id = ffi::lua_tointegerx(l, -1, &mut ok);
            ffi::lua_pop(l, 1);
            if ok == 0 {
                return Err(format!("{method}: entry {i} is not an id"));
            }
            let props = props(id)?;
            for j in 0..keys {
                if let Some(v) = props.get(str_arg(l, 3 + j, method)?) {
                    push_value(l, v);
                    ffi::lua_rawseti(l, top + 1 + j, i);
                }
            }
        }
        Ok(keys)
    }
}

/// `G:count(loc [, owner [, kind]])`.
fn count(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let c = state.check_loc(int_arg(l, 2, "count")?)?;
    let owner = opt_int_arg(l, 3, "count")?.map(|o| o as Seat);
    // SAFETY: as in int_arg.
    let kind = if unsafe { ffi::lua_isnoneornil(l, 4) } != 0 {
        None
    } else {
        Some(str_arg(l, 4, "count")?)
    };
    let n = state.count(c, owner, kind);
    // SAFETY: as in current.
    unsafe { ffi::lua_pushinteger(l, n as i64) };
    Ok(1)
}

/// `G:tally(track, seat [, other])`: per track position, `seat`'s pieces there, less
/// `other`'s. On a route that passes a cell twice, a piece counts where `State::counts_at`
/// says (its recorded position, else its cell's first index).
fn tally(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let name = str_arg(l, 2, "tally")?;
    let o = int_arg(l, 3, "tally")? as Seat;
    let minus = opt_int_arg(l, 4, "tally")?.map(|m| m as Seat);
    let track = state.topology.track_info(name)?;
    let value = |w: Seat| (w == o) as i64 - (Some(w) == minus) as i64;
    // SAFETY: as in current; the table has room for one more key (rules often add an
    // index 0) so that adding it does not rehash it.
    unsafe {
        ffi::lua_createtable(l, track.locs.len() as c_int, 1);
        for (i, &c) in track.locs.iter().enumerate() {
            let here = state.at(c).iter();
            let n: i64 = if track.revisits {
                here.filter(|&&q| state.counts_at(q, track, i as u32 + 1))
                    .map(|&q| value(state.piece(q).owner))
                    .sum()
            } else {
                here.map(|&q| value(state.piece(q).owner)).sum()
            };
            ffi::lua_pushinteger(l, n);
            ffi::lua_rawseti(l, -2, i as i64 + 1);
        }
    }
    Ok(1)
}

/// `G:mask(track, seat, min, max [, seat2, min2, max2 …])`: per (seat, min, max) triple, an
/// integer with bit i set when that seat (0: pieces of nobody) has min..max pieces at track
/// position i. A board as bit sets, for rules that reason over many places at once; one pass
/// over the track. Positions count as in `tally`.
fn mask(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    const MAX: usize = 8;
    let name = str_arg(l, 2, "mask")?;
    // SAFETY: reading the argument count of the running C function.
    let args = unsafe { ffi::lua_gettop(l) } - 2;
    let n = (args / 3) as usize;
    if args % 3 != 0 || !(1..=MAX).contains(&n) {
        return Err(format!("mask takes 1 to {MAX} (seat, min, max) triples"));
    }
    let mut want = [(0, 0, 0); MAX];
    for (k, w) in want[..n].iter_mut().enumerate() {
        let i = 3 + 3 * k as c_int;
        let seat = match int_arg(l, i, "mask")? {
            0 => 0,
            s => state.turn.check(s)?,
        };
        *w = (seat, int_arg(l, i + 1, "mask")?, int_arg(l, i + 2, "mask")?);
    }
    let track = state.topology.track_info(name)?;
    if track.locs.len() > 62 {
        return Err(format!("mask: track '{name}' has more than 62 positions"));
    }
    let want = &want[..n];
    // A place that holds none of a triple's seat's pieces has its bit when min..max takes 0:
    // such triples start with every place, and places with pieces are decided below.
    let mut bits = [0i64; MAX];
    let every = ((1i64 << track.locs.len()) - 1) << 1;
    for (b, &(_, min, max)) in bits.iter_mut().zip(want) {
        if (min..=max).contains(&0) {
            *b = every;
        }
    }
    for (i, &c) in track.locs.iter().enumerate() {
        let here = state.at(c);
        let Some(&bottom) = here.first() else {
            continue;
        };
        let bit = 2i64 << i;
        let owner = state.piece(bottom).owner;
        // Most places hold pieces of one owner: then only that owner's triples change.
        let single = !track.revisits && here.iter().all(|&p| state.piece(p).owner == owner);
        for k in 0..n {
            let (seat, min, max) = want[k];
            let count = if single {
                if seat != owner {
                    continue;
                }
                here.len()
            } else if track.revisits {
                here.iter()
                    .filter(|&&q| {
                        state.piece(q).owner == seat && state.counts_at(q, track, i as u32 + 1)
                    })
                    .count()
            } else {
                state.count(c, Some(seat), None)
            } as i64;
            if (min..=max).contains(&count) {
                bits[k] |= bit;
            } else {
                bits[k] &= !bit;
            }
        }
    }
    for b in &bits[..n] {
        // SAFETY: at most eight results, within a C function's guaranteed stack room.
        unsafe { ffi::lua_pushinteger(l, *b) };
    }
    Ok(n as c_int)
}

/// Pushes `text` as a Lua string.
fn push_str(l: *mut ffi::lua_State, text: &str) {
    // SAFETY: a C function may push a result; a memory error leaves nothing to drop (`text`
    // is borrowed).
    unsafe { ffi::lua_pushlstring(l, text.as_ptr().cast(), text.len()) };
}

/// `G:move(piece, loc)`: loc 0 takes the piece off every location.
fn move_piece(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    writable(state)?;
    let p = state.check_piece(int_arg(l, 2, "move")?)?;
    let to = state.check_loc_or_none(int_arg(l, 3, "move")?)?;
    state.move_piece(p, to);
    Ok(0)
}

fn kind(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let p = state.check_piece(int_arg(l, 2, "kind")?)?;
    push_str(l, &state.piece(p).kind);
    Ok(1)
}

fn where_is(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let p = state.check_piece(int_arg(l, 2, "where")?)?;
    // SAFETY: as in current.
    unsafe { ffi::lua_pushinteger(l, state.piece(p).loc.into()) };
    Ok(1)
}

fn seat_name(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let s = state.turn.check(int_arg(l, 2, "seat_name")?)?;
    push_str(l, &state.turn.player_name(s));
    Ok(1)
}

/// `G:set_unit(u)`: the unit to play, by number or name.
fn set_unit(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    writable(state)?;
    // SAFETY: as in int_arg.
    let u = match unsafe { ffi::lua_type(l, 2) } {
        ffi::LUA_TSTRING => {
            let name = str_arg(l, 2, "set_unit")?;
            state.turn.find_unit(name).ok_or_else(|| {
                let names: Vec<&str> = (1..=state.turn.units())
                    .map(|u| state.turn.unit_name(u))
                    .collect();
                format!("set_unit: no unit '{name}' (units: {})", names.join(" "))
            })?
        }
        ffi::LUA_TNUMBER => state.turn.check_unit(int_arg(l, 2, "set_unit")?)?,
        _ => {
            // SAFETY: as in int_arg.
            let t = unsafe { type_name(l, 2) };
            return Err(format!("set_unit takes a unit number or name, not a {t}"));
        }
    };
    state.turn.set_unit(u);
    Ok(0)
}

/// `G:stat(name [, n])`: adds n (1) to a counter a simulation reports.
fn stat(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    writable(state)?;
    let name = str_arg(l, 2, "stat")?;
    let n = opt_int_arg(l, 3, "stat")?.unwrap_or(1);
    match state.stats.get_mut(name) {
        Some(total) => *total += n,
        None => {
            state.grow(24 + name.len() as isize + 8)?;
            state.stats.insert(name.to_string(), n);
        }
    }
    Ok(0)
}

/// `G:log(text [, seats])`: a line of the game's log, for everyone or only `seats` (and the
/// referee). The text is copied only while the log is kept (simulations keep none).
fn log(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    writable(state)?;
    let text = str_arg(l, 2, "log")?;
    // SAFETY: as in int_arg.
    let seen_by = if unsafe { ffi::lua_isnoneornil(l, 3) } != 0 {
        ALL_SEATS
    } else {
        seats_arg(l, 3, state)?
    };
    if state.logging {
        state.grow_log(LogLine::size(text))?;
        state.log_for(text.to_string(), seen_by);
    }
    Ok(0)
}

/// Argument `i`, a list of seats, as a mask.
fn seats_arg(l: *mut ffi::lua_State, i: c_int, state: &State) -> Result<u64, String> {
    // SAFETY: `i` is an argument index of the running C function.
    unsafe { seats_at(l, i, |s| state.turn.check(s)) }.map_err(|e| format!("seats: {e}"))
}

/// `G:secret_get(key)`: the secret's value, nil when there is none; an error when the view
/// may not see it.
fn secret_get(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let k = str_arg(l, 2, "secret_get")?;
    let Some(s) = state.secrets.get(k) else {
        // SAFETY: as in current.
        unsafe { ffi::lua_pushnil(l) };
        return Ok(1);
    };
    if !state.viewer.sees(s.visible) {
        return Err(format!(
            "secret '{k}' is hidden from {} in this view (ask G:can_see first)",
            viewer_name(state)
        ));
    }
    // SAFETY: as in current; nothing to drop is alive.
    unsafe { push_value(l, &s.value) };
    Ok(1)
}

/// `G:can_see(key [, seat])`: whether the view the rule runs in (and, with a seat, that seat
/// too) may see the secret; false when there is none.
fn can_see(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    let k = str_arg(l, 2, "can_see")?;
    let viewer = opt_int_arg(l, 3, "can_see")?;
    let seen = state.secrets.get(k).is_some_and(|s| {
        let asked = match viewer {
            None => Viewer::Referee,
            Some(v) if (1..=i64::from(state.turn.seats())).contains(&v) => Viewer::Seat(v as Seat),
            Some(_) => Viewer::Seat(0),
        };
        asked.sees(s.visible) && state.viewer.sees(s.visible)
    });
    // SAFETY: as in current.
    unsafe { ffi::lua_pushboolean(l, seen.into()) };
    Ok(1)
}

/// `G:move_tops({from, to, from, to, …})`: moves the top piece of each `from` in turn.
fn move_tops(l: *mut ffi::lua_State, state: &mut State) -> Result<c_int, String> {
    writable(state)?;
    // SAFETY: reads argument 2 and pops every value it pushes.
    unsafe {
        if ffi::lua_type(l, 2) != ffi::LUA_TTABLE {
            return Err(format!(
                "move_tops takes a table {{from, to, …}}, not a {}",
                type_name(l, 2)
            ));
        }
        let n = ffi::lua_rawlen(l, 2) as i64;
        if n % 2 == 1 {
            return Err("move_tops takes pairs {from, to, from, to, …}".into());
        }
        let entry = |i: i64| -> Result<i64, String> {
            let mut ok = 0;
            ffi::lua_rawgeti(l, 2, i);
            let v = ffi::lua_tointegerx(l, -1, &mut ok);
            ffi::lua_pop(l, 1);
            if ok == 0 {
                return Err(format!("move_tops: entry {i} is not a location"));
            }
            Ok(v)
        };
        for i in (1..=n).step_by(2) {
            let from = state.check_loc(entry(i)?)?;
            let to = state.check_loc_or_none(entry(i + 1)?)?;
            let Some(&p) = state.at(from).last() else {
                let name = state.topology.name(from).unwrap_or("?");
                return Err(format!("move_tops: {name} is empty (pair {})", i / 2 + 1));
            };
            state.move_piece(p, to);
        }
    }
    Ok(0)
}
