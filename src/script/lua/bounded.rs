//! Library functions that can run long inside one C call, where the instruction hook cannot
//! see, each bounded in its input and charged to the invocation's budget (`Meter`):
//!
//! - `string.find`, `match`, `gmatch`, `gsub`: Lua's matcher backtracks, so `.-.-.-b` on a
//!   long subject takes time exponential in the pattern. A call whose worst case on its subject
//!   ([`pattern_work`]) is small runs at once, charged a share of that worst case. Any other
//!   first does its matching work step for step without building results (`pattern::dry_run`),
//!   charging each step to the budget as it goes: a call that would run long is stopped by the
//!   instruction or time limit, and one that is cheap on its actual subject (most are, whatever
//!   their worst case, such as `^%s*(.-)%s*$` on a line) then runs as usual.
//! - `string.rep`: the result, separators included, is at most [`MAX_BUILT`] bytes, and the
//!   count at most that too (an empty string repeated 2^60 times loops without allocating).
//! - `table.concat`, `move`, `sort`, `insert`, `remove`, `unpack`: at most [`MAX_ITEMS`]
//!   items per call.
//!
//! Work that is linear in memory the heap limit already bounds (copying a string, `upper`),
//! and the watchdog stops an invocation over its time at the next instruction (limits.rs).

use mlua::{Function, Lua, Table, Value as LuaValue};

use super::limits::Meter;
use super::pattern::{Call, dry_run};

/// The worst case (in matcher steps) up to which a pattern call runs without a dry run.
pub const DIRECT_PATTERN_WORK: f64 = (1u64 << 20) as f64;
/// The largest string `string.rep` builds.
pub const MAX_BUILT: u64 = 16 << 20;
/// The most items a table function handles in one call.
pub const MAX_ITEMS: u64 = 1 << 24;

/// Replaces the functions in `string` and `table` with bounded ones.
pub fn install(lua: &Lua, meter: &Meter) -> mlua::Result<()> {
    let g = lua.globals();
    let string: Table = g.get("string")?;
    for name in ["find", "match", "gmatch", "gsub"] {
        wrap(lua, &string, name, meter, move |args, meter| {
            let (Some(n), Some(p)) = (str_len(args, 0), str_arg(args, 1)) else {
                return Ok(0);
            };
            let plain = name == "find" && (args.get(3).is_some_and(truthy) || no_specials(&p));
            if plain {
                return Ok((n * p.len().max(1)) as u64 / 64);
            }
            let work = pattern_work(&p, n);
            if work <= DIRECT_PATTERN_WORK {
                return Ok(work as u64 / 64);
            }
            let call = match name {
                "gmatch" => Call::Gmatch {
                    init: int_arg(args, 2).unwrap_or(1),
                },
                "gsub" => Call::Gsub {
                    max: int_arg(args, 3),
                },
                _ => Call::Find {
                    init: int_arg(args, 2).unwrap_or(1),
                },
            };
            let subject = match args.front() {
                Some(LuaValue::String(s)) => s.as_bytes().to_vec(),
                _ => str_arg(args, 0).unwrap_or_default(),
            };
            dry_run(call, &subject, &p, &mut |steps| meter.spend(steps))
                .map_err(|e| format!("string.{name}: {e} (matching a pattern)"))?;
            Ok(0)
        })?;
    }
    wrap(lua, &string, "rep", meter, |args, _| {
        let len = |i| str_len(args, i).unwrap_or(0) as u64;
        let n = int_arg(args, 1).unwrap_or(0).max(0) as u64;
        let total = n.saturating_mul(len(0) + len(2));
        if n > MAX_BUILT || total > MAX_BUILT {
            return Err(format!("string.rep: result over {} MiB", MAX_BUILT >> 20));
        }
        Ok(total / 64)
    })?;
    let table: Table = g.get("table")?;
    for name in ["concat", "move", "sort", "insert", "remove", "unpack"] {
        wrap(lua, &table, name, meter, move |args, _| {
            let len = match args.front() {
                Some(LuaValue::Table(t)) => t.raw_len() as i64,
                _ => 0,
            };
            let items = match name {
                "concat" => int_arg(args, 3).unwrap_or(len) - int_arg(args, 2).unwrap_or(1) + 1,
                "move" => int_arg(args, 2).unwrap_or(0) - int_arg(args, 1).unwrap_or(1) + 1,
                "unpack" => int_arg(args, 2).unwrap_or(len) - int_arg(args, 1).unwrap_or(1) + 1,
                _ => len,
            }
            .max(0) as u64;
            if items > MAX_ITEMS {
                return Err(format!(
                    "table.{name}: {items} items in one call (at most {MAX_ITEMS})"
                ));
            }
            Ok(if name == "sort" {
                items * (64 - items.leading_zeros() as u64)
            } else {
                items
            })
        })?;
    }
    Ok(())
}

