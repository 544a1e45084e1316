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

#[derive(Clone, Debug, PartialEq)]
pub struct Randomizer {
    pub name: String,
    pub stream: String,
    pub kind: Kind,
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
        let rng = state.stream(&self.stream);
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
                        [] => return Err(format!("{v} is not a score of {}", self.name)),
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

enum Sampled {
    Outcome(Outcome),
    BagIndex(usize),
}
