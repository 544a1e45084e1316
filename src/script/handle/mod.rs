//! The `G` handle: the game as rule code sees it. Its methods (`api` through mlua, `raw` as C
//! functions), the values rules keep from one call to the next, and kernel values on the Lua
//! stack.
//!
//! Imports only [`super::lua`].

pub mod api;
pub mod kept;
pub mod raw;
pub(crate) mod stack;
