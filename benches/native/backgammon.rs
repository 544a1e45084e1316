//! Native backgammon move generator. It follows `shared/specs/backgammon.md`
//! and shares no code with the Lua rules, so it serves both as an independent
//! check on them and as the speed reference they are measured against.
//!
//! Positions are seen from the side on roll, as in the spec's §7.1 JSON:
//! `board[i]` is the mover's point `i + 1`, positive for his checkers and
//! negative for the opponent's; `bar` and `off` list the mover first.

// The bench and the oracle test each use a different part of this module.
#![allow(dead_code)]

/// Checkers per side.
pub const CHECKERS: u8 = 15;

/// A position oriented to the player on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pub board: [i8; 24],
    pub bar: [u8; 2],
    pub off: [u8; 2],
}

impl Position {
    /// The standard start (spec §1), either side on roll.
    pub const START: Position = Position {
        board: [
            -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2,
        ],
        bar: [0, 0],
        off: [0, 0],
    };

    /// Whether either side has borne off all its checkers.
    pub fn is_over(&self) -> bool {
        self.off[0] >= CHECKERS || self.off[1] >= CHECKERS
    }

    /// A hash that is linear in the fields, so that a step can update it with
    /// a few additions instead of rehashing the whole position.
    fn linear_hash(&self) -> u64 {
        let fields = self
            .board
            .iter()
            .map(|&c| i64::from(c) as u64)
            .chain(self.bar.iter().chain(&self.off).map(|&c| u64::from(c)));
        fields
            .zip(WEIGHTS)
            .fold(0u64, |h, (v, w)| h.wrapping_add(v.wrapping_mul(w)))
    }
}

/// The same position seen from the other side.
pub fn flip(pos: &Position) -> Position {
    let mut board = [0i8; 24];
    for (i, c) in board.iter_mut().enumerate() {
        *c = -pos.board[23 - i];
    }
    Position {
        board,
        bar: [pos.bar[1], pos.bar[0]],
        off: [pos.off[1], pos.off[0]],
    }
}

/// Source number of the bar in step notation (spec §1).
const BAR: usize = 25;

/// Hash weights: points 1–24 at indices 0–23, then bar and off (mover first).
const WEIGHTS: [u64; 28] = {
    let mut weights = [0u64; 28];
    let mut state = 0x5EED_0BAC_6A77_0001_u64;
    let mut i = 0;
    while i < 28 {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        weights[i] = z ^ (z >> 31);
        i += 1;
    }
    weights
};
const W_BAR_ME: u64 = WEIGHTS[24];
const W_BAR_THEM: u64 = WEIGHTS[25];
const W_OFF_ME: u64 = WEIGHTS[26];

/// A position with what the search keeps up to date alongside it.
#[derive(Clone, Copy, Debug)]
struct Node {
    pos: Position,
    hash: u64,
    /// Bit p is set when the mover has a checker on point p.
    mine: u32,
}

impl Node {
    fn new(pos: &Position) -> Self {
        let mine = (1..=24)
            .filter(|&p| pos.board[p - 1] > 0)
            .fold(0, |m, p| m | 1 << p);
        Node {
            pos: *pos,
            hash: pos.linear_hash(),
            mine,
        }
    }

    /// The sources (bits, [`BAR`] included) from which `die` can be played,
    /// limited to `max_from` and below.
    ///
    /// `blocked` marks the opponent's points (2+ checkers); it stays fixed for
    /// the whole turn, since the mover's steps only ever remove opposing blots.
    #[inline]
    fn sources(&self, die: u8, max_from: usize, blocked: u32) -> u32 {
        let d = u32::from(die);
        if self.pos.bar[0] > 0 {
            // Checkers on the bar enter before anything else moves (spec §3).
            let open = blocked & 1 << (BAR as u32 - d) == 0;
            return if max_from == BAR && open { 1 << BAR } else { 0 };
        }
        // Ordinary steps land on a point that is not blocked.
        let mut sources = self.mine & !(blocked << d) & !((2 << d) - 1);
        // Bearing off (spec §5): all checkers home; a die bears off from its
        // own point, or a larger one from the highest point.
        let highest = 31 - self.mine.leading_zeros().min(31);
        if highest <= 6 {
            if highest >= d {
                sources |= self.mine & 1 << d;
            } else if highest > 0 {
                sources |= 1 << highest;
            }
        }
        sources & ((2 << max_from) - 1)
    }

