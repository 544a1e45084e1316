//! A loaded ruleset: one game's `game.lua`, its tile files, the house rules a variant switches
//! on and the variant's values, compiled once into a sandboxed Lua state with the hooks
//! composed. The ruleset's identity is the list of files read with their content hashes.

use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};
use mlua::{Function, Lua, LuaString, Table, Value as LuaValue};
use sha2::{Digest, Sha256};

use super::host::Host;
use super::randomizers;
use super::switch_reads;
use super::variant::{Schema, SwitchDef, Variant};
use crate::kernel::{Kind, Randomizer, Value};
use crate::script::handle::api::from_lua;
use crate::script::lua::error;
use crate::script::lua::limits::Budget;

/// Seats a game may be played with, and their names.
#[derive(Clone, Debug)]
pub struct Seats {
    pub min: u32,
    pub max: u32,
    pub default: u32,
    /// The player counts the game allows, when not every count of min..=max (Chaupar: 2 or 4).
    pub counts: Vec<u32>,
    pub names: Vec<String>,
    /// Names for a player count, when `names` is a function of the count (a game whose
    /// players are named by side, as Pirates' S1, S2, P1…).
    pub names_by_count: BTreeMap<u32, Vec<String>>,
    /// `shown = "units"`: a seat is shown by the units it plays (Jackal's colours), its name
    /// (`P2`) still taken as input.
    pub by_units: bool,
}

impl Seats {
    /// Whether the game can be played by n players.
    pub fn allows(&self, n: u32) -> bool {
        (self.min..=self.max).contains(&n) && (self.counts.is_empty() || self.counts.contains(&n))
    }

    /// The allowed player counts for a message: "2–4", or "2 or 4" when `counts` lists them.
    pub fn allowed(&self) -> String {
        match self.counts.split_last() {
            None => format!("{}–{}", self.min, self.max),
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => {
                let rest: Vec<String> = rest.iter().map(u32::to_string).collect();
                format!("{} or {last}", rest.join(", "))
            }
        }
    }

    /// Names of the first n seats.
    pub fn names(&self, n: u32) -> Vec<String> {
        let names = self.names_by_count.get(&n).unwrap_or(&self.names);
        (0..n as usize)
            .map(|i| {
                names
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("P{}", i + 1))
            })
            .collect()
    }
}

/// One layer of a hook: which file defines or overrides it.
#[derive(Clone, Debug)]
pub struct Layer {
    pub file: String,
    pub function: Function,
    /// The house rule that stacked it (None for the game's or a tile's own hook).
    pub rule: Option<String>,
    /// The layer does not call `base`: layers below it never run (declared with `replaces`).
    pub replaces: bool,
}

impl Layer {
    fn base(file: &str, function: Function) -> Layer {
        Layer {
            file: file.to_string(),
            function,
            rule: None,
            replaces: false,
        }
    }

    /// `file:line` of the function, for errors.
    fn at(&self) -> String {
        at(&self.file, &self.function)
    }
}

/// `file:line` where `f` is defined.
fn at(file: &str, f: &Function) -> String {
    match f.info().line_defined {
        Some(line) => format!("{file}:{line}"),
        None => file.to_string(),
    }
}

/// The fields of a game table, of a tile's and of a house rule's: the ones loading reads.
const GAME_FIELDS: [&str; 17] = [
    "name",
    "title",
    "seats",
    "switches",
    "randomizers",
    "hooks",
    "variant",
    "tile_hooks",
    "bench",
    "learns",
    "training",
    "formats",
    "commands",
    "counters",
    "evaluations",
    "auto_prefers",
    "outcomes",
];
const TILE_FIELDS: [&str; 7] = [
    "name",
    "code",
    "count",
    "glyph",
    "help",
    "hooks",
    "randomizers",
];
const HOUSE_FIELDS: [&str; 6] = [
    "name",
    "help",
    "hooks",
    "randomizers",
    "replaces",
    "conflicts",
];

/// `file:line` of the first line of rule file `rel` that sets `key` (`key =`), else `file`.
fn place(host: &Host, rel: &str, key: &str) -> String {
    let file = host.chunk_name(rel);
    let text = std::fs::read_to_string(host.root.join(rel)).unwrap_or_default();
    let line = text.lines().position(|l| {
        l.trim_start()
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    });
    match line {
        Some(i) => format!("{file}:{}", i + 1),
        None => file,
    }
}

/// A value's kind in an error's words ("a number", where Lua says integer or number).
fn kind(v: &LuaValue) -> &'static str {
    match v {
        LuaValue::Integer(_) | LuaValue::Number(_) => "a number",
        LuaValue::Boolean(_) => "a boolean",
        LuaValue::String(_) => "text",
        LuaValue::Table(_) => "a table",
        LuaValue::Function(_) => "a function",
        _ => "a value of another kind",
    }
}

/// A text field of the table rule file `rel` returned, refusing a value of another type
/// (`glyph = 5`) where Lua would turn a number into text.
fn text_field(host: &Host, rel: &str, t: &Table, key: &str) -> Result<Option<String>> {
    match t.get::<LuaValue>(key) {
        Ok(LuaValue::Nil) => Ok(None),
        Ok(LuaValue::String(s)) => Ok(Some(s.to_string_lossy())),
        Ok(other) => bail!(
            "{}: {key} must be text (a string), not {}",
            place(host, rel, key),
            kind(&other)
        ),
        Err(e) => bail!("{}: {key}: {}", place(host, rel, key), error::message(&e)),
    }
}

