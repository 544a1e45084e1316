//! The script host: loads rule files into a sandboxed Lua state, composes house rules on
//! hooks, validates variants and runs every rule invocation under limits.

pub mod api;
pub mod error;
mod globals;
pub mod host;
pub mod json;
pub mod limits;
pub mod raw;
pub mod rules;
pub(crate) mod stack;
pub mod variant;

pub use limits::Budget;
pub use rules::{LoadOptions, Rules};