    /// Plays `die` from `from`, which [`Node::sources`] found legal.
    #[inline(always)]
    fn play(&self, from: usize, die: u8) -> Node {
        let die = usize::from(die);
        let mut next = *self;
        if from == BAR {
            next.pos.bar[0] -= 1;
            next.hash = next.hash.wrapping_sub(W_BAR_ME);
            next.land(BAR - die);
            return next;
        }
        next.pos.board[from - 1] -= 1;
        next.hash = next.hash.wrapping_sub(WEIGHTS[from - 1]);
        if next.pos.board[from - 1] == 0 {
            next.mine &= !(1 << from);
        }
        if from > die {
            next.land(from - die);
        } else {
            next.pos.off[0] += 1;
            next.hash = next.hash.wrapping_add(W_OFF_ME);
        }
        next
    }

    /// Puts a mover's checker on an open `point`, hitting a lone opponent.
    #[inline]
    fn land(&mut self, point: usize) {
        self.mine |= 1 << point;
        let cell = &mut self.pos.board[point - 1];
        if *cell == -1 {
            *cell = 1;
            self.pos.bar[1] += 1;
            self.hash = self
                .hash
                .wrapping_add(WEIGHTS[point - 1].wrapping_mul(2))
                .wrapping_add(W_BAR_THEM);
        } else {
            *cell += 1;
            self.hash = self.hash.wrapping_add(WEIGHTS[point - 1]);
        }
    }
}

/// The opponent's points (2+ checkers) as bits.
fn blocked_points(pos: &Position) -> u32 {
    (1..=24)
        .filter(|&p| pos.board[p - 1] < -1)
        .fold(0, |m, p| m | 1 << p)
}

/// The legal single steps of one die, as (source, result), highest source
/// first.
struct Steps<'a> {
    node: &'a Node,
    die: u8,
    /// Sources not yet played, as bits.
    sources: u32,
}

impl<'a> Steps<'a> {
    #[inline]
    fn new(node: &'a Node, die: u8, max_from: usize, blocked: u32) -> Self {
        Steps {
            node,
            die,
            sources: node.sources(die, max_from, blocked),
        }
    }
}

impl Iterator for Steps<'_> {
    type Item = (usize, Node);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.sources == 0 {
            return None;
        }
        let from = 31 - self.sources.leading_zeros() as usize;
        self.sources &= !(1 << from);
        Some((from, self.node.play(from, self.die)))
    }
}

/// Reusable buffers for move generation, so that repeated calls (playouts)
/// allocate nothing once warmed up.
pub struct MoveGen {
    /// Distinct final positions of the longest sequences found so far.
    results: Vec<Position>,
    /// Dice used by the sequences in `results`.
    best: u8,
    /// Open-addressing set over `results`: (stamp, index); a slot is live when
    /// its stamp equals `stamp`, so clearing is a counter bump.
    slots: Vec<(u32, u32)>,
    stamp: u32,
    /// The opponent's points for the position being searched.
    blocked: u32,
}

impl Default for MoveGen {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveGen {
    pub fn new() -> Self {
        MoveGen {
            results: Vec::with_capacity(256),
            best: 0,
            slots: vec![(0, 0); 1024],
            stamp: 1,
            blocked: 0,
        }
    }

    /// The distinct positions reachable by the legal full moves of `pos` with
    /// dice `d1`, `d2` (spec §4); see [`successors`].
    pub fn generate(&mut self, pos: &Position, d1: u8, d2: u8) -> &[Position] {
        self.results.clear();
        self.best = 0;
        self.clear_set();
        if pos.is_over() {
            return &self.results;
        }
        let root = Node::new(pos);
        self.blocked = blocked_points(pos);
        if d1 == d2 {
            self.search_double(&root, d1, 4, 0, BAR);
        } else {
            self.search_pair(&root, d1, d2);
            if self.best == 1 {
                self.larger_die_only(&root, d1.max(d2), d1.min(d2));
            }
        }
        if self.best == 0 {
            // No die can be played: the one "move" is the pass.
            self.results.clear();
            self.results.push(*pos);
        }
        &self.results
    }