/// Replaces `t[name]` with a function that asks `check` for the work a call will do (or why
/// it is refused; `check` may charge work itself), charges it, then calls the original.
fn wrap(
    lua: &Lua,
    t: &Table,
    name: &'static str,
    meter: &Meter,
    check: impl Fn(&mlua::MultiValue, &Meter) -> Result<u64, String> + 'static,
) -> mlua::Result<()> {
    let original: Function = t.get(name)?;
    let meter = meter.clone();
    let bounded = lua.create_function(move |_, args: mlua::MultiValue| {
        let work = check(&args, &meter).map_err(mlua::Error::runtime)?;
        meter.charge(work)?;
        original.call::<mlua::MultiValue>(args)
    })?;
    t.raw_set(name, bounded)
}

/// The length of string argument `i` (numbers count as their text).
fn str_len(args: &mlua::MultiValue, i: usize) -> Option<usize> {
    match args.get(i) {
        Some(LuaValue::String(s)) => Some(s.as_bytes().len()),
        Some(LuaValue::Integer(_) | LuaValue::Number(_)) => Some(24),
        _ => None,
    }
}

fn str_arg(args: &mlua::MultiValue, i: usize) -> Option<Vec<u8>> {
    match args.get(i) {
        Some(LuaValue::String(s)) => Some(s.as_bytes().to_vec()),
        Some(LuaValue::Integer(n)) => Some(n.to_string().into_bytes()),
        Some(LuaValue::Number(n)) => Some(n.to_string().into_bytes()),
        _ => None,
    }
}

fn int_arg(args: &mlua::MultiValue, i: usize) -> Option<i64> {
    match args.get(i) {
        Some(LuaValue::Integer(n)) => Some(*n),
        Some(LuaValue::Number(n)) => Some(*n as i64),
        _ => None,
    }
}

fn truthy(v: &LuaValue) -> bool {
    !matches!(v, LuaValue::Nil | LuaValue::Boolean(false))
}

/// Whether `string.find` searches for the pattern as plain text (Lua's `nospecials`).
fn no_specials(p: &[u8]) -> bool {
    !p.iter().any(|c| b"^$*+?.([%-".contains(c))
}

/// An upper bound on the steps Lua's matcher takes for `pattern` on a subject of `n` bytes:
/// the start positions it tries (one if anchored) times, for each repeated item (`*`, `+`,
/// `-`), the n + 1 lengths it may try, 2 for each `?`, and n for each `%b` or back-reference.
pub fn pattern_work(pattern: &[u8], n: usize) -> f64 {
    let n = n as f64;
    let (mut work, mut i) = (1.0f64, 0);
    if pattern.first() == Some(&b'^') {
        i = 1;
    } else {
        work = n + 1.0;
    }
    while i < pattern.len() {
        let single = match pattern[i] {
            b'(' | b')' => {
                i += 1;
                continue;
            }
            b'%' => match pattern.get(i + 1) {
                Some(b'b') => {
                    work *= n + 1.0;
                    i += 4;
                    continue;
                }
                Some(b'f') => {
                    i = set_end(pattern, i + 2);
                    continue;
                }
                Some(c) if c.is_ascii_digit() => {
                    work *= n + 1.0;
                    i += 2;
                    continue;
                }
                _ => {
                    i += 2;
                    true
                }
            },
            b'[' => {
                i = set_end(pattern, i);
                true
            }
            _ => {
                i += 1;
                true
            }
        };
        if single {
            match pattern.get(i) {
                Some(b'*' | b'+' | b'-') => {
                    work *= n + 1.0;
                    i += 1;
                }
                Some(b'?') => {
                    work *= 2.0;
                    i += 1;
                }
                _ => {}
            }
        }
    }
    work
}

/// The index after the set `[...]` that starts at `i` (Lua's rules: a `]` right after `[` or
/// `[^` belongs to the set, `%` escapes the next byte).
fn set_end(p: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    if p.get(j) == Some(&b'^') {
        j += 1;
    }
    let first = j;
    while j < p.len() {
        match p[j] {
            b'%' => j += 2,
            b']' if j > first => return j + 1,
            _ => j += 1,
        }
    }
    p.len()
}

#[cfg(test)]
mod tests {
    use super::pattern_work;

    #[test]
    fn pattern_work_grows_with_repeated_items() {
        assert_eq!(pattern_work(b"abc", 10), 11.0);
        assert_eq!(pattern_work(b"^abc", 10), 1.0);
        assert_eq!(pattern_work(b"^%s*(.-)%s*$", 9), 1000.0);
        assert_eq!(pattern_work(b"[%]]+x", 9), 100.0);
        assert_eq!(pattern_work(b"^%b()%1?", 9), 100.0);
        assert!(pattern_work(b".-.-.-.-.-.-.-.-b", 30_000) > 1e30);
    }
}
