//! The API reference for rule authors, from one doc source: `reference.toml` (what the kernel
//! gives rule files) and each game's `rules/<game>/hooks.toml` (the hooks it declares). From
//! it come `help lua [<name>]` in the REPL, the Lua Language Server definitions
//! (`rules/types/tortuga.lua`) and `docs/lua-reference.md`; `tests/suite/reference.rs` keeps the
//! generated files current and fails on anything exposed at run time that it does not document.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, anyhow, bail};
use mlua::{Lua, Table, Value as LuaValue};
use serde::Deserialize;

use super::rules::Rules;
use crate::script::handle::raw;

/// The kernel's part of the doc source.
const KERNEL: &str = include_str!("reference.toml");

/// Where the generated files live, relative to the repository root.
pub const LUALS_FILE: &str = "rules/types/tortuga.lua";
pub const MARKDOWN_FILE: &str = "docs/lua-reference.md";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KernelSource {
    alias: BTreeMap<String, String>,
    section: Vec<Section>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    pub title: String,
    #[serde(default)]
    pub intro: String,
    /// Standard library functions as the sandbox changes them (LuaLS knows their types).
    #[serde(default)]
    pub standard: bool,
    /// The hooks the kernel calls (entries of the game table's `hooks`).
    #[serde(default)]
    pub hooks: bool,
    pub entry: Vec<Entry>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub sig: String,
    pub doc: String,
}

/// A game's `hooks.toml`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct GameHooks {
    /// The game's own hooks (entries of its `hooks` besides the kernel's).
    #[serde(default)]
    pub hook: Vec<Entry>,
    /// The hooks a tile file may define (the game table's `tile_hooks`).
    #[serde(default)]
    pub tile_hook: Vec<Entry>,
}

/// One parameter or result of a signature: `name?: type`, `...: type`, or a bare type.
#[derive(Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: String,
    pub optional: bool,
}

/// A parsed `sig`: a function (with parameters and results) or a value of a type.
#[derive(Debug)]
pub struct Sig {
    pub name: String,
    pub params: Option<Vec<Param>>,
    pub returns: Vec<Param>,
    /// The type of a value (`tiles: table<…>`).
    pub ty: Option<String>,
}

