//! Variants: a game, the house rules it switches on, values for the game's switches and tile
//! counts, in TOML. Everything is checked against what the game declares; an error names the
//! file, line and column.

use std::collections::BTreeMap;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::kernel::Value;
use crate::script::lua::limits::Budget;

/// A switch a game declares: its default fixes its type.
#[derive(Clone, Debug)]
pub struct SwitchDef {
    pub name: String,
    pub default: Value,
    pub values: Vec<Value>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub help: String,
}

impl SwitchDef {
    /// Checks a value against the switch; integers are accepted where numbers are expected.
    pub fn check(&self, v: Value) -> Result<Value, String> {
        let v = match (&self.default, v) {
            (Value::Num(_), Value::Int(i)) => Value::Num(i as f64),
            (_, v) => v,
        };
        if std::mem::discriminant(&v) != std::mem::discriminant(&self.default) {
            return Err(format!(
                "switch '{}' takes {}, not {}",
                self.name,
                self.default.type_name(),
                v.type_name()
            ));
        }
        if !self.values.is_empty() && !self.values.contains(&v) {
            let allowed: Vec<String> = self.values.iter().map(Value::to_literal).collect();
            return Err(format!(
                "switch '{}' cannot be {} (allowed: {})",
                self.name,
                v.to_literal(),
                allowed.join(", ")
            ));
        }
        let n = match v {
            Value::Int(i) => Some(i as f64),
            Value::Num(n) => Some(n),
            _ => None,
        };
        if let Some(n) = n
            && (self.min.is_some_and(|m| n < m) || self.max.is_some_and(|m| n > m))
        {
            return Err(format!(
                "switch '{}' = {} is out of range ({}..{})",
                self.name,
                v.to_literal(),
                self.min.map_or(String::new(), |m| m.to_string()),
                self.max.map_or(String::new(), |m| m.to_string())
            ));
        }
        Ok(v)
    }
}

/// A parsed, validated variant file.
#[derive(Clone, Debug, Default)]
pub struct Variant {
    pub name: String,
    pub title: String,
    pub house: Vec<String>,
    pub switches: BTreeMap<String, Value>,
    /// `file:line:column` of each switch the variant sets, for errors about it.
    pub switch_at: BTreeMap<String, String>,
    pub tiles: BTreeMap<String, i64>,
    /// `[limits]`: lower limits for this variant, by name (LIMITS), in their units.
    pub limits: BTreeMap<String, u64>,
}

/// The limits a variant may set in `[limits]`, with their units (see `Budget`).
pub const LIMITS: [&str; 4] = ["instructions", "time_ms", "memory_mb", "max_steps"];

/// The kernel's own value of limit `name` (LIMITS), in its unit: the most a variant may set,
/// since `[limits]` lowers limits and a rule file must not lift its own.
fn ceiling(name: &str) -> u64 {
    let kernel = Budget::default();
    match name {
        "instructions" => kernel.instructions,
        "time_ms" => kernel.wall.as_millis() as u64,
        "memory_mb" => (kernel.memory >> 20) as u64,
        _ => kernel.steps,
    }
}

impl Variant {
    /// `limits` with the variant's `[limits]` applied.
    pub fn budget(&self, limits: &Budget) -> Budget {
        let mut b = limits.clone();
        for (k, &v) in &self.limits {
            match k.as_str() {
                "instructions" => b.instructions = v,
                "time_ms" => b.wall = std::time::Duration::from_millis(v),
                "memory_mb" => {
                    b.memory = usize::try_from(v)
                        .unwrap_or(usize::MAX)
                        .saturating_mul(1 << 20)
                }
                _ => b.steps = v,
            }
        }
        b
    }
}

/// What a variant is checked against.
pub struct Schema<'a> {
    pub game: &'a str,
    pub switches: &'a [SwitchDef],
    /// The game's tiles as (code, name): a variant may name a tile either way.
    pub tiles: &'a [(String, String)],
    pub house: &'a [String],
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rfind('\n')
        .map_or(before.len(), |i| before.len() - i - 1)
        + 1;
    (line, col)
}

