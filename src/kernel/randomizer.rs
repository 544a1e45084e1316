//! Randomizers that rules declare: dice with any faces, cowrie shells, weighted spinners,
//! shuffled bags and random orientations. Each draws from its own named stream; each outcome
//! can instead be forced by the user (`roll 6 5`), which is checked against what the
//! randomizer could have produced.

use super::state::State;
use super::value::Value;

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// `count` dice, each showing one of `faces` uniformly.
    Dice { faces: Vec<i64>, count: usize },
    /// `count` shells, each mouth-up with probability `p`; `values[k]` scores k mouths up.
    Cowries {
        count: usize,
        p: f64,
        values: Vec<i64>,
    },
    /// Named sectors with integer weights.
    Spinner { sectors: Vec<(String, u64)> },
    /// One item drawn from the state's bag `bag`.
    Bag { bag: String },
    /// A uniform turn 0..count.
    Orientation { count: i64 },
}

impl Kind {
    /// The kind's name, as rules declare it.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Dice { .. } => "dice",
            Kind::Cowries { .. } => "cowries",
            Kind::Spinner { .. } => "spinner",
            Kind::Bag { .. } => "bag",
            Kind::Orientation { .. } => "orientation",
        }
    }

    /// Whether the parameters describe something that can be drawn: faces to show, a
    /// probability, a score for every count of shells up, sectors of positive weight with
    /// distinct names, at least one orientation.
    pub fn check(&self) -> Result<(), String> {
        match self {
            Kind::Dice { faces, count } => {
                if faces.is_empty() {
                    return Err("no faces".into());
                }
                if !(1..=64).contains(count) {
                    return Err(format!("count {count} is not in 1..64"));
                }
            }
            Kind::Cowries { count, p, values } => {
                if !(1..=64).contains(count) {
                    return Err(format!("count {count} is not in 1..64"));
                }
                if !(0.0..=1.0).contains(p) {
                    return Err(format!("p = {p} is not in 0..1"));
                }
                if values.len() != count + 1 {
                    return Err(format!(
                        "values needs a score for 0..{count} shells up, not {}",
                        values.len()
                    ));
                }
            }
            Kind::Spinner { sectors } => {
                if sectors.is_empty() {
                    return Err("no sectors".into());
                }
                for (i, (name, w)) in sectors.iter().enumerate() {
                    if *w == 0 {
                        return Err(format!("sector '{name}' has weight 0 (weights are ≥ 1)"));
                    }
                    if sectors[..i]
                        .iter()
                        .any(|(n, _)| n.eq_ignore_ascii_case(name))
                    {
                        return Err(format!("sector '{name}' is named twice"));
                    }
                }
                if sectors
                    .iter()
                    .try_fold(0u64, |t, (_, w)| t.checked_add(*w))
                    .is_none()
                {
                    return Err("the weights add up to more than 2^64".into());
                }
            }
            Kind::Bag { bag } => {
                if bag.is_empty() {
                    return Err("the bag has no name".into());
                }
            }
            Kind::Orientation { count } => {
                if *count < 1 {
                    return Err(format!("count {count} is not ≥ 1"));
                }
            }
        }
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Randomizer {
    pub name: String,
    pub stream: String,
    pub kind: Kind,
    /// Draws from a stream of the secret seed (declared `secret = true`): what it will draw
    /// is not predicted by the printed seed.
    pub secret: bool,
}

/// One chance outcome, as handed to the rules' `chance` hook.
pub type Outcome = Vec<Value>;

impl Randomizer {
    /// Draws an outcome from the randomizer's stream (and removes a bag item).
    pub fn draw(&self, state: &mut State) -> Result<Outcome, String> {
        let bag_len = self.bag_len(state);
        match self.sample(state, bag_len)? {
            Sampled::Outcome(o) => Ok(o),
            Sampled::BagIndex(i) => {
                let Kind::Bag { bag } = &self.kind else {
                    unreachable!("only bags sample an index")
                };
                let item = state.bags.get_mut(bag).expect("bag exists").remove(i);
                Ok(vec![Value::Str(item)])
            }
        }
    }

    /// Consumes exactly what one draw would from the stream, without using it: forcing an
    /// outcome then does not shift the outcomes drawn after it.
    pub fn burn(&self, state: &mut State) {
        let bag_len = self.bag_len(state);
        let _ = self.sample(state, bag_len);
    }

    fn bag_len(&self, state: &State) -> usize {
        match &self.kind {
            Kind::Bag { bag } => state.bags.get(bag).map_or(0, Vec::len),
            _ => 0,
        }
    }

    fn sample(&self, state: &mut State, bag_len: usize) -> Result<Sampled, String> {
        let rng = state.stream_of(&self.stream, self.secret);
        let outcome = match &self.kind {
            Kind::Dice { faces, count } => (0..*count)
                .map(|_| Value::Int(faces[rng.below(faces.len() as u64) as usize]))
                .collect(),
            Kind::Cowries { count, p, values } => {
                let up = (0..*count).filter(|_| rng.unit() < *p).count();
                vec![Value::Int(values[up]), Value::Int(up as i64)]
            }
            Kind::Spinner { sectors } => {
                let total: u64 = sectors.iter().map(|(_, w)| w).sum();
                let mut x = rng.below(total);
                let mut chosen = &sectors[0].0;
                for (name, w) in sectors {
                    if x < *w {
                        chosen = name;
                        break;
                    }
                    x -= w;
                }
                vec![Value::Str(chosen.clone())]
            }
            Kind::Orientation { count } => vec![Value::Int(rng.below(*count as u64) as i64)],
            Kind::Bag { bag } => {
                if bag_len == 0 {
                    return Err(format!("randomizer '{}': bag '{bag}' is empty", self.name));
                }
                return Ok(Sampled::BagIndex(rng.below(bag_len as u64) as usize));
            }
        };
        Ok(Sampled::Outcome(outcome))
    }

    /// Turns the words of `roll …` into an outcome this randomizer could produce.
    /// For a bag the item is taken out of the bag.
    pub fn force(&self, words: &[&str], state: &mut State) -> Result<Outcome, String> {
        let int = |w: &str| {
            w.parse::<i64>()
                .map_err(|_| format!("'{w}' is not a number"))
        };
        match &self.kind {
            Kind::Dice { faces, count } => {
                if words.len() != *count {
                    return Err(format!(
                        "{} needs {count} value{}, got {}",
                        self.name,
                        if *count == 1 { "" } else { "s" },
                        words.len()
                    ));
                }
                words
                    .iter()
                    .map(|w| {
                        let v = int(w)?;
                        if faces.contains(&v) {
                            Ok(Value::Int(v))
                        } else {
                            Err(format!("{v} is not a face of {} ({faces:?})", self.name))
                        }
                    })
                    .collect()
            }
            Kind::Cowries { count, values, .. } => {
                let [word] = words else {
                    return Err(format!("{} takes one value: up=K or a score", self.name));
                };
                let up = if let Some(k) = word.strip_prefix("up=") {
                    let k = int(k)?;
                    if k < 0 || k as usize > *count {
                        return Err(format!("up={k}: there are {count} shells"));
                    }
                    k as usize
                } else {
                    let v = int(word)?;
                    let matches: Vec<usize> =
                        (0..values.len()).filter(|&k| values[k] == v).collect();
                    match matches.as_slice() {
                        [k] => *k,
                        [] => {
                            let scores: Vec<String> = values
                                .iter()
                                .enumerate()
                                .map(|(k, v)| format!("{v} with {k} up"))
                                .collect();
                            return Err(format!(
                                "{v} is not a score of {} (scores: {})",
                                self.name,
                                scores.join(", ")
                            ));
                        }
                        _ => return Err(format!("score {v} is ambiguous: say up=K")),
                    }
                };
                Ok(vec![Value::Int(values[up]), Value::Int(up as i64)])
            }
            Kind::Spinner { sectors } => {
                let [word] = words else {
                    return Err(format!("{} takes one sector name", self.name));
                };
                sectors
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(word))
                    .map(|(n, _)| vec![Value::Str(n.clone())])
                    .ok_or_else(|| {
                        let names: Vec<&str> = sectors.iter().map(|(n, _)| n.as_str()).collect();
                        format!("no sector '{word}' (sectors: {})", names.join(" "))
                    })
            }
            Kind::Orientation { count } => {
                let [word] = words else {
                    return Err(format!("{} takes one value 0..{}", self.name, count - 1));
                };
                let v = int(word)?;
                if (0..*count).contains(&v) {
                    Ok(vec![Value::Int(v)])
                } else {
                    Err(format!("{v} is not in 0..{}", count - 1))
                }
            }
            Kind::Bag { bag } => {
                let [word] = words else {
                    return Err(format!("{} takes one item name", self.name));
                };
                if state.bag_take(bag, word) {
                    Ok(vec![Value::Str(word.to_string())])
                } else {
                    Err(format!("bag '{bag}' holds no '{word}'"))
                }
            }
        }
    }
}

