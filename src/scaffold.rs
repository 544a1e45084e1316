//! `tortuga new-game`, `new-tile` and `new-house`: the files of a new game, tile or house rule,
//! with headers, hooks, a variant that plays it and a Lua test (`tests/lua/<game>/`, beside the
//! rules folder), ready to run. The templates are in `src/scaffold/`; a game may give its own
//! variant for new tiles (`rules/<game>/templates/tile_variant.toml`: Jackal deals tiles from
//! a custom pack). Every path is checked before anything is written, and a write that fails
//! takes back the files written before it, so a refused or failed command leaves nothing.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};

use crate::script::ruleset::reference::Reference;
use crate::script::ruleset::rules::games;
use crate::script::{LoadOptions, Rules};

const GAME: &str = include_str!("scaffold/game.lua");
const GAME_HOOKS: &str = include_str!("scaffold/hooks.toml");
const GAME_VARIANT: &str = include_str!("scaffold/game_variant.toml");
const GAME_TEST: &str = include_str!("scaffold/game_test.lua");
const TILE: &str = include_str!("scaffold/tile.lua");
const TILE_VARIANT: &str = include_str!("scaffold/tile_variant.toml");
const TILE_TEST: &str = include_str!("scaffold/tile_test.lua");
const HOUSE: &str = include_str!("scaffold/house.lua");
const HOUSE_VARIANT: &str = include_str!("scaffold/house_variant.toml");
const HOUSE_TEST: &str = include_str!("scaffold/house_test.lua");

/// A new game `name`: its game table, hooks doc, standard variant and test.
pub fn new_game(rules_dir: &Path, name: &str) -> Result<String> {
    let what = "new-game";
    plain_name(what, "game", name)?;
    let fill = Fill::new(name, name, "", "");
    let dir = rules_dir.join(name);
    if dir.exists() {
        bail!("{what}: {} already exists", dir.display());
    }
    write_all(
        what,
        &[
            (dir.join("game.lua"), fill.apply(GAME)),
            (dir.join("hooks.toml"), fill.apply(GAME_HOOKS)),
            (dir.join("variants/standard.toml"), fill.apply(GAME_VARIANT)),
            (test_file(rules_dir, name, "game"), fill.apply(GAME_TEST)),
        ],
        &format!("tortuga --game {name}"),
    )
}

/// A new tile `name` of `game`, on the first hook of the game's `tile_hooks` a tile usually
/// defines (`on_arrive` when it has one), with a variant that deals two.
pub fn new_tile(rules_dir: &Path, game: &str, name: &str) -> Result<String> {
    let what = "new-tile";
    plain_name(what, "tile", name)?;
    let rules = load(what, rules_dir, game)?;
    let Some(hook) = preferred(&rules.tile_hooks, "on_arrive") else {
        bail!("{what}: {game} declares no tile_hooks, so it has no tiles");
    };
    if let Some(t) = rules
        .tiles
        .iter()
        .find(|t| t.name == name || t.code == name)
    {
        bail!(
            "{what}: {game} already has the tile {} (code {}, {})",
            t.name,
            t.code,
            t.file
        );
    }
    let fill = Fill::new(game, name, name, &hook);
    let template = rules_dir.join(game).join("templates/tile_variant.toml");
    let variant = match template.is_file() {
        true => std::fs::read_to_string(&template)
            .map_err(|e| anyhow!("{what}: {}: {e}", template.display()))?,
        false => TILE_VARIANT.to_string(),
    };
    let dir = rules_dir.join(game);
    write_all(
        what,
        &[
            (dir.join(format!("tiles/{name}.lua")), fill.apply(TILE)),
            (
                dir.join(format!("variants/{name}.toml")),
                fill.apply(&variant),
            ),
            (test_file(rules_dir, game, name), fill.apply(TILE_TEST)),
        ],
        &format!("tortuga --game {game} --variant {name}"),
    )
}

/// A new house rule `name` of `game`, stacked on the game's first own hook (the first of its
/// hooks.toml, else `status`), with a variant that switches it on.
pub fn new_house(rules_dir: &Path, game: &str, name: &str) -> Result<String> {
    let what = "new-house";
    plain_name(what, "house rule", name)?;
    let rules = load(what, rules_dir, game)?;
    if rules.house_available.iter().any(|h| h == name) {
        bail!("{what}: {game} already has the house rule {name} (rules/{game}/house/{name}.lua)");
    }
    let reference = Reference::load(rules_dir)?;
    let (_, own, _) = reference.hook_names(game);
    let hook = own.into_iter().next().unwrap_or_else(|| "status".into());
    // The hook's first argument by the name its signature gives (most hooks take `G` first).
    let first = reference
        .first_param(game, &hook)
        .unwrap_or_else(|| "G".into());
    let fill = Fill::new(game, name, "", &hook).with("{first}", first);
    let dir = rules_dir.join(game);
    write_all(
        what,
        &[
            (dir.join(format!("house/{name}.lua")), fill.apply(HOUSE)),
            (
                dir.join(format!("variants/{name}.toml")),
                fill.apply(HOUSE_VARIANT),
            ),
            (test_file(rules_dir, game, name), fill.apply(HOUSE_TEST)),
        ],
        &format!("tortuga --game {game} --variant {name}"),
    )
}

