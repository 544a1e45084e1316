//! A safe Lua: the interpreter rules run in, before it knows of any game. It holds the limits
//! every invocation runs under (steps, memory, time), the library calls bounded by them
//! (string patterns, JSON), the prelude that wraps what a rule could use to escape them, the
//! check of the globals a chunk reads, and errors as rules see them.
//!
//! Imports nothing else of `script`: the layers above build on it.

pub mod bounded;
pub(in crate::script) mod bytecode;
pub mod error;
pub(in crate::script) mod globals;
pub mod json;
pub mod limits;
pub mod pattern;
