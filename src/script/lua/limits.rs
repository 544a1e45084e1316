//! Per-invocation limits on rule code: an instruction budget, a time limit and a
//! memory ceiling. Every call from the kernel into Lua goes through [`Limits::run`].
//!
//! A Lua count hook makes the interpreter trap on every instruction, which costs about a
//! quarter of the speed of rule code. So an invocation starts without one: a watchdog thread
//! arms the hook on the state once the invocation has run for [`GRACE_MS`] (the way `lua.c` arms
//! its Ctrl-C hook from a signal handler; `lua_sethook` is safe to call asynchronously), and
//! the kernel removes it when the invocation returns. Ordinary rule calls, which take
//! microseconds, never pay for the hook; a runaway one is stopped as before. Instructions are
//! counted from the moment the hook is armed. Coroutines that rules create get a hook of
//! their own from the start (see `hook_thread`), since a thread copies its creator's hook.
//!
//! A limit cannot be caught. Once an invocation is over a limit it is *tripped*: the hook
//! raises the same error at every later tick until the invocation returns, and `pcall`,
//! `xpcall` and `coroutine.resume` re-raise it (the prelude wraps them with [`Limits::tripped_function`]),
//! so neither a loop around `pcall` nor a looping error handler survives it.
//!
//! An interrupt (Ctrl-C, [`interrupt`]) trips every running invocation at its next tick; the
//! kernel's own loops (`auto`, simulations) ask [`interrupted`] between steps.
//!
//! The time limit is the CPU time of the thread running the invocation, not the wall clock: on a
//! loaded machine a call may wait seconds for a core, or for a lock, without running, and a rule
//! cannot wait for anything (it has no I/O, no sleep), so only the time it ran is its own. CPU
//! time never exceeds wall time, so the watchdog reads the thread's CPU clock only once the
//! coarse wall clock says the limit may have passed.

use std::cell::Cell;
use std::ffi::CStr;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use mlua::{HookTriggers, Lua, VmState, ffi};

/// The registry field where the `G` handle keeps values from one call to the next (`G:keep`):
/// an invocation that stops part-way may have left one half-changed, so [`Limits::run`] empties it.
pub const KEPT: &CStr = c"tortuga.kept";

/// How often the armed hook runs; a budget is enforced to within this many instructions.
const HOOK_EVERY: i32 = 1000;
/// How long an invocation runs before the watchdog arms the hook.
const GRACE_MS: u64 = 5;

/// The limits, with their defaults (SECURITY.md lists them; variants and the command line
/// may change them).
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    /// Lua instructions per invocation (counted once it has run for GRACE_MS).
    pub instructions: u64,
    /// Time per invocation: the CPU time of its thread (see the module's doc).
    pub wall: Duration,
    /// Bytes the Lua heap may hold, and each game state (kernel side) too.
    pub memory: usize,
    /// Steps (decisions and chance events) `auto` and a simulated game may take: the turn cap.
    pub steps: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            instructions: 200_000_000,
            wall: Duration::from_secs(5),
            memory: 256 << 20,
            steps: 100_000,
        }
    }
}

/// What the watchdog and the hooks know of one Lua state's limits. Registered once, so that
/// an invocation starts and ends with a few atomic operations instead of taking a lock and
/// reading the clock (two invocations per move in a simulation).
struct Slot {
    /// The main `lua_State`, as an address.
    state: usize,
    /// IDLE, ARMING (the watchdog is installing the hook), or the coarse clock at the
    /// invocation's start plus RUNNING.
    phase: AtomicU64,
    /// The watchdog installed the count hook during this invocation.
    armed: AtomicBool,
    /// ... to run at every instruction: the invocation is to stop.
    hurried: AtomicBool,
    /// Instructions counted since the hook was armed.
    used: AtomicU64,
    /// The CPU clock of the thread that runs the state's invocations (the one that made it:
    /// a Lua state stays on its thread).
    cpu_clock: libc::clockid_t,
    /// That clock, in nanoseconds, at the invocation's start (as reckoned when the hook is armed).
    cpu_start: AtomicU64,
    /// The invocation has used more CPU time than its time limit.
    overtime: AtomicBool,
    /// NONE, or the limit this invocation hit (an index into REASONS): every later tick
    /// raises it again.
    tripped: AtomicU8,
    limit: AtomicU64,
    wall_ms: AtomicU64,
    interrupt: Arc<AtomicBool>,
}

