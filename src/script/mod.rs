//! The script host: loads rule files into a sandboxed Lua state, composes house rules on
//! hooks, validates variants and runs every rule invocation under limits.

pub mod api;
pub mod bounded;
pub mod data;
pub mod error;
mod globals;
pub mod host;
pub mod json;
pub mod kept;
pub mod limits;
pub mod pattern;
pub mod randomizers;
pub mod raw;
pub mod reference;
pub mod rules;
pub(crate) mod stack;
pub mod switch_reads;
pub mod variant;

pub use limits::Budget;
pub use rules::{LoadOptions, Rules};
