//! Pending decisions in the middle of a move: a stack of continuations kept in the state, so
//! that every waiting point is data (undo, save and replay work there) and every game shares
//! one mechanism. A continuation names a hook and its arguments; the kernel calls the hook
//! when the continuation reaches the top of the stack and what it waits for is there.

use super::state::heap_block;
use super::turn::Seat;
use super::value::Value;
use super::view::{Viewer, seat_bit};

#[derive(Clone, Debug, PartialEq)]
pub struct Continuation {
    /// The hook called to resume: `hook[name](G, args…)` for a step,
    /// `hook[name](G, answer, args…)` after a decision or a chance event.
    pub hook: String,
    pub args: Vec<Value>,
    /// What is being resolved, and why (shown by the REPL's `pending`).
    pub why: String,
    pub wait: Wait,
    /// The seats that may see what the continuation holds: its arguments, a decision's
    /// options and choice, a chance event's outcome (as a status's `seen_by`; a decision's
    /// actor always sees it). Others see only its hook, why and what it waits for.
    pub seen_by: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Wait {
    /// Nothing: the step runs as soon as it is on top.
    Step,
    /// A chance event of the named randomizer, with the parameters given for this event
    /// (`weights`, `faces`, … as a status gives them), sorted by name.
    Chance(String, Vec<(String, Value)>),
    Decision(Decision),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// A hook that tells the actor, options and prompt when the continuation reaches the top
    /// (what is above it may change them); `None` when they were given with the continuation.
    pub ask: Option<String>,
    pub actor: Seat,
    /// The option labels; `None` until asked.
    pub options: Option<Vec<String>>,
    pub prompt: String,
    /// A single option is taken without asking.
    pub auto: bool,
    /// The hook run, `hook[name](G, args…)`, when there is no option (a pass, a forfeit).
    pub none: Option<String>,
}

impl Continuation {
    /// The memory the continuation holds, for the bound on game state (`State::grow`): itself
    /// twice (the stack's vector keeps as much room again as it grows), and its heap blocks.
    pub fn bytes(&self) -> usize {
        let text = |s: &str| heap_block(s.len());
        let list = |n: usize, each: usize| heap_block(n * each);
        let wait = match &self.wait {
            Wait::Step => 0,
            Wait::Chance(name, params) => {
                text(name)
                    + list(params.len(), size_of::<(String, Value)>())
                    + params
                        .iter()
                        .map(|(k, v)| text(k) + v.bytes())
                        .sum::<usize>()
            }
            Wait::Decision(d) => {
                text(&d.prompt)
                    + d.ask.as_deref().map_or(0, text)
                    + d.none.as_deref().map_or(0, text)
                    + d.options.as_deref().map_or(0, |o| {
                        list(o.len(), size_of::<String>())
                            + o.iter().map(|s| text(s)).sum::<usize>()
                    })
            }
        };
        2 * size_of::<Continuation>()
            + text(&self.hook)
            + text(&self.why)
            + list(self.args.len(), size_of::<Value>())
            + self.args.iter().map(Value::bytes).sum::<usize>()
            + wait
    }

    /// The seats that see what the continuation holds, its actor included.
    pub fn seen_by(&self) -> u64 {
        match &self.wait {
            Wait::Decision(d) if d.actor > 0 => self.seen_by | seat_bit(d.actor),
            _ => self.seen_by,
        }
    }

    /// One line in players' words, as `viewer` may read it: why the continuation is there and
    /// what it waits for (`turning up E5: waits for chance 'deck'`), the seat by `name`; a
    /// viewer outside `seen_by` reads no options. `None` for a step of the rules that says
    /// no why and waits for nothing: it has nothing to tell a player.
    pub fn tell(&self, viewer: Viewer, name: impl Fn(Seat) -> String) -> Option<String> {
        let sees = viewer.sees(self.seen_by());
        let why = match (&self.wait, self.why.is_empty()) {
            (Wait::Step, true) => return None,
            (_, true) => "a step of the rules",
            (_, false) => &self.why,
        };
        let wait = match &self.wait {
            Wait::Step => "runs next".into(),
            Wait::Chance(chance, _) => format!("waits for chance '{chance}'"),
            Wait::Decision(d) => {
                let who = name(d.actor);
                match &d.options {
                    None => format!("will ask {who}"),
                    Some(o) if sees => format!("waits for {who} to choose among {}", o.join(", ")),
                    Some(_) => format!("waits for {who} to choose (hidden from you)"),
                }
            }
        };
        Some(format!("{why}: {wait}"))
    }

    /// `hook(args) — why: waits for …`, one line, as `viewer` may read it, for rule authors
    /// (`pending --hooks`): a viewer outside `seen_by` reads `…` for the arguments and options.
    pub fn describe(&self, viewer: Viewer) -> String {
        let sees = viewer.sees(self.seen_by());
        let args: Vec<String> = if sees {
            self.args.iter().map(Value::to_string).collect()
        } else {
            vec!["…".into()]
        };
        let mut out = format!("{}({})", self.hook, args.join(", "));
        if !self.why.is_empty() {
            out += &format!(" — {}", self.why);
        }
        out += &match &self.wait {
            Wait::Step => ": runs next".into(),
            Wait::Chance(name, _) => format!(": waits for chance '{name}'"),
            Wait::Decision(d) => match &d.options {
                None => format!(": will ask ({})", d.ask.as_deref().unwrap_or("")),
                Some(o) if sees => format!(
                    ": waits for seat {} to choose among {}",
                    d.actor,
                    o.join(", ")
                ),
                Some(_) => format!(": waits for seat {} to choose (hidden from you)", d.actor),
            },
        };
        out
    }
}
