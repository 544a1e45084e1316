//! Randomizer declarations. `game.lua`, tiles and house rules declare `randomizers`: a table
//! whose entries are tables or functions of the switches (or a function of the switches that
//! returns the whole table), evaluated once at load after the switches are resolved. A status
//! may also give parameters for one event (`{ chance = "spin", weights = … }`). Both are
//! checked here, with one error naming the file and line of the declaration.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use anyhow::{Result, anyhow, bail};
use mlua::{FromLua, Function, Lua, Table, Value as LuaValue};

use super::host::Host;
use crate::kernel::{Kind, Randomizer, Value};
use crate::script::handle::api::to_lua;
use crate::script::lua::error;

/// The fields each kind takes in a declaration (besides `kind` and `stream`) and in a status.
fn fields(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "dice" => &["faces", "count"],
        "cowries" => &["count", "p", "values"],
        "spinner" => &["sectors", "weights"],
        "bag" => &["bag", "items"],
        "orientation" => &["count"],
        _ => return None,
    })
}

/// A declared randomizer with the place that declared it, for errors.
#[derive(Clone, Debug)]
pub struct Declared {
    pub randomizer: Randomizer,
    /// The bag's contents at the start of a game (`items`), for bag randomizers.
    pub items: Option<Vec<String>>,
    /// `file:line` of the declaration.
    pub at: String,
}

/// The switch table `sw` that declaring functions receive: read-only, an unknown name is an
/// error, and every name read is recorded (a switch nothing reads is refused at load).
pub fn switch_table(
    host: &Host,
    switches: &BTreeMap<String, Value>,
    reads: Rc<RefCell<BTreeSet<String>>>,
) -> mlua::Result<Table> {
    let lua = &host.lua;
    let inner = lua.create_table()?;
    for (k, v) in switches {
        inner.raw_set(k.as_str(), to_lua(lua, v)?)?;
    }
    let meta = lua.create_table()?;
    meta.raw_set(
        "__index",
        lua.create_function(move |_, (_, k): (LuaValue, String)| {
            let v: LuaValue = inner.raw_get(k.as_str())?;
            if v.is_nil() {
                return Err(mlua::Error::runtime(format!("unknown switch '{k}'")));
            }
            reads.borrow_mut().insert(k);
            Ok(v)
        })?,
    )?;
    meta.raw_set(
        "__newindex",
        lua.create_function(|_, (_, k): (LuaValue, LuaValue)| -> mlua::Result<()> {
            Err(mlua::Error::runtime(format!(
                "switches are read-only (key '{}')",
                super::host::display_value(&k)
            )))
        })?,
    )?;
    meta.raw_set("__metatable", false)?;
    let sw = lua.create_table()?;
    sw.set_metatable(Some(meta))?;
    Ok(sw)
}

/// Evaluates the `randomizers` value of one file (`rel` under the rules folder) and adds its
/// randomizers to `out`; a name another file declared already is an error naming both.
pub fn declare(
    host: &Host,
    rel: &str,
    value: LuaValue,
    sw: &Table,
    out: &mut BTreeMap<String, Declared>,
) -> Result<()> {
    let file = host.chunk_name(rel);
    let value = match value {
        LuaValue::Nil => return Ok(()),
        LuaValue::Function(f) => call(host, &f, sw, &file, "randomizers")?,
        v => v,
    };
    let LuaValue::Table(t) = value else {
        bail!(
            "{file}: randomizers must be a table or a function of the switches, not a {}",
            value.type_name()
        );
    };
    let mut entries = Vec::new();
    for pair in t.pairs::<LuaValue, LuaValue>() {
        let (k, v) = pair.map_err(|e| anyhow!("{file}: randomizers: {e}"))?;
        let LuaValue::String(k) = k else {
            bail!("{file}: randomizers are named by strings");
        };
        entries.push((k.to_str()?.to_string(), v));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, v) in entries {
        let at = match &v {
            LuaValue::Function(f) => f
                .info()
                .line_defined
                .map_or(file.clone(), |l| format!("{file}:{l}")),
            _ => locate(host, rel, &name),
        };
        let what = format!("{at}: randomizer '{name}'");
        let v = match v {
            LuaValue::Function(f) => call(host, &f, sw, &at, &format!("randomizer '{name}'"))?,
            v => v,
        };
        let LuaValue::Table(r) = v else {
            bail!(
                "{what}: must be a table {{kind = …}}, not a {}",
                v.type_name()
            );
        };
        if let Some(first) = out.get(&name) {
            bail!("{what} is declared twice (first at {})", first.at);
        }
        let declared = parse(&host.lua, &name, &r).map_err(|e| anyhow!("{what}: {e}"))?;
        out.insert(name, Declared { at, ..declared });
    }
    Ok(())
}