/// Refuses a field of the table a rule file returned that loading never reads (`hook` for
/// `hooks`, `randomisers`): it would be silently ignored. The error gives the line where the
/// field is set (the first `name =` of the file) and the near names.
fn refuse_unread(host: &Host, rel: &str, t: &Table, known: &[&str], what: &str) -> Result<()> {
    let file = host.chunk_name(rel);
    let mut unread = Vec::new();
    for pair in t.pairs::<LuaValue, LuaValue>() {
        let (k, _) = pair.map_err(|e| anyhow!("{file}: {e}"))?;
        match &k {
            LuaValue::String(s) if known.contains(&&*s.to_string_lossy()) => {}
            LuaValue::String(s) => unread.push(s.to_string_lossy()),
            other => bail!(
                "{file}: {what} has a field named by {}, not a string",
                kind(other)
            ),
        }
    }
    // the first by name: a table's order changes from run to run
    let Some(name) = unread.into_iter().min() else {
        return Ok(());
    };
    bail!(
        "{}: {what} has no field '{name}', and nothing would read it {}",
        place(host, rel, &name),
        super::variant::choices(&name, known, "fields")
    );
}

/// Metadata of one tile type.
#[derive(Clone, Debug)]
pub struct Tile {
    pub name: String,
    /// The tile's short code in the game's position format (its name unless it declares one).
    pub code: String,
    pub count: i64,
    pub glyph: String,
    pub help: String,
    pub file: String,
}

pub struct Rules {
    pub host: Host,
    pub game: String,
    pub title: String,
    pub seats: Seats,
    pub switch_defs: Vec<SwitchDef>,
    pub variant: Variant,
    /// Effective switch values: defaults, then the variant, then overrides.
    pub switches: Arc<BTreeMap<String, Value>>,
    pub randomizers: BTreeMap<String, Randomizer>,
    /// Bags filled at the start of every game, from bag randomizers' `items`.
    pub bags: Vec<(String, Vec<String>)>,
    /// The randomizers' names as Lua strings, made once: the `chance` hook gets one per event.
    pub chance_names: BTreeMap<String, LuaString>,
    pub tiles: Vec<Tile>,
    /// The hooks a tile file may define (the game table's `tile_hooks`).
    pub tile_hooks: Vec<String>,
    pub house_available: Vec<String>,
    /// Every hook with its layers, base first.
    pub stacks: BTreeMap<String, Vec<Layer>>,
    /// The composed hooks, as rules call them.
    pub hooks: BTreeMap<String, Function>,
    /// Switch values `bench` plays with unless told otherwise (the game table's `bench`).
    pub bench_switches: Vec<(String, Value)>,
    /// The game table's `learns`: the switch values under which its evaluation is learned and
    /// looked up, whatever the ruleset's (see [`Rules::evaluated_as`]).
    pub learns_switches: Vec<(String, Value)>,
    /// The position formats `export` offers besides the game's own, each with its help (the
    /// game table's `formats`); `None` when the game does not declare them.
    pub formats: Option<BTreeMap<String, String>>,
    /// Words the game's players say at the table (the game table's `commands`, word to help,
    /// e.g. backgammon's `double`): typed alone at the prompt, each plays the option it names,
    /// or gets the game's reason why it cannot now.
    pub commands: BTreeMap<String, String>,
    /// What each of the rules' counters (`G:stat`) counts, for reports (the game table's
    /// `counters`, name to unit: Jackal's `flips = "tiles turned up"`).
    pub counters: BTreeMap<String, String>,
    /// Labels the uniform-random bot of `auto` takes when a decision offers one, the first
    /// offered (the game table's `auto_prefers`; backgammon's `roll`, `take`), so it does not
    /// throw a game away on the cube unless `auto --any` lets it.
    pub auto_prefers: Vec<String>,
    /// Evaluations the game offers besides its own, name to help (the game table's
    /// `evaluations`): `greedy:NAME` asks the `eval` hook for one.
    pub evaluations: BTreeMap<String, String>,
    /// What a learned evaluation estimates for a seat (the game table's `outcomes`, `win`
    /// first; backgammon adds its gammons), each the `outcome` hook's value at the end.
    /// Undeclared: `win` alone, the seat's reward.
    pub outcomes: Vec<String>,
    /// How `train` learns this game unless told otherwise (the game table's `training`).
    pub training: Training,
    /// [`Rules::digest`], taken once loading is done.
    digest: String,
}

/// A game's own defaults for `tortuga train`'s options, for games whose length or inputs
/// need other settings than backgammon's (the game table's `training`, e.g. Jackal's
/// `{ lambda = 0.97, alpha = 0.01, linear = true }`). A command-line option overrides each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Training {
    pub alpha: Option<f32>,
    pub lambda: Option<f32>,
    pub linear: Option<bool>,
    pub hidden: Option<usize>,
    pub max_steps: Option<u64>,
    pub explore: Option<f64>,
}

/// The fields of the game table's `training`.
const TRAINING_FIELDS: [&str; 6] = [
    "alpha",
    "lambda",
    "linear",
    "hidden",
    "max_steps",
    "explore",
];

