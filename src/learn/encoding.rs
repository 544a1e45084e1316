//! The generic encoding: inputs for a learned evaluation of any game, derived from what the
//! kernel holds, so that a game without a `features` hook (or a new tile, or a house rule)
//! trains with no code.
//!
//! Each fact a seat may know becomes a named feature, hashed into one of `inputs` slots (the
//! hashing trick: a fixed length whatever the game's names, collisions adding up). Facts:
//! - the pieces: for each kind, owner and place, whether 1, 2, 3 are there and how many more
//!   (TD-Gammon's units), and each kind and owner's total;
//! - the props of the game, the players, the places and the pieces: a number as its squashed
//!   value (and, when a small integer, as a category), a boolean or a short string as a
//!   category, lists and maps item by item;
//! - the secrets the seat may see, the bags' sizes and the contents it may see;
//! - whose turn, whose decision or which chance event;
//! - the game's own `eval` of the state for the seat, where it has one, at several scales: the
//!   knowledge its authors wrote for the greedy bot, which the network learns to weigh.
//!
//! Owners and players are named relative to the seat (0 = the seat itself), so one network
//! serves every seat. Nothing the seat may not see is read: a hidden secret or bag content is
//! skipped, and the rest of the state is public.

use std::collections::BTreeMap;

use crate::kernel::{Seat, State, Value, Viewer};

/// Slots of a generic encoding unless told otherwise.
pub const DEFAULT_INPUTS: usize = 4096;
/// Items of a list or map encoded, and the depth of nesting followed.
const MAX_ITEMS: usize = 64;
const MAX_DEPTH: u32 = 3;

/// What the encoding reads besides the state: the seat it is for and what the game waits for.
pub struct Seen<'a> {
    pub seat: Seat,
    /// The seat deciding now, if the game waits for a decision.
    pub actor: Option<Seat>,
    /// The chance event the game waits for, if any.
    pub chance: Option<&'a str>,
    /// The game's `eval` of the state for the seat, if it has one.
    pub eval: Option<f64>,
}

/// The scales at which the game's `eval` is an input: each squashed, so that evaluations in
/// tenths of a coin and in hundreds of pips alike tell their values apart at one of them.
const EVAL_SCALES: [f64; 4] = [0.125, 1.0, 8.0, 64.0];

/// FNV-1a, 64 bits: written here because the slots must not change with the compiler's
/// hasher (weights files outlive builds).
#[derive(Clone, Copy)]
struct Key(u64);

impl Key {
    fn new(tag: &str) -> Key {
        Key(0xcbf2_9ce4_8422_2325).str(tag)
    }
    fn bytes(self, bytes: &[u8]) -> Key {
        let mut h = self.0;
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        // a separator, so ("ab", "c") and ("a", "bc") differ
        Key((h ^ 0xff).wrapping_mul(0x0100_0000_01b3))
    }
    fn str(self, s: &str) -> Key {
        self.bytes(s.as_bytes())
    }
    fn int(self, i: i64) -> Key {
        self.bytes(&i.to_le_bytes())
    }
}

struct Out<'a> {
    x: &'a mut [f32],
}

impl Out<'_> {
    fn add(&mut self, key: Key, v: f32) {
        let n = self.x.len() as u64;
        self.x[(key.0 % n) as usize] += v;
    }

    /// A value under `key`: numbers squashed into (-1, 1) (and small integers also as a
    /// category), booleans and strings as categories, lists and maps item by item.
    fn value(&mut self, key: Key, v: &Value, depth: u32) {
        match v {
            Value::Bool(b) => self.add(key.int(i64::from(*b)), 1.0),
            Value::Int(i) => {
                self.add(key, squash(*i as f64));
                if (-16..=16).contains(i) {
                    self.add(key.str("=").int(*i), 1.0);
                }
            }
            Value::Num(x) => self.add(key, squash(*x)),
            Value::Str(s) if is_word(s) => self.add(key.str(s), 1.0),
            Value::Str(_) => {}
            Value::List(items) if depth < MAX_DEPTH => {
                self.add(key.str("#"), squash(items.len() as f64));
                for (i, item) in items.iter().take(MAX_ITEMS).enumerate() {
                    self.value(key.int(i as i64), item, depth + 1);
                }
            }
            Value::Map(items) if depth < MAX_DEPTH => {
                for (k, item) in items.iter().take(MAX_ITEMS) {
                    self.value(key.str(k), item, depth + 1);
                }
            }
            Value::List(_) | Value::Map(_) => {}
        }
    }
}

/// Whether a string prop reads as a category (a phase, a name): short, without control
/// characters. Anything else is packed data (Chaupar keeps its board as 16 bytes) whose every
/// value would be a category of its own, seen once: noise to the network.
fn is_word(s: &str) -> bool {
    s.len() <= MAX_WORD && !s.chars().any(char::is_control)
}

/// The longest string prop taken as a category.
const MAX_WORD: usize = 32;

/// A number squashed into (-1, 1), still telling small values apart.
fn squash(x: f64) -> f32 {
    let y = x / 8.0;
    (y / (1.0 + y.abs())) as f32
}