/// The most outcomes [`Randomizer::outcomes`] lists (four six-sided dice).
pub const MAX_OUTCOMES: usize = 1296;

/// Every outcome of a chance event: the words `roll` forces each with, and its probability.
pub type Outcomes = Vec<(Vec<String>, f64)>;

impl Randomizer {
    /// Every outcome this randomizer can produce now, as the words `roll` forces it with, with
    /// its probability; `None` when there are more than [`MAX_OUTCOMES`] (or an empty bag).
    /// Dice are listed in order (a 6-5 and a 5-6 apart), a bag by distinct item.
    pub fn outcomes(&self, state: &State) -> Option<Outcomes> {
        let out = match &self.kind {
            Kind::Dice { faces, count } => {
                let n = faces.len().checked_pow(*count as u32)?;
                if n > MAX_OUTCOMES {
                    return None;
                }
                let p = 1.0 / n as f64;
                (0..n)
                    .map(|mut i| {
                        let words = (0..*count)
                            .map(|_| {
                                let face = faces[i % faces.len()];
                                i /= faces.len();
                                face.to_string()
                            })
                            .collect();
                        (words, p)
                    })
                    .collect()
            }
            Kind::Cowries { count, p, .. } => (0..=*count)
                .map(|k| {
                    let ways = (0..k).fold(1.0, |c, i| c * (count - i) as f64 / (i + 1) as f64);
                    let chance = ways * p.powi(k as i32) * (1.0 - p).powi((count - k) as i32);
                    (vec![format!("up={k}")], chance)
                })
                .collect(),
            Kind::Spinner { sectors } => {
                let total: u64 = sectors.iter().map(|(_, w)| w).sum();
                sectors
                    .iter()
                    .map(|(name, w)| (vec![name.clone()], *w as f64 / total as f64))
                    .collect()
            }
            Kind::Orientation { count } => {
                if *count as usize > MAX_OUTCOMES {
                    return None;
                }
                (0..*count)
                    .map(|v| (vec![v.to_string()], 1.0 / *count as f64))
                    .collect()
            }
            Kind::Bag { bag } => {
                let items = state.bags.get(bag).filter(|items| !items.is_empty())?;
                let mut counts: Vec<(String, usize)> = Vec::new();
                for item in items {
                    match counts.last_mut() {
                        Some((last, n)) if last == item => *n += 1,
                        _ => counts.push((item.clone(), 1)),
                    }
                }
                if counts.len() > MAX_OUTCOMES {
                    return None;
                }
                let total = items.len() as f64;
                counts
                    .into_iter()
                    .map(|(item, n)| (vec![item], n as f64 / total))
                    .collect()
            }
        };
        Some(out)
    }
}