/// Reads the game table's `training` (of rule file `rel`), refusing a field `train` has no
/// option for.
fn parse_training(host: &Host, rel: &str, def: &Table, what: &str) -> Result<Training> {
    let Some(t) = field::<Option<Table>>(def, "training", what)? else {
        return Ok(Training::default());
    };
    refuse_unread(host, rel, &t, &TRAINING_FIELDS, "the training table")?;
    // a number must be a number and linear true or false: Lua would read "yes" as true
    let value = |name: &str| -> Result<LuaValue> {
        t.get(name)
            .map_err(|e| anyhow!("{}: training.{name}: {e}", place(host, rel, name)))
    };
    let wrong = |name: &str, want: &str, v: &LuaValue| {
        anyhow!(
            "{}: training.{name} must be {want}, not {}",
            place(host, rel, name),
            kind(v)
        )
    };
    let number = |name: &str| -> Result<Option<f64>> {
        match value(name)? {
            LuaValue::Nil => Ok(None),
            LuaValue::Integer(i) => Ok(Some(i as f64)),
            LuaValue::Number(x) => Ok(Some(x)),
            other => Err(wrong(name, "a number", &other)),
        }
    };
    let count = |name: &str| -> Result<Option<u64>> {
        match number(name)? {
            Some(x) if x >= 1.0 && x.fract() == 0.0 => Ok(Some(x as u64)),
            Some(x) => bail!(
                "{}: training.{name} must be a whole number above 0, not {x}",
                place(host, rel, name)
            ),
            None => Ok(None),
        }
    };
    let linear = match value("linear")? {
        LuaValue::Nil => None,
        LuaValue::Boolean(b) => Some(b),
        other => return Err(wrong("linear", "true or false", &other)),
    };
    Ok(Training {
        alpha: number("alpha")?.map(|x| x as f32),
        lambda: number("lambda")?.map(|x| x as f32),
        linear,
        hidden: count("hidden")?.map(|n| n as usize),
        max_steps: count("max_steps")?,
        explore: number("explore")?,
    })
}

/// Lists the `*.lua` or `*.toml` file stems of a folder, sorted (an absent folder is empty).
fn stems(dir: &Path, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            if p.extension()? == ext {
                Some(p.file_stem()?.to_string_lossy().into_owned())
            } else {
                None
            }
        })
        .collect();
    out.sort();
    out
}

/// The Lua files a ruleset may run: its game folder's (house rules only when switched on)
/// and the shared `lib/`.
fn rule_files(root: &Path, game: &str, house: &[String]) -> Vec<std::path::PathBuf> {
    let house_dir = root.join(game).join("house");
    let on: Vec<std::path::PathBuf> = house
        .iter()
        .map(|h| house_dir.join(format!("{h}.lua")))
        .collect();
    let mut out = Vec::new();
    for dir in [root.join(game), root.join("lib")] {
        walk(&dir, &crate::files::is_rule_file, &mut out);
    }
    out.retain(|f| {
        f.extension().is_some_and(|e| e == "lua") && (!f.starts_with(&house_dir) || on.contains(f))
    });
    out
}

/// Every file under `dir` that `keep` accepts (an absent folder has none), walked without
/// following links and at most a few levels deep, so a link loop or a deep tree cannot hang
/// loading (or `watch`, which looks at the same folders).
pub fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<std::path::PathBuf>) {
    walk_below(dir, 0, keep, out);
}

fn walk_below(
    dir: &Path,
    depth: u32,
    keep: &dyn Fn(&Path) -> bool,
    out: &mut Vec<std::path::PathBuf>,
) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() && depth < 8 => walk_below(&p, depth + 1, keep, out),
            Ok(t) if !t.is_dir() && keep(&p) => out.push(p),
            _ => {}
        }
    }
}

/// Games present in a rules folder: sub-folders with a `game.lua`.
pub fn games(root: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("game.lua").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// Variants of a game, by name.
pub fn variants(root: &Path, game: &str) -> Vec<String> {
    stems(&root.join(game).join("variants"), "toml")
}

fn field<T: mlua::FromLua>(t: &Table, key: &str, what: &str) -> Result<T> {
    t.get::<T>(key)
        .map_err(|e| anyhow!("{what}: field '{key}': {}", error::message(&e)))
}

/// A table of switch values in the game table (`bench`, `learns`), sorted by name.
fn switch_values(host: &Host, def: &Table, key: &str, what: &str) -> Result<Vec<(String, Value)>> {
    let mut values = Vec::new();
    if let Some(t) = field::<Option<Table>>(def, key, what)? {
        for pair in t.pairs::<String, LuaValue>() {
            let (k, v) = pair.map_err(|e| anyhow!("{what}: {key}: {e}"))?;
            values.push((
                k.clone(),
                lua_value(&host.lua, v, &format!("{what}: {key}.{k}"))?,
            ));
        }
        values.sort_by(|a, b| a.0.cmp(&b.0));
    }
    Ok(values)
}

fn lua_value(lua: &Lua, v: LuaValue, what: &str) -> Result<Value> {
    from_lua(lua, &v)
        .map_err(|e| anyhow!("{what}: {}", error::message(&e)))?
        .ok_or_else(|| anyhow!("{what}: missing value"))
}

/// Options for loading a ruleset.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    pub variant: Option<String>,
    /// House rules switched on beyond the variant's (`new --house`).
    pub house: Vec<String>,
    pub overrides: Vec<(String, Value)>,
    pub budget: Budget,
}