/// `text` split at the commas outside brackets.
fn split_top(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '(' | '<' | '{' | '[' => depth += 1,
            ')' | '>' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = text[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// `name?: type`, `...: type` or (`named` false and no name) a bare type.
fn param(text: &str, named: bool) -> Result<Param, String> {
    let ident = |s: &str| {
        s == "..."
            || s.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    if let Some((name, ty)) = text.split_once(": ") {
        let (bare, optional) = match name.strip_suffix('?') {
            Some(n) => (n, true),
            None => (name, false),
        };
        if ident(bare) {
            return Ok(Param {
                name: bare.into(),
                ty: ty.trim().into(),
                optional,
            });
        }
    }
    if named {
        return Err(format!("'{text}' is not `name: type`"));
    }
    Ok(Param {
        name: String::new(),
        ty: text.into(),
        optional: false,
    })
}

impl Sig {
    pub fn parse(sig: &str) -> Result<Sig, String> {
        let end = sig
            .find(|c: char| !(c.is_alphanumeric() || "_.:".contains(c)))
            .unwrap_or(sig.len());
        let name = sig[..end].trim_end_matches(':').to_string();
        let rest = &sig[name.len()..];
        if name.is_empty() {
            return Err(format!("'{sig}': no name"));
        }
        if let Some(ty) = rest.strip_prefix(": ") {
            return Ok(Sig {
                name,
                params: None,
                returns: Vec::new(),
                ty: Some(ty.trim().into()),
            });
        }
        let Some(inner) = rest.strip_prefix('(') else {
            return Err(format!(
                "'{sig}': `name(params) -> results` or `name: type`"
            ));
        };
        let mut depth = 1;
        let close = inner
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map(|(i, _)| i)
            .ok_or_else(|| format!("'{sig}': unclosed '('"))?;
        let params = split_top(&inner[..close])
            .into_iter()
            .map(|p| param(p, true))
            .collect::<Result<Vec<_>, _>>()?;
        let tail = inner[close + 1..].trim();
        let returns = match tail.strip_prefix("->") {
            Some(r) => split_top(r)
                .into_iter()
                .map(|p| param(p, false))
                .collect::<Result<Vec<_>, _>>()?,
            None if tail.is_empty() => Vec::new(),
            None => return Err(format!("'{sig}': results follow `->`")),
        };
        Ok(Sig {
            name,
            params: Some(params),
            returns,
            ty: None,
        })
    }

    /// The name a user types: `G:place` is `place`, `hook.setup` is `setup`.
    pub fn short(&self) -> &str {
        self.name
            .strip_prefix("G:")
            .or_else(|| self.name.strip_prefix("hook."))
            .unwrap_or(&self.name)
    }
}

/// Where an entry belongs, for what is generated from it.
#[derive(Clone, Copy)]
enum Place<'a> {
    Kernel(&'a Section),
    GameHook(&'a str),
    TileHook(&'a str),
}

/// The whole reference: the kernel's and, for a rules folder, every game's hooks.
pub struct Reference {
    aliases: BTreeMap<String, String>,
    pub sections: Vec<Section>,
    /// (game, its hooks), by game name.
    pub games: Vec<(String, GameHooks)>,
}

impl Reference {
    /// The kernel's reference and the hooks of every game of `rules_dir` that documents them.
    pub fn load(rules_dir: &Path) -> Result<Reference> {
        let source: KernelSource =
            toml::from_str(KERNEL).context("src/script/ruleset/reference.toml")?;
        let mut games = Vec::new();
        for game in super::rules::games(rules_dir) {
            let path = rules_dir.join(&game).join("hooks.toml");
            if path.is_file() {
                let name = format!("{game}/hooks.toml");
                let text = crate::files::read_text(&path, crate::files::MAX_RULE_FILE, &name)
                    .map_err(|e| anyhow!(e))?;
                let hooks: GameHooks =
                    toml::from_str(&text).map_err(|e| anyhow!("{name}: {}", e.message()))?;
                games.push((game, hooks));
            }
        }
        let reference = Reference {
            aliases: source.alias,
            sections: source.section,
            games,
        };
        for (entry, place) in reference.entries() {
            Sig::parse(&entry.sig).map_err(|e| anyhow!("{}: {e}", reference.file(place)))?;
        }
        Ok(reference)
    }

    /// The file an entry comes from, for errors.
    fn file(&self, place: Place) -> String {
        match place {
            Place::Kernel(_) => "src/script/ruleset/reference.toml".into(),
            Place::GameHook(g) | Place::TileHook(g) => format!("rules/{g}/hooks.toml"),
        }
    }

    fn entries(&self) -> impl Iterator<Item = (&Entry, Place<'_>)> {
        let kernel = self
            .sections
            .iter()
            .flat_map(|s| s.entry.iter().map(move |e| (e, Place::Kernel(s))));
        let games = self.games.iter().flat_map(|(g, h)| {
            let hooks = h.hook.iter().map(move |e| (e, Place::GameHook(g)));
            hooks.chain(h.tile_hook.iter().map(move |e| (e, Place::TileHook(g))))
        });
        kernel.chain(games)
    }

    /// Every entry with its parsed signature (parsed once at load, so this cannot fail).
    fn parsed(&self) -> impl Iterator<Item = (Sig, &Entry, Place<'_>)> {
        self.entries()
            .filter_map(|(e, p)| Sig::parse(&e.sig).ok().map(|s| (s, e, p)))
    }

    /// The names the kernel documents (`G:place`, `json.encode`, `print`), hooks left out.
    pub fn kernel_names(&self) -> Vec<String> {
        self.parsed()
            .filter(|(_, _, p)| matches!(p, Place::Kernel(s) if !s.hooks))
            .map(|(s, _, _)| s.name)
            .collect()
    }

    /// The hooks documented for `game`: the kernel's, the game's own and its tile hooks.
    pub fn hook_names(&self, game: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
        let (mut kernel, mut own, mut tile) = (Vec::new(), Vec::new(), Vec::new());
        for (s, _, p) in self.parsed() {
            match p {
                Place::Kernel(sec) if sec.hooks => kernel.push(s.name),
                Place::GameHook(g) if g == game => own.push(s.name),
                Place::TileHook(g) if g == game => tile.push(s.name),
                _ => {}
            }
        }
        (kernel, own, tile)
    }

    /// The name of the first parameter of `game`'s own hook `hook`, as its `sig` writes it.
    pub fn first_param(&self, game: &str, hook: &str) -> Option<String> {
        self.parsed()
            .find(|(s, _, p)| matches!(p, Place::GameHook(g) if *g == game) && s.name == hook)
            .and_then(|(s, _, _)| s.params?.into_iter().next())
            .map(|p| p.name)
    }

    /// What `rules` exposes or declares that this reference does not document, and what the
    /// reference documents of its game that it does not declare, one line each: the
    /// reference is complete for a game when this is empty.
    pub fn gaps(&self, rules: &Rules) -> Result<Vec<String>> {
        let game = rules.game.as_str();
        let kernel = self.kernel_names();
        let (kernel_hooks, own, tile) = self.hook_names(game);
        let mut out: Vec<String> = exposed(rules)?
            .into_iter()
            .filter(|name| !kernel.contains(name))
            .map(|name| {
                format!(
                    "{name}: exposed to {game}'s rules, not in src/script/ruleset/reference.toml"
                )
            })
            .collect();
        let declared = rules.game_hooks();
        for hook in &declared {
            if !kernel_hooks.iter().chain(&own).any(|h| h == hook) {
                out.push(format!(
                    "{hook}: a hook of {game}, not in rules/{game}/hooks.toml"
                ));
            }
        }
        for hook in &rules.tile_hooks {
            if !tile.contains(hook) {
                out.push(format!(
                    "{hook}: a tile hook of {game}, not in rules/{game}/hooks.toml"
                ));
            }
        }
        for hook in own.iter().filter(|h| !declared.contains(&h.as_str())) {
            out.push(format!(
                "{hook}: in rules/{game}/hooks.toml, not a hook {game} declares"
            ));
        }
        for hook in tile.iter().filter(|h| !rules.tile_hooks.contains(h)) {
            out.push(format!(
                "{hook}: in rules/{game}/hooks.toml, not in {game}'s tile_hooks"
            ));
        }
        Ok(out)
    }

    /// `help lua <name>`: every entry of that name (`place`, `G:place`, `json.encode`, a hook).
    pub fn lookup(&self, name: &str) -> Result<String> {
        let found: Vec<String> = self
            .parsed()
            .filter(|(s, _, _)| s.name == name || s.short() == name)
            .map(|(_, e, p)| {
                let what = match p {
                    Place::Kernel(sec) => sec.title.clone(),
                    Place::GameHook(g) => format!("a hook of {g}"),
                    Place::TileHook(g) => format!("a tile hook of {g}"),
                };
                let shown = match p {
                    Place::Kernel(sec) if sec.hooks => format!("hook.{}", e.sig),
                    _ => e.sig.clone(),
                };
                format!(
                    "{shown}\n{}  ({what})",
                    wrapped(&format!("  {}", e.doc), "  ")
                )
            })
            .collect();
        if found.is_empty() {
            bail!("help lua: nothing is called '{name}' (`help lua` lists every name)");
        }
        Ok(found.join("\n\n"))
    }

    /// `help lua`: every name, by section.
    pub fn listing(&self) -> String {
        let mut out =
            String::from("The Lua API (`help lua <name>` for one; docs/lua-reference.md):\n");
        for section in &self.sections {
            let names: Vec<String> = section
                .entry
                .iter()
                .filter_map(|e| Sig::parse(&e.sig).ok())
                .map(|s| s.name)
                .collect();
            out += &wrapped(&format!("  {}: {}", section.title, names.join(" ")), "    ");
        }
        for (game, hooks) in &self.games {
            for (what, entries) in [("hooks", &hooks.hook), ("tile hooks", &hooks.tile_hook)] {
                if !entries.is_empty() {
                    let names: Vec<String> = entries
                        .iter()
                        .filter_map(|e| Sig::parse(&e.sig).ok())
                        .map(|s| s.name)
                        .collect();
                    out += &wrapped(&format!("  {game} {what}: {}", names.join(" ")), "    ");
                }
            }
        }
        out.trim_end().to_string()
    }

    /// The calls of `G`, one line per section (`lua G`).
    pub fn g_listing(&self) -> String {
        let mut out = String::from(
            "G, the game (read-only at the prompt); `help lua <call>` explains each:\n",
        );
        for section in &self.sections {
            let calls: Vec<String> = section
                .entry
                .iter()
                .filter_map(|e| Sig::parse(&e.sig).ok())
                .filter_map(|s| s.name.strip_prefix("G:").map(String::from))
                .collect();
            if !calls.is_empty() {
                out += &wrapped(&format!("  {}: {}", section.title, calls.join(" ")), "    ");
            }
        }
        out.trim_end().to_string()
    }

    /// The Lua Language Server definitions (`---@meta`).
    pub fn luals(&self) -> String {
        let mut out = String::from(
            "---@meta\n-- The Tortuga API for rule files, for the Lua Language Server (.luarc.json loads it).\n-- Generated from src/script/ruleset/reference.toml and rules/<game>/hooks.toml: do not edit\n-- (`TORTUGA_BLESS=1 cargo test --release --test suite reference` writes it again).\n\n",
        );
        for (name, ty) in &self.aliases {
            out += &format!("---@alias {name} {ty}\n");
        }
        out += "\n---The game state handle every hook receives: each method is one kernel operation.\n---@class G\nlocal G = {}\n";
        let tables: Vec<String> = self
            .parsed()
            .filter_map(|(s, _, _)| s.name.split_once('.').map(|(t, _)| t.to_string()))
            .collect();
        for section in self.sections.iter().filter(|s| !s.standard && !s.hooks) {
            out += &format!("\n-- {}\n", section.title);
            for e in &section.entry {
                let Ok(sig) = Sig::parse(&e.sig) else {
                    continue;
                };
                out += &format!("\n{}", doc_lines(&e.doc));
                match &sig.ty {
                    Some(_) if sig.name == "hook" => {
                        out += "---@class hook\n---@field [string] function\nhook = {}\n";
                    }
                    Some(_) if tables.contains(&sig.name) => {
                        out += &format!("---@class {0}\n{0} = {{}}\n", sig.name);
                    }
                    Some(ty) => out += &format!("---@type {ty}\n{} = {{}}\n", sig.name),
                    None => out += &function(&sig, &format!("function {}", sig.name)),
                }
            }
        }
        out += "\n-- Hooks (entries of the game table's `hooks`, called through `hook`)\n";
        for (sig, e, place) in self.parsed() {
            let game = match place {
                Place::Kernel(s) if s.hooks => None,
                Place::GameHook(g) => Some(g),
                _ => continue,
            };
            let doc = match game {
                Some(g) => format!("{} ({g})", e.doc),
                None => e.doc.clone(),
            };
            out += &format!("\n{}", doc_lines(&doc));
            let plain = sig.name.chars().all(|c| c.is_alphanumeric() || c == '_');
            out += &if plain {
                function(&sig, &format!("function hook.{}", sig.name))
            } else {
                function(&sig, &format!("hook[\"{}\"] = function", sig.name))
            };
        }
        for (game, hooks) in &self.games {
            if hooks.tile_hook.is_empty() {
                continue;
            }
            out += &format!(
                "\n---The hooks a {game} tile file may define.\n---@class {game}.tile_hooks\n"
            );
            for e in &hooks.tile_hook {
                let Ok(sig) = Sig::parse(&e.sig) else {
                    continue;
                };
                out += &doc_lines(&e.doc);
                out += &format!("---@field {}? {}\n", sig.name, fun_type(&sig));
            }
        }
        out
    }

    /// docs/lua-reference.md.
    pub fn markdown(&self) -> String {
        let mut out = String::from(
            "# Lua API reference\n\n<!-- Generated from src/script/ruleset/reference.toml and rules/<game>/hooks.toml: do not edit\n(`TORTUGA_BLESS=1 cargo test --release --test suite reference` writes it again). -->\n\nEvery function and table the kernel gives rule files, and every hook each game declares.\ndocs/lua-api.md explains how they fit together; `help lua <name>` in the REPL prints one\nentry, and `rules/types/tortuga.lua` gives them to an editor.\n\n## Types\n\n",
        );
        for (name, ty) in &self.aliases {
            out += &format!("- `{name}` = `{ty}`\n");
        }
        for section in &self.sections {
            out += &format!("\n## {}\n\n", section.title);
            if !section.intro.is_empty() {
                out += &format!("{}\n\n", section.intro);
            }
            for e in &section.entry {
                out += &format!("- `{}`: {}\n", e.sig, e.doc);
            }
        }
        for (game, hooks) in &self.games {
            for (what, entries) in [("hooks", &hooks.hook), ("tile hooks", &hooks.tile_hook)] {
                if !entries.is_empty() {
                    out += &format!("\n## {} {what}\n\n", title_case(game));
                    for e in entries {
                        out += &format!("- `{}`: {}\n", e.sig, e.doc);
                    }
                }
            }
        }
        out
    }
}

fn title_case(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// `---`-comment lines of a doc.
fn doc_lines(doc: &str) -> String {
    format!("---{doc}\n")
}

/// A function's `---@param`/`---@return` lines and its empty definition, `head(params) end`
/// (`head` is `function name`, or `t["name"] = function` for a name that is not an identifier).
fn function(sig: &Sig, head: &str) -> String {
    let mut out = String::new();
    let params = sig.params.as_deref().unwrap_or_default();
    for p in params {
        let opt = if p.optional { "?" } else { "" };
        out += &format!("---@param {}{opt} {}\n", p.name, p.ty);
    }
    for r in &sig.returns {
        out += &format!("---@return {}{}\n", r.ty, opt_name(&r.name));
    }
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    out + &format!("{head}({}) end\n", names.join(", "))
}

fn opt_name(name: &str) -> String {
    if name.is_empty() {
        String::new()
    } else {
        format!(" {name}")
    }
}

/// A function's LuaLS type, `fun(a: T): R`.
fn fun_type(sig: &Sig) -> String {
    let params: Vec<String> = sig
        .params
        .as_deref()
        .unwrap_or_default()
        .iter()
        .map(|p| format!("{}{}: {}", p.name, if p.optional { "?" } else { "" }, p.ty))
        .collect();
    let returns: Vec<&str> = sig.returns.iter().map(|r| r.ty.as_str()).collect();
    let mut out = format!("fun({})", params.join(", "));
    if !returns.is_empty() {
        out += &format!(": {}", returns.join(", "));
    }
    out
}

/// `text` wrapped at word boundaries to 100 columns, continuation lines indented by `indent`.
pub fn wrapped(text: &str, indent: &str) -> String {
    let mut out = String::new();
    let body = text.trim_start();
    let mut line = text[..text.len() - body.len()].to_string();
    let mut fresh = true;
    for word in body.split(' ') {
        if !fresh && line.chars().count() + 1 + word.chars().count() > 100 {
            out += &line;
            out.push('\n');
            line = indent.to_string();
        } else if !fresh {
            line.push(' ');
        }
        line += word;
        fresh = false;
    }
    out + &line + "\n"
}

/// What a loaded ruleset really exposes to Lua besides the standard library, by name: the
/// methods of `G`, the globals a plain Lua state does not have (and the functions in such a
/// table, `json.encode`), and the standard functions the sandbox replaced (`print`,
/// `string.format`). The members of `hook` are the game's hooks (see [`Rules::game_hooks`]).
pub fn exposed(rules: &Rules) -> Result<Vec<String>> {
    let lua = &rules.host.lua;
    let mut out = Vec::new();
    let g = raw::handle(
        lua,
        crate::kernel::State::new(vec!["A".into()], 0, Default::default()),
    )?;
    let methods: Table = g.metatable()?.get("__index")?;
    for pair in methods.pairs::<String, LuaValue>() {
        out.push(format!("G:{}", pair?.0));
    }
    let plain = Lua::new_with(
        mlua::StdLib::TABLE
            | mlua::StdLib::STRING
            | mlua::StdLib::MATH
            | mlua::StdLib::UTF8
            | mlua::StdLib::COROUTINE,
        mlua::LuaOptions::new(),
    )?;
    // `pairs` honours the read-only views' `__pairs`, which a raw walk would not see through.
    let keys: mlua::Function = lua
        .load("local t = ...; local out = {}; for k, v in pairs(t) do out[#out + 1] = k end; return out")
        .into_function()?;
    let names = |t: &Table| -> Result<Vec<String>> {
        let mut v: Vec<String> = keys.call::<Vec<String>>(t.clone())?;
        v.sort();
        Ok(v)
    };
    let ours = lua.globals();
    let theirs = plain.globals();
    for name in names(&ours)? {
        let mine: LuaValue = ours.get(name.as_str())?;
        let std: LuaValue = theirs.get(name.as_str())?;
        match (&mine, &std) {
            (LuaValue::Table(t), LuaValue::Table(s)) if name != "_G" => {
                for k in names(t)? {
                    let a: LuaValue = t.get(k.as_str())?;
                    if a.is_function()
                        && a.to_pointer() != s.get::<LuaValue>(k.as_str())?.to_pointer()
                    {
                        out.push(format!("{name}.{k}"));
                    }
                }
            }
            (_, LuaValue::Nil) => {
                out.push(name.clone());
                if let LuaValue::Table(t) = &mine
                    && name != "hook"
                {
                    for k in names(t)? {
                        if t.get::<LuaValue>(k.as_str())?.is_function() {
                            out.push(format!("{name}.{k}"));
                        }
                    }
                }
            }
            (a, b) if a.is_function() && a.to_pointer() != b.to_pointer() => out.push(name),
            (LuaValue::Table(_), _) => out.push(name),
            _ => {}
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_parse_into_params_and_results() {
        let s =
            Sig::parse("G:mask(track: string, n?: integer, ...: integer) -> integer, ...: integer")
                .unwrap();
        assert_eq!(s.name, "G:mask");
        assert_eq!(s.short(), "mask");
        let p = s.params.unwrap();
        assert_eq!(p.len(), 3);
        assert!(p[1].optional && p[1].name == "n");
        assert_eq!(p[2].name, "...");
        assert_eq!(s.returns[1].name, "...");
        let v = Sig::parse("tiles: table<string, {name: string, count: integer}>").unwrap();
        assert_eq!(
            v.ty.as_deref(),
            Some("table<string, {name: string, count: integer}>")
        );
        let f = Sig::parse("G:advance(skip?: fun(u: Unit): boolean) -> Unit?").unwrap();
        assert_eq!(f.params.unwrap()[0].ty, "fun(u: Unit): boolean");
        assert!(
            Sig::parse("G:x(a integer)")
                .unwrap_err()
                .contains("not `name: type`")
        );
        assert!(
            Sig::parse("G:x(a: integer) integer")
                .unwrap_err()
                .contains("->")
        );
    }
}