/// `wanted` if the list has it, else its first entry.
fn preferred(list: &[String], wanted: &str) -> Option<String> {
    list.iter()
        .find(|h| *h == wanted)
        .or_else(|| list.first())
        .cloned()
}

/// A name that is a Lua identifier and a file name alike: `[a-z][a-z0-9_]*`.
fn plain_name(what: &str, kind: &str, name: &str) -> Result<()> {
    let ok = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !ok {
        bail!(
            "{what}: a {kind} name is lower-case letters, digits and '_', starting with a letter, not '{name}'"
        );
    }
    Ok(())
}

/// The rules of `game`, or an error naming the games there are.
fn load(what: &str, rules_dir: &Path, game: &str) -> Result<Rules> {
    if !games(rules_dir).iter().any(|g| g == game) {
        bail!(
            "{what}: no game '{game}' in {} (games: {})",
            rules_dir.display(),
            games(rules_dir).join(", ")
        );
    }
    Rules::load(rules_dir, game, &LoadOptions::default()).map_err(|e| anyhow!("{what}: {e:#}"))
}

/// `tests/lua/<game>/<topic>_test.lua` beside the rules folder.
fn test_file(rules_dir: &Path, game: &str, topic: &str) -> PathBuf {
    let root = rules_dir.parent().unwrap_or(rules_dir);
    root.join(format!("tests/lua/{game}/{topic}_test.lua"))
}

/// The placeholders of the templates.
struct Fill {
    pairs: Vec<(&'static str, String)>,
}

impl Fill {
    fn new(game: &str, name: &str, code: &str, hook: &str) -> Fill {
        let title = |s: &str| -> String {
            s.split('_')
                .map(|w| {
                    let mut c = w.chars();
                    c.next()
                        .map(|f| f.to_uppercase().chain(c).collect())
                        .unwrap_or_default()
                })
                .collect::<Vec<String>>()
                .join(" ")
        };
        Fill {
            pairs: vec![
                ("{game}", game.into()),
                ("{Game}", title(game)),
                ("{name}", name.into()),
                ("{Title}", title(name)),
                ("{code}", code.into()),
                ("{hook}", hook.into()),
            ],
        }
    }

    /// The fill with one more placeholder.
    fn with(mut self, key: &'static str, value: String) -> Fill {
        self.pairs.push((key, value));
        self
    }

    fn apply(&self, template: &str) -> String {
        self.pairs
            .iter()
            .fold(template.to_string(), |t, (k, v)| t.replace(k, v))
    }
}

/// Writes every file, or none: an existing one (or a symlink, even dangling, a FIFO or a
/// device in its place) refuses them all before any is written, and a write that fails
/// removes those written before it (and the folders made for them).
fn write_all(what: &str, files: &[(PathBuf, String)], next: &str) -> Result<String> {
    for (path, _) in files {
        if crate::files::regular_or_absent(path).map_err(|e| anyhow!("{what}: {e}"))? {
            bail!("{what}: {} already exists", path.display());
        }
    }
    let mut made: Vec<PathBuf> = Vec::new();
    for (path, text) in files {
        let parent = path.parent().unwrap_or(Path::new("."));
        let mut missing: Vec<PathBuf> = parent
            .ancestors()
            .take_while(|d| !d.exists())
            .map(Path::to_path_buf)
            .collect();
        let written = std::fs::create_dir_all(parent)
            .map_err(anyhow::Error::from)
            .and_then(|()| crate::files::write_atomically(path, text));
        missing.reverse();
        made.extend(missing);
        if let Err(e) = written {
            for p in made.iter().rev() {
                let _ = std::fs::remove_file(p).or_else(|_| std::fs::remove_dir(p));
            }
            bail!(
                "{what}: cannot write {}: {e:#} (nothing was written)",
                path.display()
            );
        }
        made.push(path.clone());
    }
    let mut out: Vec<String> = files
        .iter()
        .map(|(p, _)| format!("created {}", p.display()))
        .collect();
    out.push(format!("try it: {next}"));
    Ok(out.join("\n"))
}
