//! Property maps: a few named values per state, place, piece or player, read and written by
//! rules several times per move.
//!
//! The entries live in one vector sorted by key (listing stays deterministic), beside the
//! first eight bytes of each key as an integer ordered as the keys are: a lookup halves the
//! map comparing one integer per step, and compares bytes only where two of those tie (keys
//! that share their first eight bytes) and at the key it finds. A game state holds some forty
//! keys, read a few dozen times per move.

use std::cmp::Ordering;
use std::fmt;

use super::value::Value;

#[derive(Clone, Default, PartialEq)]
pub struct Props {
    /// Sorted by key, keys unique.
    entries: Vec<(String, Value)>,
    /// `prefix` of each entry's key, in the same order.
    prefixes: Vec<u64>,
}

/// The first eight bytes of `key`, big-endian and zero-padded: when two keys' prefixes differ,
/// they are ordered as the keys are (equal prefixes say nothing).
fn prefix(key: &str) -> u64 {
    let bytes = key.as_bytes();
    if let Some(first) = bytes.first_chunk::<8>() {
        return u64::from_be_bytes(*first);
    }
    // Short keys, byte by byte (cheaper than copying a few bytes into a buffer).
    bytes
        .iter()
        .zip((0..8).rev())
        .fold(0, |p, (&b, i)| p | u64::from(b) << (8 * i))
}

impl Props {
    pub fn new() -> Props {
        Props::default()
    }

    /// Where `key` is (`Ok`), or where it would go (`Err`): the first entry whose prefix is
    /// not below the key's (a search without unpredictable branches), then the few entries
    /// that share the key's prefix, compared whole.
    fn search(&self, key: &str) -> Result<usize, usize> {
        let p = prefix(key);
        let mut i = self.prefixes.partition_point(|&q| q < p);
        while self.prefixes.get(i) == Some(&p) {
            match self.entries[i].0.as_str().cmp(key) {
                Ordering::Less => i += 1,
                Ordering::Equal => return Ok(i),
                Ordering::Greater => break,
            }
        }
        Err(i)
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }

    fn find(&self, key: &str) -> Option<usize> {
        self.search(key).ok()
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.find(key).map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.find(key).map(|i| &mut self.entries[i].1)
    }

    /// Sets `key`, keeping the entries sorted.
    pub fn insert(&mut self, key: String, value: Value) {
        match self.search(&key) {
            Ok(i) => self.entries[i].1 = value,
            Err(i) => {
                self.prefixes.insert(i, prefix(&key));
                self.entries.insert(i, (key, value));
            }
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.find(key)?;
        self.prefixes.remove(i);
        Some(self.entries.remove(i).1)
    }
}

impl fmt::Debug for Props {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_stay_sorted_and_unique() {
        let mut p = Props::new();
        for (k, v) in [
            ("phase", 1),
            ("die2", 2),
            ("die1", 3),
            ("cube", 4),
            ("die2", 5),
        ] {
            p.insert(k.to_string(), Value::Int(v));
        }
        assert_eq!(
            format!("{p:?}"),
            r#"{"cube": Int(4), "die1": Int(3), "die2": Int(5), "phase": Int(1)}"#
        );
        assert_eq!(p.get("die2"), Some(&Value::Int(5)));
        assert_eq!(p.get("die3"), None);
        *p.get_mut("cube").unwrap() = Value::Int(8);
        assert_eq!(p.remove("cube"), Some(Value::Int(8)));
        assert_eq!(p.remove("cube"), None);
        assert_eq!(p.get("phase"), Some(&Value::Int(1)));
    }

    #[test]
    fn large_maps_find_every_key() {
        let mut p = Props::new();
        for i in (0..40).rev() {
            p.insert(format!("k{i}"), Value::Int(i));
        }
        for i in 0..40 {
            assert_eq!(p.get(&format!("k{i}")), Some(&Value::Int(i)));
        }
        assert_eq!(p.get("k40"), None);
        assert_eq!(p.remove("k7"), Some(Value::Int(7)));
        assert_eq!(p.get("k7"), None);
    }

    #[test]
    fn keys_sharing_eight_bytes_stay_apart() {
        let mut p = Props::new();
        let keys = [
            "sw_respawn_limit",
            "sw_respawn_allies",
            "sw_respawn",
            "sw_resp",
            "sw_resp\0",
            "a",
            "",
            "sw_respawn_limit2",
        ];
        for (i, k) in keys.iter().enumerate() {
            p.insert(k.to_string(), Value::Int(i as i64));
        }
        let mut sorted = keys.to_vec();
        sorted.sort();
        let listed: Vec<&str> = p.entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(listed, sorted);
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(p.get(k), Some(&Value::Int(i as i64)), "{k:?}");
        }
        assert_eq!(p.get("sw_respawn_"), None);
        assert_eq!(p.remove("sw_respawn"), Some(Value::Int(2)));
        assert_eq!(p.get("sw_respawn_allies"), Some(&Value::Int(1)));
        assert_eq!(p.get("sw_respawn"), None);
    }
}
