//! Lua 5.4's pattern matcher (lstrlib.c), step for step, run before a pattern call whose worst
//! case is too costly to allow blindly: it does the call's matching work without building any
//! result, counting its steps and charging them to the budget as it goes, so a call that would
//! run long is stopped by the instruction and time limits like a loop of Lua code, while one
//! that is cheap on its actual subject (most are, whatever their worst case) then runs as
//! usual. It follows the C code's order of attempts, so it does the same work.
//!
//! It only counts: a malformed pattern ends the run early and the library call that follows
//! raises Lua's own error.

/// Which library call is about to run, with its arguments beyond the subject and pattern.
#[derive(Clone, Copy, Debug)]
pub enum Call {
    /// `string.find` (not plain) and `string.match`, from `init`.
    Find { init: i64 },
    /// `string.gmatch` from `init`, iterated to its end.
    Gmatch { init: i64 },
    /// `string.gsub`, at most `max` replacements.
    Gsub { max: Option<i64> },
}

/// Steps between two charges to the budget.
const CHUNK: u64 = 1 << 14;
/// Lua's LUA_MAXCAPTURES and MAXCCALLS.
const MAX_CAPTURES: usize = 32;
const MAX_DEPTH: u32 = 200;
const CAP_UNFINISHED: isize = -1;
const CAP_POSITION: isize = -2;

/// Why a run stopped before the end of the call.
enum Stop {
    /// The pattern is malformed (or too complex): the call raises the error itself.
    Malformed,
    /// `spend` refused more steps.
    Over(String),
}

type Step<T> = Result<T, Stop>;

/// What a dry run did.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Matcher steps taken (each charged to the budget).
    pub steps: u64,
    /// Matches found: what `gsub` counts and `gmatch` iterates over.
    pub matches: u64,
    /// The first match, as byte offsets `start..end` (what `find` and `match` return).
    pub first: Option<(usize, usize)>,
}

struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    level: usize,
    captures: [(usize, isize); MAX_CAPTURES],
    depth: u32,
    unpaid: u64,
    run: Run,
    spend: &'a mut dyn FnMut(u64) -> Result<(), String>,
}

/// Does the matching work of `call` on `subject` with `pattern`, calling `spend` with the
/// steps taken every few thousand; returns what it did, or the error `spend` returned.
pub fn dry_run(
    call: Call,
    subject: &[u8],
    pattern: &[u8],
    spend: &mut dyn FnMut(u64) -> Result<(), String>,
) -> Result<Run, String> {
    let anchored = !matches!(call, Call::Gmatch { .. }) && pattern.first() == Some(&b'^');
    let mut m = Matcher {
        src: subject,
        pat: if anchored { &pattern[1..] } else { pattern },
        level: 0,
        captures: [(0, 0); MAX_CAPTURES],
        depth: MAX_DEPTH,
        unpaid: 0,
        run: Run {
            steps: 0,
            matches: 0,
            first: None,
        },
        spend,
    };
    match m.call(call, anchored) {
        Ok(()) | Err(Stop::Malformed) => {
            let rest = m.unpaid;
            (m.spend)(rest)?;
            Ok(m.run)
        }
        Err(Stop::Over(e)) => Err(e),
    }
}

/// Lua's `posrelatI`: a 1-based start position from a possibly negative one.
fn start(pos: i64, len: usize) -> usize {
    if pos > 0 {
        pos as usize
    } else if pos == 0 || pos < -(len as i64) {
        1
    } else {
        (len as i64 + pos + 1) as usize
    }
}

