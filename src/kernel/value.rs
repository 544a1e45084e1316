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

/// `s` as a TOML (and JSON) basic string: quotes and backslashes escaped, control characters
/// as `\uXXXX`, everything else as it is.
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
    /// Strings are written as basic strings with every control character escaped, so the
    /// text holds none (a save refuses lines that do).
    pub fn to_literal(&self) -> String {
        match self {
            Value::Str(s) => quoted(s),
            Value::Num(n) => toml::Value::Float(*n).to_string(),
            Value::List(items) => {
                let parts: Vec<String> = items.iter().map(Value::to_literal).collect();
                format!("[{}]", parts.join(", "))
            }
            Value::Map(entries) => {
                let parts: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("{} = {}", quoted(k), v.to_literal()))
                    .collect();
                format!("{{ {} }}", parts.join(", "))
            }
            other => other.to_string(),
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
