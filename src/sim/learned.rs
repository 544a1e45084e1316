//! Playing by a learned evaluation: a seat's inputs (the game's `features` hook, or the
//! generic encoding), the estimates of the game's outcomes and what they are worth (its
//! `equity` hook), the option whose result is worth most (0-ply) or is expected to be one
//! chance event ahead (1-ply), and the weights the `learned` bot finds for a ruleset. `train`
//! uses the same functions, so a bot plays as its evaluation learned to.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::SystemTime;

use anyhow::{Result, bail};

use super::report::rewards;
use crate::learn::encoding::{Seen, encode};
use crate::learn::net::{Net, set_inputs};
use crate::learn::weights::{Ruleset, Weights, cache_path};
use crate::script::Rules;
use crate::session::{Game, Status};

/// Where a game's inputs come from: its `features` hook, else the generic encoding, with the
/// game's `eval` among its inputs where it has one.
pub fn encoding_of(rules: &Rules) -> &'static str {
    if rules.hook("features").is_some() {
        "features"
    } else if rules.hook("eval").is_some() {
        "generic+eval"
    } else {
        "generic"
    }
}

/// One seat's inputs in `game` now: the game's `features` hook, checked for length, or the
/// generic encoding in `inputs` slots (with the game's `eval` for the seat, where it has one).
pub fn features(game: &mut Game, seat: u32, inputs: usize) -> Result<Vec<f32>> {
    if !game.has_hook("features") {
        let (actor, chance) = match game.status()? {
            Status::Decision { actor, .. } => (Some(*actor), None),
            Status::Chance(name, _) => (None, Some(name.clone())),
            Status::Over { .. } => (None, None),
        };
        // in the seat's view, as the features hook runs
        let eval = if game.has_hook("eval") {
            Some(game.query_hook_for::<_, f64>(seat, "eval", seat)?)
        } else {
            None
        };
        let seen = Seen {
            seat,
            actor,
            chance: chance.as_deref(),
            eval,
        };
        let mut x = vec![0.0; inputs];
        game.with_state(|s| encode(s, &seen, &mut x));
        return Ok(x);
    }
    // in the seat's view: a rule that reads what the seat may not see fails, never learns it
    let x: Vec<f32> = game.query_hook_for(seat, "features", seat)?;
    if x.len() != inputs {
        bail!(
            "{}: features gave {} numbers, not {inputs} as before",
            game.rules.game,
            x.len()
        );
    }
    Ok(x)
}

/// What the state of `game` is worth to `seat` by `net`: its estimate that `seat` wins (the
/// reward, once the game is over), turned by the game's `equity` hook where it declares one
/// into what the seat plays for (backgammon: points or the match, with the cube where it is).
pub fn worth(game: &mut Game, net: &Net, seat: u32) -> Result<f32> {
    Ok(estimate_and_worth(game, net, seat)?.1)
}

/// The estimates of the game's outcomes for `seat` in the state of `game` (once it is over,
/// their values).
pub fn estimates(game: &mut Game, net: &Net, seat: u32) -> Result<Vec<f32>> {
    match game.status()? {
        Status::Over { .. } => outcome(game, seat),
        _ => Ok(net.values_of_set(&set_inputs(&features(game, seat, net.inputs)?))),
    }
}

/// The estimate that `seat` wins and the [`worth`] of the state of `game` to it.
pub fn estimate_and_worth(game: &mut Game, net: &Net, seat: u32) -> Result<(f32, f32)> {
    let estimate = estimates(game, net, seat)?;
    let win = estimate[0];
    if game.rules.hook("equity").is_none() {
        return Ok((win, win));
    }
    let named: HashMap<&str, f32> = game
        .rules
        .outcomes
        .iter()
        .map(String::as_str)
        .zip(estimate)
        .collect();
    let v: f64 = game.query_hook("equity", (seat, named))?;
    Ok((win, v as f32))
}