impl Matcher<'_> {
    fn call(&mut self, call: Call, anchored: bool) -> Step<()> {
        let n = self.src.len();
        match call {
            Call::Find { init } => {
                let mut s = start(init, n) - 1;
                if s > n {
                    return Ok(());
                }
                loop {
                    self.reset();
                    if let Some(e) = self.matches(s, 0)? {
                        self.found(s, e);
                        return Ok(());
                    }
                    if s >= n || anchored {
                        return Ok(());
                    }
                    s += 1;
                }
            }
            Call::Gmatch { init } => {
                let (mut from, mut last) = ((start(init, n) - 1).min(n + 1), None);
                while from <= n {
                    self.reset();
                    match self.matches(from, 0)? {
                        Some(e) if Some(e) != last => {
                            self.found(from, e);
                            from = e;
                            last = Some(e);
                        }
                        _ => from += 1,
                    }
                }
                Ok(())
            }
            Call::Gsub { max } => {
                let max = max.unwrap_or(n as i64 + 1);
                let (mut s, mut done, mut last) = (0, 0, None);
                while done < max {
                    self.reset();
                    match self.matches(s, 0)? {
                        Some(e) if Some(e) != last => {
                            done += 1;
                            self.found(s, e);
                            s = e;
                            last = Some(e);
                        }
                        _ if s < n => s += 1,
                        _ => break,
                    }
                    if anchored {
                        break;
                    }
                }
                Ok(())
            }
        }
    }

    fn found(&mut self, start: usize, end: usize) {
        self.run.matches += 1;
        self.run.first.get_or_insert((start, end));
    }

    fn reset(&mut self) {
        self.level = 0;
        self.depth = MAX_DEPTH;
    }

    fn tick(&mut self, n: u64) -> Step<()> {
        self.run.steps += n;
        self.unpaid += n;
        if self.unpaid >= CHUNK {
            let paid = std::mem::take(&mut self.unpaid);
            (self.spend)(paid).map_err(Stop::Over)?;
        }
        Ok(())
    }

    /// The subject's byte at `s`; past the end, the terminating zero C reads there.
    fn at(&self, s: usize) -> u8 {
        self.src.get(s).copied().unwrap_or(0)
    }

    /// The pattern's byte at `p`, likewise.
    fn p(&self, p: usize) -> u8 {
        self.pat.get(p).copied().unwrap_or(0)
    }

    /// `match`: where a match of the pattern from `p` on the subject from `s` ends.
    fn matches(&mut self, s: usize, p: usize) -> Step<Option<usize>> {
        if self.depth == 0 {
            return Err(Stop::Malformed);
        }
        self.depth -= 1;
        let res = self.match_here(s, p);
        self.depth += 1;
        res
    }

    fn match_here(&mut self, mut s: usize, mut p: usize) -> Step<Option<usize>> {
        loop {
            self.tick(1)?;
            if p == self.pat.len() {
                return Ok(Some(s));
            }
            match (self.p(p), self.p(p + 1)) {
                (b'(', b')') => return self.start_capture(s, p + 2, CAP_POSITION),
                (b'(', _) => return self.start_capture(s, p + 1, CAP_UNFINISHED),
                (b')', _) => return self.end_capture(s, p + 1),
                (b'$', _) if p + 1 == self.pat.len() => {
                    return Ok((s == self.src.len()).then_some(s));
                }
                (b'%', b'b') => match self.balance(s, p + 2)? {
                    Some(e) => (s, p) = (e, p + 4),
                    None => return Ok(None),
                },
                (b'%', b'f') => {
                    p += 2;
                    if self.p(p) != b'[' {
                        return Err(Stop::Malformed);
                    }
                    let ep = self.class_end(p)?;
                    let before = if s == 0 { 0 } else { self.src[s - 1] };
                    if !self.in_set(before, p, ep - 1) && self.in_set(self.at(s), p, ep - 1) {
                        p = ep;
                    } else {
                        return Ok(None);
                    }
                }
                (b'%', d) if d.is_ascii_digit() => match self.match_capture(s, d)? {
                    Some(e) => (s, p) = (e, p + 2),
                    None => return Ok(None),
                },
                _ => {
                    let ep = self.class_end(p)?;
                    let suffix = self.p(ep);
                    if !self.single(s, p, ep)? {
                        if matches!(suffix, b'*' | b'?' | b'-') {
                            p = ep + 1;
                            continue;
                        }
                        return Ok(None);
                    }
                    match suffix {
                        b'?' => match self.matches(s + 1, ep + 1)? {
                            Some(e) => return Ok(Some(e)),
                            None => p = ep + 1,
                        },
                        b'+' => return self.max_expand(s + 1, p, ep),
                        b'*' => return self.max_expand(s, p, ep),
                        b'-' => return self.min_expand(s, p, ep),
                        _ => (s, p) = (s + 1, ep),
                    }
                }
            }
        }
    }

    /// `classEnd`: the index after the single-character class at `p`.
    fn class_end(&self, mut p: usize) -> Step<usize> {
        let c = self.p(p);
        p += 1;
        match c {
            b'%' if p >= self.pat.len() => Err(Stop::Malformed),
            b'%' => Ok(p + 1),
            b'[' => {
                if self.p(p) == b'^' {
                    p += 1;
                }
                loop {
                    if p >= self.pat.len() {
                        return Err(Stop::Malformed);
                    }
                    let c = self.p(p);
                    p += 1;
                    if c == b'%' && p < self.pat.len() {
                        p += 1;
                    }
                    if self.p(p) == b']' {
                        return Ok(p + 1);
                    }
                }
            }
            _ => Ok(p),
        }
    }

    /// `singlematch`: whether the subject's byte at `s` is in the class `p..ep`.
    fn single(&mut self, s: usize, p: usize, ep: usize) -> Step<bool> {
        self.tick(1)?;
        let Some(&c) = self.src.get(s) else {
            return Ok(false);
        };
        Ok(match self.p(p) {
            b'.' => true,
            b'%' => class(c, self.p(p + 1)),
            b'[' => self.in_set(c, p, ep - 1),
            other => other == c,
        })
    }

    /// `matchbracketclass`: whether `c` is in the set `[...]` from `p` to its `]` at `end`.
    fn in_set(&self, c: u8, mut p: usize, end: usize) -> bool {
        let mut yes = true;
        if self.p(p + 1) == b'^' {
            yes = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= end {
                return !yes;
            }
            if self.p(p) == b'%' {
                p += 1;
                if class(c, self.p(p)) {
                    return yes;
                }
            } else if self.p(p + 1) == b'-' && p + 2 < end {
                p += 2;
                if self.p(p - 2) <= c && c <= self.p(p) {
                    return yes;
                }
            } else if self.p(p) == c {
                return yes;
            }
        }
    }

    /// `matchbalance`: `%bxy` from `p` (the `x`) on the subject from `s`.
    fn balance(&mut self, mut s: usize, p: usize) -> Step<Option<usize>> {
        if p + 1 >= self.pat.len() {
            return Err(Stop::Malformed);
        }
        if self.at(s) != self.p(p) {
            return Ok(None);
        }
        let (open, close) = (self.p(p), self.p(p + 1));
        let mut depth = 1;
        loop {
            s += 1;
            if s >= self.src.len() {
                return Ok(None);
            }
            self.tick(1)?;
            if self.src[s] == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(Some(s + 1));
                }
            } else if self.src[s] == open {
                depth += 1;
            }
        }
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Step<Option<usize>> {
        let mut i = 0;
        while self.single(s + i, p, ep)? {
            i += 1;
        }
        loop {
            if let Some(e) = self.matches(s + i, ep + 1)? {
                return Ok(Some(e));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    fn min_expand(&mut self, mut s: usize, p: usize, ep: usize) -> Step<Option<usize>> {
        loop {
            if let Some(e) = self.matches(s, ep + 1)? {
                return Ok(Some(e));
            }
            if !self.single(s, p, ep)? {
                return Ok(None);
            }
            s += 1;
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: isize) -> Step<Option<usize>> {
        if self.level >= MAX_CAPTURES {
            return Err(Stop::Malformed);
        }
        self.captures[self.level] = (s, what);
        self.level += 1;
        let res = self.matches(s, p)?;
        if res.is_none() {
            self.level -= 1;
        }
        Ok(res)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Step<Option<usize>> {
        let Some(l) = (0..self.level)
            .rev()
            .find(|&l| self.captures[l].1 == CAP_UNFINISHED)
        else {
            return Err(Stop::Malformed);
        };
        self.captures[l].1 = (s - self.captures[l].0) as isize;
        let res = self.matches(s, p)?;
        if res.is_none() {
            self.captures[l].1 = CAP_UNFINISHED;
        }
        Ok(res)
    }

    /// `%1`…`%9`: the text of an earlier capture again.
    fn match_capture(&mut self, s: usize, digit: u8) -> Step<Option<usize>> {
        let l = (digit as usize).wrapping_sub(b'1' as usize);
        if l >= self.level || self.captures[l].1 == CAP_UNFINISHED {
            return Err(Stop::Malformed);
        }
        let (from, len) = self.captures[l];
        // A position capture has no text: its length reads as huge in C, and never matches.
        let Ok(len) = usize::try_from(len) else {
            return Ok(None);
        };
        self.tick(len as u64)?;
        let fits = self.src.len() - s >= len;
        Ok((fits && self.src[from..from + len] == self.src[s..s + len]).then_some(s + len))
    }
}

/// `match_class`: whether `c` is in the class `%cl` (the C locale's classes).
fn class(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => matches!(c, b' ' | b'\t'..=b'\r'),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        _ => return cl == c,
    };
    if cl.is_ascii_uppercase() { !res } else { res }
}

#[cfg(test)]
mod tests {
    use super::{Call, Run, dry_run};
    use mlua::{Lua, Value};
    use proptest::prelude::*;

    /// `find`'s first match, `gsub`'s count and `gmatch`'s iterations.
    type Answer = (Option<(usize, usize)>, u64, u64);

    fn run(call: Call, s: &str, p: &str) -> Run {
        dry_run(call, s.as_bytes(), p.as_bytes(), &mut |_| Ok(())).unwrap()
    }

    /// Lua's own answer: `string.find`'s offsets, `gsub`'s count and `gmatch`'s iterations,
    /// or nothing when Lua raises an error (a malformed pattern).
    fn lua(l: &Lua, s: &str, p: &str) -> Option<Answer> {
        let f: mlua::Function = l
            .load(
                "local s, p = ... local i, j = string.find(s, p)
                 local _, n = string.gsub(s, p, '')
                 local k = 0 for _ in string.gmatch(s, p) do k = k + 1 end
                 return i, j, n, k",
            )
            .into_function()
            .unwrap();
        let (i, j, n, k): (Value, Value, u64, u64) = f.call((s, p)).ok()?;
        let first = match (i, j) {
            (Value::Integer(i), Value::Integer(j)) => Some((i as usize - 1, j as usize)),
            _ => None,
        };
        Some((first, n, k))
    }

    #[test]
    fn counts_what_lua_matches() {
        let l = Lua::new();
        for (s, p) in [
            ("  trim me  ", "^%s*(.-)%s*$"),
            ("f(a(b)c) (d)", "%b()"),
            ("THE (quick) fox", "%f[%a]%a+"),
            ("abcabc", "(a)(b)c%1"),
            ("aaa", "a-"),
            ("x=1, y=22", "(%w+)=(%w+)"),
            ("", "()"),
        ] {
            let want = lua(&l, s, p).unwrap();
            let got = (
                run(Call::Find { init: 1 }, s, p).first,
                run(Call::Gsub { max: None }, s, p).matches,
                run(Call::Gmatch { init: 1 }, s, p).matches,
            );
            assert_eq!(got, want, "{s:?} {p:?}");
        }
    }

    #[test]
    fn a_backtracking_pattern_takes_exponential_steps() {
        let s = "a".repeat(40);
        let short = run(Call::Find { init: 1 }, &s, ".-b").steps;
        let long = run(Call::Find { init: 1 }, &s, ".-.-.-b").steps;
        assert!(short < 5_000 && long > 100_000, "{short} {long}");
    }

    #[test]
    fn a_refused_step_stops_the_run() {
        let s = "a".repeat(30_000);
        let mut paid = 0;
        let e = dry_run(
            Call::Find { init: 1 },
            s.as_bytes(),
            b".-.-.-.-b",
            &mut |n| {
                paid += n;
                if paid > 1_000_000 {
                    Err("over".into())
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(e, Err("over".into()));
        assert!(paid < 1_100_000);
    }

    fn token() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "a", "b", ".", "%a", "%s", "[ab]", "[^a]", "[a-c]", "(", ")", "()", "*", "+", "-", "?",
            "^", "$", "%b()", "%f[%w]", "%1", " ", "%",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// The dry run finds what Lua finds, so it does the same work.
        #[test]
        fn finds_what_lua_finds(
            p in prop::collection::vec(token(), 0..8),
            s in "[ab() ]{0,12}",
        ) {
            let p = p.concat();
            let l = Lua::new();
            if let Some(want) = lua(&l, &s, &p) {
                let got = (
                    run(Call::Find { init: 1 }, &s, &p).first,
                    run(Call::Gsub { max: None }, &s, &p).matches,
                    run(Call::Gmatch { init: 1 }, &s, &p).matches,
                );
                prop_assert_eq!(got, want, "{:?} {:?}", s, p);
            }
        }
    }
}
