//! Per-invocation limits on rule code: an instruction budget, a wall-clock deadline and a
//! memory ceiling. Every call from the kernel into Lua goes through [`Limits::run`].
//!
//! A Lua count hook makes the interpreter trap on every instruction, which costs about a
//! quarter of the speed of rule code. So an invocation starts without one: a watchdog thread
//! arms the hook on the state once the invocation has run for [`GRACE`] (the way `lua.c` arms
//! its Ctrl-C hook from a signal handler; `lua_sethook` is safe to call asynchronously), and
//! the kernel removes it when the invocation returns. Ordinary rule calls, which take
//! microseconds, never pay for the hook; a runaway one is stopped as before. Instructions are
//! counted from the moment the hook is armed. Coroutines that rules create get a hook of
//! their own from the start (see `hook_thread`), since a thread copies its creator's hook.

use std::cell::Cell;
use std::ffi::CStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use mlua::{HookTriggers, Lua, VmState, ffi};

/// How often the armed hook runs; a budget is enforced to within this many instructions.
const HOOK_EVERY: i32 = 1000;
/// How long an invocation runs before the watchdog arms the hook.
const GRACE: Duration = Duration::from_millis(5);

#[derive(Clone, Debug)]
pub struct Budget {
    pub instructions: u64,
    pub wall: Duration,
    pub memory: usize,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            instructions: 200_000_000,
            wall: Duration::from_secs(5),
            memory: 256 << 20,
        }
    }
}

/// One running invocation, as the watchdog and the hooks see it.
struct Watch {
    /// The main `lua_State` of the invocation's Lua, as an address.
    state: usize,
    started: Instant,
    armed: bool,
    used: u64,
    limit: u64,
    deadline: Instant,
    interrupt: Arc<AtomicBool>,
}

static WATCHES: Mutex<Vec<Watch>> = Mutex::new(Vec::new());

fn watches() -> std::sync::MutexGuard<'static, Vec<Watch>> {
    WATCHES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts the watchdog thread once per process.
fn watchdog() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        std::thread::Builder::new()
            .name("tortuga-watchdog".into())
            .spawn(|| {
                loop {
                    std::thread::sleep(Duration::from_millis(1));
                    let now = Instant::now();
                    for w in watches().iter_mut() {
                        if !w.armed && now.duration_since(w.started) >= GRACE {
                            // SAFETY: the state is running an invocation (its watch is
                            // registered, and deregistration takes this same lock), and
                            // lua_sethook may be called while the interpreter runs.
                            unsafe {
                                ffi::lua_sethook(
                                    w.state as *mut ffi::lua_State,
                                    Some(count_hook),
                                    ffi::LUA_MASKCOUNT,
                                    HOOK_EVERY,
                                )
                            };
                            w.armed = true;
                        }
                    }
                }
            })
            .expect("the watchdog thread starts");
    });
}

/// Counts HOOK_EVERY more instructions for the invocation on `state`; the reason to stop it,
/// if any.
fn tick(state: usize) -> Option<&'static CStr> {
    let mut all = watches();
    let w = all.iter_mut().find(|w| w.state == state)?;
    w.used += HOOK_EVERY as u64;
    if w.used > w.limit {
        return Some(c"instruction limit exceeded: does a rule loop forever?");
    }
    if Instant::now() > w.deadline {
        return Some(c"time limit exceeded");
    }
    if w.interrupt.swap(false, Ordering::Relaxed) {
        return Some(c"interrupted");
    }
    None
}

/// The armed hook: raises a Lua error when the invocation is over its limits.
unsafe extern "C-unwind" fn count_hook(l: *mut ffi::lua_State, _: *mut ffi::lua_Debug) {
    if let Some(msg) = tick(l as usize) {
        // SAFETY: nothing in this frame needs dropping; lua_error unwinds to the invocation's
        // protected call, as an error raised by a hook does in Lua itself.
        unsafe {
            ffi::lua_pushstring(l, msg.as_ptr());
            ffi::lua_error(l);
        }
    }
}

pub struct Limits {
    state: usize,
    budget: Budget,
    running: Cell<bool>,
    /// Set by Ctrl-C: the running rule stops at its next hook.
    pub interrupt: Arc<AtomicBool>,
}

impl Limits {
    /// Prepares limits for `lua` (rule files must be loaded after this).
    pub fn install(lua: &Lua, budget: Budget) -> mlua::Result<Limits> {
        let mut state = 0;
        // SAFETY: only reads the address of the state mlua runs calls on.
        unsafe { lua.exec_raw::<()>((), |s| state = s as usize)? };
        watchdog();
        Ok(Limits {
            state,
            budget,
            running: Cell::new(false),
            interrupt: Arc::new(AtomicBool::new(false)),
        })
    }

    /// A Lua function that gives a coroutine the counting hook (the prelude wraps
    /// `coroutine.create` with it).
    pub fn hook_thread(&self, lua: &Lua) -> mlua::Result<mlua::Function> {
        let state = self.state;
        lua.create_function(move |_, thread: mlua::Thread| {
            thread.set_hook(
                HookTriggers::new().every_nth_instruction(HOOK_EVERY as u32),
                move |_, _| match tick(state) {
                    Some(msg) => Err(mlua::Error::runtime(msg.to_string_lossy())),
                    None => Ok(VmState::Continue),
                },
            )?;
            Ok(thread)
        })
    }

    /// Runs `f` with a fresh budget; nested calls share the outer budget.
    pub fn run<R>(&self, lua: &Lua, f: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
        if self.running.get() {
            return f();
        }
        let now = Instant::now();
        watches().push(Watch {
            state: self.state,
            started: now,
            armed: false,
            used: 0,
            limit: self.budget.instructions,
            deadline: now + self.budget.wall,
            interrupt: self.interrupt.clone(),
        });
        self.running.set(true);
        let _guard = Running { limits: self, lua };
        let _ = lua.set_memory_limit(lua.used_memory() + self.budget.memory);
        f()
    }
}

/// Ends an invocation, even one left by a panic: the watch goes, and with it the hook, so the
/// watchdog never touches a state that is not running.
struct Running<'a> {
    limits: &'a Limits,
    lua: &'a Lua,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        let state = self.limits.state;
        let armed = {
            let mut all = watches();
            let i = all.iter().position(|w| w.state == state);
            i.is_some_and(|i| all.swap_remove(i).armed)
        };
        if armed {
            // SAFETY: this thread owns the state and no Lua code runs now.
            unsafe { ffi::lua_sethook(state as *mut ffi::lua_State, None, 0, 0) };
        }
        let _ = self.lua.set_memory_limit(0);
        self.limits.running.set(false);
    }
}