const IDLE: u64 = 0;
const ARMING: u64 = 1;
const RUNNING: u64 = 2;

/// Why an invocation was stopped, by `Slot::tripped`.
const REASONS: [&CStr; 4] = [
    c"",
    c"instruction limit exceeded: does a rule loop forever?",
    c"time limit exceeded",
    c"interrupted",
];
const NONE: u8 = 0;
const INSTRUCTIONS: u8 = 1;
const TIME: u8 = 2;
const INTERRUPTED: u8 = 3;

/// Set by SIGINT (see [`catch_interrupts`]) or [`interrupt`]: stops what runs now.
static INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Asks every running invocation and kernel loop to stop (what Ctrl-C does).
pub fn interrupt() {
    INTERRUPT.store(true, Ordering::Relaxed);
}

/// Whether an interrupt is pending.
pub fn interrupted() -> bool {
    INTERRUPT.load(Ordering::Relaxed)
}

/// Forgets an interrupt (the REPL does at each new command).
pub fn clear_interrupt() {
    INTERRUPT.store(false, Ordering::Relaxed);
}

/// Makes SIGINT (Ctrl-C while a command runs) an interrupt instead of the end of the process.
pub fn catch_interrupts() -> std::io::Result<()> {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe { signal_hook::low_level::register(signal_hook::consts::SIGINT, interrupt) }.map(|_| ())
}

static SLOTS: Mutex<Vec<Arc<Slot>>> = Mutex::new(Vec::new());

/// Milliseconds since the watchdog started, kept by the watchdog: a clock an invocation reads
/// for the price of a load.
static CLOCK_MS: AtomicU64 = AtomicU64::new(0);

fn slots() -> std::sync::MutexGuard<'static, Vec<Arc<Slot>>> {
    SLOTS.lock().unwrap_or_else(|e| e.into_inner())
}

thread_local! {
    /// The slot of the invocation running on this thread, if any, as (state, slot): the hook
    /// finds it without taking the lock every thread's invocations share.
    static CURRENT: Cell<(usize, *const Slot)> = const { Cell::new((0, std::ptr::null())) };
}

/// The CPU clock of the calling thread.
fn thread_cpu_clock() -> libc::clockid_t {
    let mut clock = libc::CLOCK_THREAD_CPUTIME_ID;
    // SAFETY: pthread_self is the calling thread, and `clock` is a valid place to write.
    unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
    clock
}

/// Seconds of CPU time the calling thread has used: benchmarks quote CPU per decision, which a
/// loaded machine disturbs far less than wall time.
pub fn thread_cpu_seconds() -> f64 {
    cpu_nanos(libc::CLOCK_THREAD_CPUTIME_ID) as f64 / 1e9
}

/// Nanoseconds on a CPU clock (0 if it cannot be read).
fn cpu_nanos(clock: libc::clockid_t) -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid place to write; a thread's CPU clock may be read from any thread.
    if unsafe { libc::clock_gettime(clock, &mut t) } != 0 {
        return 0;
    }
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Starts the watchdog thread once per process.
fn watchdog() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        let epoch = Instant::now();
        std::thread::Builder::new()
            .name("tortuga-watchdog".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(Duration::from_millis(1));
                    let now = epoch.elapsed().as_millis() as u64;
                    CLOCK_MS.store(now, Ordering::Relaxed);
                    for slot in slots().iter() {
                        arm_if_late(slot, now);
                    }
                }
            })
            .expect("the watchdog thread starts");
    });
}