/// The values of the game's `outcomes` for `seat` in a finished game: the `outcome` hook's
/// where the game declares outcomes beyond `win`, and the seat's reward (the winners share 1)
/// for `win` unless the hook gives it.
pub fn outcome(game: &mut Game, seat: u32) -> Result<Vec<f32>> {
    let outcomes = game.rules.outcomes.clone();
    let seats = game.with_state(|s| s.turn.seats()) as usize;
    let Status::Over { scores, .. } = game.status()? else {
        bail!("the game is not over");
    };
    let reward = rewards(scores, seats)[seat as usize - 1] as f32;
    if outcomes.len() == 1 {
        return Ok(vec![reward]);
    }
    let values: HashMap<String, f64> = game.query_hook("outcome", seat)?;
    outcomes
        .iter()
        .map(|name| match values.get(name) {
            Some(v) if v.is_finite() => Ok(*v as f32),
            None if name == "win" => Ok(reward),
            _ => bail!(
                "{}: outcome gave no number for `{name}` (outcomes: {})",
                game.rules.game,
                outcomes.join(", ")
            ),
        })
        .collect()
}

/// Each option of the current decision judged for `seat` by `net`, in option order: the
/// estimate that the seat wins after it, and its [`worth`]; `game` is left as it was.
pub fn judge_options(
    game: &mut Game,
    net: &Net,
    seat: u32,
    count: usize,
) -> Result<Vec<(f32, f32)>> {
    let root = game.snapshot();
    let judged = (0..count)
        .map(|i| {
            game.restore(root.clone());
            game.apply(i)?;
            estimate_and_worth(game, net, seat)
        })
        .collect();
    game.restore(root);
    judged
}

/// The option of the current decision whose result `net` rates best for `seat` (the first of
/// equals; [`worth`]), with its worth; `game` is left as it was.
pub fn best_option(game: &mut Game, net: &Net, seat: u32, count: usize) -> Result<(usize, f32)> {
    let mut best = (0, f32::NEG_INFINITY);
    for (i, (_, v)) in judge_options(game, net, seat, count)?
        .into_iter()
        .enumerate()
    {
        if v > best.1 {
            best = (i, v);
        }
    }
    Ok(best)
}

/// The options a 1-ply search looks ahead from: the best at 0-ply (as gnubg filters moves).
pub const ONE_PLY_CANDIDATES: usize = 6;
/// Decisions before the chance event that 1-ply follows (backgammon's cube: two).
const MAX_HOPS: usize = 8;

/// 1-ply: among the best few options at 0-ply, the one whose result `seat` may expect to be
/// worth most one chance event ahead (gnubg's 1-ply: every roll of the opponent, each with
/// its probability, answered by the opponent's best move at 0-ply); `game` is left as it was.
pub fn best_option_1ply(
    game: &mut Game,
    net: &Net,
    seat: u32,
    count: usize,
) -> Result<(usize, f32)> {
    let mut ranked: Vec<(usize, f32)> = judge_options(game, net, seat, count)?
        .into_iter()
        .map(|(_, v)| v)
        .enumerate()
        .collect();
    let root = game.snapshot();
    // stable: the first of equals stays ahead
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked.truncate(ONE_PLY_CANDIDATES);
    let mut best = (ranked[0].0, f32::NEG_INFINITY);
    for &(i, _) in &ranked {
        game.restore(root.clone());
        game.apply(i)?;
        let v = look_ahead(game, net, seat)?;
        if v > best.1 {
            best = (i, v);
        }
    }
    game.restore(root);
    Ok(best)
}

