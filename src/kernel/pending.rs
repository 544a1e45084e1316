//! Pending decisions in the middle of a move: a stack of continuations kept in the state, so
//! that every waiting point is data (undo, save and replay work there) and every game shares
//! one mechanism. A continuation names a hook and its arguments; the kernel calls the hook
//! when the continuation reaches the top of the stack and what it waits for is there.

use std::fmt;

use super::turn::Seat;
use super::value::Value;

#[derive(Clone, Debug, PartialEq)]
pub struct Continuation {
    /// The hook called to resume: `hook[name](G, args…)` for a step,
    /// `hook[name](G, answer, args…)` after a decision or a chance event.
    pub hook: String,
    pub args: Vec<Value>,
    /// What is being resolved, and why (shown by the REPL's `pending`).
    pub why: String,
    pub wait: Wait,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Wait {
    /// Nothing: the step runs as soon as it is on top.
    Step,
    /// A chance event of the named randomizer.
    Chance(String),
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

impl fmt::Display for Continuation {
    /// `hook(args) — why: waits for …`, one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let args: Vec<String> = self.args.iter().map(Value::to_string).collect();
        write!(f, "{}({})", self.hook, args.join(", "))?;
        if !self.why.is_empty() {
            write!(f, " — {}", self.why)?;
        }
        match &self.wait {
            Wait::Step => f.write_str(": runs next"),
            Wait::Chance(name) => write!(f, ": waits for chance '{name}'"),
            Wait::Decision(d) => match &d.options {
                None => write!(f, ": will ask ({})", d.ask.as_deref().unwrap_or("")),
                Some(o) => write!(
                    f,
                    ": waits for seat {} to choose among {}",
                    d.actor,
                    o.join(", ")
                ),
            },
        }
    }
}