/// Installs the count hook on an invocation that has run for GRACE_MS, and notes the CPU time
/// its thread has used; once its wall time is over the limit, checks its CPU time; on one that
/// is over its time or interrupted, makes the hook run at the very next instruction, so that an
/// instruction that takes long (a big string copied, a library call) delays the stop by
/// itself only, not by HOOK_EVERY of its kind.
fn arm_if_late(slot: &Slot, now: u64) {
    let phase = slot.phase.load(Ordering::Acquire);
    if phase < RUNNING {
        return;
    }
    let elapsed = now.saturating_sub(phase - RUNNING);
    if elapsed < GRACE_MS {
        return;
    }
    let wall_ms = slot.wall_ms.load(Ordering::Relaxed);
    let armed = slot.armed.load(Ordering::Relaxed);
    let overtime = slot.overtime.load(Ordering::Relaxed);
    let check_time = armed && !overtime && elapsed > wall_ms;
    let stop = overtime || interrupted() || slot.interrupt.load(Ordering::Relaxed);
    if armed && !check_time && (slot.hurried.load(Ordering::Relaxed) || !stop) {
        return;
    }
    // ARMING holds the invocation's end back (`Limits::end_budget` waits) while the watchdog looks.
    if slot
        .phase
        .compare_exchange(phase, ARMING, Ordering::Acquire, Ordering::Relaxed)
        .is_ok()
    {
        let cpu = cpu_nanos(slot.cpu_clock);
        if !armed {
            // The invocation ran at most GRACE_MS (on the watchdog's clock) before this.
            let before = GRACE_MS * 1_000_000;
            slot.cpu_start
                .store(cpu.saturating_sub(before), Ordering::Relaxed);
        } else if check_time
            && cpu.saturating_sub(slot.cpu_start.load(Ordering::Relaxed)) > wall_ms * 1_000_000
        {
            slot.overtime.store(true, Ordering::Relaxed);
        }
        let hurry = slot.overtime.load(Ordering::Relaxed)
            || interrupted()
            || slot.interrupt.load(Ordering::Relaxed);
        if !armed || (hurry && !slot.hurried.load(Ordering::Relaxed)) {
            // SAFETY: the state is inside an invocation that cannot end before phase is
            // restored below, and lua_sethook may be called while the interpreter runs.
            unsafe {
                ffi::lua_sethook(
                    slot.state as *mut ffi::lua_State,
                    Some(count_hook),
                    ffi::LUA_MASKCOUNT,
                    if hurry { 1 } else { HOOK_EVERY },
                )
            };
            slot.armed.store(true, Ordering::Relaxed);
            slot.hurried.store(hurry, Ordering::Relaxed);
        }
        slot.phase.store(phase, Ordering::Release);
    }
}

/// Counts HOOK_EVERY more instructions for the invocation on `state`; the reason to stop it,
/// if any.
fn tick(state: usize) -> Option<&'static CStr> {
    let (current, slot) = CURRENT.get();
    if current == state {
        // SAFETY: CURRENT names a slot only while its invocation runs (Running restores it).
        return unsafe { &*slot }.spend(HOOK_EVERY as u64);
    }
    let all = slots();
    all.iter()
        .find(|s| s.state == state)?
        .spend(HOOK_EVERY as u64)
}

impl Slot {
    /// Counts `cost` instructions (or their worth) of the running invocation and checks its
    /// limits; the reason to stop it, which trips it, if any. Outside an invocation: nothing.
    fn spend(&self, cost: u64) -> Option<&'static CStr> {
        let phase = self.phase.load(Ordering::Acquire);
        if phase < RUNNING {
            return None;
        }
        let tripped = self.tripped.load(Ordering::Relaxed);
        if tripped != NONE {
            return Some(REASONS[tripped as usize]);
        }
        let used = self
            .used
            .fetch_add(cost, Ordering::Relaxed)
            .saturating_add(cost);
        let reason = if used > self.limit.load(Ordering::Relaxed) {
            INSTRUCTIONS
        } else if self.overtime.load(Ordering::Relaxed) {
            TIME
        } else if interrupted() || self.interrupt.load(Ordering::Relaxed) {
            INTERRUPTED
        } else {
            return None;
        };
        self.tripped.store(reason, Ordering::Relaxed);
        Some(REASONS[reason as usize])
    }
}

/// Charges the work of library functions that run long in one C call, where the instruction
/// hook cannot see (patterns, `string.rep`, `table.concat`, `json`): the work counts against
/// the instruction budget, and every call checks the clock and interrupts, so a loop of such
/// calls stops as a loop of instructions does.
#[derive(Clone)]
pub struct Meter(Arc<Slot>);

impl Meter {
    /// Counts `cost` instructions' worth of work about to be done; an error once over a limit.
    pub fn charge(&self, cost: u64) -> mlua::Result<()> {
        self.spend(cost).map_err(mlua::Error::runtime)
    }

