//! Per-invocation limits on rule code: an instruction budget, a wall-clock deadline and a
//! memory ceiling. Every call from the kernel into Lua goes through [`Limits::run`].

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mlua::{HookTriggers, Lua, VmState};

/// How often the instruction hook runs; a budget is enforced to within this many instructions.
const HOOK_EVERY: u32 = 1000;

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

struct Meter {
    used: Cell<u64>,
    limit: Cell<u64>,
    deadline: Cell<Option<Instant>>,
}

pub struct Limits {
    meter: Rc<Meter>,
    budget: Budget,
    /// Set by Ctrl-C: the running rule stops at its next hook.
    pub interrupt: Arc<AtomicBool>,
}

impl Limits {
    /// Installs the instruction hook on `lua`.
    pub fn install(lua: &Lua, budget: Budget) -> mlua::Result<Limits> {
        let meter = Rc::new(Meter {
            used: Cell::new(0),
            limit: Cell::new(budget.instructions),
            deadline: Cell::new(None),
        });
        let interrupt = Arc::new(AtomicBool::new(false));
        let (m, stop) = (meter.clone(), interrupt.clone());
        lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(HOOK_EVERY),
            move |_, _| {
                let Some(deadline) = m.deadline.get() else {
                    // Outside an invocation (loading, tests driving Lua directly): no budget.
                    return Ok(VmState::Continue);
                };
                let used = m.used.get() + u64::from(HOOK_EVERY);
                m.used.set(used);
                if used > m.limit.get() {
                    return Err(mlua::Error::runtime(format!(
                        "instruction limit exceeded ({} instructions): does a rule loop forever?",
                        m.limit.get()
                    )));
                }
                if Instant::now() > deadline {
                    return Err(mlua::Error::runtime("time limit exceeded".to_string()));
                }
                if stop.swap(false, Ordering::Relaxed) {
                    return Err(mlua::Error::runtime("interrupted".to_string()));
                }
                Ok(VmState::Continue)
            },
        )?;
        Ok(Limits {
            meter,
            budget,
            interrupt,
        })
    }

    pub fn budget(&self) -> &Budget {
        &self.budget
    }

    /// Runs `f` with a fresh budget; nested calls share the outer budget.
    pub fn run<R>(&self, lua: &Lua, f: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
        if self.meter.deadline.get().is_some() {
            return f();
        }
        self.meter.used.set(0);
        self.meter
            .deadline
            .set(Some(Instant::now() + self.budget.wall));
        let _ = lua.set_memory_limit(lua.used_memory() + self.budget.memory);
        let result = f();
        self.meter.deadline.set(None);
        let _ = lua.set_memory_limit(0);
        result
    }
}
