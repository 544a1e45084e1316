//! The game log. Every undo point is a copy of the state, so the log is shared between copies:
//! lines sit in full chunks that copies share, and a copy owns only the lines after the last
//! full chunk. A copy then costs at most a chunk's worth of lines, whatever the game's length
//! (a plain vector made every undo point hold the whole log, and memory grow with the square
//! of the game's length).

use std::fmt;
use std::sync::Arc;

use super::view::LogLine;

/// Lines per shared chunk.
const CHUNK: usize = 32;

#[derive(Clone, Default)]
pub struct Log {
    /// The full chunks, newest first.
    sealed: Option<Arc<Chunk>>,
    /// The lines after them.
    tail: Vec<LogLine>,
    len: usize,
}

struct Chunk {
    lines: Box<[LogLine]>,
    prev: Option<Arc<Chunk>>,
}

impl Log {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, line: LogLine) {
        self.tail.push(line);
        self.len += 1;
        if self.tail.len() == CHUNK {
            let lines = std::mem::take(&mut self.tail).into_boxed_slice();
            let prev = self.sealed.take();
            self.sealed = Some(Arc::new(Chunk { lines, prev }));
        }
    }

    /// Removes the last line (copying its chunk's lines if a copy shares it).
    fn pop(&mut self) -> Option<LogLine> {
        if self.tail.is_empty() {
            let chunk = self.sealed.take()?;
            self.tail = chunk.lines.to_vec();
            self.sealed = chunk.prev.clone();
        }
        self.len -= 1;
        self.tail.pop()
    }

    /// Puts `line` at position `at`, before the lines after it (an event's own line goes
    /// before what its rules logged: a cost in the lines moved, never in the log's length).
    pub fn insert(&mut self, at: usize, line: LogLine) {
        self.rewrite_from(at, |lines| lines.insert(0, line));
    }

    /// Lets `f` change the lines from position `at` on (oldest first: add, drop or edit
    /// them), copying only those lines.
    pub fn rewrite_from(&mut self, at: usize, f: impl FnOnce(&mut Vec<LogLine>)) {
        let mut lines = Vec::new();
        while self.len > at {
            lines.extend(self.pop());
        }
        lines.reverse();
        f(&mut lines);
        for l in lines {
            self.push(l);
        }
    }

    /// Every line, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &LogLine> {
        let mut chunks = Vec::new();
        let mut c = self.sealed.as_deref();
        while let Some(chunk) = c {
            chunks.push(&chunk.lines);
            c = chunk.prev.as_deref();
        }
        chunks
            .into_iter()
            .rev()
            .flat_map(|lines| lines.iter())
            .chain(&self.tail)
    }

    /// Keeps the lines `f` returns (rewritten or not), dropping those it returns `None` for:
    /// the whole log is copied, which only a determinized copy of the state does.
    pub fn rewrite(&mut self, mut f: impl FnMut(LogLine) -> Option<LogLine>) {
        let lines: Vec<LogLine> = self.iter().cloned().collect();
        *self = Log::default();
        for line in lines.into_iter().filter_map(&mut f) {
            self.push(line);
        }
    }
}

impl fmt::Debug for Log {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(n: usize) -> Log {
        let mut l = Log::default();
        for i in 0..n {
            l.push(LogLine::public(i.to_string()));
        }
        l
    }

    fn texts(l: &Log) -> Vec<String> {
        l.iter().map(|l| l.text.clone()).collect()
    }

    #[test]
    fn copies_share_full_chunks_and_keep_their_own_lines() {
        let a = log(70);
        let mut b = a.clone();
        b.push(LogLine::public("x".into()));
        assert_eq!(a.len(), 70);
        assert_eq!(texts(&b).last().unwrap(), "x");
        assert_eq!(
            texts(&a),
            (0..70).map(|i| i.to_string()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn insert_reaches_into_shared_chunks_without_changing_copies() {
        let a = log(70);
        let mut b = a.clone();
        b.insert(20, LogLine::public("x".into()));
        let mut want: Vec<String> = (0..70).map(|i| i.to_string()).collect();
        want.insert(20, "x".into());
        assert_eq!(texts(&b), want);
        assert_eq!(b.len(), 71);
        assert_eq!(texts(&a)[20], "20");
    }

    #[test]
    fn rewrite_keeps_and_changes_lines_in_order() {
        let mut a = log(70);
        a.rewrite(|mut l| {
            let n: usize = l.text.parse().unwrap();
            l.text = format!("{}", n * 2);
            n.is_multiple_of(2).then_some(l)
        });
        assert_eq!(a.len(), 35);
        assert_eq!(
            texts(&a),
            (0..35).map(|i| (i * 4).to_string()).collect::<Vec<_>>()
        );
    }
}
