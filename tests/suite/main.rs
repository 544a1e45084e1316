//! The integration tests, as one test binary: each module was once a binary of its own, and
//! compiling and linking one binary instead of sixty is most of what makes the suite quick.
//! Helpers shared by the modules are `common` and the per-game `jackal`, `chaupar` and
//! `pirates`; `tests/sim_interrupt.rs` stays apart because the interrupt flag is process-wide.
//!
//! Long random-game runs are sized by `TORTUGA_SOAK` (see [`common::soak`]).

mod chaupar;
mod common;
mod jackal;
mod pirates;

mod backgammon;
mod backgammon_cube;
mod backgammon_gnubg;
mod backgammon_house_moves;
mod backgammon_oracles;
mod board_colours;
mod chaupar_format;
mod chaupar_games;
mod chaupar_house;
mod chaupar_scenarios;
mod cli;
mod data_files;
mod docs_commands;
mod every_variant;
mod frozen_rules;
mod game_table;
mod hostile;
mod house_option;
mod house_rules;
mod jackal_chains;
mod jackal_expansion;
mod jackal_fast_paths;
mod jackal_format;
mod jackal_hooks;
mod jackal_house_tiles;
mod jackal_invariants;
mod jackal_many_games;
mod jackal_render;
mod jackal_results;
mod jackal_secrets;
mod jackal_setup;
mod jackal_switches;
mod jackal_tiles;
mod kept_values;
mod kernel_api;
mod kernel_loop;
mod learned;
mod lua_rules;
mod machine_moves_games;
mod pending;
mod pictures;
mod pirates_games;
mod pirates_maps;
mod pirates_scenarios;
mod pirates_secrets;
mod pirates_spinner;
mod pirates_switches;
mod primitives;
mod properties;
mod pty;
mod randomizers;
mod reference;
mod roll_chain;
mod sandbox;
mod scaffold;
mod secrets;
mod session;
mod sim;
mod sim_cli;
mod sim_studies;
mod transactional;
mod transcripts;
mod tutorial;
mod undo_memory;
