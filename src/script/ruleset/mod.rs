//! A loaded ruleset: a game's rule files in a sandboxed state, with house rules composed on
//! its hooks, its variants and switches, its randomizers, its data files, and the API
//! reference checked against what it exposes.
//!
//! Imports [`super::handle`] and [`super::lua`]; nothing imports it from inside `script`.

pub mod data;
pub mod host;
pub mod randomizers;
pub mod reference;
pub mod rules;
pub mod switch_reads;
mod upvalues;
pub mod variant;