/// A TOML value as a kernel value.
pub fn from_toml(v: &toml::Value) -> Result<Value, String> {
    Ok(match v {
        toml::Value::String(s) => Value::Str(s.clone()),
        toml::Value::Integer(i) => Value::Int(*i),
        toml::Value::Float(f) if f.is_finite() => Value::Num(*f),
        toml::Value::Float(f) => {
            return Err(format!(
                "{f} is not a switch value (a number must be finite)"
            ));
        }
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Array(items) => {
            Value::List(items.iter().map(from_toml).collect::<Result<_, _>>()?)
        }
        other => return Err(format!("a {} is not a switch value", other.type_str())),
    })
}

/// Parses `name = value` as given on a command line (`--set match_length=5`); a bare word is a
/// string.
pub fn parse_assignment(text: &str) -> Result<(String, Value), String> {
    let (k, v) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}': expected name=value"))?;
    let (k, v) = (k.trim(), v.trim());
    let value = match toml::from_str::<toml::Table>(&format!("v = {v}")) {
        Ok(t) => from_toml(&t["v"])?,
        Err(_) => Value::Str(v.to_string()),
    };
    Ok((k.to_string(), value))
}

impl Variant {
    /// Parses and validates the variant `text` read from `file`.
    pub fn parse(file: &str, name: &str, text: &str, schema: &Schema) -> Result<Variant, String> {
        let at = |span: std::ops::Range<usize>, msg: String| {
            let (l, c) = line_col(text, span.start);
            format!("{file}:{l}:{c}: {msg}")
        };
        let spans = DeTable::parse(text).map_err(|e| {
            let (l, c) = line_col(text, e.span().map_or(0, |s| s.start));
            format!("{file}:{l}:{c}: {}", e.message())
        })?;
        let table: toml::Table = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
        let mut variant = Variant {
            name: name.to_string(),
            ..Variant::default()
        };
        let mut game_seen = false;
        for (key, value) in spans.get_ref().iter() {
            let k: &str = key.get_ref();
            let v = &table[k];
            let bad = |msg: String| at(value.span(), msg);
            match k {
                "game" => {
                    game_seen = true;
                    if v.as_str() != Some(schema.game) {
                        return Err(bad(format!(
                            "this variant must say game = \"{}\"",
                            schema.game
                        )));
                    }
                }
                "title" => {
                    variant.title = v
                        .as_str()
                        .ok_or_else(|| bad("title must be a string".into()))?
                        .to_string()
                }
                "house" => variant.house = house_list(value, schema, &at)?,
                "switches" => {
                    let names = || schema.switches.iter().map(|d| d.name.as_str());
                    let switch_at = &mut variant.switch_at;
                    variant.switches =
                        entries(value, &at, &table["switches"], |name, key, span, v| {
                            let (l, c) = line_col(text, key.start);
                            switch_at.insert(name.to_string(), format!("{file}:{l}:{c}"));
                            let def = schema
                                .switches
                                .iter()
                                .find(|d| d.name == name)
                                .ok_or_else(|| at(key, unknown("switch", name, names())))?;
                            let v = from_toml(v).map_err(|e| at(span.clone(), e))?;
                            def.check(v).map_err(|e| at(span, e))
                        })?;
                }
                "tiles" => {
                    let names = || {
                        schema
                            .tiles
                            .iter()
                            .flat_map(|(c, n)| [c.as_str(), n.as_str()])
                    };
                    // by code, whichever way the file names each tile
                    let mut counts: BTreeMap<String, i64> = BTreeMap::new();
                    entries(value, &at, &table["tiles"], |name, key, span, v| {
                        let Some((code, tile)) =
                            schema.tiles.iter().find(|(c, n)| c == name || n == name)
                        else {
                            return Err(at(key, unknown("tile", name, names())));
                        };
                        let n = match v.as_integer() {
                            Some(n) if n >= 0 => n,
                            _ => {
                                return Err(at(
                                    span,
                                    format!("tile count for '{name}' must be a whole number ≥ 0"),
                                ));
                            }
                        };
                        if counts.insert(code.clone(), n).is_some() {
                            return Err(at(
                                key,
                                format!("tile '{tile}' (code {code}) is counted twice"),
                            ));
                        }
                        Ok(())
                    })?;
                    variant.tiles = counts;
                }
                "limits" => {
                    variant.limits = entries(
                        value,
                        &at,
                        &table["limits"],
                        |name, key, span, v| {
                            if !LIMITS.contains(&name) {
                                return Err(at(key, unknown("limit", name, LIMITS.into_iter())));
                            }
                            let ceiling = ceiling(name);
                            match v.as_integer() {
                                Some(n) if n > 0 && n as u64 <= ceiling => Ok(n as u64),
                                Some(n) if n > 0 => Err(at(
                                    span,
                                    format!(
                                        "limit '{name}' is {n}, above the kernel's {ceiling}: a variant may only lower a limit"
                                    ),
                                )),
                                _ => Err(at(
                                    span,
                                    format!("limit '{name}' must be a whole number > 0"),
                                )),
                            }
                        },
                    )?;
                }
                other => {
                    return Err(at(
                        key.span(),
                        format!(
                            "unknown key '{other}' (keys: game, title, house, switches, tiles, limits)"
                        ),
                    ));
                }
            }
        }
        if !game_seen {
            return Err(format!("{file}:1:1: missing game = \"{}\"", schema.game));
        }
        Ok(variant)
    }
}

