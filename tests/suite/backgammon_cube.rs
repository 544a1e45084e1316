//! The cube as bots use it (spec §6; issue: the doubling cube as players use it): in
//! bot-against-bot 5-point matches no double goes past what the match needs and none comes in
//! the Crawford game, and `greedy`, `greedy:pubeval` and `mcts` share the cube's decisions.

use crate::common;

use std::rc::Rc;

use tortuga::kernel::Value;
use tortuga::script::Rules;
use tortuga::session::{Game, Status};
use tortuga::sim::bots::{Bot, BotSpec, Budget};

fn prop(game: &Game, key: &str) -> Option<Value> {
    game.with_state(|s| s.props.get(key).cloned())
}

fn int(game: &Game, key: &str) -> i64 {
    match prop(game, key) {
        Some(Value::Int(i)) => i,
        _ => 0,
    }
}

fn score(game: &Game) -> [i64; 2] {
    match prop(game, "score") {
        Some(Value::List(v)) => [0, 1].map(|i| match v[i] {
            Value::Int(n) => n,
            _ => panic!("score {v:?}"),
        }),
        _ => [0, 0],
    }
}

/// Plays one 5-point match between `bots` (X, O) from `seed`; returns the doubles offered and
/// the highest cube, asserting at each double that the cube is below what a side needs.
fn play_match(rules: &Rc<Rules>, bots: [BotSpec; 2], seed: u64) -> (u32, i64) {
    let mut game = Game::new(rules.clone(), 2, seed).expect("setup");
    // as `sim` plays: no undo snapshot per step, nor a second status check
    game.transactional = false;
    game.check_returned_status = false;
    let mut players = [0, 1].map(|i| Bot::new(bots[i].clone(), seed, i as u32 + 1));
    let (mut doubles, mut highest) = (0, 1);
    for _ in 0..20_000 {
        match game.status().expect("status").clone() {
            Status::Over { .. } => return (doubles, highest),
            Status::Chance(..) => {
                game.resolve_chance(None).expect("dice");
            }
            Status::Decision { actor, .. } => {
                let i = players[actor as usize - 1]
                    .choose(&mut game)
                    .expect("a choice");
                if game.label(i).unwrap() == "double" {
                    let (cube, [x, o]) = (int(&game, "cube"), score(&game));
                    let need = (5 - x).max(5 - o);
                    assert!(
                        cube < need,
                        "seed {seed}: {} doubles a cube of {cube} at {x}-{o}",
                        bots[actor as usize - 1]
                    );
                    assert_ne!(
                        prop(&game, "crawford"),
                        Some(Value::Bool(true)),
                        "seed {seed}: a double in the Crawford game"
                    );
                    doubles += 1;
                }
                game.apply(i).expect("apply");
                highest = highest.max(int(&game, "cube"));
            }
        }
    }
    panic!("seed {seed}: the match did not end");
}

#[test]
fn five_point_matches_never_double_past_what_the_match_needs() {
    let pairs = [
        [BotSpec::Greedy(None), BotSpec::Greedy(None)],
        [
            BotSpec::Greedy(Some("pubeval".into())),
            BotSpec::Greedy(None),
        ],
        [
            BotSpec::Greedy(None),
            BotSpec::Greedy(Some("pubeval".into())),
        ],
    ];
    let rules = common::load("backgammon", &[("match_length", "5")]);
    let (mut doubles, mut highest) = (0, 0);
    let matches = common::soak(1_000);
    for seed in 0..matches {
        let (d, h) = play_match(&rules, pairs[seed as usize % 3].clone(), seed);
        doubles += d;
        highest = highest.max(h);
    }
    // The bots do use the cube (a match with no double would prove nothing), and the cube
    // never runs away: 8 is the most a 5-point match can need.
    assert!(
        doubles >= matches as u32,
        "{doubles} doubles in {matches} matches"
    );
    assert!(highest <= 8, "a cube of {highest}");
}

#[test]
fn mcts_takes_the_cubes_decisions_as_greedy_does() {
    let rules = common::load("backgammon", &[("match_length", "5")]);
    let mut game = Game::new(rules, 2, 3).expect("setup");
    let mut greedy = [1, 2].map(|s| Bot::new(BotSpec::Greedy(None), 3, s));
    let mut mcts = [1, 2].map(|s| Bot::new(BotSpec::Mcts(Budget::Iterations(4)), 3, s));
    let mut compared = 0;
    while compared < common::soak(200).max(20) {
        match game.status().expect("status").clone() {
            Status::Over { .. } => break,
            Status::Chance(..) => {
                game.resolve_chance(None).expect("dice");
            }
            Status::Decision { actor, count, .. } => {
                let i = greedy[actor as usize - 1]
                    .choose(&mut game)
                    .expect("greedy");
                let cube = game.label(0).unwrap() == "roll" || game.label(0).unwrap() == "take";
                if cube && count > 1 {
                    let j = mcts[actor as usize - 1].choose(&mut game).expect("mcts");
                    assert_eq!(game.label(j).unwrap(), game.label(i).unwrap());
                    compared += 1;
                }
                game.apply(i).expect("apply");
            }
        }
    }
    assert!(compared >= 20, "{compared} cube decisions compared");
}

/// A cube action the rules forbid says why: in the Crawford game (where the turn begins with
/// the roll, no double being offered), with the cube switched off, and a beaver in a match.
#[test]
fn a_refused_cube_action_says_why() {
    let mut r = common::repl(&common::rules());
    let crawford = r#"setup backgammon {"board":[0,0,0,0,2,4,-2,2,0,0,0,-3,5,0,0,0,-3,-2,-5,0,0,0,0,2],"bar":[0,0],"off":[0,0],"on_roll":"x","cube":{"value":1,"owner":"center"},"match":{"length":5,"score":[4,2],"crawford":true}}"#;
    common::run(
        &mut r,
        &["new backgammon --variant match5 --seed 2", crawford],
    );
    let e = common::fails(&mut r, "double");
    assert!(e.contains("no doubling in the Crawford game"), "{e}");
    common::run(
        &mut r,
        &[
            "new backgammon --set cube=false --seed 2",
            "roll 3 1",
            "8/5 6/5",
        ],
    );
    let e = common::fails(&mut r, "double");
    assert!(e.contains("the cube is off in this game"), "{e}");
    common::run(
        &mut r,
        &[
            "new backgammon --variant match5 --seed 2",
            "roll 3 1",
            "8/5 6/5",
        ],
    );
    common::run(&mut r, &["roll 6 6", "24/18 24/18 13/7 13/7", "double"]);
    let e = common::fails(&mut r, "beaver");
    assert!(e.contains("no beavers in match play"), "{e}");
}
