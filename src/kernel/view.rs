//! Hidden information: secrets with the seats that may see them, the viewer a rule runs for,
//! private log lines, and the determinization a bot plays from (each value its seat may not
//! see resampled from the value's declared domain, as OpenSpiel's `ResampleFromInfostate`).

use std::collections::BTreeMap;

use super::rng::Stream;
use super::state::State;
use super::turn::Seat;
use super::value::Value;

/// A visibility mask with every bit set: everyone may see (a revealed secret, a public line).
pub const ALL_SEATS: u64 = u64::MAX;

/// The mask of one seat.
pub fn seat_bit(seat: Seat) -> u64 {
    1 << (seat - 1)
}

/// Whom an output is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Viewer {
    /// Sees everything: the kernel's own view, and the REPL's `as referee`.
    #[default]
    Referee,
    /// A seat (1..n), or 0 for a spectator, who sees only what everyone may see.
    Seat(Seat),
}

impl Viewer {
    /// Whether this viewer may see a value visible to the seats of `mask`.
    pub fn sees(self, mask: u64) -> bool {
        match self {
            Viewer::Referee => true,
            Viewer::Seat(0) => mask == ALL_SEATS,
            Viewer::Seat(s) => mask & seat_bit(s) != 0,
        }
    }

    /// The number rules see for the viewer: the seat, 0 for a spectator, nil for the referee.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Referee => None,
            Viewer::Seat(s) => Some(s),
        }
    }
}

/// Where a secret's value could have come from, as far as a seat that may not see it knows:
/// what a determinization resamples it from.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Domain {
    /// None declared: a determinization for a seat that may not see the secret fails.
    #[default]
    Undeclared,
    /// Any one of these values, uniformly.
    Values(Vec<Value>),
    /// An item of the named bag: the secret is exchangeable with the bag's items and with
    /// every other secret of the same bag that the seat may not see.
    Bag(String),
}

/// A value only some seats may see.
#[derive(Clone, Debug, PartialEq)]
pub struct Secret {
    pub value: Value,
    /// Bit s−1 set: seat s may see it; [`ALL_SEATS`]: revealed to everyone.
    pub visible: u64,
    pub domain: Domain,
}

/// One line of the game's log, with the seats that may read it.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    pub text: String,
    pub seen_by: u64,
    /// What the others read instead ("X chose"), if anything.
    pub otherwise: Option<String>,
}

impl LogLine {
    /// A line everyone may read.
    pub fn public(text: String) -> LogLine {
        LogLine {
            text,
            seen_by: ALL_SEATS,
            otherwise: None,
        }
    }

    /// The line as `viewer` reads it, if at all.
    pub fn for_viewer(&self, viewer: Viewer) -> Option<&str> {
        if viewer.sees(self.seen_by) {
            Some(&self.text)
        } else {
            self.otherwise.as_deref()
        }
    }
}

