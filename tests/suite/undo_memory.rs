//! Undo memory: a session keeps one undo point per step, and what a step costs must not grow
//! with the length of the game (a whole-log copy per undo point made it grow with its square).
//! Bytes are counted by a counting allocator: every live heap byte this test's thread
//! allocated (the suite's other tests allocate on their own threads meanwhile).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;
use std::rc::Rc;

use tortuga::kernel::Value;
use tortuga::script::Rules;
use tortuga::script::ruleset::rules::LoadOptions;
use tortuga::session::{Origin, Session, Status};

struct Counting;

thread_local! {
    /// Bytes this thread allocated and has not freed, from an offset that keeps the count
    /// positive when the thread frees what another allocated.
    static LIVE: Cell<usize> = const { Cell::new(1 << 40) };
}

/// Adds `add` and takes `sub` from this thread's count (nothing while the thread exits).
fn count(add: usize, sub: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get().wrapping_add(add).wrapping_sub(sub)));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), 0);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        count(new, layout.size());
        unsafe { System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn session(game: &str, overrides: Vec<(String, Value)>, seats: u32) -> Session {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules");
    let opts = LoadOptions {
        variant: None,
        overrides: overrides.clone(),
        ..Default::default()
    };
    let rules = Rc::new(Rules::load(&root, game, &opts).expect("rules load"));
    let origin = Origin {
        game: game.into(),
        variant: None,
        house: vec![],
        overrides,
        seats,
        seed: 7,
        secret_seed: None,
        position: None,
    };
    Session::new(rules, origin).expect("session")
}

/// Live bytes once the rules' garbage is collected.
fn live(s: &Session) -> usize {
    let lua = &s.game.rules.host.lua;
    lua.gc_collect().expect("gc");
    lua.gc_collect().expect("gc");
    LIVE.with(Cell::get)
}

/// Plays up to `steps` steps (decisions and chance events), options picked by a fixed
/// sequence; returns the live bytes after every `every` steps (the first figure before any).
fn play(s: &mut Session, steps: usize, every: usize) -> Vec<usize> {
    let mut figures = vec![live(s)];
    let mut pick: u64 = 12345;
    for step in 1..=steps {
        match s.status().expect("status") {
            Status::Over { result, .. } => {
                eprintln!("over after {step} steps: {result}");
                break;
            }
            Status::Chance(..) => {
                s.roll(&[]).expect("roll");
            }
            Status::Decision { count, .. } => {
                pick = pick
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let i = (pick >> 33) as usize % *count;
                s.play_index(i).expect("play");
            }
        }
        if step % every == 0 {
            figures.push(live(s));
        }
    }
    figures
}

/// The bytes each step added, per stretch of `every` steps.
fn per_step(figures: &[usize], every: usize) -> Vec<usize> {
    figures
        .windows(2)
        .map(|w| w[1].saturating_sub(w[0]) / every)
        .collect()
}

#[test]
fn a_long_backgammon_match_keeps_undo_points_small() {
    let mut s = session(
        "backgammon",
        vec![
            ("match_length".into(), Value::Int(25)),
            ("cube".into(), Value::Bool(false)),
        ],
        2,
    );
    let figures = play(&mut s, 2000, 500);
    assert_eq!(figures.len(), 5, "the match should last 2,000 steps");
    let steps = per_step(&figures, 500);
    let total = figures[4] - figures[0];
    eprintln!("backgammon: {total} bytes for 2,000 steps; per step, by 500: {steps:?}");
    assert!(total < 50 << 20, "2,000 steps hold {total} bytes");
    // Linear: the last stretch's steps cost no more than twice the first's (a whole-log copy
    // per step made them cost seven times as much).
    assert!(
        steps[3] <= 2 * steps[0].max(1024),
        "bytes per step grow with the game: {steps:?}"
    );
}

#[test]
fn a_jackal_game_keeps_undo_points_small() {
    let mut s = session("jackal", vec![], 4);
    let figures = play(&mut s, 600, 200);
    assert_eq!(
        figures.len(),
        4,
        "the game should last 600 steps: {figures:?}"
    );
    // Per step over the whole game, and over its last third alone (the start allocates
    // caches that later steps reuse, so the first third is not a fair baseline).
    let mean = (figures[3] - figures[0]) / 600;
    let last = per_step(&figures[2..], 200)[0];
    eprintln!("jackal: {mean} bytes per step over 600 steps, {last} over the last 200");
    assert!(mean < 32 << 10, "bytes per step: {mean}");
    assert!(
        last <= 2 * mean,
        "bytes per step grow with the game: {figures:?}"
    );
}
