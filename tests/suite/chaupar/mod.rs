//! Helpers for the Chaupar scenario tests: a REPL set up from a §17 position (lines joined by
//! " / " as the spec's checklist writes them), forced throws, and readers for the options,
//! the colour lines of the exported position and whose turn it is.
#![allow(dead_code)]

use tortuga::repl::Repl;

use crate::common;

pub struct C {
    pub repl: Repl,
}

/// A position from checklist notation: "implement dice2 / throw 1 3 / S: N.l1".
pub fn pos(body: &str) -> String {
    let mut text = String::from("chaupar 1\n");
    let mut turn = false;
    for line in body.split(" / ").map(str::trim).filter(|l| !l.is_empty()) {
        turn |= line.starts_with("turn ");
        text.push_str(line);
        text.push('\n');
    }
    if !turn {
        text.push_str("turn S\n");
    }
    text
}

impl C {
    /// A game set up from checklist notation (a `seats 2` line sets up two players).
    pub fn at(body: &str) -> C {
        C::setup(&pos(body))
    }

    /// A game set up from a position text.
    pub fn setup(position: &str) -> C {
        C::setup_with("", position)
    }

    /// A game set up from a position text on rules loaded with options (`--set k=v …`).
    pub fn setup_with(options: &str, position: &str) -> C {
        let players = if position.lines().any(|l| l.trim() == "seats 2") {
            "--players 2 "
        } else {
            ""
        };
        let mut repl = common::repl(&common::rules());
        repl.handle_line(&format!("setup chaupar {players}{options} {position}"))
            .unwrap_or_else(|e| panic!("setup failed: {e:#}\n{position}"));
        C { repl }
    }

    /// The error of a position that must be refused.
    pub fn refused(position: &str) -> String {
        let mut repl = common::repl(&common::rules());
        common::fails(&mut repl, &format!("setup chaupar {position}"))
    }

    /// A new game (`new chaupar …`).
    pub fn fresh(args: &str) -> C {
        let mut repl = common::repl(&common::rules());
        common::run(&mut repl, &[&format!("new chaupar {args}")]);
        C { repl }
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

    pub fn export(&mut self) -> String {
        self.run("position")
    }

    /// Colour c's line of the exported position, without the "S: " prefix.
    pub fn colour(&mut self, c: &str) -> String {
        let prefix = format!("{c}: ");
        self.export()
            .lines()
            .find_map(|l| l.strip_prefix(&prefix).map(str::to_string))
            .unwrap_or_else(|| panic!("no line for {c}"))
    }

    /// The colour whose turn it is.
    pub fn turn(&mut self) -> String {
        self.lua("G:unit_name(G:unit())")
    }

    pub fn phase(&mut self) -> String {
        self.lua("G:get('phase')")
    }

    pub fn status(&mut self) -> String {
        self.repl.status_line().expect("status")
    }

    pub fn lua(&mut self, expr: &str) -> String {
        self.run(&format!("lua {expr}"))
    }

    pub fn waiting_for_throw(&mut self) -> bool {
        self.status().starts_with("waiting for")
    }
}