/// Resamples, in `state`, every value `seat` may not see from its declared domain,
/// consistently with what the seat has seen: the secrets of one bag and that bag's hidden
/// items are dealt out again from their union, a secret with a list of values takes one of
/// them, the secret streams are seeded anew (what they would draw is hidden too) and log
/// lines the seat may not read are dropped. A state without anything hidden from the seat
/// is left as it is. Fails, naming it, on a hidden secret that declares no domain.
pub fn determinize(state: &mut State, seat: Seat, seed: u64) -> Result<(), String> {
    let viewer = Viewer::Seat(seat);
    let mut rng = Stream::new(seed, "determinize");
    // Per bag: the hidden secrets drawn from it, and its items if the seat may not see them.
    let mut pools: BTreeMap<String, (Vec<String>, Vec<String>)> = BTreeMap::new();
    for (key, secret) in &mut state.secrets {
        if viewer.sees(secret.visible) {
            continue;
        }
        match &secret.domain {
            Domain::Undeclared => {
                return Err(format!(
                    "secret '{key}' is hidden from seat {seat} and declares no domain to resample it from"
                ));
            }
            Domain::Values(values) => {
                secret.value = values[rng.below(values.len() as u64) as usize].clone();
            }
            Domain::Bag(bag) => pools.entry(bag.clone()).or_default().0.push(key.clone()),
        }
    }
    let hidden_bags: Vec<String> = state
        .bags
        .keys()
        .filter(|b| !state.bag_visible(b, viewer))
        .cloned()
        .collect();
    for bag in hidden_bags {
        let items = std::mem::take(state.bags.get_mut(&bag).expect("listed"));
        pools.entry(bag).or_default().1 = items;
    }
    for (bag, (keys, mut items)) in pools {
        for key in &keys {
            match &state.secrets[key].value {
                Value::Str(s) => items.push(s.clone()),
                other => {
                    return Err(format!(
                        "secret '{key}' is drawn from bag '{bag}' but holds {}, not an item",
                        other.type_name()
                    ));
                }
            }
        }
        for i in (1..items.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
        for key in &keys {
            let item = items.pop().expect("one item per secret");
            state.secrets.get_mut(key).expect("listed").value = Value::Str(item);
        }
        if !state.bag_visible(&bag, viewer) {
            items.sort();
            state.bags.insert(bag, items);
        }
    }
    state.set_secret_seed(rng.next_u64());
    state.log.rewrite(|mut line| {
        if !viewer.sees(line.seen_by) {
            line.text = line.otherwise.take()?;
            line.seen_by = ALL_SEATS;
        }
        Some(line)
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn secret(value: &str, visible: u64, domain: Domain) -> Secret {
        Secret {
            value: Value::Str(value.into()),
            visible,
            domain,
        }
    }

    #[test]
    fn viewers_see_by_mask() {
        assert!(Viewer::Referee.sees(0));
        assert!(Viewer::Seat(2).sees(0b10));
        assert!(!Viewer::Seat(1).sees(0b10));
        assert!(!Viewer::Seat(0).sees(0b11));
        assert!(Viewer::Seat(0).sees(ALL_SEATS));
    }

    #[test]
    fn a_bag_and_its_hidden_secrets_are_dealt_again_from_their_union() {
        let mut s = State::new(vec!["A".into(), "B".into()], 1, Arc::default());
        for item in ["a", "b", "c", "d"] {
            s.bag_add("deck", item);
        }
        s.bag_seen.insert("deck".into(), 0);
        let deck = Domain::Bag("deck".into());
        s.secrets
            .insert("mine".into(), secret("x", seat_bit(1), deck.clone()));
        s.secrets
            .insert("theirs".into(), secret("y", seat_bit(2), deck.clone()));
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let mut d = s.clone();
            determinize(&mut d, 1, seed).unwrap();
            assert_eq!(d.secrets["mine"], s.secrets["mine"], "seat 1 sees its own");
            let Value::Str(v) = &d.secrets["theirs"].value else {
                panic!()
            };
            let mut all: Vec<String> = d.bags["deck"].clone();
            all.push(v.clone());
            all.sort();
            assert_eq!(all, ["a", "b", "c", "d", "y"], "the multiset is kept");
            seen.insert(v.clone());
        }
        assert_eq!(
            seen.len(),
            5,
            "every hidden item can be the secret: {seen:?}"
        );
    }

    #[test]
    fn a_state_with_nothing_hidden_is_kept_and_an_undeclared_domain_is_refused() {
        let mut s = State::new(vec!["A".into(), "B".into()], 1, Arc::default());
        s.secrets
            .insert("open".into(), secret("x", ALL_SEATS, Domain::Undeclared));
        let mut d = s.clone();
        determinize(&mut d, 2, 7).unwrap();
        assert_eq!(d.fingerprint(), s.fingerprint());
        s.secrets
            .insert("plan".into(), secret("x", seat_bit(1), Domain::Undeclared));
        let e = determinize(&mut s.clone(), 2, 7).unwrap_err();
        assert!(e.contains("secret 'plan'"), "{e}");
    }

    #[test]
    fn private_lines_are_dropped_or_read_as_the_others_read_them() {
        let mut s = State::new(vec!["A".into(), "B".into()], 1, Arc::default());
        s.log_for("A drew the ace".into(), seat_bit(1));
        s.log.push(LogLine {
            text: "A chose 3".into(),
            seen_by: seat_bit(1),
            otherwise: Some("A chose".into()),
        });
        determinize(&mut s, 2, 1).unwrap();
        let texts: Vec<&str> = s.log.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["A chose"]);
    }
}