    /// As `charge`, the error as text.
    pub fn spend(&self, cost: u64) -> Result<(), String> {
        match self.0.spend(cost) {
            Some(msg) => Err(msg.to_string_lossy().into_owned()),
            None => Ok(()),
        }
    }
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
    slot: Arc<Slot>,
    budget: std::cell::RefCell<Budget>,
    running: Cell<bool>,
    /// How many times an invocation's end removed the hook the watchdog armed, and with it
    /// any hook of the state's own (the profiler's, which sets it again).
    hooks_removed: Cell<u64>,
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
        let interrupt = Arc::new(AtomicBool::new(false));
        let slot = Arc::new(Slot {
            state,
            phase: AtomicU64::new(IDLE),
            armed: AtomicBool::new(false),
            hurried: AtomicBool::new(false),
            used: AtomicU64::new(0),
            cpu_clock: thread_cpu_clock(),
            cpu_start: AtomicU64::new(0),
            overtime: AtomicBool::new(false),
            tripped: AtomicU8::new(NONE),
            limit: AtomicU64::new(budget.instructions),
            wall_ms: AtomicU64::new(budget.wall.as_millis() as u64),
            interrupt: interrupt.clone(),
        });
        let mut all = slots();
        // A state freed and another made at its address: the old slot is idle for good.
        all.retain(|s| s.state != state);
        all.push(slot.clone());
        Ok(Limits {
            slot,
            budget: std::cell::RefCell::new(budget),
            running: Cell::new(false),
            hooks_removed: Cell::new(0),
            interrupt,
        })
    }

    /// A Lua function that gives a coroutine the counting hook (the prelude wraps
    /// `coroutine.create` with it).
    pub fn hook_thread(&self, lua: &Lua) -> mlua::Result<mlua::Function> {
        let state = self.slot.state;
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

    /// The meter library functions charge their work to.
    pub fn meter(&self) -> Meter {
        Meter(self.slot.clone())
    }

    /// A Lua function that returns why the running invocation was stopped, or nothing: the
    /// prelude's `pcall`, `xpcall` and `coroutine.resume` re-raise that reason.
    pub fn tripped_function(&self, lua: &Lua) -> mlua::Result<mlua::Function> {
        let slot = self.slot.clone();
        lua.create_function(move |_, ()| {
            Ok(match slot.tripped.load(Ordering::Relaxed) {
                NONE => None,
                r => Some(REASONS[r as usize].to_string_lossy()),
            })
        })
    }

    /// Whether the invocation running now should stop because of an interrupt.
    /// Its own flag is spent by the question, the process-wide one stays until cleared.
    pub fn interrupted(&self) -> bool {
        interrupted() || self.interrupt.swap(false, Ordering::Relaxed)
    }

    /// Whether an invocation is running (its memory limit is set).
    pub fn running(&self) -> bool {
        self.running.get()
    }

    /// How many times the end of an invocation removed the state's hook (see the field).
    pub fn hooks_removed(&self) -> u64 {
        self.hooks_removed.get()
    }

    /// The limits in force.
    pub fn budget(&self) -> Budget {
        self.budget.borrow().clone()
    }

    /// Lowers the limits to `lower` where it is lower (a variant's own limits: a rule file
    /// may tighten the limits it runs under, never loosen them).
    pub fn restrict(&self, lower: &Budget) {
        let mut b = self.budget.borrow_mut();
        b.instructions = b.instructions.min(lower.instructions);
        b.wall = b.wall.min(lower.wall);
        b.memory = b.memory.min(lower.memory);
        b.steps = b.steps.min(lower.steps);
        self.slot.limit.store(b.instructions, Ordering::Relaxed);
        self.slot
            .wall_ms
            .store(b.wall.as_millis() as u64, Ordering::Relaxed);
    }

    /// The memory limit: of the Lua heap, and of each game's state.
    pub fn memory(&self) -> usize {
        self.budget.borrow().memory
    }

    /// Runs `f` with a fresh budget; nested calls share the outer budget.
    pub fn run<R>(&self, lua: &Lua, f: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
        if self.running.get() {
            return f();
        }
        self.slot.begin();
        self.running.set(true);
        let outer = CURRENT.replace((self.slot.state, Arc::as_ptr(&self.slot)));
        let _guard = Running {
            limits: self,
            lua,
            outer,
        };
        // The whole heap, not this invocation's share: rules can keep tables alive across calls
        // (in upvalues), so a per-call allowance would let the heap grow call after call.
        let _ = lua.set_memory_limit(self.memory());
        let result = f();
        if result.is_err() {
            // The invocation stopped part-way: a value it kept may be half-changed.
            // Dropping the table cannot fail in a way that matters: nothing is kept either way.
            let _ = lua.unset_named_registry_value(KEPT.to_str().unwrap_or_default());
        }
        result
    }

    /// Inside a running invocation, gives what runs next a budget of its own, as if it were a
    /// new invocation: the simulation driver (`session::driven`) calls one hook after another
    /// inside one call from the kernel, and each is limited as a call from the kernel is.
    pub fn restart(&self) {
        if self.running.get() {
            self.end_budget();
            self.slot.begin();
        }
    }

    /// Whether an interrupt waits, without spending this state's own flag (as `interrupted`
    /// does): a loop that hands back to the kernel on it leaves the kernel to report it.
    pub fn interrupt_pending(&self) -> bool {
        interrupted() || self.interrupt.load(Ordering::Relaxed)
    }

    /// Ends the running invocation's budget: the watchdog no longer watches it, and a hook it
    /// armed is removed.
    fn end_budget(&self) {
        let slot = &self.slot;
        loop {
            let phase = slot.phase.load(Ordering::Acquire);
            if phase == ARMING {
                // ARMING holds the invocation's end back while the watchdog looks.
                std::hint::spin_loop();
            } else if slot
                .phase
                .compare_exchange(phase, IDLE, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                break;
            }
        }
        if slot.tripped.load(Ordering::Relaxed) == INTERRUPTED {
            slot.interrupt.store(false, Ordering::Relaxed);
        }
        slot.hurried.store(false, Ordering::Relaxed);
        if slot.armed.swap(false, Ordering::Relaxed) {
            // SAFETY: this thread owns the state, and the watchdog no longer touches it; a
            // hook may be removed while Lua runs (as `debug.sethook` does).
            unsafe { ffi::lua_sethook(slot.state as *mut ffi::lua_State, None, 0, 0) };
            self.hooks_removed.set(self.hooks_removed.get() + 1);
        }
    }
}

