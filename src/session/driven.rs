//! Simulation steps taken inside one call into Lua.
//!
//! A random playout alternates two hooks: `apply` with the option a bot chose, `chance` with
//! an outcome drawn. Calling each from the kernel costs a protected call, reading the status
//! it returns into Rust and a look at the pending stack: about as much again as the hook of a
//! backgammon move itself. So while the statuses the hooks return are plain, the kernel's
//! loop in the prelude (`playout`) calls the hooks one after another itself, and asks `step`
//! here what comes next: the option the bot chooses, or the outcome drawn from the declared
//! randomizer, exactly as `Game::apply` and `Game::resolve_chance` would take them.
//!
//! Plain means a table without a metatable that holds only `chance` (the name of a declared
//! randomizer), or only `actor` (a seat), `options` (a non-empty array without a metatable)
//! and perhaps `prompt` (text), with nothing pending. Anything else (the end of the game, a
//! continuation pushed, chance parameters, `seen_by`, a malformed table), an error of the
//! bot, an interrupt, or the end of the room the caller gave (the turn cap, the next stall
//! check) hands the last status back: the kernel takes it as if the hook had been called
//! from Rust, through the ordinary path, which also reports whatever is wrong with it.
//!
//! Each hook runs under a budget of its own, as a call from the kernel does
//! ([`Limits::restart`] before each), and a hook's error ends the call as it would end the
//! hook's own.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};

use anyhow::Result;
use mlua::{AnyUserData, Function, Lua, MultiValue, Table, Value as LuaValue, ffi};

use crate::kernel::{Outcome, Randomizer, Seat, State};
use crate::script::handle::raw::raise;
use crate::script::handle::stack::{bytes_at, push_list, str_at};
use crate::script::lua::limits::Limits;

/// A bot: the option (0-based) that seat `actor` takes among `count`. An error leaves the
/// step to the kernel's ordinary path, which asks again and reports it.
pub type Choose<'a> = dyn FnMut(Seat, usize) -> Result<usize> + 'a;

/// The step the kernel took before handing over: a decision's option, or a chance event's
/// name and outcome.
pub enum First {
    Apply(LuaValue),
    Chance(LuaValue, Table),
}

/// Steps taken.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Taken {
    pub decisions: u64,
    pub chances: u64,
}

impl Taken {
    /// One decision taken.
    pub const DECISION: Taken = Taken {
        decisions: 1,
        chances: 0,
    };
    /// One chance event resolved.
    pub const CHANCE: Taken = Taken {
        decisions: 0,
        chances: 1,
    };

    pub fn steps(&self) -> u64 {
        self.decisions + self.chances
    }
}

/// The kinds of step, as the prelude's loop reads them: a call of `apply`, of `chance`.
const APPLY: i64 = 1;
const CHANCE: i64 = 2;

/// What `step` needs while the loop runs.
struct Driver<'a, 'b> {
    state: *mut State,
    limits: &'a Limits,
    randomizers: &'a BTreeMap<String, Randomizer>,
    /// Whether the rules have the hook each kind of step calls.
    hooks: (bool, bool),
    choose: &'a mut Choose<'b>,
    /// Steps the loop may still take.
    room: u64,
    taken: Taken,
    /// The outcome being pushed: kept here, not in `step`'s frame, which a memory error in
    /// Lua leaves without dropping anything.
    outcome: Outcome,
}

thread_local! {
    /// The driver of the loop running on this thread.
    static DRIVER: Cell<*mut c_void> = const { Cell::new(std::ptr::null_mut()) };
}

/// The hooks the loop calls, as the rules define them.
pub struct Hooks<'a> {
    pub playout: Function,
    pub apply: Option<&'a Function>,
    pub chance: Option<&'a Function>,
}

/// Takes `first`, then up to `room` more steps in the kernel's loop. Returns the status the
/// last hook returned, that hook's name, and the steps taken (`first` among them). Runs as
/// one invocation under `limits`, each hook with a budget of its own.
#[allow(clippy::too_many_arguments)]
pub fn run(
    lua: &Lua,
    limits: &Limits,
    g: &AnyUserData,
    hooks: &Hooks,
    randomizers: &BTreeMap<String, Randomizer>,
    first: First,
    room: u64,
    choose: &mut Choose,
) -> mlua::Result<(LuaValue, &'static str, Taken)> {
    let state: *mut State = {
        // A block of its own: the borrow must end before Lua runs.
        let mut state = g.borrow_mut::<State>()?;
        &mut *state
    };
    let (kind, a, b, taken) = match first {
        First::Apply(option) => (APPLY, option, LuaValue::Nil, Taken::DECISION),
        First::Chance(name, outcome) => (CHANCE, name, LuaValue::Table(outcome), Taken::CHANCE),
    };
    let mut driver = Driver {
        state,
        limits,
        randomizers,
        hooks: (hooks.apply.is_some(), hooks.chance.is_some()),
        choose,
        room,
        taken,
        outcome: Vec::new(),
    };
    // SAFETY: `step` is a C function that follows the contract of lua_CFunction.
    let step = unsafe { lua.create_c_function(step) }?;
    let hook = |f: Option<&Function>| f.map_or(LuaValue::Nil, |f| LuaValue::Function(f.clone()));
    let args = (g, step, hook(hooks.apply), hook(hooks.chance), kind, a, b);
    let outer = DRIVER.replace((&mut driver as *mut Driver).cast());
    let result = limits.run(lua, || hooks.playout.call::<MultiValue>(args));
    DRIVER.set(outer);
    let mut values = result?.into_iter();
    let status = values.next().unwrap_or(LuaValue::Nil);
    let last = match values.next() {
        Some(LuaValue::Integer(CHANCE)) => "chance",
        _ => "apply",
    };
    Ok((status, last, driver.taken))
}