enum Sampled {
    Outcome(Outcome),
    BagIndex(usize),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn state() -> State {
        State::new(vec!["A".into(), "B".into()], 9, Arc::default())
    }

    fn randomizer(kind: Kind) -> Randomizer {
        Randomizer {
            name: "r".into(),
            stream: "r".into(),
            kind,
            secret: false,
        }
    }

    /// Every outcome listed can be forced, and their chances add up to one.
    #[test]
    fn outcomes_list_what_can_be_forced_with_chances_adding_up_to_one() {
        let mut s = state();
        s.bags
            .insert("deck".into(), vec!["a".into(), "a".into(), "b".into()]);
        let kinds = [
            Kind::Dice {
                faces: vec![1, 2, 3, 4, 5, 6],
                count: 2,
            },
            Kind::Cowries {
                count: 7,
                p: 0.3,
                values: vec![7, 1, 2, 3, 4, 5, 6, 12],
            },
            Kind::Spinner {
                sectors: vec![("N".into(), 3), ("S".into(), 1)],
            },
            Kind::Orientation { count: 4 },
            Kind::Bag { bag: "deck".into() },
        ];
        for kind in kinds {
            let r = randomizer(kind.clone());
            let all = r.outcomes(&s).expect("few outcomes");
            let total: f64 = all.iter().map(|(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-12, "{kind:?}: {total}");
            for (words, _) in &all {
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                r.force(&words, &mut s.clone()).expect("forced");
            }
        }
        let dice = randomizer(Kind::Dice {
            faces: vec![1, 2, 3, 4, 5, 6],
            count: 2,
        });
        assert_eq!(dice.outcomes(&s).unwrap().len(), 36);
        let bag = randomizer(Kind::Bag { bag: "deck".into() });
        let listed = bag.outcomes(&s).unwrap();
        assert_eq!(listed[0], (vec!["a".to_string()], 2.0 / 3.0));
        let many = randomizer(Kind::Dice {
            faces: vec![1, 2, 3, 4, 5, 6],
            count: 5,
        });
        assert!(many.outcomes(&s).is_none());
    }

    #[test]
    fn long_dice_and_orientations_draw_only_their_faces() {
        let mut s = state();
        let long = randomizer(Kind::Dice {
            faces: vec![1, 3, 4, 6],
            count: 3,
        });
        for _ in 0..200 {
            let o = long.draw(&mut s).unwrap();
            assert_eq!(o.len(), 3);
            assert!(
                o.iter().all(|v| matches!(v, Value::Int(1 | 3 | 4 | 6))),
                "{o:?}"
            );
        }
        assert!(
            long.force(&["1", "2", "3"], &mut s)
                .unwrap_err()
                .contains("2 is not a face")
        );
        let turn = randomizer(Kind::Orientation { count: 4 });
        assert_eq!(turn.force(&["3"], &mut s).unwrap(), vec![Value::Int(3)]);
        assert!(turn.force(&["4"], &mut s).is_err());
    }

    #[test]
    fn cowries_follow_their_schedule_and_bias() {
        let mut s = state();
        let values = vec![25, 10, 2, 3, 4, 25, 30, 14];
        let shells = randomizer(Kind::Cowries {
            count: 7,
            p: 0.9,
            values: values.clone(),
        });
        let mut ups = 0;
        for _ in 0..1000 {
            let o = shells.draw(&mut s).unwrap();
            let Value::Int(up) = o[1] else {
                panic!("{o:?}")
            };
            assert_eq!(o[0], Value::Int(values[up as usize]));
            ups += up;
        }
        assert!(
            (6000..6600).contains(&ups),
            "mean mouths up with p = 0.9: {ups}/1000"
        );
        assert_eq!(
            shells.force(&["up=2"], &mut s).unwrap(),
            vec![Value::Int(2), Value::Int(2)]
        );
        assert_eq!(
            shells.force(&["30"], &mut s).unwrap(),
            vec![Value::Int(30), Value::Int(6)]
        );
        assert!(
            shells
                .force(&["25"], &mut s)
                .unwrap_err()
                .contains("ambiguous")
        );
        assert!(shells.force(&["up=8"], &mut s).is_err());
    }

    #[test]
    fn spinners_respect_weights() {
        let mut s = state();
        let wind = randomizer(Kind::Spinner {
            sectors: vec![("N".into(), 1), ("S".into(), 3), ("calm".into(), 0)],
        });
        assert!(wind.kind.check().unwrap_err().contains("weight 0"));
        let south = (0..4000)
            .filter(|_| wind.draw(&mut s).unwrap() == vec![Value::Str("S".into())])
            .count();
        assert!((2800..3200).contains(&south), "{south}");
        assert_eq!(
            wind.force(&["n"], &mut s).unwrap(),
            vec![Value::Str("N".into())]
        );
        assert!(
            wind.force(&["W"], &mut s)
                .unwrap_err()
                .contains("sectors: N S calm")
        );
    }

    #[test]
    fn bags_draw_without_replacement_and_forcing_does_not_shift_later_draws() {
        let mut s = state();
        for item in ["a", "b", "c"] {
            s.bag_add("deck", item);
        }
        let deck = randomizer(Kind::Bag { bag: "deck".into() });
        let mut forced = s.clone();
        let drawn: Vec<Outcome> = (0..3).map(|_| deck.draw(&mut s).unwrap()).collect();
        assert!(deck.draw(&mut s).unwrap_err().contains("empty"));
        let mut names: Vec<String> = drawn.iter().map(|o| o[0].to_string()).collect();
        names.sort();
        assert_eq!(names, ["a", "b", "c"]);
        // Forcing consumes the stream as a draw would: dice drawn afterwards are unchanged.
        let dice = randomizer(Kind::Dice {
            faces: vec![1, 2, 3, 4, 5, 6],
            count: 2,
        });
        let mut plain = forced.clone();
        dice.burn(&mut forced);
        dice.force(&["6", "6"], &mut forced).unwrap();
        let _ = dice.draw(&mut plain).unwrap();
        assert_eq!(
            dice.draw(&mut forced).unwrap(),
            dice.draw(&mut plain).unwrap()
        );
    }
}