impl Slot {
    /// Starts an invocation's budget: nothing used, nothing tripped, its clock from now.
    fn begin(&self) {
        self.used.store(0, Ordering::Relaxed);
        self.tripped.store(NONE, Ordering::Relaxed);
        self.overtime.store(false, Ordering::Relaxed);
        let now = CLOCK_MS.load(Ordering::Relaxed);
        self.phase.store(now + RUNNING, Ordering::Release);
    }
}

impl Drop for Limits {
    fn drop(&mut self) {
        slots().retain(|s| !Arc::ptr_eq(s, &self.slot));
    }
}

/// Ends an invocation, even one left by a panic: once the phase is idle the watchdog no longer
/// touches the state, and a hook it armed is removed.
struct Running<'a> {
    limits: &'a Limits,
    lua: &'a Lua,
    /// What CURRENT was before the invocation (another state's, running around it).
    outer: (usize, *const Slot),
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.limits.end_budget();
        let _ = self.lua.set_memory_limit(0);
        // An invocation stopped near the heap limit leaves its garbage behind, and the
        // generational collector's steps cannot always free it under the limit (a step that
        // needs memory gets none): collect it now, so that the next invocation starts clean.
        if self.lua.used_memory() > self.limits.memory() / 2 {
            let _ = self.lua.gc_collect();
        }
        CURRENT.set(self.outer);
        self.limits.running.set(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A call that waits longer than its time limit without running (here it sleeps in a host
    /// function, as a thread starved of a core waits) is not stopped for time it did not run;
    /// one that runs is.
    #[test]
    fn the_time_limit_counts_the_time_a_call_runs() {
        let lua = Lua::new();
        let budget = Budget {
            wall: Duration::from_millis(50),
            ..Budget::default()
        };
        let limits = Limits::install(&lua, budget).unwrap();
        let wait = lua
            .create_function(|_, ()| {
                std::thread::sleep(Duration::from_millis(300));
                Ok(())
            })
            .unwrap();
        lua.globals().set("wait", wait).unwrap();
        let waits: mlua::Function = lua
            .load("return function() wait() local n = 0 for i = 1, 300000 do n = n + 1 end return n end")
            .eval()
            .unwrap();
        let n = limits.run(&lua, || waits.call::<i64>(()));
        assert_eq!(n.unwrap(), 300_000);
        let spins: mlua::Function = lua
            .load("return function() while true do end end")
            .eval()
            .unwrap();
        let e = limits.run(&lua, || spins.call::<()>(())).unwrap_err();
        assert!(e.to_string().contains("time limit exceeded"), "{e}");
    }
}