/// `step(status)`: the next step after `status`, as (APPLY, option) or (CHANCE, name,
/// outcome); nothing hands the game back to the kernel.
unsafe extern "C-unwind" fn step(l: *mut ffi::lua_State) -> c_int {
    let driver = DRIVER.get().cast::<Driver>();
    // SAFETY: DRIVER points at the driver of the running loop (`run` sets it for the call
    // and restores it after); no other reference to it is alive while Lua runs.
    unsafe {
        if driver.is_null() {
            raise(l, "step: no simulation is running".into());
        }
        match next(l, &mut *driver) {
            Ok(n) => n,
            Err(msg) => raise(l, msg),
        }
    }
}

/// Pushes the step after the status at index 1 and returns the number of values pushed, or 0
/// to hand back.
///
/// # Safety
/// Called from `step`, with the status at index 1.
unsafe fn next(l: *mut ffi::lua_State, d: &mut Driver) -> Result<c_int, String> {
    if d.room == 0 || d.limits.interrupt_pending() {
        return Ok(0);
    }
    // SAFETY: the state lives in the userdata `run` holds; no Rust code borrows it while Lua
    // runs (see script::handle::raw), and nothing below runs Lua.
    let state = unsafe { &mut *d.state };
    if !state.pending.is_empty() {
        return Ok(0);
    }
    // SAFETY (whole body): reads the status at index 1 and pushes at most three values, within
    // a C function's stack room; `push_list` makes its own room.
    let pushed = unsafe {
        match plain(l) {
            Some(Plain::Decision { actor, count }) if d.hooks.0 => {
                let Ok(i) = (d.choose)(actor, count) else {
                    return Ok(0);
                };
                if i >= count {
                    return Ok(0);
                }
                ffi::lua_pushinteger(l, APPLY);
                ffi::lua_getfield(l, 1, c"options".as_ptr());
                ffi::lua_rawgeti(l, -1, i as i64 + 1);
                ffi::lua_remove(l, -2);
                d.taken.decisions += 1;
                2
            }
            Some(Plain::Chance) if d.hooks.1 => {
                ffi::lua_pushinteger(l, CHANCE);
                ffi::lua_getfield(l, 1, c"chance".as_ptr());
                let Some(Ok(name)) = str_at(l, -1) else {
                    return Ok(0);
                };
                let Some(randomizer) = d.randomizers.get(name) else {
                    return Ok(0);
                };
                d.outcome = randomizer.draw(state)?;
                push_list(l, &d.outcome);
                d.taken.chances += 1;
                3
            }
            _ => return Ok(0),
        }
    };
    d.room -= 1;
    d.limits.restart();
    Ok(pushed)
}

/// A plain status (see the module header).
enum Plain {
    Decision { actor: Seat, count: usize },
    Chance,
}

/// The status at index 1 if it is plain.
///
/// # Safety
/// Index 1 holds a value, and the stack has room for three more.
unsafe fn plain(l: *mut ffi::lua_State) -> Option<Plain> {
    // SAFETY (whole body): lua_next on a table whose keys are only read (bytes_at checks a
    // key's type before reading it); every value pushed is popped.
    unsafe {
        if ffi::lua_type(l, 1) != ffi::LUA_TTABLE || without_metatable(l, 1).is_none() {
            return None;
        }
        let (mut chance, mut actor, mut count, mut prompt) = (false, None, None, false);
        ffi::lua_pushnil(l);
        while ffi::lua_next(l, 1) != 0 {
            let ok = match bytes_at(l, -2) {
                Some(b"chance") => {
                    chance = true;
                    matches!(str_at(l, -1), Some(Ok(_)))
                }
                Some(b"actor") => {
                    let seat = ffi::lua_tointeger(l, -1);
                    actor = (1..=Seat::MAX as i64)
                        .contains(&seat)
                        .then_some(seat as Seat);
                    ffi::lua_isinteger(l, -1) != 0 && actor.is_some()
                }
                Some(b"options") => {
                    count = without_metatable(l, -1).map(|()| ffi::lua_rawlen(l, -1));
                    count.is_some_and(|n| n > 0)
                }
                Some(b"prompt") => {
                    prompt = true;
                    matches!(str_at(l, -1), Some(Ok(_)))
                }
                _ => false,
            };
            if !ok {
                ffi::lua_settop(l, 1);
                return None;
            }
            ffi::lua_pop(l, 1);
        }
        match (chance, actor, count) {
            (true, None, None) if !prompt => Some(Plain::Chance),
            (false, Some(actor), Some(count)) => Some(Plain::Decision { actor, count }),
            _ => None,
        }
    }
}

/// `Some` when the value at `idx` is a table without a metatable.
///
/// # Safety
/// `idx` is a valid index, with room for one more value.
unsafe fn without_metatable(l: *mut ffi::lua_State, idx: c_int) -> Option<()> {
    // SAFETY: per the contract; a metatable pushed is popped.
    unsafe {
        if ffi::lua_type(l, idx) != ffi::LUA_TTABLE {
            return None;
        }
        if ffi::lua_getmetatable(l, idx) != 0 {
            ffi::lua_pop(l, 1);
            return None;
        }
        Some(())
    }
}
