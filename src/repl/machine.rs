//! The machine interface, `tortuga moves <game> --position P` and the REPL's
//! `moves --position P`: what a game waits for in a position, on the rules given (their
//! variant and house rules), as one line of JSON for programs to read.
//!
//! A game with a `machine_moves` hook answers in its own format (backgammon's list of moves
//! and the positions they lead to, which its oracle tests read). Any other game is set up as
//! `setup` does, the position read by its `import` hook, the pending chance event forced with
//! `--dice` as `roll <values>` forces it, and what it then waits for described:
//!
//! ```json
//! {"game":"jackal","variant":null,"house":["safe_gold"],"waiting":"decision",
//!  "actor":{"seat":1,"name":"P1"},"prompt":"white to play (P1)",
//!  "options":["W1 G1->G2","W2 G1->G2","W3 G1->G2","ship G1->F1","ship G1->H1"]}
//! {"game":"race","variant":null,"house":[],"waiting":"chance","chance":"die"}
//! {"game":"race","variant":null,"house":[],"waiting":"over","result":"A wins",
//!  "scores":[{"seat":1,"name":"A","score":1.0},{"seat":2,"name":"B","score":0.0}]}
//! ```
//!
//! The options are the labels `moves` lists, in its order; the prompt is the game's own
//! (empty when it gives none); `house` lists every house rule on, the variant's included.

use std::rc::Rc;

use anyhow::{Result, anyhow, bail};
use mlua::Value as LuaValue;
use serde::Serialize;

use crate::kernel::Seat;
use crate::script::Rules;
use crate::session::{Game, Origin, Session, Status};

/// A seat, by number and by the name the game gives it.
#[derive(Serialize)]
struct Named {
    seat: Seat,
    name: String,
}

#[derive(Serialize)]
struct Score {
    seat: Seat,
    name: String,
    score: f64,
}

/// What the game waits for, under the key `waiting`.
#[derive(Serialize)]
#[serde(tag = "waiting", rename_all = "lowercase")]
enum Waiting {
    Decision {
        actor: Named,
        prompt: String,
        options: Vec<String>,
    },
    Chance {
        chance: String,
    },
    Over {
        result: String,
        scores: Vec<Score>,
    },
}

/// The answer, with the rules it was found on.
#[derive(Serialize)]
struct Answer<'a> {
    game: &'a str,
    variant: Option<&'a str>,
    /// Every house rule on: the variant's and those switched on beyond it.
    house: &'a [String],
    #[serde(flatten)]
    waiting: Waiting,
}

/// What a game waits for in `position` (its text, or `@FILE`), on `rules`, as JSON;
/// `dice` forces the chance event it waits for, `absolute` is for a hook that reads it.
pub fn machine_moves(
    rules: Rc<Rules>,
    position: &str,
    dice: Option<&str>,
    absolute: bool,
) -> Result<String> {
    let position = super::position_text(position).map_err(|e| anyhow!("--position {e:#}"))?;
    if rules.hook("machine_moves").is_some() {
        return hook(rules, &position, dice, absolute);
    }
    if absolute {
        bail!(
            "--absolute: {} positions have one orientation (--absolute is for a game with a \
             machine_moves hook)",
            rules.game
        );
    }
    let mut session = positioned(rules.clone(), position)
        .map_err(|e| anyhow!("--position: {} position refused: {e:#}", rules.game))?;
    if let Some(dice) = dice {
        force(&mut session, dice)?;
    }
    let waiting = match session.status()?.clone() {
        Status::Chance(chance, _) => Waiting::Chance { chance },
        Status::Decision { actor, prompt, .. } => Waiting::Decision {
            actor: Named {
                seat: actor,
                name: seat_name(&session.game, actor),
            },
            prompt,
            options: session.game.labels()?,
        },
        Status::Over { scores, result } => Waiting::Over {
            result,
            scores: session.game.with_state(|st| {
                (1..)
                    .zip(scores)
                    .map(|(seat, score)| Score {
                        seat,
                        name: st.turn.player_name(seat),
                        score,
                    })
                    .collect()
            }),
        },
    };
    let variant = &rules.variant;
    let answer = Answer {
        game: &rules.game,
        variant: Some(variant.name.as_str()).filter(|n| !n.is_empty()),
        house: &variant.house,
        waiting,
    };
    Ok(serde_json::to_string(&answer)?)
}

/// The name the game gives a seat.
fn seat_name(game: &Game, seat: Seat) -> String {
    game.with_state(|st| st.turn.player_name(seat))
}

/// The game's own `machine_moves` hook on a fresh state.
fn hook(rules: Rc<Rules>, position: &str, dice: Option<&str>, absolute: bool) -> Result<String> {
    let game = Game::new(rules.clone(), rules.seats.default, 0)?;
    let args = rules.host.lua.create_table()?;
    args.raw_set("position", position)?;
    if let Some(d) = dice {
        args.raw_set("dice", d)?;
    }
    args.raw_set("absolute", absolute)?;
    game.text_hook("machine_moves", LuaValue::Table(args))
}

/// A session in `position`, set up as `setup` sets one up (seed 0, as many seats as the
/// position says).
fn positioned(rules: Rc<Rules>, position: String) -> Result<Session> {
    let variant = &rules.variant;
    let origin = Origin {
        game: rules.game.clone(),
        variant: Some(variant.name.clone()).filter(|n| !n.is_empty()),
        house: variant.house.clone(),
        overrides: Vec::new(),
        seats: super::position_seats(&rules, &position)?,
        seed: 0,
        secret_seed: None,
        position: Some(position),
    };
    Session::new(rules, origin)
}

/// Forces the pending chance event to the outcome `dice` names, words as `roll` takes them.
fn force(session: &mut Session, dice: &str) -> Result<()> {
    let words: Vec<&str> = dice.split_whitespace().collect();
    if words.is_empty() {
        bail!("--dice: no outcome given (the words `roll` takes, e.g. --dice '6 5')");
    }
    let decides = match session.status()? {
        Status::Chance(..) => None,
        Status::Decision { actor, .. } => Some(*actor),
        Status::Over { .. } => bail!("--dice '{dice}': the game is over in this position"),
    };
    if let Some(actor) = decides {
        bail!(
            "--dice '{dice}': this position waits for {}'s decision, not for a chance event",
            seat_name(&session.game, actor)
        );
    }
    session
        .roll(&words)
        .map_err(|e| anyhow!("--dice '{dice}': {e:#}"))?;
    Ok(())
}
