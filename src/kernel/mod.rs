//! The kernel: game state, topology, turn order and seeded randomness. No rules live here.

pub mod log;
pub mod pending;
pub mod props;
pub mod randomizer;
pub mod rng;
pub mod state;
pub mod topology;
pub mod turn;
pub mod value;
pub mod view;

pub use randomizer::{Kind, Outcome, Randomizer};
pub use state::{PieceId, State};
pub use topology::Loc;
pub use turn::Seat;
pub use value::Value;
pub use view::Viewer;