    /// Plays a non-double in both orders. A second-order play (`b` from `x`,
    /// then `a` from `y`) is skipped when `a` from `y`, then `b` from `x`, was
    /// legal: both move the same checkers to the same points.
    fn search_pair(&mut self, root: &Node, a: u8, b: u8) {
        // Bit y of seen[x]: a from y, then b from x, is legal.
        let mut seen = [0u32; BAR + 1];
        for (y, next) in Steps::new(root, a, BAR, self.blocked) {
            let steps = Steps::new(&next, b, BAR, self.blocked);
            if steps.sources == 0 {
                self.leaf(&next, 1);
            }
            for (x, last) in steps {
                seen[x] |= 1 << y;
                self.leaf(&last, 2);
            }
        }
        for (x, next) in Steps::new(root, b, BAR, self.blocked) {
            let mut steps = Steps::new(&next, a, BAR, self.blocked);
            if steps.sources == 0 {
                self.leaf(&next, 1);
            }
            steps.sources &= !seen[x];
            for (_, last) in steps {
                self.leaf(&last, 2);
            }
        }
    }

    /// When only one die of a non-double can be played, keep the larger one
    /// if it can be played at all (spec §4 rule 2).
    fn larger_die_only(&mut self, root: &Node, high: u8, low: u8) {
        self.results.clear();
        self.clear_set();
        for die in [high, low] {
            for (_, next) in Steps::new(root, die, BAR, self.blocked) {
                self.insert(&next);
            }
            if !self.results.is_empty() {
                return;
            }
        }
    }

    /// Plays up to `left` more copies of `die`, taking sources in
    /// non-increasing order: any order of a double's steps reaches the same
    /// positions as this one, so the other orders are skipped.
    fn search_double(&mut self, node: &Node, die: u8, left: u8, used: u8, max_from: usize) {
        let mut ended = true;
        if left > 0 {
            for (from, next) in Steps::new(node, die, max_from, self.blocked) {
                ended = false;
                self.search_double(&next, die, left - 1, used + 1, from);
            }
        }
        if ended {
            self.leaf(node, used);
        }
    }

    /// Records the end of a sequence that used `used` dice, keeping only the
    /// longest sequences (spec §4 rule 1).
    #[inline]
    fn leaf(&mut self, node: &Node, used: u8) {
        if used < self.best {
            return;
        }
        if used > self.best {
            self.best = used;
            self.results.clear();
            self.clear_set();
        }
        self.insert(node);
    }