impl Rules {
    /// Loads `game` from the rules folder `root` with a variant and switch overrides.
    pub fn load(root: &Path, game: &str, opts: &LoadOptions) -> Result<Rules> {
        if !root.join(game).join("game.lua").is_file() {
            let known = games(root);
            bail!(
                "no game '{game}' in {} (games: {})",
                root.display(),
                known.join(", ")
            );
        }
        let host = Host::new(root, opts.budget.clone())?;
        super::data::install(&host, game)?;
        let game_file = format!("{game}/game.lua");
        let what = host.chunk_name(&game_file);
        let LuaValue::Table(def) = host.load_file(&game_file)? else {
            bail!("{what}: must return the game table");
        };
        refuse_unread(&host, &game_file, &def, &GAME_FIELDS, "the game table")?;
        let title = field::<Option<String>>(&def, "title", &what)?.unwrap_or_else(|| game.into());
        let seats = parse_seats(&def, &what)?;
        let switch_defs = parse_switches(&host.lua, &def, &what)?;
        let mut declarations = vec![(
            game_file.clone(),
            field::<LuaValue>(&def, "randomizers", &what)?,
        )];
        let hooks_def: Table = field(&def, "hooks", &what)?;
        let bench_switches = switch_values(&host, &def, "bench", &what)?;
        let learns_switches = switch_values(&host, &def, "learns", &what)?;
        if let Some((k, _)) = learns_switches
            .iter()
            .find(|(k, _)| !switch_defs.iter().any(|d| &d.name == k))
        {
            bail!("{what}: learns.{k}: {game} has no switch '{k}'");
        }

        let words = |key: &str| -> Result<Option<BTreeMap<String, String>>> {
            field::<Option<Table>>(&def, key, &what)?
                .map(|t| {
                    t.pairs::<String, String>()
                        .collect::<mlua::Result<BTreeMap<_, _>>>()
                        .map_err(|e| {
                            anyhow!("{what}: {key}: a name and its help are strings ({e})")
                        })
                })
                .transpose()
        };
        let formats = words("formats")?;
        let commands = words("commands")?.unwrap_or_default();
        let counters = words("counters")?.unwrap_or_default();
        let evaluations = words("evaluations")?.unwrap_or_default();
        let auto_prefers: Vec<String> =
            field::<Option<Vec<String>>>(&def, "auto_prefers", &what)?.unwrap_or_default();
        let outcomes: Vec<String> = field::<Option<Vec<String>>>(&def, "outcomes", &what)?
            .unwrap_or_else(|| vec!["win".into()]);
        if outcomes.first().map(String::as_str) != Some("win") {
            bail!("{what}: outcomes must start with `win`, the chance that the seat wins");
        }
        if let Some(twice) = outcomes
            .iter()
            .enumerate()
            .find(|(i, o)| outcomes[..*i].contains(o))
        {
            bail!("{what}: outcomes names `{}` twice", twice.1);
        }
        if outcomes.len() > 1
            && hooks_def
                .get::<Option<Function>>("outcome")
                .ok()
                .flatten()
                .is_none()
        {
            bail!(
                "{what}: outcomes beyond `win` need hooks.outcome, their values when the game ends"
            );
        }

        let training = parse_training(&host, &game_file, &def, &what)?;

        let mut stacks: BTreeMap<String, Vec<Layer>> = BTreeMap::new();
        for pair in hooks_def.pairs::<String, Function>() {
            let (name, function) = pair.map_err(|e| anyhow!("{what}: hooks: {e}"))?;
            stacks.insert(name, vec![Layer::base(&what, function)]);
        }
        for required in ["setup", "status", "apply"] {
            if !stacks.contains_key(required) {
                bail!("{what}: hooks.{required} is missing");
            }
        }

        let tile_hooks: Option<Vec<String>> = field(&def, "tile_hooks", &what)?;
        let mut tiles = load_tiles(
            &host,
            game,
            tile_hooks.as_deref(),
            &mut stacks,
            &mut declarations,
        )?;
        let tile_names: Vec<(String, String)> = tiles
            .iter()
            .map(|t| (t.code.clone(), t.name.clone()))
            .collect();
        let house_available = stems(&root.join(game).join("house"), "lua");
        let default_variant = field::<Option<String>>(&def, "variant", &what)?;
        let mut variant = match opts.variant.as_ref().or(default_variant.as_ref()) {
            None => Variant::default(),
            Some(v) => {
                let rel = format!("{game}/variants/{v}.toml");
                let file = host.chunk_name(&rel);
                let path = root.join(&rel);
                if !path.is_file() {
                    let known = variants(root, game);
                    let known = if known.is_empty() {
                        "none".into()
                    } else {
                        known.join(", ")
                    };
                    bail!("{game} has no variant '{v}' (variants: {known})");
                }
                let text = crate::files::read_text(&path, crate::files::MAX_RULE_FILE, &file)
                    .map_err(|e| anyhow!(e))?;
                host.files
                    .borrow_mut()
                    .insert(file.clone(), super::host::sha256_hex(text.as_bytes()));
                let schema = Schema {
                    game,
                    switches: &switch_defs,
                    tiles: &tile_names,
                    house: &house_available,
                };
                Variant::parse(&file, v, &text, &schema).map_err(|e| anyhow!(e))?
            }
        };
        for name in &opts.house {
            if !house_available.contains(name) {
                let known = if house_available.is_empty() {
                    "none".into()
                } else {
                    house_available.join(", ")
                };
                bail!("--house {name}: {game} has no house rule '{name}' (house rules: {known})");
            }
            if !variant.house.contains(name) {
                variant.house.push(name.clone());
            }
        }
        let mut switches: BTreeMap<String, Value> = switch_defs
            .iter()
            .map(|d| (d.name.clone(), d.default.clone()))
            .collect();
        switches.extend(variant.switches.clone());
        for (k, v) in &opts.overrides {
            let def = switch_defs
                .iter()
                .find(|d| &d.name == k)
                .ok_or_else(|| anyhow!("{game} has no switch '{k}'"))?;
            switches.insert(k.clone(), def.check(v.clone()).map_err(|e| anyhow!(e))?);
        }
        for tile in &mut tiles {
            if let Some(&n) = variant.tiles.get(&tile.code) {
                tile.count = n;
            }
        }
        // The variant's own limits hold from its house rules on.
        host.limits.restrict(&variant.budget(&host.limits.budget()));
        let mut conflicts = Vec::new();
        for name in &variant.house {
            conflicts.extend(stack_house_rule(
                &host,
                game,
                name,
                &tiles,
                &mut stacks,
                &mut declarations,
            )?);
        }
        for (file, rule, other) in conflicts {
            if variant.house.contains(&other) {
                bail!(
                    "{file}: house rule '{rule}' conflicts with '{other}', which this variant also switches on"
                );
            }
        }
        let reads = Rc::default();
        let sw = randomizers::switch_table(&host, &switches, Rc::clone(&reads))?;
        let mut declared = BTreeMap::new();
        for (rel, value) in declarations {
            randomizers::declare(&host, &rel, value, &sw, &mut declared)?;
        }
        let bags = declared
            .values()
            .filter_map(|d| match (&d.randomizer.kind, &d.items) {
                (Kind::Bag { bag }, Some(items)) => Some((bag.clone(), items.clone())),
                _ => None,
            })
            .collect();
        let randomizers: BTreeMap<String, Randomizer> = declared
            .into_iter()
            .map(|(k, d)| (k, d.randomizer))
            .collect();
        randomizers::check_secret_streams(&randomizers)?;
        let mut read = reads.borrow().clone();
        for file in rule_files(root, game, &variant.house) {
            let text =
                crate::files::read_text(&file, crate::files::MAX_RULE_FILE, "").unwrap_or_default();
            read.extend(switch_reads::literals(&text));
        }
        let unread = |k: &String| !read.contains(k);
        if let Some((k, at)) = variant.switch_at.iter().find(|(k, _)| unread(k)) {
            bail!("{at}: the variant sets switch '{k}', which no rule reads");
        }
        if let Some((k, _)) = opts.overrides.iter().find(|(k, _)| unread(k)) {
            bail!("--set {k}: no rule of {game} reads switch '{k}'");
        }
        let hooks = compose(&host, &stacks)?;
        install(&host, &hooks, &tiles, &switches)?;
        host.run_when_loaded()?;
        host.seal_loaded()
            .map_err(|e| anyhow!("sealing the rules: {}", error::message(&e)))?;
        host.check_upvalues()?;
        let chance_names = randomizers
            .keys()
            .map(|k| Ok((k.clone(), host.lua.create_string(k)?)))
            .collect::<mlua::Result<_>>()?;
        let digest = digest_of(&host.files.borrow(), &root.join(game));
        Ok(Rules {
            digest,
            host,
            game: game.to_string(),
            title,
            seats,
            switch_defs,
            variant,
            switches: Arc::new(switches),
            randomizers,
            bags,
            chance_names,
            tiles,
            tile_hooks: tile_hooks.unwrap_or_default(),
            house_available,
            stacks,
            hooks,
            bench_switches,
            learns_switches,
            formats,
            commands,
            counters,
            auto_prefers,
            evaluations,
            outcomes,
            training,
        })
    }