/// Seat `s` as `seat` sees it: 0 itself, then the others in turn order; an owner of 0
/// (nobody) stays apart.
fn relative(s: Seat, seat: Seat, seats: u32) -> i64 {
    if s == 0 || seats == 0 {
        return -1;
    }
    i64::from((s + seats - seat) % seats)
}

/// The generic encoding of `state` for `seen.seat`, into `x` (its length is the number of
/// slots; cleared first).
pub fn encode(state: &State, seen: &Seen, x: &mut [f32]) {
    x.fill(0.0);
    let mut out = Out { x };
    let (seat, seats) = (seen.seat, state.turn.seats());
    let viewer = Viewer::Seat(seat);
    let rel = |s: Seat| relative(s, seat, seats);

    let mut stacks: BTreeMap<(&str, i64, u32), u32> = BTreeMap::new();
    for (_, piece) in state.pieces() {
        let owner = rel(piece.owner);
        *stacks.entry((&piece.kind, owner, piece.loc)).or_default() += 1;
        let at = Key::new("piece prop")
            .str(&piece.kind)
            .int(owner)
            .int(i64::from(piece.loc));
        for (k, v) in piece.props.iter() {
            out.value(at.str(k), v, 0);
        }
    }
    let mut totals: BTreeMap<(&str, i64), u32> = BTreeMap::new();
    for (&(kind, owner, loc), &n) in &stacks {
        *totals.entry((kind, owner)).or_default() += n;
        let at = Key::new("pieces").str(kind).int(owner).int(i64::from(loc));
        for unit in 1..=n.min(3) {
            out.add(at.int(i64::from(unit)), 1.0);
        }
        if n > 3 {
            out.add(at.str("more"), (n - 3) as f32 / 2.0);
        }
    }
    for ((kind, owner), n) in totals {
        out.add(Key::new("total").str(kind).int(owner), squash(f64::from(n)));
    }

    for (k, v) in state.props.iter() {
        out.value(Key::new("prop").str(k), v, 0);
    }
    for (i, props) in state.player_props.iter().enumerate() {
        let at = Key::new("player").int(rel(i as Seat + 1));
        for (k, v) in props.iter() {
            out.value(at.str(k), v, 0);
        }
    }
    for loc in 1..=state.topology.len() {
        let at = Key::new("place").int(loc as i64);
        for (k, v) in state.cell_props(loc as u32).iter() {
            out.value(at.str(k), v, 0);
        }
    }

    for (name, secret) in &state.secrets {
        if viewer.sees(secret.visible) {
            out.value(Key::new("secret").str(name), &secret.value, 0);
        }
    }
    for (name, items) in &state.bags {
        out.add(Key::new("bag").str(name), squash(items.len() as f64));
        if state.bag_visible(name, viewer) {
            for item in items {
                out.add(Key::new("bag item").str(name).str(item), 1.0);
            }
        }
    }

    out.add(Key::new("turn").int(rel(state.turn.current())), 1.0);
    if let Some(actor) = seen.actor {
        out.add(Key::new("actor").int(rel(actor)), 1.0);
    }
    if let Some(name) = seen.chance {
        out.add(Key::new("chance").str(name), 1.0);
    }
    if let Some(e) = seen.eval.filter(|e| e.is_finite()) {
        for (i, scale) in EVAL_SCALES.iter().enumerate() {
            out.add(Key::new("eval").int(i as i64), squash(e / scale));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn encoded(props: &[(&str, &str)]) -> Vec<f32> {
        let mut state = State::new(vec!["A".into(), "B".into()], 1, Arc::default());
        for (k, v) in props {
            state.props.insert(k.to_string(), Value::Str(v.to_string()));
        }
        let seen = Seen {
            seat: 1,
            actor: Some(1),
            chance: None,
            eval: None,
        };
        let mut x = vec![0.0; 512];
        encode(&state, &seen, &mut x);
        x
    }

    /// A phase is a category the network can learn; a board packed into bytes is not.
    #[test]
    fn words_are_categories_and_packed_strings_are_skipped() {
        assert_ne!(encoded(&[("phase", "move")]), encoded(&[("phase", "roll")]));
        assert_eq!(
            encoded(&[("at", "\u{1}\u{2}\u{0}")]),
            encoded(&[("at", "\u{3}\u{0}\u{9}")])
        );
        let long = "x".repeat(MAX_WORD + 1);
        assert_eq!(encoded(&[("log", &long)]), encoded(&[]));
    }

    /// The game's eval tells its values apart at one scale or another, small or large.
    #[test]
    fn the_eval_is_an_input_at_several_scales() {
        let state = State::new(vec!["A".into(), "B".into()], 1, Arc::default());
        let at = |eval: f64| {
            let seen = Seen {
                seat: 1,
                actor: None,
                chance: None,
                eval: Some(eval),
            };
            let mut x = vec![0.0; 512];
            encode(&state, &seen, &mut x);
            x
        };
        for (a, b) in [(0.1, 0.2), (300.0, 600.0)] {
            let (xa, xb) = (at(a), at(b));
            let spread = xa
                .iter()
                .zip(&xb)
                .map(|(p, q)| (p - q).abs())
                .fold(0.0, f32::max);
            assert!(spread > 0.05, "{a} and {b} encode almost alike ({spread})");
        }
    }
}
