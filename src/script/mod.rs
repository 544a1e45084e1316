//! The script host: loads rule files into a sandboxed Lua state, composes house rules on
//! hooks, validates variants and runs every rule invocation under limits. Three layers, each
//! importing only those below it: [`lua`] (the safe interpreter), [`handle`] (`G`, the game
//! as rules see it) and [`ruleset`] (a loaded game).

pub mod handle;
pub mod lua;
pub mod ruleset;

pub use lua::limits::Budget;
pub use ruleset::rules::{LoadOptions, Rules, Training};