    fn clear_set(&mut self) {
        if self.stamp == u32::MAX {
            self.slots.fill((0, 0));
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    #[inline]
    fn slot(hash: u64, mask: usize) -> usize {
        (hash ^ (hash >> 31)) as usize & mask
    }

    /// Adds the node's position to `results` unless it is already there.
    #[inline]
    fn insert(&mut self, node: &Node) {
        if 2 * (self.results.len() + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = Self::slot(node.hash, mask);
        loop {
            let (stamp, index) = self.slots[i];
            if stamp != self.stamp {
                self.slots[i] = (self.stamp, self.results.len() as u32);
                self.results.push(node.pos);
                return;
            }
            if self.results[index as usize] == node.pos {
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the set and re-enters the current results.
    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = vec![(0, 0); size];
        self.stamp = 1;
        let mask = size - 1;
        for (index, pos) in self.results.iter().enumerate() {
            let mut i = Self::slot(pos.linear_hash(), mask);
            while self.slots[i].0 == self.stamp {
                i = (i + 1) & mask;
            }
            self.slots[i] = (self.stamp, index as u32);
        }
    }
}

/// The distinct resulting positions of all legal full moves of `pos` with the
/// dice `d1`, `d2` (spec §4, §5), still oriented to the mover. A pass gives
/// the unchanged position; a finished game gives none.
pub fn successors(pos: &Position, d1: u8, d2: u8) -> Vec<Position> {
    MoveGen::new().generate(pos, d1, d2).to_vec()
}

/// SplitMix64: tiny, fast and fully specified, so playouts are reproducible
/// on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` without modulo bias (Lemire's method).
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "empty range");
        let mut m = (self.next_u64() >> 32) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = (self.next_u64() >> 32) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// One die, 1–6.
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }
}

/// Plays one uniform-random game from the start without the cube: the opening
/// is one die each (ties roll again), then two dice a turn, and the mover picks
/// uniformly among the distinct resulting positions. Returns the winner (0 for
/// the side that is X at the start, 1 for O) and the number of plies (passes
/// included).
pub fn random_playout(rng: &mut Rng) -> (u8, u32) {
    let mut generator = MoveGen::new();
    let (mut d1, mut d2) = loop {
        let (x, o) = (rng.die(), rng.die());
        if x != o {
            break (x, o);
        }
    };
    // The start is symmetric, so it needs no flip when O opens.
    let mut mover = u8::from(d2 > d1);
    let mut pos = Position::START;
    let mut plies = 0;
    loop {
        let options = generator.generate(&pos, d1, d2);
        let pick = options[rng.below(options.len() as u32) as usize];
        plies += 1;
        if pick.off[0] == CHECKERS {
            return (mover, plies);
        }
        pos = flip(&pick);
        mover ^= 1;
        d1 = rng.die();
        d2 = rng.die();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A position from the spec's §12 shorthand `P{point: count}` with X on
    /// roll; unlisted checkers are off.
    fn p(points: &[(usize, i8)], bar: [u8; 2]) -> Position {
        let mut board = [0i8; 24];
        for &(point, count) in points {
            board[point - 1] = count;
        }
        let mine: i32 = board
            .iter()
            .filter(|&&c| c > 0)
            .map(|&c| i32::from(c))
            .sum();
        let theirs: i32 = board
            .iter()
            .filter(|&&c| c < 0)
            .map(|&c| -i32::from(c))
            .sum();
        let off = [15 - mine as u8 - bar[0], 15 - theirs as u8 - bar[1]];
        Position { board, bar, off }
    }

    fn json(board: [i8; 24], bar: [u8; 2], off: [u8; 2]) -> Position {
        Position { board, bar, off }
    }

    fn point(token: &str) -> usize {
        match token.to_ascii_lowercase().as_str() {
            "bar" => BAR,
            "off" => 0,
            n => n.parse().expect("point number"),
        }
    }

    /// Applies a move in the spec's notation (§9), hitting at starred
    /// intermediate points and wherever a path ends on a lone opponent.
    fn play(pos: &Position, text: &str) -> Position {
        let mut next = *pos;
        for path in text.split_whitespace() {
            let (path, times) = match path.split_once('(') {
                Some((path, count)) => (path, count.trim_end_matches(')').parse().unwrap()),
                None => (path, 1),
            };
            let tokens: Vec<&str> = path.split('/').collect();
            for _ in 0..times {
                let start = point(tokens[0]);
                if start == BAR {
                    assert!(next.bar[0] > 0, "{text}: nothing on the bar");
                    next.bar[0] -= 1;
                } else {
                    assert!(next.board[start - 1] > 0, "{text}: no checker on {start}");
                    next.board[start - 1] -= 1;
                }
                for mid in &tokens[1..tokens.len() - 1] {
                    let at = point(mid.trim_end_matches('*'));
                    if mid.ends_with('*') && next.board[at - 1] == -1 {
                        next.board[at - 1] = 0;
                        next.bar[1] += 1;
                    }
                }
                let end = point(tokens[tokens.len() - 1].trim_end_matches('*'));
                if end == 0 {
                    next.off[0] += 1;
                } else if next.board[end - 1] == -1 {
                    next.board[end - 1] = 1;
                    next.bar[1] += 1;
                } else {
                    next.board[end - 1] += 1;
                }
            }
        }
        next
    }

    fn set(positions: &[Position]) -> BTreeSet<Position> {
        positions.iter().copied().collect()
    }

    /// Checks that the moves of `pos` with `dice` reach exactly the positions
    /// of the listed moves, with no duplicates.
    fn assert_moves(pos: &Position, dice: (u8, u8), moves: &[&str]) {
        let got = successors(pos, dice.0, dice.1);
        assert_eq!(set(&got).len(), got.len(), "duplicates for {dice:?}");
        let want: BTreeSet<Position> = moves.iter().map(|m| play(pos, m)).collect();
        assert_eq!(want.len(), moves.len(), "listed moves collide");
        assert_eq!(set(&got), want, "{pos:?} with {dice:?}");
    }

    fn assert_pass(pos: &Position, dice: (u8, u8)) {
        assert_eq!(successors(pos, dice.0, dice.1), vec![*pos], "{dice:?}");
    }

    const ROLLS: [(u8, u8); 21] = [
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (1, 5),
        (1, 6),
        (2, 2),
        (2, 3),
        (2, 4),
        (2, 5),
        (2, 6),
        (3, 3),
        (3, 4),
        (3, 5),
        (3, 6),
        (4, 4),
        (4, 5),
        (4, 6),
        (5, 5),
        (5, 6),
        (6, 6),
    ];

    #[test]
    fn opening_counts() {
        let counts = [
            42, 15, 16, 14, 8, 10, 75, 17, 18, 8, 14, 73, 17, 9, 14, 52, 9, 14, 4, 7, 11,
        ];
        let mut total = 0;
        for (&(a, b), &want) in ROLLS.iter().zip(&counts) {
            let got = successors(&Position::START, a, b);
            assert_eq!(got.len(), want, "{a}-{b}");
            assert_eq!(successors(&Position::START, b, a).len(), want, "{b}-{a}");
            total += got.len();
        }
        assert_eq!(total, 447);
    }

    #[test]
    fn opening_lists() {
        let start = Position::START;
        #[rustfmt::skip]
        assert_moves(&start, (2, 1), &[
            "13/10", "13/11 6/5", "13/11 8/7", "24/21", "24/22 6/5", "24/22 8/7", "24/23 13/11",
            "24/23 24/22", "24/23 6/4", "24/23 8/6", "6/3", "6/5 6/4", "8/5", "8/7 6/4", "8/7 8/6",
        ]);
        #[rustfmt::skip]
        assert_moves(&start, (3, 1), &[
            "13/10 6/5", "13/10 8/7", "13/9", "24/20", "24/21 6/5", "24/21 8/7", "24/23 13/10",
            "24/23 24/21", "24/23 6/3", "24/23 8/5", "6/2", "6/5 6/3", "8/4", "8/5 6/5", "8/7 6/3",
            "8/7 8/5",
        ]);
        #[rustfmt::skip]
        assert_moves(&start, (6, 5), &[
            "13/2", "13/7 8/3", "13/8 13/7", "24/13", "24/18 13/8", "24/18 8/3", "8/3 8/2",
        ]);
        assert_moves(
            &start,
            (5, 5),
            &["13/3 8/3(2)", "13/3(2)", "13/8(2) 13/3", "13/8(4)"],
        );
        #[rustfmt::skip]
        assert_moves(&start, (6, 6), &[
            "13/7 8/2(3)", "13/7(2) 8/2(2)", "13/7(3) 8/2", "13/7(4)", "24/18 13/7 8/2(2)",
            "24/18 13/7(2) 8/2", "24/18 13/7(3)", "24/18 8/2(3)", "24/18(2) 13/7 8/2",
            "24/18(2) 13/7(2)", "24/18(2) 8/2(2)",
        ]);
    }

    /// Spec §11.2 / B20: OpenSpiel's bear-off tests.
    #[test]
    fn openspiel_bear_off_positions() {
        #[rustfmt::skip]
        let furthest_first = json(
            [2, 1, 0, 0, 0, -2, 0, 0, 0, -1, 0, 0, 0, 0, -1, -2, 0, 0, 0, 0, -1, -6, -2, 0],
            [0, 0], [12, 0],
        );
        assert_moves(&furthest_first, (5, 5), &["2/off 1/off(2)"]);

        #[rustfmt::skip]
        let normal = json(
            [9, 1, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -7],
            [0, 0], [0, 8],
        );
        #[rustfmt::skip]
        assert_moves(&normal, (6, 1), &[
            "6/off", "6/off 1/off", "6/off 2/1", "6/off 3/2", "6/off 4/3",
        ]);

        #[rustfmt::skip]
        let normal2 = json(
            [-1, 9, 2, 3, 0, 1, -1, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, -2, 0, -2, -8],
            [0, 0], [0, 0],
        );
        assert_moves(&normal2, (4, 4), &["6/2 4/off(3)"]);

        #[rustfmt::skip]
        let outside = json(
            [-1, 9, 2, 2, 0, 1, 1, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, -3, 0, -2, -8],
            [0, 0], [0, 0],
        );
        #[rustfmt::skip]
        assert_moves(&outside, (6, 1), &[
            "7/1* 2/1", "7/1* 3/2", "7/1* 4/3", "7/1* 6/5", "7/1*/off", "7/off",
        ]);

        #[rustfmt::skip]
        let doubles_outside = json(
            [2, -2, 3, 3, 2, 3, 0, 2, 0, 0, 0, -1, -1, -1, 0, 0, -1, 0, -2, -1, -2, 0, -2, -2],
            [0, 0], [0, 0],
        );
        assert_moves(
            &doubles_outside,
            (4, 4),
            &["8/4 8/off 5/1", "8/4(2) 5/1(2)", "8/off(2)"],
        );
    }

    #[test]
    fn one_die_playable() {
        // B05: either die alone, so the larger.
        let b05 = p(
            &[(13, 1), (1, 4), (3, 5), (4, 5), (2, -2), (19, -13)],
            [0, 0],
        );
        assert_moves(&b05, (6, 5), &["13/7"]);
        // B06: only the smaller die can be played.
        let b06 = p(
            &[(13, 1), (1, 4), (3, 5), (4, 5), (2, -2), (7, -2), (19, -11)],
            [0, 0],
        );
        assert_moves(&b06, (6, 5), &["13/8"]);
        // B13, B14: a double played as far as it goes.
        let b13 = p(
            &[(13, 1), (1, 5), (2, 5), (3, 4), (5, -2), (19, -13)],
            [0, 0],
        );
        assert_moves(&b13, (4, 4), &["13/9"]);
        let b14 = p(&[(13, 1), (2, 7), (3, 7), (1, -2), (19, -13)], [0, 0]);
        assert_moves(&b14, (4, 4), &["13/5"]);
    }

    #[test]
    fn bar_rules() {
        // B07: the bar checker cannot enter, so nothing moves.
        let b07 = p(
            &[
                (6, 5),
                (8, 3),
                (13, 5),
                (24, 1),
                (1, -2),
                (12, -5),
                (17, -4),
                (19, -2),
                (20, -2),
            ],
            [1, 0],
        );
        assert_pass(&b07, (6, 5));
        // B08: a closed board stops every roll.
        let b08 = p(
            &[
                (6, 5),
                (8, 3),
                (13, 5),
                (18, -3),
                (19, -2),
                (20, -2),
                (21, -2),
                (22, -2),
                (23, -2),
                (24, -2),
            ],
            [1, 0],
        );
        assert_eq!(b08.off, [1, 0]);
        for &(a, b) in &ROLLS {
            assert_pass(&b08, (a, b));
        }
        // B09: both checkers enter.
        let b09_points = [
            (6, 5),
            (8, 3),
            (13, 5),
            (1, -2),
            (12, -5),
            (17, -3),
            (19, -5),
        ];
        let b09 = p(&b09_points, [2, 0]);
        assert_moves(&b09, (4, 3), &["bar/22 bar/21"]);
        // B10: only one can enter; the other die is lost.
        let b10 = p(
            &[
                (6, 5),
                (8, 3),
                (13, 5),
                (1, -2),
                (12, -5),
                (17, -3),
                (19, -3),
                (21, -2),
            ],
            [2, 0],
        );
        assert_moves(&b10, (4, 3), &["bar/22"]);
        // B11: entering with a hit.
        let b11 = p(
            &[
                (6, 5),
                (8, 3),
                (13, 5),
                (1, -1),
                (12, -5),
                (17, -3),
                (19, -5),
                (22, -1),
            ],
            [1, 0],
        );
        assert_eq!(b11.off, [1, 0]);
        #[rustfmt::skip]
        assert_moves(&b11, (5, 3), &[
            "bar/20 13/10", "bar/20 6/3", "bar/20 8/5", "bar/22* 13/8", "bar/22* 6/1*",
            "bar/22* 8/3",
        ]);
        assert_eq!(play(&b11, "bar/22* 13/8").bar, [0, 1]);
        // B19: the bar checker enters and must go on; no bear-off.
        let b19 = p(
            &[
                (1, 3),
                (2, 3),
                (3, 3),
                (4, 2),
                (5, 2),
                (6, 1),
                (19, -13),
                (24, -2),
            ],
            [1, 0],
        );
        assert_moves(&b19, (6, 2), &["bar/17"]);
    }

    #[test]
    fn hits_along_the_way() {
        // B12: an O blot on X's 18.
        let b12 = p(
            &[
                (24, 2),
                (13, 5),
                (8, 3),
                (6, 5),
                (18, -1),
                (1, -2),
                (12, -5),
                (17, -2),
                (19, -5),
            ],
            [0, 0],
        );
        let got = set(&successors(&b12, 6, 5));
        assert_eq!(got.len(), 7);
        for m in ["24/18*/13", "24/18* 13/8", "24/18* 8/3"] {
            assert!(got.contains(&play(&b12, m)), "{m}");
        }
        assert_eq!(play(&b12, "24/18*/13").bar, [0, 1]);
        // B32: two routes of 24/20 hit different blots: 17 moves in all.
        let b32 = p(
            &[
                (24, 2),
                (13, 5),
                (8, 3),
                (6, 5),
                (1, -2),
                (12, -5),
                (17, -3),
                (19, -3),
                (21, -1),
                (23, -1),
            ],
            [0, 0],
        );
        let got = set(&successors(&b32, 3, 1));
        assert_eq!(got.len(), 17);
        assert!(got.contains(&play(&b32, "24/21*/20")));
        assert!(got.contains(&play(&b32, "24/23*/20")));
    }

    #[test]
    fn bearing_off() {
        // B15: larger dice bear off from the highest point.
        let b15 = p(&[(3, 1), (2, 1), (24, -15)], [0, 0]);
        assert_moves(&b15, (6, 5), &["3/off 2/off"]);
        // B16: 2/off with a 4 waits until the 6-point is empty.
        let b16 = p(&[(6, 1), (2, 1), (24, -15)], [0, 0]);
        assert_moves(&b16, (4, 4), &["6/off 2/off"]);
        // B17: both dice are used even though the game ends.
        let b17 = p(&[(2, 1), (24, -15)], [0, 0]);
        assert_moves(&b17, (6, 1), &["2/off"]);
        assert_moves(&b17, (1, 6), &["2/1/off"]);
        // B18: one die brings the checker home, the next bears it off.
        let b18 = p(&[(7, 1), (1, 2), (24, -15)], [0, 0]);
        assert_moves(&b18, (6, 1), &["7/off"]);
    }

    #[test]
    fn finished_game_has_no_moves() {
        let over = p(&[(24, -15)], [0, 0]);
        assert_eq!(over.off, [15, 0]);
        assert!(successors(&over, 3, 1).is_empty());
        assert!(successors(&flip(&over), 6, 6).is_empty());
    }

    #[test]
    fn flip_is_an_involution() {
        let b11 = p(&[(6, 5), (13, 9), (1, -1), (22, -13)], [1, 1]);
        assert_eq!(flip(&flip(&b11)), b11);
        assert_eq!(flip(&Position::START), Position::START);
        assert_eq!(flip(&b11).board[2], 13, "X's 22-point is O's 3-point");
        assert_eq!(flip(&b11).off, [b11.off[1], b11.off[0]]);
    }

    #[test]
    fn playouts_are_reproducible() {
        let games: Vec<(u8, u32)> = (0..20).map(|i| random_playout(&mut Rng::new(i))).collect();
        let again: Vec<(u8, u32)> = (0..20).map(|i| random_playout(&mut Rng::new(i))).collect();
        assert_eq!(games, again);
        assert!(
            games
                .iter()
                .all(|&(winner, plies)| winner < 2 && plies > 10)
        );
    }

    /// Every step's updated hash and occupancy equal those of its position.
    #[test]
    fn incremental_hash_is_exact() {
        let mut rng = Rng::new(11);
        let mut pos = Position::START;
        for _ in 0..2000 {
            let node = Node::new(&pos);
            for die in 1..=6 {
                for (_, next) in Steps::new(&node, die, BAR, blocked_points(&pos)) {
                    assert_eq!(next.hash, next.pos.linear_hash(), "{pos:?} die {die}");
                    assert_eq!(next.mine, Node::new(&next.pos).mine, "{pos:?} die {die}");
                }
            }
            let options = successors(&pos, rng.die(), rng.die());
            let pick = options[rng.below(options.len() as u32) as usize];
            pos = if pick.is_over() {
                Position::START
            } else {
                flip(&pick)
            };
        }
    }

    #[test]
    fn rng_is_pinned() {
        // SplitMix64 reference outputs for seed 1234567.
        let mut rng = Rng::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[usize::from(rng.die() - 1)] += 1;
        }
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }
}
