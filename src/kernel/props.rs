//! Property maps: a few named values per state, place, piece or player, read and written by
//! rules several times per move.
//!
//! A map holds a dozen keys or so, and nearly every write replaces a value. So the entries
//! live in one vector sorted by key (listing stays deterministic), and a lookup in a small map
//! compares lengths before bytes: a `BTreeMap` compares every key it passes byte by byte.
//! Larger maps are searched by halving.

use std::fmt;

use super::value::Value;

#[derive(Clone, Default, PartialEq)]
pub struct Props {
    /// Sorted by key, keys unique.
    entries: Vec<(String, Value)>,
}

impl Props {
    pub fn new() -> Props {
        Props::default()
    }

    fn find(&self, key: &str) -> Option<usize> {
        if self.entries.len() > 16 {
            return self
                .entries
                .binary_search_by(|(k, _)| k.as_str().cmp(key))
                .ok();
        }
        self.entries
            .iter()
            .position(|(k, _)| k.len() == key.len() && k == key)
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.find(key).map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.find(key).map(|i| &mut self.entries[i].1)
    }

    /// Sets `key`, keeping the entries sorted.
    pub fn insert(&mut self, key: String, value: Value) {
        match self.entries.binary_search_by(|(k, _)| k.as_str().cmp(&key)) {
            Ok(i) => self.entries[i].1 = value,
            Err(i) => self.entries.insert(i, (key, value)),
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.find(key).map(|i| self.entries.remove(i).1)
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
}
