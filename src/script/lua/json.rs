//! `json.encode` / `json.decode` for rules: positions and the machine interface speak JSON.
//! Object keys are written sorted, so output never depends on table order.
//!
//! Both are bounded: encoding visits at most MAX_VALUES values (a table that shares its
//! children is visited once per path, so sharing 60 levels deep would be 2^60 visits), and the
//! work of both counts against the invocation's budget.

use mlua::{Lua, Table, Value as LuaValue};
use serde_json::Value as Json;

use super::limits::Meter;

/// The most values one `json.encode` writes.
pub const MAX_VALUES: u64 = 1 << 16;

pub fn table(lua: &Lua, meter: Meter) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    let encode_meter = meter.clone();
    t.raw_set(
        "encode",
        lua.create_function(move |_, v: LuaValue| {
            let mut left = MAX_VALUES;
            let json = to_json(&v, 0, &mut left)?;
            encode_meter.charge(MAX_VALUES - left)?;
            Ok(json.to_string())
        })?,
    )?;
    t.raw_set(
        "decode",
        lua.create_function(move |lua, text: String| {
            meter.charge(text.len() as u64 / 8)?;
            let json: Json = serde_json::from_str(&text)
                .map_err(|e| mlua::Error::runtime(format!("invalid JSON: {e}")))?;
            from_json(lua, &json)
        })?,
    )?;
    Ok(t)
}

/// `v` as JSON; `left` counts down the values still allowed.
fn to_json(v: &LuaValue, depth: usize, left: &mut u64) -> mlua::Result<Json> {
    if depth > 64 {
        return Err(mlua::Error::runtime("json.encode: nested too deep"));
    }
    if *left == 0 {
        return Err(mlua::Error::runtime(format!(
            "json.encode: more than {MAX_VALUES} values (a table shared many times?)"
        )));
    }
    *left -= 1;
    Ok(match v {
        LuaValue::Nil => Json::Null,
        LuaValue::Boolean(b) => Json::Bool(*b),
        LuaValue::Integer(i) => Json::from(*i),
        LuaValue::Number(n) => serde_json::Number::from_f64(*n)
            .map(Json::Number)
            .ok_or_else(|| mlua::Error::runtime("json.encode: NaN or infinity"))?,
        LuaValue::String(s) => Json::String(s.to_str()?.to_string()),
        LuaValue::Table(t) => {
            let n = t.raw_len();
            let total = t.pairs::<LuaValue, LuaValue>().count();
            if total == n {
                let items = (1..=n)
                    .map(|i| to_json(&t.raw_get::<LuaValue>(i)?, depth + 1, left))
                    .collect::<mlua::Result<Vec<_>>>()?;
                Json::Array(items)
            } else {
                let mut entries = Vec::with_capacity(total);
                for pair in t.pairs::<LuaValue, LuaValue>() {
                    let (k, v) = pair?;
                    let key = match k {
                        LuaValue::String(s) => s.to_str()?.to_string(),
                        LuaValue::Integer(i) => i.to_string(),
                        other => {
                            return Err(mlua::Error::runtime(format!(
                                "json.encode: a {} key",
                                other.type_name()
                            )));
                        }
                    };
                    entries.push((key, to_json(&v, depth + 1, left)?));
                }
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                Json::Object(entries.into_iter().collect())
            }
        }
        other => {
            return Err(mlua::Error::runtime(format!(
                "json.encode: cannot encode a {}",
                other.type_name()
            )));
        }
    })
}

fn from_json(lua: &Lua, j: &Json) -> mlua::Result<LuaValue> {
    Ok(match j {
        Json::Null => LuaValue::Nil,
        Json::Bool(b) => LuaValue::Boolean(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => LuaValue::Integer(i),
            None => LuaValue::Number(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => LuaValue::String(lua.create_string(s)?),
        Json::Array(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, from_json(lua, item)?)?;
            }
            LuaValue::Table(t)
        }
        Json::Object(map) => {
            let t = lua.create_table_with_capacity(0, map.len())?;
            for (k, v) in map {
                t.raw_set(k.as_str(), from_json(lua, v)?)?;
            }
            LuaValue::Table(t)
        }
    })
}
