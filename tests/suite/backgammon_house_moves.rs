//! Issue 16, item 1: under each movement house rule the game's moves, which the fast generator
//! gives as far as the hooks allow, equal the moves built from the hooks, in the same order,
//! and those equal a plain enumeration of the hooks' steps. The check is Lua
//! (`tests/lua/backgammon/house_moves_check.lua`), run here in the rules of each variant, and
//! of a test house rule whose `may_hit` reads the mover's checkers: the Lua tests of
//! `lua_rules` run in the base rules only.

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use mlua::{Function, Value};
use tortuga::kernel::{State, Value as KValue};
use tortuga::script::handle::raw;
use tortuga::script::lua::error::message;
use tortuga::script::{Budget, LoadOptions, Rules};

/// Positions each check compares, at the full soak size.
const POSITIONS: u64 = 10_000;

/// Runs the check in the backgammon rules of the folder `root` with `variant` or the house
/// rules `house` on, with a global `new_state()` (a new game state without the cube, before
/// setup), the global `positions` ([`POSITIONS`] at the soak size) and a `require` that also
/// finds the Lua test helpers. Returns the number of positions on which a legal move changes
/// `may_hit`'s answer for a blot it leaves standing.
fn check_in(root: &Path, variant: Option<&str>, house: &[&str]) -> i64 {
    let name = variant.map_or_else(|| house.join(", "), str::to_string);
    let opts = LoadOptions {
        variant: variant.map(str::to_string),
        house: house.iter().map(|h| h.to_string()).collect(),
        budget: Budget {
            instructions: 50_000_000_000,
            wall: Duration::from_secs(600),
            ..Budget::default()
        },
        ..LoadOptions::default()
    };
    let rules = Rules::load(root, "backgammon", &opts).expect("backgammon loads");
    let dir = common::rules().join("../tests/lua/backgammon");
    let lua = &rules.host.lua;
    let run = || -> mlua::Result<i64> {
        let env = lua.create_table()?;
        let meta = lua.create_table()?;
        meta.raw_set("__index", rules.host.env().clone())?;
        env.set_metatable(Some(meta))?;
        let names = rules.seats.names(rules.seats.default);
        let mut switches = (*rules.switches).clone();
        switches.insert("cube".into(), KValue::Bool(false));
        let switches = Arc::new(switches);
        let new_state = lua.create_function(move |lua, ()| {
            raw::handle(lua, State::new(names.clone(), 1, switches.clone()))
        })?;
        env.raw_set("new_state", new_state)?;
        env.raw_set("positions", common::soak(POSITIONS))?;
        let load = |file: &str| -> mlua::Result<Function> {
            let text = std::fs::read_to_string(dir.join(file)).map_err(mlua::Error::external)?;
            lua.load(text)
                .set_name(format!("@tests/lua/backgammon/{file}"))
                .set_environment(env.clone())
                .into_function()
        };
        let support: Value = load("bg_support.lua")?.call(())?;
        let real_require: Function = rules.host.env().get("require")?;
        let require = lua.create_function(move |_, name: String| {
            if name == "bg_support" {
                return Ok(support.clone());
            }
            real_require.call::<Value>(name)
        })?;
        env.raw_set("require", require)?;
        let main = load("house_moves_check.lua")?;
        rules.host.limits.run(lua, || main.call::<i64>(()))
    };
    run().unwrap_or_else(|e| panic!("{name}: {}", message(&e)))
}

/// Runs the check in the shipped rules of `variant`.
fn check(variant: &str) {
    check_in(&common::rules(), Some(variant), &[]);
}

#[test]
fn the_ace_point_is_safe_moves_agree() {
    check("safe_ace_point");
}

#[test]
fn doubles_thrice_moves_agree() {
    check("doubles_thrice");
}

#[test]
fn both_movement_rules_moves_agree() {
    check("thrice_safe_ace");
}

/// `may_hit` is judged on the board before the move (rules.lua): a house rule whose answer
/// reads the mover's checkers, and so changes as they move, gives the same moves on both
/// paths.
#[test]
fn a_may_hit_reading_the_movers_checkers_moves_agree() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("rules");
    common::copy_dir(&common::rules(), &root);
    let fixture = common::rules().join("../tests/lua/backgammon/house/hit_in_reach.lua");
    std::fs::copy(fixture, root.join("backgammon/house/hit_in_reach.lua")).unwrap();
    let changed = check_in(&root, None, &["hit_in_reach"]);
    assert!(
        changed as u64 >= common::soak(POSITIONS) / 10,
        "moves changed may_hit's answer on {changed} positions"
    );
}
