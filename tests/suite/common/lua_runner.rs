//! Runs Lua unit tests of the rules: each `tests/lua/<game>/*_test.lua` in the game's sandboxed
//! rules state (with the variant its first line names, `-- variant: <name>`, else the game's
//! default), against the real kernel. Test files may set globals (in their own environment);
//! `require` also finds their helper modules next to them, and `require("test_kernel")` gives
//! `new(game, switches)` (a fresh kernel state for the game, before setup; the global `switches`
//! becomes the new game's, as loading the rules with those switches would make it), `logs(G)` and
//! `run(G, pick, roll, limit)`, `rng(seed)` (a seeded generator for a test's own choices:
//! `rng(seed)(n)` is 1..n) and `soak(full)` (how many of `full` repetitions a long run makes,
//! as `TORTUGA_SOAK` sizes it: see `common::soak`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, Table, Value};
use tortuga::kernel::{State, Value as KValue};
use tortuga::script::handle::api::from_lua;
use tortuga::script::handle::raw;
use tortuga::script::lua::error::message;
use tortuga::script::ruleset::host::publish_switches;
use tortuga::script::{Budget, LoadOptions, Rules};

const RUN: &str = r#"
local function run(G, pick, roll, limit)
  for _ = 1, limit or 1e9 do
    local st = hook.status(G)
    if st.over then return st end
    if st.chance then hook.chance(G, st.chance, roll(st.chance))
    else hook.apply(G, st.options[pick(st)]) end
  end
  return hook.status(G)
end

local function rng(seed)
  return function(n)
    seed = (seed * 6364136223846793005 + 1442695040888963407)
    return ((seed >> 33) % n) + 1
  end
end

return run, rng
"#;

/// The `test_kernel` module for one ruleset.
fn test_kernel(lua: &Lua, rules: &Rules, env: &Table) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let (defaults, names) = (
        (*rules.switches).clone(),
        rules.seats.names(rules.seats.default),
    );
    let view = rules.host.switches_view()?;
    t.raw_set(
        "new",
        lua.create_function(move |lua, (_game, switches): (Value, Option<Table>)| {
            let mut all: BTreeMap<String, KValue> = defaults.clone();
            if let Some(s) = switches {
                for pair in s.pairs::<String, Value>() {
                    let (k, v) = pair?;
                    if !all.contains_key(&k) {
                        return Err(mlua::Error::runtime(format!("unknown switch {k}")));
                    }
                    all.insert(k, from_lua(lua, &v)?.expect("a value"));
                }
            }
            publish_switches(lua, &view, &all)?;
            raw::handle(lua, State::new(names.clone(), 1, Arc::new(all)))
        })?,
    )?;
    t.raw_set(
        "logs",
        lua.create_function(|_, g: mlua::AnyUserData| {
            Ok(g.borrow::<State>()?
                .log
                .iter()
                .map(|l| l.text.clone())
                .collect::<Vec<_>>())
        })?,
    )?;
    let (run, rng): (Function, Function) = lua
        .load(RUN)
        .set_name("=test_kernel")
        .set_environment(env.clone())
        .eval()?;
    t.raw_set("run", run)?;
    t.raw_set("rng", rng)?;
    t.raw_set(
        "soak",
        lua.create_function(|_, full: u64| Ok(super::soak(full)))?,
    )?;
    Ok(t)
}

/// Runs one test file; returns its error message if it fails.
fn run_file(rules: &Rules, dir: &Path, file: &Path) -> Result<(), String> {
    let host = &rules.host;
    let lua = &host.lua;
    let setup = || -> mlua::Result<Function> {
        let env = lua.create_table()?;
        let meta = lua.create_table()?;
        meta.raw_set("__index", host.env().clone())?;
        env.set_metatable(Some(meta))?;
        let kernel = test_kernel(lua, rules, &env)?;
        let real_require: Function = host.env().get("require")?;
        let loaded = RefCell::new(BTreeMap::<String, Value>::new());
        let (env2, dir2) = (env.clone(), dir.to_path_buf());
        let require = lua.create_function(move |lua, name: String| {
            if name == "test_kernel" {
                return Ok(Value::Table(kernel.clone()));
            }
            let local = dir2.join(format!("{name}.lua"));
            if !local.is_file() {
                return real_require.call::<Value>(name);
            }
            if let Some(v) = loaded.borrow().get(&name) {
                return Ok(v.clone());
            }
            let f = lua
                .load(std::fs::read_to_string(&local).map_err(mlua::Error::external)?)
                .set_name(format!(
                    "@tests/lua/{}",
                    local
                        .strip_prefix(dir2.parent().unwrap())
                        .unwrap()
                        .display()
                ))
                .set_mode(ChunkMode::Text)
                .set_environment(env2.clone())
                .into_function()?;
            let v: Value = f.call(())?;
            loaded.borrow_mut().insert(name, v.clone());
            Ok(v)
        })?;
        env.raw_set("require", require)?;
        let name = format!(
            "@tests/lua/{}",
            file.strip_prefix(dir.parent().unwrap()).unwrap().display()
        );
        let text = std::fs::read_to_string(file).map_err(mlua::Error::external)?;
        lua.load(text)
            .set_name(name)
            .set_mode(ChunkMode::Text)
            .set_environment(env)
            .into_function()
    };
    let f = setup().map_err(|e| message(&e))?;
    host.limits
        .run(lua, || f.call::<()>(()))
        .map_err(|e| message(&e))
}

/// Every `(game, test file)` pair, in a fixed order.
pub fn test_files(root: &Path) -> Vec<(String, PathBuf)> {
    let mut all = Vec::new();
    for game_dir in std::fs::read_dir(root.join("tests/lua")).unwrap().flatten() {
        let game = game_dir.file_name().to_string_lossy().into_owned();
        for e in std::fs::read_dir(game_dir.path()).unwrap().flatten() {
            if e.path().to_string_lossy().ends_with("_test.lua") {
                all.push((game.clone(), e.path()));
            }
        }
    }
    all.sort();
    all
}

/// Runs the files taken from `next` in this thread, each game's rules loaded once here (a
/// rules state is not shared between threads); returns the failures.
pub fn worker(root: &Path, files: &[(String, PathBuf)], next: &AtomicUsize) -> Vec<String> {
    let opts = LoadOptions {
        budget: Budget {
            instructions: 50_000_000_000,
            wall: Duration::from_secs(600),
            ..Budget::default()
        },
        ..LoadOptions::default()
    };
    let mut loaded: BTreeMap<(String, Option<String>), Rules> = BTreeMap::new();
    let mut failures = Vec::new();
    loop {
        let Some((game, file)) = files.get(next.fetch_add(1, Ordering::Relaxed)) else {
            return failures;
        };
        let variant = std::fs::read_to_string(file).ok().and_then(|t| {
            Some(
                t.lines()
                    .next()?
                    .strip_prefix("-- variant: ")?
                    .trim()
                    .to_string(),
            )
        });
        let rules = loaded
            .entry((game.clone(), variant.clone()))
            .or_insert_with(|| {
                let opts = LoadOptions {
                    variant,
                    ..opts.clone()
                };
                Rules::load(&root.join("rules"), game, &opts).expect("rules load")
            });
        if let Err(e) = run_file(rules, file.parent().unwrap(), file) {
            failures.push(format!("{}: {e}", file.display()));
        }
    }
}

/// Runs `files` (of the repository at `root`) on as many threads as the machine has cores;
/// returns the failures.
pub fn run_all(root: &Path, files: &[(String, PathBuf)]) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| s.spawn(|| worker(root, files, &next)))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a worker"))
            .collect()
    })
}