/// Refuses two randomizers that share a stream when only one draws from the secret seed: the
/// public one would predict the secret one's draws.
pub fn check_secret_streams(randomizers: &BTreeMap<String, Randomizer>) -> Result<()> {
    for a in randomizers.values() {
        if let Some(b) = randomizers
            .values()
            .find(|b| b.stream == a.stream && b.secret != a.secret)
        {
            bail!(
                "randomizers '{}' and '{}' share stream '{}' but only one is secret",
                a.name,
                b.name,
                a.stream
            );
        }
    }
    Ok(())
}

/// Calls a declaring function with the switches, under the limits.
fn call(host: &Host, f: &Function, sw: &Table, at: &str, what: &str) -> Result<LuaValue> {
    host.limits
        .run(&host.lua, || f.call::<LuaValue>(sw))
        .map_err(|e| anyhow!("{at}: {what}: {}", error::message(&e)))
}

/// One declaration table.
fn parse(lua: &Lua, name: &str, r: &Table) -> Result<Declared, String> {
    let kind: String = get(lua, r, "kind")?.ok_or("field 'kind' is missing")?;
    let allowed = fields(&kind).ok_or_else(|| {
        format!("unknown kind '{kind}' (dice, cowries, spinner, bag, orientation)")
    })?;
    for pair in r.pairs::<LuaValue, LuaValue>() {
        let (k, _) = pair.map_err(|e| e.to_string())?;
        let k = match &k {
            LuaValue::String(s) => s.to_string_lossy(),
            other => super::host::display_value(other),
        };
        if !["kind", "stream", "secret"].contains(&k.as_str()) && !allowed.contains(&k.as_str()) {
            return Err(format!(
                "a {kind} randomizer has no field '{k}' (fields: kind, stream, secret, {})",
                allowed.join(", ")
            ));
        }
    }
    let kind = build(lua, &kind, name, &|k| r.raw_get(k), None)?;
    let stream = get::<String>(lua, r, "stream")?.unwrap_or_else(|| name.to_string());
    let items = get::<Vec<String>>(lua, r, "items")?;
    let secret = get::<bool>(lua, r, "secret")?.unwrap_or(false);
    Ok(Declared {
        randomizer: Randomizer {
            name: name.to_string(),
            stream,
            kind,
            secret,
        },
        items,
        at: String::new(),
    })
}

