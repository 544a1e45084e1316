//! The save file: a small, versioned, line-based text that holds a session's origin, the
//! content hashes of the rule files it was played with, and its events. Written atomically.
//!
//! ```text
//! tortuga-save 1
//! game backgammon
//! variant match5
//! house nackgammon           (a house rule switched on beyond the variant's, one a line)
//! set match_length = 5
//! seats 2
//! seed 42                    (the referee's save only: the secret streams may derive from it)
//! secret-seed 7310…          (the referee's save only: the seed of the secret streams)
//! view X                     (a seat's save: whose view it holds; absent for the referee)
//! position "…"
//! file rules/backgammon/game.lua 9f86d08…
//! chance opening 5 3 forced
//! play "8/3 6/3"
//! hidden                     (a seat's save: a decision hidden from that seat)
//! hidden deck                (… a chance outcome of randomizer `deck` hidden from it)
//! end 4
//! ```

use std::collections::BTreeMap;

use anyhow::{Result, anyhow, bail};

use super::{Event, Origin, Session};
use crate::kernel::Viewer;
// Quoted text as JSON reads it, every control character escaped (JSON itself leaves DEL and
// the C1 controls raw, and a save line holds none).
use crate::kernel::value::quoted;
use crate::kernel::view::ALL_SEATS;
use crate::script::ruleset::variant::parse_assignment;

/// The format version this build writes and the newest it reads.
pub const VERSION: u32 = 1;

/// A parsed save file.
#[derive(Clone, Debug, PartialEq)]
pub struct SaveFile {
    pub origin: Origin,
    pub files: BTreeMap<String, String>,
    pub events: Vec<Event>,
    /// Whose view the file holds: `None` for the referee's (the whole game), else a seat's
    /// name (or "spectator").
    pub view: Option<String>,
}

