//! Which switches the rules read, to refuse at load a switch that a variant or `--set` sets
//! and no rule reads (it would be accepted and silently ignored).
//!
//! A switch counts as read when a randomizer declaration read it from `sw` at load, or when
//! its name is a string literal or a field name of a rule file the ruleset may run:
//! `G:switch("cowrie_p")`, a helper called with the name (`C.sw(G, "horse_into_sea")`), a
//! field of a table of the switches (`sw.cowrie_max_throws`). The test is static, so a switch
//! read only on a rare path still counts; a name built at run time (`G:switch("sw_" .. k)`)
//! does not, and such a rule must also name its switches literally.

use std::collections::BTreeSet;

/// The string literals and field names of Lua source `text` that are identifiers (comments
/// skipped).
pub fn literals(text: &str) -> BTreeSet<String> {
    let b = text.as_bytes();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'-' if b.get(i + 1) == Some(&b'-') => {
                i += 2;
                match long_bracket(b, i) {
                    Some(level) => i = close_long(b, i, level).1,
                    None => {
                        while i < b.len() && b[i] != b'\n' {
                            i += 1;
                        }
                    }
                }
            }
            b'"' | b'\'' => {
                let quote = b[i];
                let start = i + 1;
                i = start;
                while i < b.len() && b[i] != quote && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                let end = i.min(b.len());
                add(&mut out, &b[start..end]);
                i = end + 1;
            }
            // A field read: `sw.cowrie_p`, `S.horse_into_sea` (not `..`, not `1.5`).
            b'.' | b':'
                if b.get(i + 1)
                    .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_') =>
            {
                let start = i + 1;
                i = start;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                add(&mut out, &b[start..i]);
            }
            b'.' if b.get(i + 1) == Some(&b'.') => i += 2,
            b'[' => match long_bracket(b, i) {
                Some(level) => {
                    let open = i + level + 2;
                    let (body_end, next) = close_long(b, open, level);
                    add(&mut out, &b[open.min(body_end)..body_end]);
                    i = next;
                }
                None => i += 1,
            },
            _ => i += 1,
        }
    }
    out
}

/// The level of a long bracket `[==[` opening at `i`, if one does.
fn long_bracket(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let level = b[i + 1..].iter().take_while(|&&c| c == b'=').count();
    (b.get(i + 1 + level) == Some(&b'[')).then_some(level)
}

/// Where the long string or comment opened at `i` (its `[`) or whose body starts at `i`
/// ends: (end of the body, index after the closing bracket).
fn close_long(b: &[u8], i: usize, level: usize) -> (usize, usize) {
    let mut close = vec![b']'];
    close.extend(std::iter::repeat_n(b'=', level));
    close.push(b']');
    let from = i.min(b.len());
    match b[from..].windows(close.len()).position(|w| w == close) {
        Some(k) => (from + k, from + k + close.len()),
        None => (b.len(), b.len()),
    }
}

fn add(out: &mut BTreeSet<String>, s: &[u8]) {
    let ident = !s.is_empty()
        && !s[0].is_ascii_digit()
        && s.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_');
    if ident {
        out.insert(String::from_utf8_lossy(s).into_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_string_literals_and_skips_comments() {
        let src = r#"
local a = G:switch("cowrie_p") -- G:switch("in_comment")
local b = C.sw(G, 'horse_into_sea')
--[==[ G:switch("long_comment") ]==]
local c = [[long_string]] .. "two words" .. "esc\"aped" .. "9lives"
local d = t[k] -- an index, not a long string
local e = sw.max_throws .. x..y .. 1.5
"#;
        let found: Vec<String> = literals(src).into_iter().collect();
        assert_eq!(
            found,
            [
                "cowrie_p",
                "horse_into_sea",
                "long_string",
                "max_throws",
                "sw",
                "switch"
            ]
        );
    }
}
