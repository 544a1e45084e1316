//! Helpers for the Jackal scenario tests: a REPL set up from a §14 position, and readers for
//! what the tests check (where a character is, coins, banked gold, the options).
#![allow(dead_code)]

use std::collections::BTreeMap;

use tortuga::repl::Repl;

use crate::common;

pub struct J {
    pub repl: Repl,
}

/// A position with the §15 conventions: default pack and switches, `fill .`, all four ships
/// at their start cells, white to act; `body` adds lines.
pub fn pos(body: &str) -> String {
    format!("jackal 1\nturn white\nfill .\n{body}")
}

impl J {
    /// A game set up from `position` (four players).
    pub fn new(position: &str) -> J {
        J::with("", position)
    }

    /// A game set up from `position` with `setup` options such as `--players 2`.
    pub fn with(opts: &str, position: &str) -> J {
        let mut repl = common::repl(&common::rules());
        let opts = if opts.is_empty() {
            String::new()
        } else {
            format!("{opts} ")
        };
        let cmd = format!("setup jackal {opts}{position}");
        repl.handle_line(&cmd)
            .unwrap_or_else(|e| panic!("setup failed: {e:#}\n{position}"));
        J { repl }
    }

    /// A new game (`new jackal …`).
    pub fn fresh(args: &str) -> J {
        let mut repl = common::repl(&common::rules());
        common::run(&mut repl, &[&format!("new jackal {args}")]);
        J { repl }
    }

    pub fn run(&mut self, cmd: &str) -> String {
        common::run(&mut self.repl, &[cmd])
    }

    pub fn try_run(&mut self, cmd: &str) -> Result<String, String> {
        self.repl.handle_line(cmd).map_err(|e| format!("{e:#}"))
    }

    pub fn play(&mut self, label: &str) -> String {
        self.run(&format!("play {label}"))
    }

    pub fn roll(&mut self, words: &str) -> String {
        self.run(&format!("roll {words}"))
    }

    /// The option labels of the current decision (empty when none).
    pub fn moves(&mut self) -> Vec<String> {
        self.repl.option_labels()
    }

    pub fn has(&mut self, label: &str) -> bool {
        self.moves().iter().any(|l| l == label)
    }

    /// The options of the current decision that start with `prefix`.
    pub fn moves_of(&mut self, prefix: &str) -> Vec<String> {
        self.moves()
            .into_iter()
            .filter(|l| l.starts_with(prefix))
            .collect()
    }

    pub fn status(&mut self) -> String {
        self.repl.status_line().expect("status")
    }

    /// The position as it stands, also in the middle of a move.
    pub fn export(&mut self) -> String {
        self.run("position current")
    }

    pub fn lua(&mut self, expr: &str) -> String {
        self.run(&format!("lua {expr}"))
    }

    /// Where a character is, as the position format writes it (`ship` when aboard its own
    /// ship, `dead`, `gone`, `lost:C4`, `E5:2`, a sea cell…), or `none` if not in play.
    pub fn place(&mut self, label: &str) -> String {
        let text = self.export();
        for line in text.lines() {
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.first() == Some(&label) {
                let native = matches!(label, "Ben" | "Fri" | "Mis");
                return w[if native { 2 } else { 1 }].to_string();
            }
        }
        if matches!(label, "Ben" | "Fri" | "Mis") {
            "none".into()
        } else {
            "ship".into()
        }
    }

    /// The whole character line of the export (flags included), if listed.
    pub fn char_line(&mut self, label: &str) -> Option<String> {
        let text = self.export();
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(label))
            .map(str::to_string)
    }

    /// Coins lying on cells (`E5` or `E5:2` → count).
    pub fn coins(&mut self) -> BTreeMap<String, u32> {
        let text = self.export();
        let mut out = BTreeMap::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("coins ") {
                for pair in rest.split_whitespace() {
                    let (k, v) = pair.split_once('=').unwrap();
                    out.insert(k.to_string(), v.parse().unwrap());
                }
            }
        }
        out
    }

    pub fn coins_at(&mut self, cell: &str) -> u32 {
        self.coins().get(cell).copied().unwrap_or(0)
    }

    /// A game prop, as the `lua` command shows it.
    pub fn prop(&mut self, key: &str) -> String {
        self.lua(&format!("G:get('{key}')"))
    }

    fn team_index(team: &str) -> usize {
        ["white", "yellow", "black", "red"]
            .iter()
            .position(|t| *t == team)
            .unwrap_or_else(|| panic!("no team {team}"))
            + 1
    }

    pub fn banked(&mut self, team: &str) -> i64 {
        let i = J::team_index(team);
        self.lua(&format!("G:get('bank')[{i}]")).parse().unwrap()
    }

    pub fn bottles(&mut self, team: &str) -> i64 {
        let i = J::team_index(team);
        self.lua(&format!("G:get('bottles')[{i}]")).parse().unwrap()
    }

    pub fn lost(&mut self) -> i64 {
        self.prop("lost").parse().unwrap()
    }

    /// The team to act.
    pub fn turn(&mut self) -> String {
        self.lua("({'white','yellow','black','red'})[G:get('turn')]")
    }

    /// The token of a land cell (§14), e.g. `.`, `a1N`, `#`, `pl-`.
    pub fn token(&mut self, cell: &str) -> String {
        self.lua(&format!(
            "require('jackal.chain').token(G, require('jackal.board').parse('{cell}'))"
        ))
    }

    pub fn log(&mut self) -> String {
        self.run("log")
    }

    /// Lets the other teams act (each sails its ship if it can, else plays its first option)
    /// until `team` is to act.
    pub fn until(&mut self, team: &str) {
        for _ in 0..8 {
            if self.turn() == team {
                return;
            }
            let m = self.moves();
            let pick = m
                .iter()
                .find(|l| l.starts_with("ship"))
                .or(m.first())
                .expect("an option")
                .clone();
            self.play(&pick);
        }
        panic!("{team} never gets the turn");
    }

    pub fn over(&mut self) -> bool {
        self.status().starts_with("game over")
    }
}