/// The randomizer `base` with the parameters a status gave for one event, checked as a
/// declaration would be.
pub fn with_params(
    lua: &Lua,
    base: &Randomizer,
    params: &[(&'static str, LuaValue)],
) -> Result<Randomizer, String> {
    let kind = base.kind.name();
    let allowed = fields(kind).expect("a declared kind");
    if let Some((k, _)) = params.iter().find(|(k, _)| !allowed.contains(k)) {
        return Err(format!(
            "chance '{}': a {kind} randomizer takes no '{k}' from a status",
            base.name
        ));
    }
    let get = |k: &str| {
        Ok(params
            .iter()
            .find(|(p, _)| *p == k)
            .map_or(LuaValue::Nil, |(_, v)| v.clone()))
    };
    let kind = build(lua, kind, &base.name, &get, Some(&base.kind))
        .map_err(|e| format!("chance '{}': {e}", base.name))?;
    Ok(Randomizer {
        kind,
        ..base.clone()
    })
}

type Getter<'a> = dyn Fn(&str) -> mlua::Result<LuaValue> + 'a;

/// Field `k` converted, or None when absent.
fn get<T: FromLua>(lua: &Lua, t: &Table, k: &str) -> Result<Option<T>, String> {
    convert(lua, t.raw_get(k).map_err(|e| e.to_string())?, k)
}

fn convert<T: FromLua>(lua: &Lua, v: LuaValue, k: &str) -> Result<Option<T>, String> {
    if v.is_nil() {
        return Ok(None);
    }
    T::from_lua(v, lua)
        .map(Some)
        .map_err(|e| format!("field '{k}': {}", error::message(&e)))
}

/// A kind from its fields; a field not given comes from `base` (a status's parameters over
/// the declaration), else from its default, else it is missing.
fn build(
    lua: &Lua,
    kind: &str,
    name: &str,
    get: &Getter,
    base: Option<&Kind>,
) -> Result<Kind, String> {
    let field = |k: &str| get(k).map_err(|e| e.to_string());
    let missing = |k: &str| format!("field '{k}' is missing");
    let kind = match (kind, base) {
        ("dice", base) => {
            let (faces, count) = match base {
                Some(Kind::Dice { faces, count }) => (Some(faces.clone()), Some(*count)),
                _ => (None, None),
            };
            Kind::Dice {
                faces: convert(lua, field("faces")?, "faces")?
                    .or(faces)
                    .ok_or_else(|| missing("faces"))?,
                count: convert(lua, field("count")?, "count")?
                    .or(count)
                    .unwrap_or(1),
            }
        }
        ("cowries", base) => {
            let (count, p, values) = match base {
                Some(Kind::Cowries { count, p, values }) => {
                    (Some(*count), Some(*p), Some(values.clone()))
                }
                _ => (None, None, None),
            };
            let count = convert(lua, field("count")?, "count")?
                .or(count)
                .ok_or_else(|| missing("count"))?;
            let values = match field("values")? {
                LuaValue::Table(t) => (0..=count)
                    .map(|k| {
                        t.raw_get::<Option<i64>>(k).ok().flatten().ok_or_else(|| {
                            format!("values[{k}] is missing (scores for 0..{count})")
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
                LuaValue::Nil => values.ok_or_else(|| missing("values"))?,
                other => return Err(format!("field 'values': a {}", other.type_name())),
            };
            Kind::Cowries {
                count,
                p: convert(lua, field("p")?, "p")?.or(p).unwrap_or(0.5),
                values,
            }
        }
        ("spinner", base) => {
            let mut sectors = match field("sectors")? {
                LuaValue::Nil => match base {
                    Some(Kind::Spinner { sectors }) => sectors.clone(),
                    _ => return Err(missing("sectors")),
                },
                v => sector_list(lua, v)?,
            };
            if let Some(weights) = convert::<Vec<i64>>(lua, field("weights")?, "weights")? {
                if weights.len() != sectors.len() {
                    return Err(format!(
                        "weights has {} entries for {} sectors",
                        weights.len(),
                        sectors.len()
                    ));
                }
                for ((name, w), &new) in sectors.iter_mut().zip(&weights) {
                    *w = u64::try_from(new).ok().filter(|&w| w > 0).ok_or_else(|| {
                        format!("sector '{name}' has weight {new} (weights are ≥ 1)")
                    })?;
                }
            }
            Kind::Spinner { sectors }
        }
        ("bag", base) => Kind::Bag {
            bag: convert(lua, field("bag")?, "bag")?
                .or(match base {
                    Some(Kind::Bag { bag }) => Some(bag.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| name.to_string()),
        },
        ("orientation", base) => Kind::Orientation {
            count: convert(lua, field("count")?, "count")?
                .or(match base {
                    Some(Kind::Orientation { count }) => Some(*count),
                    _ => None,
                })
                .ok_or_else(|| missing("count"))?,
        },
        (other, _) => return Err(format!("unknown kind '{other}'")),
    };
    kind.check()?;
    Ok(kind)
}

/// `{ {"N", 1}, {"NE", 2}, "calm" }`: sector names with weights (1 when not given).
fn sector_list(lua: &Lua, v: LuaValue) -> Result<Vec<(String, u64)>, String> {
    let LuaValue::Table(t) = v else {
        return Err(format!("field 'sectors': a {}, not a table", v.type_name()));
    };
    let mut out = Vec::new();
    for (i, s) in t.sequence_values::<LuaValue>().enumerate() {
        let s = s.map_err(|e| e.to_string())?;
        let (name, weight) = match s {
            LuaValue::String(n) => (n.to_str().map_err(|e| e.to_string())?.to_string(), 1),
            LuaValue::Table(s) => {
                let name: String =
                    convert(lua, s.raw_get(1).map_err(|e| e.to_string())?, "sector name")?
                        .ok_or_else(|| format!("sector {} has no name", i + 1))?;
                let w: i64 = convert(
                    lua,
                    s.raw_get(2).map_err(|e| e.to_string())?,
                    "sector weight",
                )?
                .unwrap_or(1);
                (name, w)
            }
            other => return Err(format!("sector {} is a {}", i + 1, other.type_name())),
        };
        let weight = u64::try_from(weight)
            .ok()
            .filter(|&w| w > 0)
            .ok_or_else(|| format!("sector '{name}' has weight {weight} (weights are ≥ 1)"))?;
        out.push((name, weight));
    }
    Ok(out)
}

/// `file:line` of the first `name =` (or `["name"] =`) after the word `randomizers` in a rule
/// file; the file alone when the text does not show it (a name built at run time).
fn locate(host: &Host, rel: &str, name: &str) -> String {
    let file = host.chunk_name(rel);
    let path = host.root.join(rel);
    let Ok(text) = crate::files::read_text(&path, crate::files::MAX_RULE_FILE, "") else {
        return file;
    };
    let start = text.find("randomizers").unwrap_or(0);
    let quoted = [format!("[\"{name}\"]"), format!("['{name}']")];
    let mut offset = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        offset += line.len();
        if offset <= start {
            continue;
        }
        let hit = line.match_indices(name).any(|(i, _)| {
            let before = line[..i].chars().next_back();
            let after = line[i + name.len()..].trim_start();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && after.starts_with('=')
                && !after.starts_with("==")
        }) || quoted.iter().any(|q| line.contains(q.as_str()));
        if hit {
            return format!("{file}:{}", n + 1);
        }
    }
    file
}