    /// A composed hook, if the rules define it.
    pub fn hook(&self, name: &str) -> Option<&Function> {
        self.hooks.get(name)
    }

    /// Where hook `name` is defined (`file:line` of its top layer: the house rule over the
    /// game's own), for errors about what it returned.
    pub fn hook_place(&self, name: &str) -> Option<String> {
        self.stacks.get(name)?.last().map(Layer::at)
    }

    /// The hooks the game table declares (tiles' hooks and house rules' layers left out).
    pub fn game_hooks(&self) -> Vec<&str> {
        let game_file = self.host.chunk_name(&format!("{}/game.lua", self.game));
        self.stacks
            .iter()
            .filter(|(_, layers)| layers.first().is_some_and(|l| l.file == game_file))
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// `hook` with a tile named by its code ([`tile_hook_by_code`]).
    pub fn hook_by_code(&self, hook: &str) -> String {
        tile_hook_by_code(&self.tiles, hook)
    }

    /// The code of the tile named `name` where that is not its code (`cave` → `cv`): a tile
    /// is named by its name or its code wherever it is named.
    pub fn tile_code(&self, name: &str) -> Option<&str> {
        code_of(&self.tiles, name)
    }

    /// A composed hook the caller cannot do without; its absence is an error naming it.
    pub fn required_hook(&self, name: &str) -> Result<&Function> {
        self.hook(name)
            .ok_or_else(|| anyhow!("{} has no hook '{name}'", self.game))
    }

    /// The ruleset whose learned evaluation this one plays by, where the game table's `learns`
    /// sets switches this ruleset has otherwise: its house rules and switch values, those of
    /// `learns` set. A variant that only sets switches and house rules is dropped (its effect
    /// is in them), so every variant of switches `learns` covers shares one evaluation
    /// (backgammon: money and match play, with and without the cube, all play by the one
    /// cubeless evaluation, as gnubg's does). `None`: this ruleset is its own.
    pub fn evaluated_as(&self) -> Option<LoadOptions> {
        if self.learns_switches.is_empty() {
            return None;
        }
        let mut switches = (*self.switches).clone();
        switches.extend(self.learns_switches.iter().cloned());
        let v = &self.variant;
        let drop_variant = !v.name.is_empty() && v.tiles.is_empty() && v.limits.is_empty();
        if switches == *self.switches && !drop_variant {
            return None;
        }
        let overrides = self
            .switch_defs
            .iter()
            .filter(|d| switches[&d.name] != d.default)
            .map(|d| (d.name.clone(), switches[&d.name].clone()))
            .collect();
        Some(LoadOptions {
            variant: (!drop_variant && !v.name.is_empty()).then(|| v.name.clone()),
            house: v.house.clone(),
            overrides,
            budget: self.host.limits.budget(),
        })
    }

    /// The rules this ruleset plays by ([`Rules::evaluated_as`]), loaded from the same folder;
    /// `None`: it plays by its own.
    pub fn load_evaluated(&self) -> Result<Option<Rules>> {
        self.evaluated_as()
            .map(|opts| Rules::load(&self.host.root, &self.game, &opts))
            .transpose()
    }

    /// The files this ruleset was read from, with their SHA-256.
    pub fn files(&self) -> BTreeMap<String, String> {
        self.host.files.borrow().clone()
    }

    /// One hash for the ruleset's files (names and contents), as 32 hex digits: the rule
    /// files loading read, and every data file of the game's folder that a rule may read
    /// through `data` (maps, tables), all of them, read or not. Data read during a game would
    /// otherwise change the hash from the moment it was read, and a learned bot asking for
    /// weights after the setup read the map would not find those `train` wrote before it.
    pub fn digest(&self) -> String {
        self.digest.clone()
    }
}

/// [`Rules::digest`] of the files read at load (`loaded`: name to content hash) and the data
/// files under the game's folder `dir` (all but Lua files and variants, which loading reads
/// when they are used).
fn digest_of(loaded: &BTreeMap<String, String>, dir: &Path) -> String {
    let mut files: BTreeMap<String, String> = loaded
        .iter()
        .filter(|(name, _)| name.ends_with(".lua") || name.contains("/variants/"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let rel = path
                .strip_prefix(dir)
                .unwrap_or(&path)
                .to_string_lossy()
                .to_string();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if rel != "variants" {
                    stack.push(path);
                }
            } else if kind.is_file() && !rel.ends_with(".lua") {
                // `data` reads nothing larger, so a larger file counts by its size alone
                let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
                let hash = if size <= super::data::MAX_DATA_FILE {
                    super::host::sha256_hex(&std::fs::read(&path).unwrap_or_default())
                } else {
                    format!("{size} bytes")
                };
                files.insert(format!("data:{rel}"), hash);
            }
        }
    }
    let mut h = Sha256::new();
    for (file, hash) in files {
        h.update(file.as_bytes());
        h.update([0]);
        h.update(hash.as_bytes());
        h.update([0]);
    }
    h.finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn parse_seats(def: &Table, what: &str) -> Result<Seats> {
    let t: Option<Table> = field(def, "seats", what)?;
    let Some(t) = t else {
        return Ok(Seats {
            min: 2,
            max: 2,
            default: 2,
            counts: vec![],
            names: vec![],
            names_by_count: BTreeMap::new(),
            by_units: false,
        });
    };
    let min: u32 = field::<Option<u32>>(&t, "min", what)?.unwrap_or(2);
    let max: u32 = field::<Option<u32>>(&t, "max", what)?.unwrap_or(min);
    let default: u32 = field::<Option<u32>>(&t, "default", what)?.unwrap_or(min);
    if min == 0 || min > max || !(min..=max).contains(&default) || max > 64 {
        bail!("{what}: seats: need 1 ≤ min ≤ default ≤ max ≤ 64");
    }
    let mut counts: Vec<u32> = field::<Option<Vec<u32>>>(&t, "counts", what)?.unwrap_or_default();
    counts.sort_unstable();
    counts.dedup();
    if counts.iter().any(|n| !(min..=max).contains(n))
        || !(counts.is_empty() || counts.contains(&default))
    {
        bail!("{what}: seats: counts must lie in min..max and hold the default");
    }
    let mut names = Vec::new();
    let mut names_by_count = BTreeMap::new();
    match field::<LuaValue>(&t, "names", what)? {
        LuaValue::Function(f) => {
            for n in min..=max {
                let list: Vec<String> = f
                    .call(n)
                    .map_err(|e| anyhow!("{what}: seats.names({n}): {}", error::message(&e)))?;
                if list.len() != n as usize {
                    bail!("{what}: seats.names({n}) gives {} names", list.len());
                }
                names_by_count.insert(n, list);
            }
        }
        LuaValue::Nil => {}
        _ => names = field::<Vec<String>>(&t, "names", what)?,
    }
    let by_units = match field::<Option<String>>(&t, "shown", what)?.as_deref() {
        None | Some("names") => false,
        Some("units") => true,
        Some(other) => bail!("{what}: seats.shown is \"names\" or \"units\", not \"{other}\""),
    };
    Ok(Seats {
        min,
        max,
        default,
        counts,
        names,
        names_by_count,
        by_units,
    })
}

fn parse_switches(lua: &Lua, def: &Table, what: &str) -> Result<Vec<SwitchDef>> {
    let Some(t): Option<Table> = field(def, "switches", what)? else {
        return Ok(vec![]);
    };
    let mut out = Vec::new();
    for pair in t.pairs::<String, Table>() {
        let (name, s) = pair.map_err(|e| anyhow!("{what}: switches: {e}"))?;
        let at = format!("{what}: switch '{name}'");
        let default = lua_value(lua, field(&s, "default", &at)?, &at)?;
        let values: Vec<Value> = match field::<Option<Table>>(&s, "values", &at)? {
            None => vec![],
            Some(vs) => vs
                .sequence_values::<LuaValue>()
                .map(|v| lua_value(lua, v?, &at))
                .collect::<Result<_>>()?,
        };
        let def = SwitchDef {
            name: name.clone(),
            default: default.clone(),
            values,
            min: field(&s, "min", &at)?,
            max: field(&s, "max", &at)?,
            help: field::<Option<String>>(&s, "help", &at)?.unwrap_or_default(),
        };
        def.check(default)
            .map_err(|e| anyhow!("{at}: default: {e}"))?;
        out.push(def);
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Loads every tile file; their `randomizers` are added to `declarations`.
fn load_tiles(
    host: &Host,
    game: &str,
    tile_hooks: Option<&[String]>,
    stacks: &mut BTreeMap<String, Vec<Layer>>,
    declarations: &mut Vec<(String, LuaValue)>,
) -> Result<Vec<Tile>> {
    let mut tiles = Vec::new();
    for stem in stems(&host.root.join(game).join("tiles"), "lua") {
        let rel = format!("{game}/tiles/{stem}.lua");
        let file = host.chunk_name(&rel);
        let LuaValue::Table(t) = host.load_file(&rel)? else {
            bail!("{file}: must return a tile table {{name, count, glyph, help, hooks}}");
        };
        refuse_unread(host, &rel, &t, &TILE_FIELDS, "a tile table")?;
        let name: String = field(&t, "name", &file)?;
        if name != stem {
            bail!("{file}: name '{name}' must match the file name '{stem}'");
        }
        declarations.push((rel.clone(), field(&t, "randomizers", &file)?));
        let required =
            |key: &str, what: &str| anyhow!("{file}: tile '{name}' has no {key} ({what})");
        let tile = Tile {
            count: field::<Option<i64>>(&t, "count", &file)?
                .ok_or_else(|| required("count", "how many the deck holds, 0 for none"))?,
            glyph: text_field(host, &rel, &t, "glyph")?
                .ok_or_else(|| required("glyph", "what the board shows"))?,
            help: text_field(host, &rel, &t, "help")?.unwrap_or_default(),
            code: text_field(host, &rel, &t, "code")?.unwrap_or_else(|| name.clone()),
            file: file.clone(),
            name: name.clone(),
        };
        if let Some(hooks) = field::<Option<Table>>(&t, "hooks", &file)? {
            let mut list = Vec::new();
            for pair in hooks.pairs::<String, Function>() {
                list.push(pair.map_err(|e| anyhow!("{file}: hooks: {e}"))?);
            }
            list.sort_by(|a, b| a.0.cmp(&b.0));
            let declared = tile_hooks.unwrap_or_default();
            for (hook, function) in list {
                if !declared.contains(&hook) {
                    let known = if declared.is_empty() {
                        "none".to_string()
                    } else {
                        declared.join(", ")
                    };
                    bail!(
                        "{}: tile hook '{hook}' is not one {game} declares (tile_hooks: {known})",
                        at(&file, &function)
                    );
                }
                stacks.insert(
                    format!("{}.{hook}", tile.code),
                    vec![Layer::base(&file, function)],
                );
            }
        }
        if let Some(other) = tiles.iter().find(|t: &&Tile| t.code == tile.code) {
            bail!(
                "{file}: tile code '{}' is already {}'s ({})",
                tile.code,
                other.name,
                other.file
            );
        }
        tiles.push(tile);
    }
    // By code, the tiles' identity: hooks, `tiles` and the deck name them by it.
    tiles.sort_by(|a, b| a.code.cmp(&b.code));
    Ok(tiles)
}

/// The code of the tile named `name`, where that is not its code.
fn code_of<'a>(tiles: &'a [Tile], name: &str) -> Option<&'a str> {
    tiles
        .iter()
        .find(|t| t.name == name && t.code != name)
        .map(|t| t.code.as_str())
}

/// A tile's hook as the stacks name it, by the tile's code: `cave.on_arrive` is `cv.on_arrive`
/// (a tile is named by its name or its code wherever it is named). Other names are unchanged.
fn tile_hook_by_code(tiles: &[Tile], hook: &str) -> String {
    if let Some((tile, rest)) = hook.split_once('.')
        && let Some(code) = code_of(tiles, tile)
    {
        return format!("{code}.{rest}");
    }
    hook.to_string()
}

/// Stacks the house rule `name` on the hooks it overrides; its `randomizers` are added to
/// `declarations`. Returns its declared conflicts as (file, rule, other rule). A rule that
/// `replaces` a hook does not call `base`, so it may not stack above another house rule's
/// override of it: that one would silently never run.
fn stack_house_rule(
    host: &Host,
    game: &str,
    name: &str,
    tiles: &[Tile],
    stacks: &mut BTreeMap<String, Vec<Layer>>,
    declarations: &mut Vec<(String, LuaValue)>,
) -> Result<Vec<(String, String, String)>> {
    let rel = format!("{game}/house/{name}.lua");
    let file = host.chunk_name(&rel);
    let LuaValue::Table(t) = host.load_file(&rel)? else {
        bail!("{file}: must return a house rule table {{name, help, hooks}}");
    };
    refuse_unread(host, &rel, &t, &HOUSE_FIELDS, "a house rule table")?;
    let hooks: Table = field(&t, "hooks", &file)?;
    declarations.push((rel.clone(), field(&t, "randomizers", &file)?));
    let replaces: Vec<String> =
        field::<Option<Vec<String>>>(&t, "replaces", &file)?.unwrap_or_default();
    let conflicts: Vec<String> =
        field::<Option<Vec<String>>>(&t, "conflicts", &file)?.unwrap_or_default();
    let mut overrides = Vec::new();
    for pair in hooks.pairs::<String, Function>() {
        let (hook, function) = pair.map_err(|e| anyhow!("{file}: hooks: {e}"))?;
        overrides.push((tile_hook_by_code(tiles, &hook), function));
    }
    overrides.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(h) = replaces
        .iter()
        .find(|h| !overrides.iter().any(|(o, _)| o == *h))
    {
        bail!("{file}: replaces hook '{h}', which it does not override");
    }
    for (hook, function) in overrides {
        let here = at(&file, &function);
        let Some(stack) = stacks.get_mut(&hook) else {
            // A BTreeMap: the names come sorted.
            let known: Vec<&str> = stacks
                .keys()
                .map(String::as_str)
                .filter(|k| !k.contains('.'))
                .collect();
            bail!(
                "{here}: overrides hook '{hook}', which {game} does not have (hooks: {})",
                known.join(", ")
            );
        };
        let replacing = replaces.contains(&hook);
        let below = stack.iter().rev().find(|l| l.rule.is_some());
        if let Some(below) = below.filter(|_| replacing) {
            let other = below.rule.as_deref().unwrap_or_default();
            if below.replaces {
                bail!(
                    "{here}: '{name}' and '{other}' ({}) both replace hook '{hook}': only one can apply",
                    below.at()
                );
            }
            bail!(
                "{here}: '{name}' replaces hook '{hook}', so '{other}' below it ({}) would never run; switch '{name}' on first",
                below.at()
            );
        }
        stack.push(Layer {
            file: file.clone(),
            function,
            rule: Some(name.to_string()),
            replaces: replacing,
        });
    }
    Ok(conflicts
        .into_iter()
        .map(|other| (file.clone(), name.to_string(), other))
        .collect())
}

/// Folds every stack into one function: each override receives the one below as `base`.
fn compose(
    host: &Host,
    stacks: &BTreeMap<String, Vec<Layer>>,
) -> Result<BTreeMap<String, Function>> {
    let mut out = BTreeMap::new();
    for (name, layers) in stacks {
        let mut f = layers[0].function.clone();
        for layer in &layers[1..] {
            f = host.compose(&layer.function, &f)?;
        }
        out.insert(name.clone(), f);
    }
    Ok(out)
}

/// Publishes `hook`, `tiles`, `tile_names` and `switches` as read-only globals. The switches
/// are fixed for the loaded rules (every game of them starts from these), so a rule may read
/// `switches.name` instead of calling `G:switch("name")`, a fraction of the cost.
fn install(
    host: &Host,
    hooks: &BTreeMap<String, Function>,
    tiles: &[Tile],
    switches: &BTreeMap<String, Value>,
) -> Result<()> {
    let lua = &host.lua;
    super::host::publish_switches(lua, &host.switches_view()?, switches)?;
    let hook_t = lua.create_table()?;
    for (name, f) in hooks {
        hook_t.raw_set(name.as_str(), f.clone())?;
    }
    host.set_global("hook", LuaValue::Table(hook_t))?;
    let tiles_t = lua.create_table()?;
    let names_t = lua.create_table()?;
    for (i, tile) in tiles.iter().enumerate() {
        let t = lua.create_table()?;
        t.raw_set("name", tile.name.as_str())?;
        t.raw_set("count", tile.count)?;
        t.raw_set("code", tile.code.as_str())?;
        t.raw_set("glyph", tile.glyph.as_str())?;
        t.raw_set("help", tile.help.as_str())?;
        tiles_t.raw_set(tile.code.as_str(), t)?;
        names_t.raw_set(i + 1, tile.code.as_str())?;
    }
    host.set_global("tiles", LuaValue::Table(tiles_t))?;
    host.set_global("tile_names", LuaValue::Table(names_t))?;
    Ok(())
}
