//! Typed property values: what rules may store on the game, a cell, a piece or a player.

use std::collections::BTreeMap;
use std::fmt;

/// A property value. Absence is represented by the key not being present.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Num(f64),
    Str(String),
    List(Vec<Value>),
    /// A string-keyed table, in key order (so listing it is deterministic).
    Map(BTreeMap<String, Value>),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Num(n) => write!(f, "{n}"),
            Value::Str(s) => f.write_str(s),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Value::Map(entries) => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k} = {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

impl Value {
    /// Roughly the memory the value holds, for the bound on game state (`State::grow`).
    pub fn bytes(&self) -> usize {
        match self {
            Value::Str(s) => 24 + s.len(),
            Value::List(items) => 24 + items.iter().map(Value::bytes).sum::<usize>(),
            Value::Map(entries) => {
                24 + entries
                    .iter()
                    .map(|(k, v)| 48 + k.len() + v.bytes())
                    .sum::<usize>()
            }
            _ => 16,
        }
    }

    /// The value as TOML, which `--set` and a save's `set` lines read back to the same value.
    pub fn to_literal(&self) -> String {
        self.to_toml().to_string()
    }

    fn to_toml(&self) -> toml::Value {
        match self {
            Value::Bool(b) => toml::Value::Boolean(*b),
            Value::Int(i) => toml::Value::Integer(*i),
            Value::Num(n) => toml::Value::Float(*n),
            Value::Str(s) => toml::Value::String(s.clone()),
            Value::List(items) => toml::Value::Array(items.iter().map(Value::to_toml).collect()),
            Value::Map(entries) => toml::Value::Table(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_toml()))
                    .collect(),
            ),
        }
    }

    /// Human name of the value's type with its article, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Num(_) => "a number",
            Value::Str(_) => "a string",
            Value::List(_) => "an array",
            Value::Map(_) => "a table",
        }
    }
}