/// What the state of `game` is worth to `seat` once the next chance event has fallen: the
/// decisions of other seats before it taken at 0-ply, its outcomes listed with their
/// probabilities, and the decision that follows each taken at 0-ply by its seat. A decision
/// of `seat`'s own, the end, or a chance event too large to list stops the look ahead there.
fn look_ahead(game: &mut Game, net: &Net, seat: u32) -> Result<f32> {
    for _ in 0..MAX_HOPS {
        match *game.status()? {
            Status::Decision { actor, count, .. } if actor != seat => {
                let (i, _) = best_option(game, net, actor, count)?;
                game.apply(i)?;
            }
            Status::Chance(..) => {
                let Some(outcomes) = game.chance_outcomes()? else {
                    break;
                };
                let at = game.snapshot();
                let mut sum = 0.0;
                for (words, p) in outcomes {
                    game.restore(at.clone());
                    let words: Vec<&str> = words.iter().map(String::as_str).collect();
                    game.resolve_chance(Some(&words))?;
                    if let Status::Decision { actor, count, .. } = *game.status()?
                        && actor != seat
                    {
                        let (i, _) = best_option(game, net, actor, count)?;
                        game.apply(i)?;
                    }
                    sum += p * f64::from(worth(game, net, seat)?);
                }
                return Ok(sum as f32);
            }
            _ => break,
        }
    }
    worth(game, net, seat)
}

thread_local! {
    /// The last weights read on this thread, with their file's time: a study's games each
    /// start new bots, which then need not read the file again.
    static LAST: RefCell<Option<(PathBuf, SystemTime, Rc<Net>)>> = const { RefCell::new(None) };
}

thread_local! {
    /// The ruleset each ruleset plays by, once loaded (see [`evaluated_ruleset`]).
    static EVALUATED: RefCell<HashMap<String, Ruleset>> = RefCell::new(HashMap::new());
}

/// The ruleset whose evaluation `rules` plays by and `train` learns: `rules`' own, or the one
/// the game table's `learns` makes of it ([`Rules::evaluated_as`]), loaded once a thread.
pub fn evaluated_ruleset(rules: &Rules) -> Result<Ruleset> {
    let own = Ruleset::of(rules);
    if rules.evaluated_as().is_none() {
        return Ok(own);
    }
    let key = toml::to_string(&own)?;
    if let Some(r) = EVALUATED.with_borrow(|m| m.get(&key).cloned()) {
        return Ok(r);
    }
    let evaluated = match rules.load_evaluated()? {
        Some(other) => Ruleset::of(&other),
        None => own,
    };
    EVALUATED.with_borrow_mut(|m| m.insert(key, evaluated.clone()));
    Ok(evaluated)
}

/// The weights `train` wrote for the ruleset `rules` plays by (in the user's cache), or an
/// error that names the command that makes them.
pub fn weights_for(rules: &Rules) -> Result<Rc<Net>> {
    let ruleset = evaluated_ruleset(rules)?;
    let path = cache_path(&ruleset)?;
    if !path.is_file() {
        let mut command = format!("tortuga train {}", rules.game);
        if !rules.variant.name.is_empty() {
            command += &format!(" --variant {}", rules.variant.name);
        }
        for h in &rules.variant.house {
            command += &format!(" --house {h}");
        }
        for def in &rules.switch_defs {
            let value = &rules.switches[&def.name];
            if *value != def.default && !rules.variant.switches.contains_key(&def.name) {
                command += &format!(" --set {}={}", def.name, value.to_literal());
            }
        }
        bail!(
            "the learned bot has no weights for this {} ruleset: train them with `{command} --games N`",
            rules.game
        );
    }
    let time = std::fs::metadata(&path)?.modified()?;
    if let Some(net) = LAST.with_borrow(|last| match last {
        Some((p, t, net)) if *p == path && *t == time => Some(net.clone()),
        _ => None,
    }) {
        return Ok(net);
    }
    let w = Weights::read(&path)?;
    w.check_ruleset(&path, &ruleset, encoding_of(rules), &rules.outcomes)?;
    let net = Rc::new(w.net());
    LAST.set(Some((path, time, net.clone())));
    Ok(net)
}