fn unknown<'a>(what: &str, name: &str, known: impl Iterator<Item = &'a str>) -> String {
    let known: Vec<&str> = known.collect();
    match did_you_mean(name, &known) {
        Some(near) => format!("unknown {what} '{name}' ({near})"),
        None => format!("unknown {what} '{name}'"),
    }
}

/// `did you mean X or Y?`, naming the known names a typo away from `name`, if any.
pub fn did_you_mean(name: &str, known: &[&str]) -> Option<String> {
    let close: Vec<&str> = known.iter().copied().filter(|k| similar(k, name)).collect();
    (!close.is_empty()).then(|| format!("did you mean {}?", close.join(" or ")))
}

/// What follows "no <thing> 'name'": the known names a typo away, then every known name, as
/// `(did you mean X? seats: X, O)`.
pub fn choices(name: &str, known: &[&str], plural: &str) -> String {
    let all = format!("{plural}: {}", known.join(", "));
    match did_you_mean(name, known) {
        Some(near) => format!("({near} {all})"),
        None => format!("({all})"),
    }
}

/// Whether two names differ by a typo: at most two edits (one for short names).
pub fn similar(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (
        a.to_lowercase().chars().collect(),
        b.to_lowercase().chars().collect(),
    );
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()] <= if a.len().min(b.len()) < 5 { 1 } else { 2 } || {
        let (mut x, mut y) = (a.clone(), b.clone());
        x.sort();
        y.sort();
        x == y
    }
}

type Span = std::ops::Range<usize>;
type At<'a> = dyn Fn(Span, String) -> String + 'a;

fn house_list(value: &Spanned<DeValue>, schema: &Schema, at: &At) -> Result<Vec<String>, String> {
    let Some(items) = value.get_ref().as_array() else {
        return Err(at(
            value.span(),
            "house must be an array of house rule names".into(),
        ));
    };
    let mut out: Vec<String> = Vec::new();
    for item in items {
        let Some(name) = item.get_ref().as_str() else {
            return Err(at(item.span(), "house rule names are strings".into()));
        };
        if !schema.house.iter().any(|h| h == name) {
            return Err(at(
                item.span(),
                unknown("house rule", name, schema.house.iter().map(String::as_str)),
            ));
        }
        if out.iter().any(|h| h == name) {
            return Err(at(
                item.span(),
                format!("house rule '{name}' is listed twice"),
            ));
        }
        out.push(name.to_string());
    }
    Ok(out)
}

