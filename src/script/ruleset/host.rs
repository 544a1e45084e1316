//! The sandboxed Lua state that runs one ruleset: only safe libraries, no file or process
//! access, no bytecode, frozen globals, a `require` confined to the rules folder, and limits
//! on every invocation. See ARCHITECTURE.md, "Sandbox and limits".

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::state::{GcGenParams, GcMode};
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value as LuaValue};
use sha2::{Digest, Sha256};

use crate::script::handle::{api, raw};
use crate::script::lua::limits::{Budget, Limits};
use crate::script::lua::{bounded, error, globals, json};

/// Globals a rule may not use, with the reason given when it tries.
const FORBIDDEN: [&str; 9] = [
    "io",
    "os",
    "debug",
    "package",
    "load",
    "loadstring",
    "dofile",
    "loadfile",
    "collectgarbage",
];

pub struct Host {
    pub lua: Lua,
    pub limits: Limits,
    /// The folder rule files are read from.
    pub root: PathBuf,
    /// What chunk names start with: the rules folder's own name (`rules`).
    label: String,
    env: Table,
    helpers: Table,
    /// The values rule files returned (game, tiles, house rules) by chunk name, sealed after
    /// loading.
    loaded: RefCell<Vec<(String, LuaValue)>>,
    /// What `require` loaded, by module name.
    modules: Table,
    /// The functions `when_loaded` was given, to run once every rule file has loaded; None
    /// once they ran.
    when_loaded: Rc<RefCell<Option<Vec<Function>>>>,
    /// The entries the sealed tables hold once loaded: what comparing them reads.
    sealed_entries: Cell<u64>,
    /// Steps simulations played since the sealed tables were last compared.
    unchecked_steps: Cell<u64>,
    /// Every file read, by chunk name, with its SHA-256: the ruleset's identity.
    pub files: Rc<RefCell<BTreeMap<String, String>>>,
    /// Lines written by `print`, drained by the REPL.
    pub printed: Rc<RefCell<Vec<String>>>,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Host {
    pub fn new(root: &Path, budget: Budget) -> anyhow::Result<Host> {
        let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
        let lua = Lua::new_with(libs, LuaOptions::new())?;
        // Rules make many short-lived tables (options, board reads): Lua 5.4's generational
        // collector handles those with less work than the incremental one.
        lua.gc_set_mode(GcMode::Generational(GcGenParams::default()));
        let root = root
            .canonicalize()
            .map_err(|e| anyhow::anyhow!("rules folder {}: {e}", root.display()))?;
        let label = root
            .file_name()
            .map_or("rules".into(), |n| n.to_string_lossy().into_owned());
        lua.load("getmetatable('').__metatable = false").exec()?;
        let g = lua.globals();
        for name in FORBIDDEN {
            g.raw_set(name, LuaValue::Nil)?;
        }
        let string: Table = g.get("string")?;
        string.raw_set("dump", LuaValue::Nil)?;
        let math: Table = g.get("math")?;
        for name in ["random", "randomseed"] {
            let refuse = lua.create_function(move |_, ()| -> mlua::Result<()> {
                Err(mlua::Error::runtime(format!(
                    "math.{name} is not available: chance goes through the game's seeded randomizers (`randomizers` in the game table), so games replay"
                )))
            })?;
            math.raw_set(name, refuse)?;
        }
        let helpers: Table = lua
            .load(include_str!("../lua/prelude.lua"))
            .set_name("@kernel/prelude.lua")
            .set_mode(ChunkMode::Text)
            .call(())?;
        let limits = Limits::install(&lua, budget)?;
        bounded::install(&lua, &limits.meter())?;
        raw::install(&lua)?;
        let host = Host {
            env: lua.create_table()?,
            modules: lua.create_table()?,
            when_loaded: Rc::new(RefCell::new(Some(Vec::new()))),
            sealed_entries: Cell::new(0),
            unchecked_steps: Cell::new(0),
            loaded: RefCell::default(),
            lua,
            limits,
            root,
            label,
            helpers,
            files: Rc::default(),
            printed: Rc::default(),
        };
        host.install_globals()?;
        Ok(host)
    }

    /// Globals every rule sees; then the environment is frozen behind a proxy.
    fn install_globals(&self) -> mlua::Result<()> {
        let lua = &self.lua;
        let g = lua.globals();
        let printed = self.printed.clone();
        g.raw_set(
            "print",
            lua.create_function(move |_, args: mlua::MultiValue| {
                let parts: Vec<String> = args.iter().map(display_value).collect();
                let mut out = printed.borrow_mut();
                if out.len() < 10_000 {
                    out.push(parts.join("\t"));
                }
                Ok(())
            })?,
        )?;
        let json = json::table(lua, self.limits.meter())?;
        let plain: Function = self.helpers.get("plain_errors")?;
        for f in ["encode", "decode"] {
            let wrapped: Function = plain.call(json.get::<Function>(f)?)?;
            json.raw_set(f, wrapped)?;
        }
        g.raw_set("json", json)?;
        g.raw_set("sorted_keys", self.helpers.get::<Function>("sorted_keys")?)?;
        g.raw_set("require", self.require_function()?)?;
        let when_loaded = self.when_loaded.clone();
        g.raw_set(
            "when_loaded",
            lua.create_function(move |lua, f: Function| match &mut *when_loaded.borrow_mut() {
                Some(pending) => {
                    pending.push(f);
                    Ok(())
                }
                None => Err(api::placed(
                    lua,
                    "when_loaded: only while the rules load (it fills a file's caches once, before any game)".into(),
                )),
            })?,
        )?;
        // No raw write into a frozen table, no address in a string.
        for name in ["rawset", "tostring"] {
            g.raw_set(name, self.helpers.get::<Function>(name)?)?;
        }
        let string: Table = g.get("string")?;
        string.raw_set("format", self.helpers.get::<Function>("format")?)?;
        self.helpers
            .get::<Function>("sandbox_escapes")?
            .call::<()>(self.limits.tripped_function(lua)?)?;
        self.helpers
            .get::<Function>("hooked_coroutines")?
            .call::<()>(self.limits.hook_thread(lua)?)?;
        // Library tables become read-only views, so no rule can patch them for the others.
        for lib in ["string", "table", "math", "utf8", "coroutine", "json"] {
            let t: Table = g.get(lib)?;
            g.raw_set(lib, self.readonly(&t)?)?;
        }
        // Reading an undefined global is an error (it is a typo, or a forbidden library).
        let strict = lua.create_table()?;
        strict.raw_set(
            "__index",
            lua.create_function(|_, (_, k): (LuaValue, String)| -> mlua::Result<()> {
                if FORBIDDEN.contains(&k.as_str()) {
                    Err(mlua::Error::runtime(format!(
                        "'{k}' is not available to rules (sandbox)"
                    )))
                } else {
                    Err(mlua::Error::runtime(format!("undefined global '{k}'")))
                }
            })?,
        )?;
        g.set_metatable(Some(strict))?;
        let meta = lua.create_table()?;
        meta.raw_set("__index", g.clone())?;
        meta.raw_set(
            "__newindex",
            lua.create_function(|_, (_, k): (LuaValue, LuaValue)| -> mlua::Result<()> {
                Err(mlua::Error::runtime(format!(
                    "assignment to global '{}': rules keep no state between calls (use local)",
                    display_value(&k)
                )))
            })?,
        )?;
        meta.raw_set("__metatable", false)?;
        self.env.set_metatable(Some(meta))?;
        // `_G` is the frozen environment, not the table behind it.
        g.raw_set("_G", self.env.clone())?;
        self.helpers
            .get::<Table>("frozen")?
            .raw_set(self.env.clone(), true)?;
        Ok(())
    }

    /// Seals, deeply, every value a rule file returned (game, tiles, house rules; modules
    /// are sealed as they load): a new key, `rawset` or `setmetatable` is refused with the
    /// place, and [`Host::check_sealed`] finds (and undoes) a key overwritten.
    pub fn seal_loaded(&self) -> mlua::Result<()> {
        let seal: Function = self.helpers.get("seal")?;
        for (file, v) in self.loaded.borrow().iter() {
            if let LuaValue::Table(t) = v {
                seal.call::<()>((t, file.as_str()))?;
            }
        }
        Ok(())
    }

    /// Runs, in the order they were given, the functions rule files handed to `when_loaded`:
    /// every file has loaded and `hook`, `tiles`, `tile_names` and `switches` are published,
    /// and no game exists yet, so what they compute is a fact of the ruleset. Later calls of
    /// `when_loaded` are refused.
    pub fn run_when_loaded(&self) -> anyhow::Result<()> {
        let pending = self.when_loaded.borrow_mut().take().unwrap_or_default();
        for f in pending {
            self.limits
                .run(&self.lua, || f.call::<()>(()))
                .map_err(|e| anyhow::anyhow!("{}", error::message(&e)))?;
        }
        Ok(())
    }

    /// Refuses state kept in the variables rule functions capture, and seals the tables they
    /// hold (see [`super::upvalues`]): the last check of loading, once every global is set.
    pub fn check_upvalues(&self) -> anyhow::Result<()> {
        let mut walk = super::upvalues::Walk::new(
            &self.lua,
            &self.label,
            self.helpers.get("frozen")?,
            self.helpers.get("seal")?,
        );
        for pair in self.lua.globals().pairs::<String, LuaValue>() {
            let (name, v) = pair?;
            walk.value(&v, &name)?;
        }
        for pair in self.modules.pairs::<String, LuaValue>() {
            let (name, v) = pair?;
            walk.value(&v, &name)?;
        }
        for (file, v) in self.loaded.borrow().iter() {
            walk.value(v, file)?;
        }
        self.sealed_entries
            .set(self.helpers.get::<Function>("sealed_entries")?.call(())?);
        Ok(())
    }

    /// Whether a simulation, having played a game of `steps` steps, should compare the sealed
    /// tables now: once the steps since the last comparison reach the entries it reads, so that
    /// comparing costs a few percent of the cheapest games (backgammon's random playouts, a
    /// few microseconds a step) and a game of Jackal is followed by one nearly every time.
    pub fn check_due(&self, steps: u64) -> bool {
        let unchecked = self.unchecked_steps.get().saturating_add(steps);
        let due = unchecked >= self.sealed_entries.get();
        self.unchecked_steps.set(if due { 0 } else { unchecked });
        due
    }

    /// Whether games were played since the sealed tables were last compared; forgets them.
    pub fn unchecked_games(&self) -> bool {
        self.unchecked_steps.replace(0) > 0
    }

    /// An error naming the first rule table changed since loading (`what` says during
    /// what), after putting every sealed table back as it was. `rerun` runs the offending
    /// call again with every sealed table trapped, so that the overwrite fails at its line
    /// and the error can name the place (it must leave the game as the first run found it).
    pub fn check_sealed(
        &self,
        what: &str,
        rerun: impl FnOnce() -> mlua::Result<()>,
    ) -> anyhow::Result<()> {
        let changed: Option<String> = self.helpers.get::<Function>("changed")?.call(())?;
        let Some(key) = changed else {
            return Ok(());
        };
        self.helpers.get::<Function>("restore")?.call::<()>(())?;
        let place = self.place_of_overwrite(rerun)?;
        anyhow::bail!(
            "{}{what} changed '{key}' in the rules: rules are frozen after loading and keep no state between calls (the change was undone)",
            place.map(|p| format!("{p}: ")).unwrap_or_default()
        )
    }

    /// The file and line where `rerun`, run with the sealed tables trapped, overwrites one
    /// (none if it does not fail there: a call that depends on state kept between calls).
    fn place_of_overwrite(
        &self,
        rerun: impl FnOnce() -> mlua::Result<()>,
    ) -> anyhow::Result<Option<String>> {
        self.helpers.get::<Function>("trap")?.call::<()>(())?;
        let result = rerun();
        self.helpers.get::<Function>("untrap")?.call::<()>(())?;
        self.helpers.get::<Function>("restore")?.call::<()>(())?;
        let Err(e) = result else { return Ok(None) };
        let message = error::message(&e);
        Ok(message.find(": attempt to change '").map(|at| {
            message[..at]
                .rsplit('\n')
                .next()
                .unwrap_or_default()
                .to_string()
        }))
    }

    /// Sets a global that every rule sees (hook, tiles, …), read-only if a table.
    pub fn set_global(&self, name: &str, value: LuaValue) -> mlua::Result<()> {
        let value = match value {
            LuaValue::Table(t) => LuaValue::Table(self.readonly(&t)?),
            v => v,
        };
        self.lua.globals().raw_set(name, value)
    }

    pub fn readonly(&self, t: &Table) -> mlua::Result<Table> {
        self.helpers.get::<Function>("readonly")?.call(t)
    }

    /// The function that makes the global `switches` from a table of values: a read-only view
    /// in which an unknown name is an error (see [`publish_switches`]).
    pub fn switches_view(&self) -> mlua::Result<Function> {
        self.helpers.get("switches_view")
    }

    /// The kernel's simulation loop (see `session::driven`).
    pub fn playout(&self) -> mlua::Result<Function> {
        self.helpers.get("playout")
    }

    /// `override` stacked on `base`.
    pub fn compose(&self, over: &Function, base: &Function) -> mlua::Result<Function> {
        self.helpers.get::<Function>("compose")?.call((over, base))
    }

    /// The environment rule chunks run in (frozen globals).
    pub fn env(&self) -> &Table {
        &self.env
    }

    /// Reads and runs the rule file at `rel` (relative to the rules folder), returning its value.
    pub fn load_file(&self, rel: &str) -> anyhow::Result<LuaValue> {
        let value = load_file(
            &self.lua,
            &self.root,
            &self.label,
            &self.env,
            &self.files,
            &self.limits,
            rel,
        )?;
        let name = self.chunk_name(rel);
        self.check_sealed(&name, || {
            let f = load_chunk(
                &self.lua,
                &self.root,
                &self.label,
                &self.env,
                &self.files,
                rel,
            )?;
            self.limits.run(&self.lua, || f.call::<()>(()))
        })?;
        self.loaded.borrow_mut().push((name, value.clone()));
        Ok(value)
    }

    /// The chunk name of a rule file, as errors show it.
    pub fn chunk_name(&self, rel: &str) -> String {
        format!("{}/{rel}", self.label)
    }

    /// `require(name)`: `a.b` is the file `a/b.lua` under the rules folder, loaded once.
    /// A module is sealed as soon as its chunk has run, so that no file loaded after it
    /// (a tile, a house rule) can rewrite it.
    fn require_function(&self) -> mlua::Result<Function> {
        let cache = self.modules.clone();
        let seal: Function = self.helpers.get("seal")?;
        let (root, label, env, files) = (
            self.root.clone(),
            self.label.clone(),
            self.env.clone(),
            self.files.clone(),
        );
        self.lua.create_function(move |lua, name: String| {
            // File names may hold hyphens (`require("pirates.sea-tiles")`), not lead with one.
            let valid = !name.is_empty()
                && name.split('.').all(|p| {
                    !p.is_empty()
                        && !p.starts_with('-')
                        && p.chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                });
            if !valid {
                return Err(mlua::Error::runtime(format!(
                    "require('{name}'): module names are file names (letters, digits, '_', '-') joined by dots, e.g. 'lib.grid'"
                )));
            }
            match cache.raw_get::<LuaValue>(name.as_str())? {
                LuaValue::Nil => {}
                LuaValue::Boolean(false) => {
                    return Err(mlua::Error::runtime(format!(
                        "require('{name}'): circular require"
                    )));
                }
                v => return Ok(v),
            }
            cache.raw_set(name.as_str(), false)?;
            let rel = format!("{}.lua", name.replace('.', "/"));
            let value = load_chunk(lua, &root, &label, &env, &files, &rel)
                .and_then(|f| f.call::<LuaValue>(()))
                .inspect_err(|_| {
                    let _ = cache.raw_set(name.as_str(), LuaValue::Nil);
                })?;
            let value = match value {
                LuaValue::Nil => LuaValue::Boolean(true),
                LuaValue::Table(t) => LuaValue::Table(seal.call((t, name.clone()))?),
                v => v,
            };
            cache.raw_set(name.as_str(), value.clone())?;
            Ok(value)
        })
    }
}

fn load_file(
    lua: &Lua,
    root: &Path,
    label: &str,
    env: &Table,
    files: &Rc<RefCell<BTreeMap<String, String>>>,
    limits: &Limits,
    rel: &str,
) -> anyhow::Result<LuaValue> {
    let f = load_chunk(lua, root, label, env, files, rel).map_err(error::describe)?;
    limits
        .run(lua, || f.call::<LuaValue>(()))
        .map_err(error::describe)
}

/// Compiles a rule file (text only) in the frozen environment, after checking that the path
/// stays inside the rules folder.
fn load_chunk(
    lua: &Lua,
    root: &Path,
    label: &str,
    env: &Table,
    files: &Rc<RefCell<BTreeMap<String, String>>>,
    rel: &str,
) -> mlua::Result<Function> {
    let name = format!("{label}/{rel}");
    let path = root.join(rel);
    let real = path
        .canonicalize()
        .map_err(|e| mlua::Error::runtime(format!("{name}: {e}")))?;
    if !real.starts_with(root) {
        return Err(mlua::Error::runtime(format!(
            "{name}: outside the rules folder"
        )));
    }
    if !crate::files::is_rule_file(&real) {
        return Err(mlua::Error::runtime(format!(
            "{name}: rule files end in .lua or .toml"
        )));
    }
    let source = crate::files::read_text(&real, crate::files::MAX_RULE_FILE, &name)
        .map_err(mlua::Error::runtime)?;
    files
        .borrow_mut()
        .insert(name.clone(), sha256_hex(source.as_bytes()));
    let f = lua
        .load(source)
        .set_name(format!("@{name}"))
        .set_mode(ChunkMode::Text)
        .set_environment(env.clone())
        .into_function()?;
    check_globals(lua, &f, &name)?;
    Ok(f)
}

/// Makes `switches` the global `switches` of `lua`, through `view` (`Host::switches_view`):
/// the loader does at load, and a test kernel that makes games with other switches does for
/// each.
pub fn publish_switches(
    lua: &Lua,
    view: &Function,
    switches: &BTreeMap<String, crate::kernel::Value>,
) -> mlua::Result<()> {
    let values = lua.create_table()?;
    for (k, v) in switches {
        values.raw_set(k.as_str(), api::to_lua(lua, v)?)?;
    }
    lua.globals()
        .raw_set("switches", view.call::<Table>(values)?)
}

/// Globals the loader publishes after the rule files have loaded (see rules.rs).
const LATE_GLOBALS: [&str; 4] = ["hook", "tiles", "tile_names", "switches"];

/// Refuses a chunk that reads a global no rule has: `file:line: undefined global 'x'`. The
/// forbidden libraries are left to the sandbox's own error when the read runs.
fn check_globals(lua: &Lua, f: &Function, name: &str) -> mlua::Result<()> {
    let reads =
        globals::reads(&f.dump(false)).map_err(|e| mlua::Error::runtime(format!("{name}: {e}")))?;
    let g = lua.globals();
    for (global, line) in reads {
        let known = LATE_GLOBALS.contains(&global.as_str())
            || FORBIDDEN.contains(&global.as_str())
            || g.raw_get::<LuaValue>(global.as_str())? != LuaValue::Nil;
        if !known {
            return Err(mlua::Error::runtime(format!(
                "{name}:{line}: undefined global '{global}' (a typo, or a local declared after its use?)"
            )));
        }
    }
    Ok(())
}

/// A Lua value as `print` and the REPL show it: arrays of up to 64 items, three levels deep
/// (a table that holds itself is shown once, not forever).
pub fn display_value(v: &LuaValue) -> String {
    shown(v, 3)
}

fn shown(v: &LuaValue, depth: u32) -> String {
    match v {
        LuaValue::Nil => "nil".into(),
        LuaValue::Boolean(b) => b.to_string(),
        LuaValue::Integer(i) => i.to_string(),
        LuaValue::Number(n) => n.to_string(),
        LuaValue::String(s) => s.to_string_lossy(),
        LuaValue::Table(t) => {
            let n = t.raw_len();
            if n > 0 && n <= 64 && depth > 0 {
                let items: Vec<String> = (1..=n)
                    .map(|i| {
                        shown(
                            &t.raw_get::<LuaValue>(i).unwrap_or(LuaValue::Nil),
                            depth - 1,
                        )
                    })
                    .collect();
                format!("{{{}}}", items.join(", "))
            } else {
                "table".into()
            }
        }
        other => other.type_name().to_string(),
    }
}
