//! Tortuga: a scripting-driven rules sandbox for board games.
//!
//! The kernel ([`kernel`]) owns state and randomness, the script host ([`script`]) runs the
//! Lua rules in a sandbox, [`session`] records and replays games, [`repl`] drives them from a
//! prompt or a script, and [`sim`] plays many games fast.

pub mod cli;
pub mod files;
pub mod kernel;
pub mod learn;
pub mod repl;
pub mod scaffold;
pub mod script;
pub mod session;
pub mod sim;
pub mod svg;