impl SaveFile {
    /// The session as `viewer` may see it: a seat's save holds neither the seeds nor the
    /// steps hidden from that seat, and a starting position only as that seat sees it
    /// (the text `setup` took may name a secret, such as Pirates' golden galleon).
    pub fn of(session: &Session, viewer: Viewer) -> Result<SaveFile> {
        let mut origin = session.origin.clone();
        let view = match viewer {
            Viewer::Referee => None,
            Viewer::Seat(0) => Some("spectator".to_string()),
            Viewer::Seat(s) => Some(session.game.with_state(|st| st.turn.player_name(s))),
        };
        if view.is_some() {
            origin.secret_seed = None;
            if origin.position.is_some() {
                let mut start = Session::new(session.game.rules.clone(), session.origin.clone())?;
                start.game.view = viewer;
                origin.position = Some(start.game.text_hook("export", None::<String>)?);
            }
        }
        let events = session
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let seen = session.seen.get(i).copied().unwrap_or(ALL_SEATS);
                if viewer.sees(seen) {
                    e.clone()
                } else {
                    e.hidden()
                }
            })
            .collect();
        Ok(SaveFile {
            origin,
            files: session.game.rules.files(),
            events,
            view,
        })
    }

    pub fn to_text(&self) -> String {
        let o = &self.origin;
        let mut out = format!("tortuga-save {VERSION}\ngame {}\n", o.game);
        if let Some(v) = &o.variant {
            out += &format!("variant {v}\n");
        }
        for h in &o.house {
            out += &format!("house {h}\n");
        }
        for (k, v) in &o.overrides {
            out += &format!("set {k} = {}\n", v.to_literal());
        }
        out += &format!("seats {}\n", o.seats);
        // A seat's save holds no seed: with `--seed N` the secret streams derive from N, so
        // `new … --seed N` would deal the secrets again.
        if self.view.is_none() {
            out += &format!("seed {}\n", o.seed);
        }
        if let Some(secret) = o.secret_seed {
            out += &format!("secret-seed {secret}\n");
        }
        if let Some(v) = &self.view {
            out += &format!("view {v}\n");
        }
        if let Some(p) = &o.position {
            out += &format!("position {}\n", quoted(p));
        }
        for (file, hash) in &self.files {
            out += &format!("file {file} {hash}\n");
        }
        for e in &self.events {
            out += &match e {
                Event::Play(label) => format!("play {}\n", quoted(label)),
                Event::Chance {
                    name,
                    words,
                    forced,
                } => format!(
                    "chance {name} {}{}\n",
                    words.join(" "),
                    if *forced { " forced" } else { "" }
                ),
                Event::Hidden { chance: None } => "hidden\n".into(),
                Event::Hidden { chance: Some(name) } => format!("hidden {name}\n"),
            };
        }
        out += &format!("end {}\n", self.events.len());
        out
    }

    /// Parses a save file; `what` names it in errors (`game.sav:7: …`).
    pub fn parse(what: &str, text: &str) -> Result<SaveFile> {
        if !text.is_empty() && !text.ends_with('\n') {
            bail!("{what}: truncated (the last line is incomplete): the file was cut short");
        }
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let (_, first) = lines.next().ok_or_else(|| anyhow!("{what}: empty file"))?;
        let version: u32 = first
            .strip_prefix("tortuga-save ")
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| anyhow!("{what}:1: not a Tortuga save file"))?;
        if version > VERSION {
            bail!(
                "{what}:1: written by a newer Tortuga (format {version}; this one reads up to {VERSION})"
            );
        }
        let mut origin = Origin {
            game: String::new(),
            variant: None,
            house: vec![],
            overrides: vec![],
            seats: 0,
            seed: 0,
            secret_seed: None,
            position: None,
        };
        let mut view = None;
        // the line of a seed, which only the referee's save may hold
        let mut seeded = None;
        let (mut files, mut events) = (BTreeMap::new(), Vec::new());
        let mut ended = false;
        for (n, line) in lines {
            let at = |msg: String| anyhow!("{what}:{n}: {msg}");
            if ended {
                return Err(at("text after the end line".into()));
            }
            // Quoted text escapes them, and a bare word with one would not read back the same
            // (a carriage return before the newline ends the line).
            if let Some(c) = line.chars().find(|c| c.is_control()) {
                return Err(at(format!(
                    "a raw control character ({}): quoted text writes it as \\uXXXX",
                    c.escape_debug()
                )));
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let unquote = |s: &str| -> Result<String> {
                serde_json::from_str::<String>(s).map_err(|e| at(format!("bad quoted text: {e}")))
            };
            match key {
                "game" => origin.game = rest.to_string(),
                "variant" => origin.variant = Some(rest.to_string()),
                "house" => origin.house.push(rest.to_string()),
                "set" => origin.overrides.push(parse_assignment(rest).map_err(at)?),
                "seats" => {
                    origin.seats = rest
                        .parse()
                        .map_err(|_| at(format!("bad seat count '{rest}'")))?
                }
                "seed" => {
                    seeded.get_or_insert(n);
                    origin.seed = rest.parse().map_err(|_| at(format!("bad seed '{rest}'")))?
                }
                "secret-seed" => {
                    seeded.get_or_insert(n);
                    origin.secret_seed = Some(
                        rest.parse()
                            .map_err(|_| at(format!("bad secret seed '{rest}'")))?,
                    )
                }
                "view" => view = Some(rest.to_string()),
                "hidden" => events.push(Event::Hidden {
                    chance: (!rest.is_empty()).then(|| rest.to_string()),
                }),
                "position" => origin.position = Some(unquote(rest)?),
                "file" => {
                    let (f, h) = rest
                        .rsplit_once(' ')
                        .ok_or_else(|| at("expected: file <name> <sha256>".into()))?;
                    files.insert(f.to_string(), h.to_string());
                }
                "play" => events.push(Event::Play(unquote(rest)?)),
                "chance" => {
                    let mut words: Vec<String> =
                        rest.split_whitespace().map(String::from).collect();
                    if words.is_empty() {
                        return Err(at("expected: chance <name> <outcome…>".into()));
                    }
                    let name = words.remove(0);
                    let forced = words.last().is_some_and(|w| w == "forced");
                    if forced {
                        words.pop();
                    }
                    events.push(Event::Chance {
                        name,
                        words,
                        forced,
                    });
                }
                "end" => {
                    let n: usize = rest
                        .parse()
                        .map_err(|_| at(format!("bad event count '{rest}'")))?;
                    if n != events.len() {
                        return Err(at(format!(
                            "says {n} events but {} were read",
                            events.len()
                        )));
                    }
                    ended = true;
                }
                "" | "#" => {}
                other => return Err(at(format!("unknown line '{other}'"))),
            }
        }
        if !ended {
            bail!("{what}: truncated (no end line): the file was cut short");
        }
        if origin.game.is_empty() || origin.seats == 0 {
            bail!("{what}: the game or the seat count is missing");
        }
        if let (Some(seat), Some(n)) = (&view, seeded) {
            bail!("{what}:{n}: a seed in a save seen by {seat}: only the referee's save holds one");
        }
        Ok(SaveFile {
            origin,
            files,
            events,
            view,
        })
    }

    /// Files whose content differs from the ruleset `now` (changed, added or missing).
    pub fn changed_files(&self, now: &BTreeMap<String, String>) -> Vec<String> {
        let saved = within_rules(&self.files);
        let now = within_rules(now);
        let mut out: Vec<String> = saved
            .iter()
            .filter(|(f, h)| now.get(*f) != Some(h))
            .map(|(f, _)| f.to_string())
            .collect();
        out.extend(
            now.keys()
                .filter(|f| !saved.contains_key(*f))
                .map(|f| f.to_string()),
        );
        out.sort();
        out.dedup();
        out
    }
}

/// Rule files by their path inside the rules folder (`backgammon/game.lua`): chunk names start
/// with the folder's own name, which a copy of the same rules elsewhere need not share.
fn within_rules(files: &BTreeMap<String, String>) -> BTreeMap<&str, &str> {
    files
        .iter()
        .map(|(f, h)| {
            (
                f.split_once('/').map_or(f.as_str(), |(_, rel)| rel),
                h.as_str(),
            )
        })
        .collect()
}
