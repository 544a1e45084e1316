//! Helpers for the Pirates scenario tests: a REPL set up from a §18 position on the test map
//! TM1 of spec §19, written in the checklist's shorthand (`G1@(6,5)`, `G2*@(6,5)h2`,
//! `B1@(8,5)h1`, or whole `ship …` lines, joined by " / "), forced spins, and readers.
#![allow(dead_code)]

use tortuga::repl::Repl;

use crate::common;

pub const TM1: &str = "map inline
..............
.#............
..#.......#...
..........#...
..............
..............
.H..........1.
..............
..C........E..
..............
port: (1,6) H Testport
port: (12,6) 1 Testbase
port: (2,8) C Cadiz
port: (11,8) E Testharbour
current: from (4,9) to (5,9)
current: from (5,9) to (6,9)
current: from (6,9) to (7,9)
end
";

pub struct Pi {
    pub repl: Repl,
}

/// Expands `G2*@(6,5)h2` into a ship line (galleons are S1's, brigantines P1's).
fn ship(token: &str) -> String {
    let (name, rest) = token.split_once('@').expect("shorthand ship@pos");
    let golden = name.ends_with('*');
    let id = name.trim_end_matches('*');
    let (pos, holes) = match rest.split_once(')') {
        Some((p, h)) => (format!("{p})"), h.trim_start_matches('h').to_string()),
        None => (rest.to_string(), String::new()),
    };
    let holes = if holes.is_empty() { "0".into() } else { holes };
    let (kind, side, holder) = if id.starts_with('G') {
        ("galleon", "spain", "S1")
    } else {
        ("brig", "pirate", "P1")
    };
    let flag = if golden { " golden" } else { "" };
    format!("ship {id} {kind} {side} {holder} {pos} holes={holes}{flag}")
}

/// A position on TM1 from checklist notation: "turn P1 / weather wind N / G1@(6,5)".
pub fn pos(body: &str, variant: &str, players: &str) -> String {
    pos_on(TM1, body, variant, players)
}

/// A position on `map` (a "map inline … end" block, or "map <name>\n").
pub fn pos_on(map: &str, body: &str, variant: &str, players: &str) -> String {
    let mut text = format!("pirates 1\nvariant {variant}\n{map}players {players}\n");
    let mut turn = false;
    for item in body.split(" / ").map(str::trim).filter(|l| !l.is_empty()) {
        turn |= item.starts_with("turn ");
        if item.contains('@') && !item.starts_with("ship ") {
            text += &ship(item);
        } else {
            text += item;
        }
        text.push('\n');
    }
    if !turn {
        text += "turn S1\n";
    }
    text
}

impl Pi {
    /// The author variant, two players.
    pub fn at(body: &str) -> Pi {
        Pi::setup("author", "S1=spain P1=pirate", body)
    }

    pub fn printed(body: &str) -> Pi {
        Pi::setup("printed", "S1=spain P1=pirate", body)
    }

    pub fn setup(variant: &str, players: &str, body: &str) -> Pi {
        Pi::setup_on(TM1, variant, players, body)
    }

    /// As `setup`, on another map (a "map inline … end" block).
    pub fn setup_on(map: &str, variant: &str, players: &str, body: &str) -> Pi {
        let n = players.split_whitespace().count();
        let mut repl = common::repl(&common::rules());
        let text = pos_on(map, body, variant, players);
        repl.handle_line(&format!(
            "setup pirates --variant {variant} --players {n} {text}"
        ))
        .unwrap_or_else(|e| panic!("setup failed: {e:#}\n{text}"));
        Pi { repl }
    }

    /// The error of a position that must be refused.
    pub fn refused(body: &str) -> String {
        let mut repl = common::repl(&common::rules());
        let text = pos(body, "author", "S1=spain P1=pirate");
        common::fails(
            &mut repl,
            &format!("setup pirates --variant author --players 2 {text}"),
        )
    }

    pub fn fresh(args: &str) -> Pi {
        let mut repl = common::repl(&common::rules());
        common::run(&mut repl, &[&format!("new pirates {args}")]);
        Pi { repl }
    }

    pub fn run(&mut self, cmd: &str) -> String {
        common::run(&mut self.repl, &[cmd])
    }

    pub fn fails(&mut self, cmd: &str) -> String {
        common::fails(&mut self.repl, cmd)
    }

    pub fn play(&mut self, label: &str) -> String {
        self.run(&format!("play {label}"))
    }

    pub fn spin(&mut self, words: &str) -> String {
        self.run(&format!("roll {words}"))
    }

    pub fn moves(&mut self) -> Vec<String> {
        self.repl.option_labels()
    }

    pub fn has(&mut self, label: &str) -> bool {
        self.moves().iter().any(|l| l == label)
    }

    /// The options starting with `prefix` ("move G1 ").
    pub fn starting(&mut self, prefix: &str) -> Vec<String> {
        let mut v: Vec<String> = self
            .moves()
            .into_iter()
            .filter(|l| l.starts_with(prefix))
            .collect();
        v.sort();
        v
    }

    pub fn export(&mut self) -> String {
        self.run("position")
    }

    /// A ship's line of the exported position, without "ship ", or None when it is gone.
    pub fn ship(&mut self, id: &str) -> Option<String> {
        let prefix = format!("ship {id} ");
        self.export()
            .lines()
            .find_map(|l| l.strip_prefix(&prefix).map(|s| format!("{id} {s}")))
    }

    pub fn lua(&mut self, expr: &str) -> String {
        self.run(&format!("lua {expr}"))
    }

    pub fn status(&mut self) -> String {
        self.repl.status_line().expect("status")
    }

    pub fn over(&mut self) -> bool {
        self.status().contains("game over") || self.lua("G:get('phase')") == "over"
    }

    pub fn result(&mut self) -> String {
        self.lua("G:get('result')")
    }
}
