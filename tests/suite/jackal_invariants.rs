//! Random Jackal games under the invariants of §9: gold is conserved, nobody stands on a
//! closed tile, enemies share only jungles and spinners, items lie only where they may, and
//! every game ends without a script error or a stall. `TORTUGA_SOAK` sizes the runs.

use crate::common;

use std::rc::Rc;

use tortuga::kernel::rng::Stream;
use tortuga::script::Rules;
use tortuga::session::{Game, Status};

const MAX_STEPS: u64 = 60_000;

/// Games a case plays: `full` at the full soak size.
fn games(full: u64) -> u64 {
    common::soak(full)
}

fn rules(sets: &[(&str, &str)]) -> Rc<Rules> {
    common::load("jackal", sets)
}

/// Plays one random game, checking the invariants after every step. Returns the steps taken.
fn play(rules: &Rc<Rules>, seats: u32, seed: u64) -> u64 {
    let mut game = Game::new(rules.clone(), seats, seed).expect("setup");
    game.with_state_mut(|s| s.logging = false);
    let mut bot = Stream::new(seed, "bots");
    let mut steps = 0;
    let mut recent: Vec<String> = Vec::new();
    loop {
        let mode = if steps % 16 == 0 { "full" } else { "light" };
        let problems = game.text_hook("check", mode).expect("check");
        assert!(
            problems.is_empty(),
            "seed {seed}, {seats} players, step {steps}:\n{problems}\nlast steps: {}\n{}",
            recent.join(" | "),
            game.text_hook("export", ()).unwrap_or_default()
        );
        if recent.len() > 12 {
            recent.remove(0);
        }
        let status = game
            .status()
            .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e:#}"))
            .clone();
        match status {
            Status::Over { .. } => return steps,
            Status::Chance(..) => {
                let (name, outcome) = game
                    .resolve_chance(None)
                    .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e:#}"));
                recent.push(format!("{name} {outcome:?}"));
            }
            Status::Decision { count, .. } => {
                let i = bot.below(count as u64) as usize;
                recent.push(game.label(i).unwrap_or_default());
                game.apply(i)
                    .unwrap_or_else(|e| panic!("seed {seed} step {steps}: {e:#}"));
            }
        }
        steps += 1;
        assert!(
            steps < MAX_STEPS,
            "seed {seed}: no end after {MAX_STEPS} steps"
        );
    }
}

#[test]
fn random_games_two_players() {
    let r = rules(&[]);
    for seed in 1..=games(20) {
        play(&r, 2, seed);
    }
}

#[test]
fn random_games_four_players() {
    let r = rules(&[]);
    for seed in 1..=games(20) {
        play(&r, 4, 1000 + seed);
    }
}

#[test]
fn random_games_three_players_classic() {
    let r = rules(&[("pack", "classic")]);
    for seed in 1..=games(10) {
        play(&r, 3, 2000 + seed);
    }
}

#[test]
fn random_games_2v2_with_alternative_chains() {
    let r = rules(&[
        ("seating", "2v2"),
        ("plane_deferred", "false"),
        ("ice_after_horse", "same_vector"),
        ("horse_into_sea", "ships_only"),
        ("caramba", "all_to_ships"),
        ("rum_timing", "free_action"),
        ("loop_rule", "fourth_visit"),
        ("missionary_block", "classic"),
        ("jungle_items", "allowed"),
    ]);
    for seed in 1..=games(10) {
        play(&r, 4, 3000 + seed);
    }
}

#[test]
fn random_games_duo_with_archipelago_caves() {
    let r = rules(&[
        ("seating", "duo"),
        ("rum_timing", "end_of_turn"),
        ("cave_model", "archipelago"),
        ("game_end", "decided"),
        ("ship_range", "full_side"),
        ("swim_moves", "orthogonal"),
    ]);
    for seed in 1..=games(10) {
        play(&r, 2, 4000 + seed);
    }
}

#[test]
fn random_games_with_every_other_alternative() {
    let r = rules(&[
        ("lighthouse", "peek4_permute"),
        ("quake_rotate", "true"),
        ("quake_scope", "open"),
        ("forced_coin_blocked", "move_illegal"),
        ("cannibal_item", "stays"),
        ("cannon_open_sea", "die"),
        ("plane_targets", "no_transit"),
        ("trap_enemy_entry", "attacker_free"),
        ("trap_release", "friend_only"),
        ("respawn_allies", "true"),
        ("respawn_limit", "pirates"),
        ("newborn_skips_turn", "true"),
        ("grass_duration", "teams_plus_one"),
        ("game_end", "first_to"),
        ("first_to_n", "12"),
        ("tiebreak", "living"),
        ("spinner_coin_block", "false"),
        ("friday_missionary_meet", "ignore"),
        ("ship_pickup", "false"),
        ("allied_ship_sail", "false"),
        ("rum_sharing", "team"),
        ("first_team", "red"),
    ]);
    for seed in 1..=games(10) {
        play(&r, 4, 5000 + seed);
    }
}

#[test]
fn random_games_2v2_with_swapping_caves() {
    let r = rules(&[
        ("seating", "2v2"),
        ("lighthouse", "peek4"),
        ("caramba", "remove"),
        ("cave_model", "swap"),
    ]);
    for seed in 1..=games(10) {
        play(&r, 4, 6000 + seed);
    }
}
