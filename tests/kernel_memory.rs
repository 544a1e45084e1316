//! What the kernel holds for a game counts against the memory limit before it is spent: a
//! hostile rule that pushes continuations or adds bag items without end is refused while the
//! memory it made the process allocate stays near the limit. (The memory is counted by a
//! global allocator, per thread, so these tests have a binary of their own.)

#[path = "suite/common/mod.rs"]
mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::Duration;

/// The system allocator, counting what this thread holds and the most it held.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // `try_with`: a thread being torn down has no counters left, and needs none.
    let _ = LIVE.try_with(|live| {
        live.set(live.get() + delta);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(live.get())));
    });
}

// SAFETY: every call is passed on to the system allocator as it came.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        // SAFETY: per the caller's contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        // SAFETY: per the caller's contract.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Both blocks are held while the contents move.
        count(new_size as isize);
        count(-(layout.size() as isize));
        // SAFETY: per the caller's contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The memory limit of these tests: the Lua heap and the game state may each hold this much.
const LIMIT: usize = 16 << 20;

/// Runs `body` on the race's "stay" under a limit of [`LIMIT`]: the error it must end with,
/// and the most memory this thread held more than before it ran.
fn peak_of(body: &str) -> (String, usize) {
    let budget = tortuga::script::Budget {
        memory: LIMIT,
        wall: Duration::from_secs(20),
        ..tortuga::script::Budget::default()
    };
    let (_dir, mut repl) = common::with_stay_body(body, budget);
    let before = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let e = common::fails(&mut repl, "play stay");
    (e, (PEAK.with(Cell::get) - before) as usize)
}

#[test]
fn continuations_and_bag_items_are_counted_before_they_are_spent() {
    for body in [
        "for i = 1, 1e7 do G:push({ hook = 'advance_runner' }) end",
        "for i = 1, 1e7 do G:bag_add('b', 'x') end",
    ] {
        let (e, peak) = peak_of(body);
        assert!(
            e.contains("memory limit exceeded: the game state holds over 16 MiB"),
            "{body}: {e}"
        );
        // The game state's share, and a little for the Lua heap, which is bounded apart.
        assert!(
            peak < LIMIT * 3 / 2,
            "{body}: held {} MiB before the {} MiB limit refused",
            peak >> 20,
            LIMIT >> 20
        );
    }
}
