//! `help tile <name>` and `help rule <name>`: what a tile's or a house rule's file says of
//! itself (its header comment), the hooks it implements and the sections of the game's spec it
//! follows (the `§` references of its header). The game played now is searched first, then
//! every other game of the rules folder.

use std::path::Path;

use anyhow::{Result, bail};
use mlua::{Table, Value as LuaValue};

use crate::script::ruleset::rules::games;
use crate::script::{LoadOptions, Rules};

/// `help tile <name>`: a tile by name (`ice`) or by its code in the position format (`ic`).
pub fn tile(rules_dir: &Path, current: Option<&Rules>, name: &str) -> Result<String> {
    let found = search(rules_dir, current, "tiles", |rules| {
        let tile = rules
            .tiles
            .iter()
            .find(|t| t.name == name || t.code == name)?;
        let prefix = format!("{}.", tile.code);
        let hooks = rules
            .stacks
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .map(String::from)
            .collect();
        let title = format!(
            "tile {} ({}, code {}, {} in the deck, glyph {})",
            tile.name, rules.game, tile.code, tile.count, tile.glyph
        );
        Some((
            title,
            format!("{}/tiles/{}.lua", rules.game, tile.name),
            hooks,
        ))
    })?;
    match found {
        Some(text) => Ok(text),
        None => bail!(
            "help tile: no game in {} has a tile named or coded '{name}'",
            rules_dir.display()
        ),
    }
}

/// `help rule <name>`: a house rule of a game.
pub fn rule(rules_dir: &Path, current: Option<&Rules>, name: &str) -> Result<String> {
    let found = search(rules_dir, current, "house", |rules| {
        if !rules.house_available.iter().any(|h| h == name) {
            return None;
        }
        let rel = format!("{}/house/{name}.lua", rules.game);
        let hooks = match rules.host.load_file(&rel) {
            Ok(LuaValue::Table(t)) => hook_names(&t),
            _ => Vec::new(),
        };
        Some((format!("house rule {name} ({})", rules.game), rel, hooks))
    })?;
    match found {
        Some(text) => Ok(text),
        None => bail!(
            "help rule: no game in {} has a house rule '{name}'",
            rules_dir.display()
        ),
    }
}

/// The names of a rule file's `hooks`, sorted.
fn hook_names(t: &Table) -> Vec<String> {
    let mut names: Vec<String> = t
        .get::<Option<Table>>("hooks")
        .ok()
        .flatten()
        .map(|h| {
            h.pairs::<String, LuaValue>()
                .filter_map(|p| p.ok())
                .map(|p| p.0)
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// What a file's entry says: (title, file under the rules folder, hooks).
type Found = (String, String, Vec<String>);

/// The first game (the current one, then the others with a `folder`) where `find` finds the
/// name, described from its file.
fn search(
    rules_dir: &Path,
    current: Option<&Rules>,
    folder: &str,
    find: impl Fn(&Rules) -> Option<Found>,
) -> Result<Option<String>> {
    let in_current = current.and_then(&find);
    let found = match in_current {
        Some(f) => Some(f),
        None => {
            let mut found = None;
            for game in games(rules_dir) {
                if current.is_some_and(|r| r.game == game)
                    || !rules_dir.join(&game).join(folder).is_dir()
                {
                    continue;
                }
                let rules = Rules::load(rules_dir, &game, &LoadOptions::default())?;
                if let Some(f) = find(&rules) {
                    found = Some(f);
                    break;
                }
            }
            found
        }
    };
    let Some((title, rel, hooks)) = found else {
        return Ok(None);
    };
    let text = crate::files::read_text(&rules_dir.join(&rel), crate::files::MAX_RULE_FILE, &rel)
        .map_err(anyhow::Error::msg)?;
    let header = header(&text);
    let sections = sections(&header);
    let mut out = format!("{title}: rules/{rel}\n");
    for line in header.lines() {
        out += &format!("  {line}\n");
    }
    out += &format!(
        "hooks: {}\n",
        if hooks.is_empty() {
            "none".into()
        } else {
            hooks.join(", ")
        }
    );
    let game = rel.split('/').next().unwrap_or_default();
    out += &match sections.is_empty() {
        true => "follows: no section of the spec named in its header".to_string(),
        false => format!("follows: {} of the {game} spec", sections.join(", ")),
    };
    Ok(Some(out))
}

/// The comment lines a Lua file starts with, without their `--`.
fn header(text: &str) -> String {
    text.lines()
        .map_while(|l| l.strip_prefix("--"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The spec sections a text names (`§4.4`, `§7.1`), in order, once each.
fn sections(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in text.split('§').skip(1) {
        let number: String = part
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let number = number.trim_end_matches('.');
        if !number.is_empty() && !out.iter().any(|s| s[2..] == *number) {
            out.push(format!("§{number}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_sections_come_from_the_leading_comment() {
        let text = "-- Ice (§4.4): repeat the last motion.\n-- See §4.4 and §7.1.\nlocal x = 1\n-- not this §9\n";
        assert_eq!(
            header(text),
            "Ice (§4.4): repeat the last motion.\nSee §4.4 and §7.1."
        );
        assert_eq!(sections(&header(text)), ["§4.4", "§7.1"]);
    }
}
