//! A board as SVG (`show --svg`): the game's `picture` hook draws the position as a table of
//! shapes in the viewer's view, so what a seat may not see never reaches the drawing; the
//! kernel checks every shape and writes the document. The rules file is not trusted: fields
//! are read raw (no metamethod runs), every number, colour, class and text is checked, the
//! size is bounded, and a bad shape is an error naming where it is in the returned table.
//!
//! The table (docs/lua-api.md, *Pictures*):
//! `{ width = w, height = h, title = "…", items = { shape, … } }`, a shape being
//! `{ "rect", x =, y =, w =, h = [, rx =] }`, `{ "circle", x =, y =, r = }`,
//! `{ "line", x1 =, y1 =, x2 =, y2 = }`, `{ "polygon", points = { x1, y1, x2, y2, … } }`,
//! `{ "text", x =, y =, text = [, size =, anchor =, bold =, rotate =] }` (centred on y) or
//! `{ "g", items = { … } [, rotate =, x =, y =] }`, each with optional `fill`, `stroke`,
//! `width` (the stroke's), `opacity`, `class`, `data = { key = value }` (written `data-key`)
//! and `title` (a tooltip).

use std::collections::BTreeMap;
use std::fmt::Write;

use anyhow::{Result, anyhow, bail};
use mlua::{Table, Value as LuaValue};

use super::Game;
use crate::kernel::Seat;
use crate::svg::{esc, num, open};

/// Shapes in one picture, groups included: far more than any board needs.
const MAX_ITEMS: usize = 20_000;
/// Groups within groups.
const MAX_DEPTH: usize = 8;
/// Characters of one text, title or attribute.
const MAX_TEXT: usize = 200;
/// Entries of one shape's `data`.
const MAX_DATA: usize = 16;
/// The largest width, height or coordinate.
const MAX_COORD: f64 = 100_000.0;
/// The document's size in bytes.
const MAX_BYTES: usize = 16 << 20;

/// The board as `seat` sees it, drawn by the `picture` hook in the game's current view.
pub fn svg(game: &Game, seat: Seat) -> Result<String> {
    let value: LuaValue = game.query_hook("picture", seat)?;
    let game_name = &game.rules.game;
    let LuaValue::Table(t) = value else {
        bail!(
            "{game_name}'s picture hook returned {}, not a table of shapes",
            value.type_name()
        );
    };
    write(&t).map_err(|e| anyhow!("{game_name}'s picture: {e}"))
}

fn write(t: &Table) -> Result<String> {
    let size = |key: &str| -> Result<f64> {
        let v = number(t, key, "the picture")?.ok_or_else(|| anyhow!("{key} is missing"))?;
        if v <= 0.0 {
            bail!("{key} {} is not positive", num(v));
        }
        Ok(v)
    };
    let (width, height) = (size("width")?, size("height")?);
    let title = text(t, "title", "the picture")?.unwrap_or_default();
    let mut s = String::new();
    open(&mut s, width, height, &title);
    let mut count = 0;
    items(&mut s, t, "items", 0, &mut count)?;
    s.push_str("</svg>\n");
    Ok(s)
}

/// The shapes of `t.items`, in order; `at` names the list in errors.
fn items(s: &mut String, t: &Table, at: &str, depth: usize, count: &mut usize) -> Result<()> {
    let list = match t.raw_get::<LuaValue>("items")? {
        LuaValue::Nil => return Ok(()),
        LuaValue::Table(list) => list,
        v => bail!("{at} is a {}, not a list of shapes", v.type_name()),
    };
    for i in 1..=list.raw_len() {
        let here = format!("{at}[{i}]");
        *count += 1;
        if *count > MAX_ITEMS {
            bail!("more than {MAX_ITEMS} shapes (at {here})");
        }
        match list.raw_get::<LuaValue>(i)? {
            LuaValue::Table(shape) => self::shape(s, &shape, &here, depth, count)?,
            v => bail!("{here} is a {}, not a shape table", v.type_name()),
        }
        if s.len() > MAX_BYTES {
            bail!(
                "the picture is longer than {} MiB (at {here})",
                MAX_BYTES >> 20
            );
        }
    }
    Ok(())
}

