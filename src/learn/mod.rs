//! Learned evaluations: the network (`net`) and its weights file (`weights`). Training is
//! `sim::train`, the bot that plays by them `sim::bots`.

pub mod encoding;
pub mod net;
pub mod weights;