fn entries<T>(
    value: &Spanned<DeValue>,
    at: &At,
    values: &toml::Value,
    mut check: impl FnMut(&str, Span, Span, &toml::Value) -> Result<T, String>,
) -> Result<BTreeMap<String, T>, String> {
    let Some(t) = value.get_ref().as_table() else {
        return Err(at(value.span(), "expected a table".into()));
    };
    let mut out = BTreeMap::new();
    for (k, v) in t.iter() {
        let name: &str = k.get_ref();
        out.insert(
            name.to_string(),
            check(name, k.span(), v.span(), &values[name])?,
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema_parts() -> (Vec<SwitchDef>, Vec<(String, String)>, Vec<String>) {
        let switches = vec![
            SwitchDef {
                name: "match_length".into(),
                default: Value::Int(0),
                values: vec![],
                min: Some(0.0),
                max: None,
                help: String::new(),
            },
            SwitchDef {
                name: "scoring".into(),
                default: Value::Str("full".into()),
                values: vec![Value::Str("full".into()), Value::Str("single".into())],
                min: None,
                max: None,
                help: String::new(),
            },
        ];
        (
            switches,
            vec![("a1".into(), "arrow".into())],
            vec!["respin".into()],
        )
    }

    fn parse(text: &str) -> Result<Variant, String> {
        let (s, t, h) = schema_parts();
        let schema = Schema {
            game: "bg",
            switches: &s,
            tiles: &t,
            house: &h,
        };
        Variant::parse("v.toml", "v", text, &schema)
    }

    #[test]
    fn valid_variant() {
        let v = parse("game = \"bg\"\nhouse = [\"respin\"]\n[switches]\nmatch_length = 5\n[tiles]\narrow = 3\n").unwrap();
        assert_eq!(v.switches["match_length"], Value::Int(5));
        assert_eq!(
            v.tiles["a1"], 3,
            "a tile named by its name is counted by its code"
        );
        assert_eq!(v.house, ["respin"]);
        let v = parse("game = \"bg\"\n[tiles]\na1 = 2\n").unwrap();
        assert_eq!(v.tiles["a1"], 2);
        let e = parse("game = \"bg\"\n[tiles]\na1 = 2\narrow = 1\n").unwrap_err();
        assert!(e.contains("v.toml:4") && e.contains("counted twice"), "{e}");
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("game = \"bg\"\n[switches]\nmatch_lenght = 5\n").unwrap_err();
        assert!(
            e.starts_with("v.toml:3:1: unknown switch 'match_lenght'"),
            "{e}"
        );
        assert!(e.contains("did you mean match_length"), "{e}");
        let e = parse("game = \"bg\"\n[switches]\nscoring = \"double\"\n").unwrap_err();
        assert!(e.starts_with("v.toml:3:11:"), "{e}");
        let e = parse("game = \"bg\"\n[switches]\nmatch_length = -1\n").unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = parse("game = \"bg\"\n[switches]\nmatch_length = \"5\"\n").unwrap_err();
        assert!(e.contains("takes an integer, not a string"), "{e}");
        let e = parse("game = \"bg\"\ncolour = 1\n").unwrap_err();
        assert!(e.starts_with("v.toml:2:1: unknown key 'colour'"), "{e}");
        let e = parse("game = \"bg\"\nhouse = [\"nope\"]\n").unwrap_err();
        assert!(e.starts_with("v.toml:2:10: unknown house rule"), "{e}");
        let e = parse("game = \n").unwrap_err();
        assert!(e.starts_with("v.toml:1:"), "{e}");
        let e = parse("title = \"x\"\n").unwrap_err();
        assert!(e.contains("missing game"), "{e}");
    }

    #[test]
    fn assignments() {
        assert_eq!(
            parse_assignment("a=5").unwrap(),
            ("a".into(), Value::Int(5))
        );
        assert_eq!(
            parse_assignment("a = full").unwrap(),
            ("a".into(), Value::Str("full".into()))
        );
        assert_eq!(
            parse_assignment("a=true").unwrap(),
            ("a".into(), Value::Bool(true))
        );
        assert!(parse_assignment("a").is_err());
    }
}