fn shape(s: &mut String, t: &Table, at: &str, depth: usize, count: &mut usize) -> Result<()> {
    let kind = match t.raw_get::<LuaValue>(1)? {
        LuaValue::String(k) if k.as_bytes().len() <= 16 && is_word(&k.to_string_lossy(), "") => {
            k.to_string_lossy()
        }
        _ => bail!(
            "{at}: the first entry is not a shape's kind (rect, circle, line, polygon, text or g)"
        ),
    };
    let at = format!("{at} ({kind})");
    let at = at.as_str();
    let req = |key: &str| -> Result<String> {
        number(t, key, at)?
            .map(num)
            .ok_or_else(|| anyhow!("{at}: {key} is missing"))
    };
    let common = common(t, at)?;
    let tooltip = text(t, "title", at)?
        .map(|x| format!("<title>{}</title>", esc(&x)))
        .unwrap_or_default();
    match kind.as_str() {
        "rect" => {
            let rx = number(t, "rx", at)?.map_or(String::new(), |r| format!(r#" rx="{}""#, num(r)));
            let (x, y, w, h) = (req("x")?, req("y")?, req("w")?, req("h")?);
            leaf(
                s,
                "rect",
                &format!(r#"x="{x}" y="{y}" width="{w}" height="{h}"{rx}"#),
                &common,
                &tooltip,
            );
        }
        "circle" => {
            let (x, y, r) = (req("x")?, req("y")?, req("r")?);
            leaf(
                s,
                "circle",
                &format!(r#"cx="{x}" cy="{y}" r="{r}""#),
                &common,
                &tooltip,
            );
        }
        "line" => {
            let (x1, y1, x2, y2) = (req("x1")?, req("y1")?, req("x2")?, req("y2")?);
            leaf(
                s,
                "line",
                &format!(r#"x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}""#),
                &common,
                &tooltip,
            );
        }
        "polygon" => {
            let points = points(t, at)?;
            leaf(
                s,
                "polygon",
                &format!(r#"points="{points}""#),
                &common,
                &tooltip,
            );
        }
        "text" => {
            let body = text(t, "text", at)?.ok_or_else(|| anyhow!("{at}: text is missing"))?;
            let (x, y) = (req("x")?, req("y")?);
            let mut attrs = format!(r#"x="{x}" y="{y}" dominant-baseline="central""#);
            if let Some(size) = number(t, "size", at)? {
                let _ = write!(attrs, r#" font-size="{}""#, num(size));
            }
            match text(t, "anchor", at)?.as_deref() {
                None => {}
                Some(a @ ("start" | "middle" | "end")) => {
                    let _ = write!(attrs, r#" text-anchor="{a}""#);
                }
                Some(a) => bail!("{at}: anchor '{a}' is not start, middle or end"),
            }
            if flag(t, "bold", at)? {
                attrs.push_str(r#" font-weight="bold""#);
            }
            attrs.push_str(&rotation(t, at, &x, &y)?);
            let _ = writeln!(s, "<text {attrs}{common}>{tooltip}{}</text>", esc(&body));
        }
        "g" => {
            if depth >= MAX_DEPTH {
                bail!("{at}: groups nest deeper than {MAX_DEPTH}");
            }
            let about = |key| number(t, key, at).map(|v| num(v.unwrap_or(0.0)));
            let turn = rotation(t, at, &about("x")?, &about("y")?)?;
            let _ = writeln!(s, "<g{}{common}>{tooltip}", turn);
            items(s, t, &format!("{at}.items"), depth + 1, count)?;
            s.push_str("</g>\n");
        }
        _ => bail!("{at}: unknown shape (rect, circle, line, polygon, text or g)"),
    }
    Ok(())
}

fn leaf(s: &mut String, element: &str, geometry: &str, common: &str, tooltip: &str) {
    if tooltip.is_empty() {
        let _ = writeln!(s, "<{element} {geometry}{common}/>");
    } else {
        let _ = writeln!(s, "<{element} {geometry}{common}>{tooltip}</{element}>");
    }
}

/// ` transform="rotate(d x y)"` when the shape says `rotate = d` (degrees, clockwise).
fn rotation(t: &Table, at: &str, x: &str, y: &str) -> Result<String> {
    Ok(match number(t, "rotate", at)? {
        Some(d) if d != 0.0 => format!(r#" transform="rotate({} {x} {y})""#, num(d)),
        _ => String::new(),
    })
}

/// The attributes every shape may carry, in a fixed order: class, data-*, fill, stroke,
/// stroke-width, opacity.
fn common(t: &Table, at: &str) -> Result<String> {
    let mut a = String::new();
    if let Some(class) = text(t, "class", at)? {
        if class.split(' ').any(|c| !is_word(c, "-_")) {
            bail!("{at}: class '{class}' is not words of letters, digits, - and _");
        }
        let _ = write!(a, r#" class="{class}""#);
    }
    for (key, value) in data(t, at)? {
        let _ = write!(a, r#" data-{key}="{}""#, esc(&value));
    }
    for (key, attr) in [("fill", "fill"), ("stroke", "stroke")] {
        if let Some(c) = text(t, key, at)? {
            if !is_colour(&c) {
                bail!("{at}: {key} '{c}' is not a colour (a name, #rgb, #rrggbb or none)");
            }
            let _ = write!(a, r#" {attr}="{c}""#);
        }
    }
    if let Some(w) = number(t, "width", at)? {
        let _ = write!(a, r#" stroke-width="{}""#, num(w));
    }
    if let Some(o) = number(t, "opacity", at)? {
        if !(0.0..=1.0).contains(&o) {
            bail!("{at}: opacity {} is not between 0 and 1", num(o));
        }
        let _ = write!(a, r#" opacity="{}""#, num(o));
    }
    Ok(a)
}

/// `data = { key = value }` sorted by key (the table's own order is not the same from run to
/// run).
fn data(t: &Table, at: &str) -> Result<BTreeMap<String, String>> {
    let table = match t.raw_get::<LuaValue>("data")? {
        LuaValue::Nil => return Ok(BTreeMap::new()),
        LuaValue::Table(d) => d,
        v => bail!("{at}: data is a {}, not a table", v.type_name()),
    };
    let mut out = BTreeMap::new();
    for pair in table.pairs::<LuaValue, LuaValue>() {
        let (k, v) = pair?;
        let key = match &k {
            LuaValue::String(k) if is_word(&k.to_string_lossy(), "-") => k.to_string_lossy(),
            _ => bail!("{at}: a data key is not a word of letters, digits and -"),
        };
        let value = match v {
            LuaValue::String(v) => v.to_string_lossy(),
            LuaValue::Integer(i) => i.to_string(),
            LuaValue::Number(n) if n.is_finite() => num(n),
            LuaValue::Boolean(b) => b.to_string(),
            v => bail!("{at}: data.{key} is a {}", v.type_name()),
        };
        checked_text(&value, &format!("data.{key}"), at)?;
        out.insert(key, value);
        if out.len() > MAX_DATA {
            bail!("{at}: more than {MAX_DATA} data entries");
        }
    }
    Ok(out)
}

/// `points = { x1, y1, x2, y2, … }` as the polygon's point list.
fn points(t: &Table, at: &str) -> Result<String> {
    let LuaValue::Table(list) = t.raw_get::<LuaValue>("points")? else {
        bail!("{at}: points is missing (a list x1, y1, x2, y2, …)");
    };
    let n = list.raw_len();
    if n < 6 || n % 2 == 1 || n > 2_000 {
        bail!("{at}: points has {n} numbers, not an even 6 to 2000");
    }
    let mut out = Vec::with_capacity(n / 2);
    for i in (1..=n).step_by(2) {
        let coord =
            |j: usize| coordinate(list.raw_get::<LuaValue>(j)?, &format!("points[{j}]"), at);
        out.push(format!("{},{}", num(coord(i)?), num(coord(i + 1)?)));
    }
    Ok(out.join(" "))
}

fn number(t: &Table, key: &str, at: &str) -> Result<Option<f64>> {
    match t.raw_get::<LuaValue>(key)? {
        LuaValue::Nil => Ok(None),
        v => coordinate(v, key, at).map(Some),
    }
}

fn coordinate(v: LuaValue, key: &str, at: &str) -> Result<f64> {
    let n = match v {
        LuaValue::Integer(i) => i as f64,
        LuaValue::Number(n) => n,
        v => bail!("{at}: {key} is a {}, not a number", v.type_name()),
    };
    if !n.is_finite() || n.abs() > MAX_COORD {
        bail!("{at}: {key} {n} is not a number within ±{MAX_COORD}");
    }
    Ok(n)
}

fn flag(t: &Table, key: &str, at: &str) -> Result<bool> {
    match t.raw_get::<LuaValue>(key)? {
        LuaValue::Nil => Ok(false),
        LuaValue::Boolean(b) => Ok(b),
        v => bail!("{at}: {key} is a {}, not true or false", v.type_name()),
    }
}

fn text(t: &Table, key: &str, at: &str) -> Result<Option<String>> {
    let value = match t.raw_get::<LuaValue>(key)? {
        LuaValue::Nil => return Ok(None),
        LuaValue::String(v) => v.to_string_lossy(),
        LuaValue::Integer(i) => i.to_string(),
        v => bail!("{at}: {key} is a {}, not text", v.type_name()),
    };
    checked_text(&value, key, at)?;
    Ok(Some(value))
}

/// Text XML can carry on one line, and not too much of it.
fn checked_text(value: &str, key: &str, at: &str) -> Result<()> {
    if value.chars().count() > MAX_TEXT {
        bail!("{at}: {key} is longer than {MAX_TEXT} characters");
    }
    if value.chars().any(char::is_control) {
        bail!("{at}: {key} holds a control character");
    }
    Ok(())
}

/// Letters, digits and the `extra` characters, at least one.
fn is_word(s: &str, extra: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
}

/// A colour name (`navy`), `none`, or `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`.
fn is_colour(c: &str) -> bool {
    match c.strip_prefix('#') {
        Some(hex) => {
            matches!(hex.len(), 3 | 4 | 6 | 8) && hex.chars().all(|c| c.is_ascii_hexdigit())
        }
        None => !c.is_empty() && c.len() <= 24 && c.chars().all(|c| c.is_ascii_lowercase()),
    }
}
