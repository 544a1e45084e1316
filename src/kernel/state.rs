//! The mutable state of one game: everything rules may change lives here, so that a snapshot
//! (a clone) is a complete undo point and a failed action can be rolled back exactly.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub use super::log::Log;
pub use super::pending::{Continuation, Decision, Wait};
pub use super::props::Props;
use super::rng::Stream;
use super::topology::{Loc, Topology};
use super::turn::{Seat, TurnOrder};
use super::value::Value;

/// Piece ids are numbered from 1.
pub type PieceId = u32;

#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub kind: String,
    pub owner: Seat,
    /// 0 when the piece is on no location.
    pub loc: Loc,
    /// (track id, index) when the piece was put at a track position (`track_put`) and has
    /// not moved since: a route may pass its cell more than once.
    pub track: Option<(u32, u32)>,
    pub props: Props,
    /// Taken out of the game (`G:remove`): its id is never reused, and no call accepts it.
    pub removed: bool,
}

pub use super::view::{ALL_SEATS, Domain, LogLine, Secret, Viewer};

/// Names one version of one state, for `G:kept`: `id` is drawn afresh whenever a state is
/// made or copied (a snapshot, a rollback, a new game from a starting position), and
/// `version` counts the changes rules made to it since. So two states, or two moments of one,
/// never share a stamp unless nothing has changed in between.
#[derive(PartialEq, Eq)]
pub struct Stamp {
    id: u64,
    version: u64,
}

impl Stamp {
    fn fresh() -> Stamp {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Stamp {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            version: 0,
        }
    }

    /// The stamp as two integers, for the registry that holds kept values.
    pub fn parts(&self) -> (i64, i64) {
        (self.id as i64, self.version as i64)
    }
}

/// A stamp names a version, not what the state holds: a state printed whole (as tests compare
/// a rolled-back state with the one before) prints none.
impl std::fmt::Debug for Stamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stamp")
    }
}

/// A copy is another state: whatever rules kept for the original is not theirs.
impl Clone for Stamp {
    fn clone(&self) -> Stamp {
        Stamp::fresh()
    }
}

/// For each value kept with the game properties it was built from (`G:keep(name, value,
/// props)`): its name and those properties as they were then. A copy holds none (its stamp
/// is new, so nothing kept applies to it), and a state printed whole prints none.
#[derive(Default)]
pub struct KeptFrom(pub Vec<(String, PropsAsThey)>);

/// Game properties by name, with the value each held (None: unset).
pub type PropsAsThey = Vec<(String, Option<Value>)>;

impl Clone for KeptFrom {
    fn clone(&self) -> KeptFrom {
        KeptFrom::default()
    }
}

impl std::fmt::Debug for KeptFrom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeptFrom")
    }
}

#[derive(Clone, Debug)]
pub struct State {
    pub topology: Arc<Topology>,
    pieces: Vec<Piece>,
    stacks: Vec<Vec<PieceId>>,
    cell_props: Vec<Props>,
    pub props: Props,
    pub player_props: Vec<Props>,
    pub turn: TurnOrder,
    pub secrets: BTreeMap<String, Secret>,
    /// Shuffled bags: each kept sorted, so a draw by index is deterministic.
    pub bags: BTreeMap<String, Vec<String>>,
    /// The seats that may see a bag's contents, for bags not everyone may see (absent: all).
    pub bag_seen: BTreeMap<String, u64>,
    /// Continuations of the move in progress, top last (see `pending`).
    pub pending: Vec<Continuation>,
    pub switches: Arc<BTreeMap<String, Value>>,
    seed: u64,
    /// The seed of the secret streams (randomizers declared `secret`): not printed, so the
    /// public seed does not predict what they draw.
    secret_seed: u64,
    streams: BTreeMap<String, Stream>,
    secret_streams: BTreeMap<String, Stream>,
    pub log: Log,
    pub logging: bool,
    pub stats: BTreeMap<String, i64>,
    /// Set while a query hook or a REPL expression looks at the state: every mutation is
    /// refused.
    pub read_only: bool,
    /// Roughly what rules made the state hold, in bytes (see `grow`), and how much of it is
    /// log lines (which copies of the state share).
    bytes: usize,
    log_bytes: usize,
    /// The bound on `bytes`: kernel-side memory has a limit like the Lua heap's.
    pub max_bytes: usize,
    /// Whose view rules are running in: in a seat's view what the seat may not see cannot be
    /// read.
    pub viewer: Viewer,
    /// This version of the state (see `Stamp`); `touch` moves it on with every change.
    stamp: Stamp,
    /// Whether `G:kept` may return what rules kept; off, rules rebuild everything on every
    /// call, which a differential test compares against.
    pub keeping: bool,
    /// What values kept with their properties were built from (see `KeptFrom`).
    pub kept_from: KeptFrom,
}

/// The bytes the allocator takes for a heap block of `len` bytes: rounded up to 16 with its
/// 8-byte header, at least 32 (glibc's malloc); none for nothing. What the kernel counts for
/// what it holds (`State::grow`) must be at least what it spends, or a rule fills the machine
/// before the memory limit refuses.
pub fn heap_block(len: usize) -> usize {
    if len == 0 {
        0
    } else {
        (len + 8).next_multiple_of(16).max(32)
    }
}

impl State {
    pub fn new(
        seat_names: Vec<String>,
        seed: u64,
        switches: Arc<BTreeMap<String, Value>>,
    ) -> State {
        let n = seat_names.len();
        State {
            topology: Arc::new(Topology::default()),
            pieces: Vec::new(),
            stacks: Vec::new(),
            cell_props: Vec::new(),
            props: Props::new(),
            player_props: vec![Props::new(); n],
            turn: TurnOrder::new(seat_names),
            secrets: BTreeMap::new(),
            bags: BTreeMap::new(),
            bag_seen: BTreeMap::new(),
            pending: Vec::new(),
            switches,
            seed,
            secret_seed: derived_secret_seed(seed),
            streams: BTreeMap::new(),
            secret_streams: BTreeMap::new(),
            log: Log::default(),
            logging: true,
            stats: BTreeMap::new(),
            read_only: false,
            bytes: 0,
            log_bytes: 0,
            max_bytes: usize::MAX,
            viewer: Viewer::Referee,
            stamp: Stamp::fresh(),
            keeping: true,
            kept_from: KeptFrom::default(),
        }
    }

    /// Records that the state changed: what rules kept for it before no longer applies.
    pub fn touch(&mut self) {
        self.stamp.version += 1;
    }

    /// The state's current stamp.
    pub fn stamp(&self) -> &Stamp {
        &self.stamp
    }

    /// Counts `delta` more bytes held; an error once growth takes the state over `max_bytes`.
    /// The bindings call it as rules add pieces, places, properties, secrets, bag items and
    /// log lines, so one hook cannot fill the machine through the kernel.
    pub fn grow(&mut self, delta: isize) -> Result<(), String> {
        self.bytes = self.bytes.saturating_add_signed(delta);
        if delta > 0 && self.bytes > self.max_bytes {
            return Err(format!(
                "memory limit exceeded: the game state holds over {} MiB",
                self.max_bytes >> 20
            ));
        }
        Ok(())
    }

    /// Counts a log line of `bytes` (`LogLine::bytes`), as `grow` does.
    pub fn grow_log(&mut self, bytes: usize) -> Result<(), String> {
        self.log_bytes += bytes;
        self.grow(bytes as isize)
    }

    /// What `grow` has counted.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// What a copy of the state holds on its own: what `grow` counted but the log, whose
    /// lines copies share (`Log`).
    pub fn own_bytes(&self) -> usize {
        self.bytes.saturating_sub(self.log_bytes)
    }

    /// Whether two states hold the same game — pieces, places, properties, turn, secrets and
    /// bags — whatever their random streams, log and stats: a simulation that comes back to
    /// the same game after many steps is stalled.
    pub fn same_game(&self, other: &State) -> bool {
        self.pieces == other.pieces
            && self.stacks == other.stacks
            && self.cell_props == other.cell_props
            && self.props == other.props
            && self.player_props == other.player_props
            && self.turn == other.turn
            && self.secrets == other.secrets
            && self.bags == other.bags
            && self.bag_seen == other.bag_seen
            && self.pending == other.pending
            && (Arc::ptr_eq(&self.topology, &other.topology)
                || format!("{:?}", self.topology) == format!("{:?}", other.topology))
    }

    /// Restarts every random stream from a new seed (a position file's own seed); the secret
    /// streams restart from a seed derived from it.
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.secret_seed = derived_secret_seed(seed);
        self.streams.clear();
        self.secret_streams.clear();
    }

    /// Sets the seed of the secret streams (one the public seed does not give).
    pub fn set_secret_seed(&mut self, seed: u64) {
        self.secret_seed = seed;
        self.secret_streams.clear();
    }

    pub fn secret_seed(&self) -> u64 {
        self.secret_seed
    }

    /// Whether the state owes nothing to its seed but the seed itself: it is still `seed` and
    /// no stream has been drawn from.
    pub fn seed_untouched(&self, seed: u64) -> bool {
        self.seed == seed && self.streams.is_empty() && self.secret_streams.is_empty()
    }

    /// The named random stream, created from the seed on first use; with `secret`, one of
    /// the streams seeded by the secret seed.
    pub fn stream_of(&mut self, name: &str, secret: bool) -> &mut Stream {
        let (streams, seed) = if secret {
            (&mut self.secret_streams, self.secret_seed)
        } else {
            (&mut self.streams, self.seed)
        };
        if !streams.contains_key(name) {
            streams.insert(name.to_string(), Stream::new(seed, name));
        }
        streams.get_mut(name).expect("just made")
    }

    /// The named public random stream.
    pub fn stream(&mut self, name: &str) -> &mut Stream {
        self.stream_of(name, false)
    }

    /// Mutable access to the topology; keeps per-location tables in step with it.
    pub fn topology_mut(&mut self) -> &mut Topology {
        Arc::make_mut(&mut self.topology)
    }

    /// Grows per-location tables after places were added.
    pub fn sync_places(&mut self) {
        let n = self.topology.len();
        self.stacks.resize_with(n, Vec::new);
        self.cell_props.resize_with(n, Props::new);
    }

    pub fn check_loc(&self, loc: i64) -> Result<Loc, String> {
        if loc >= 1 && (loc as usize) <= self.topology.len() {
            Ok(loc as Loc)
        } else {
            Err(format!("no location {loc}"))
        }
    }

    /// A location that may be 0 (off every location: where a piece goes out of play).
    pub fn check_loc_or_none(&self, loc: i64) -> Result<Loc, String> {
        if loc == 0 { Ok(0) } else { self.check_loc(loc) }
    }

    pub fn check_piece(&self, p: i64) -> Result<PieceId, String> {
        if p >= 1 && (p as usize) <= self.pieces.len() {
            if self.pieces[p as usize - 1].removed {
                return Err(format!("piece {p} was removed"));
            }
            Ok(p as PieceId)
        } else {
            Err(format!("no piece {p}"))
        }
    }

    /// Whether `p` is a piece in the game (added, not removed).
    pub fn exists(&self, p: i64) -> bool {
        self.check_piece(p).is_ok()
    }

    /// Takes a piece out of the game: off its location, its properties dropped. Ids stay
    /// stable: the id is not reused, so a rule that kept it gets an error, not another piece.
    pub fn remove_piece(&mut self, p: PieceId) {
        self.move_piece(p, 0);
        let piece = self.piece_mut(p);
        piece.props = Props::new();
        piece.removed = true;
    }

    pub fn piece(&self, p: PieceId) -> &Piece {
        &self.pieces[p as usize - 1]
    }

    pub fn piece_mut(&mut self, p: PieceId) -> &mut Piece {
        &mut self.pieces[p as usize - 1]
    }

    /// A new piece on top of `loc` (0 = on no location).
    pub fn add_piece(&mut self, kind: &str, owner: Seat, loc: Loc) -> PieceId {
        self.pieces.push(Piece {
            kind: kind.to_string(),
            owner,
            loc: 0,
            track: None,
            props: Props::new(),
            removed: false,
        });
        let id = self.pieces.len() as PieceId;
        self.move_piece(id, loc);
        id
    }

    /// Moves a piece to the top of `loc` (0 = off every location).
    pub fn move_piece(&mut self, p: PieceId, loc: Loc) {
        let from = self.pieces[p as usize - 1].loc;
        if from != 0 {
            let stack = &mut self.stacks[from as usize - 1];
            if let Some(i) = stack.iter().rposition(|&q| q == p) {
                stack.remove(i);
            }
        }
        if loc != 0 {
            self.stacks[loc as usize - 1].push(p);
        }
        let piece = &mut self.pieces[p as usize - 1];
        piece.loc = loc;
        piece.track = None;
    }

    /// Moves a piece to the top of the cell at `index` (1-based, checked by the caller) of
    /// track `track` and records that position.
    pub fn track_put(&mut self, p: PieceId, track: u32, index: u32, loc: Loc) {
        self.move_piece(p, loc);
        self.piece_mut(p).track = Some((track, index));
    }

    /// Forgets every piece's position on a track that was redefined (the pieces stay where
    /// they are).
    pub fn forget_track(&mut self, track: u32) {
        for piece in &mut self.pieces {
            if piece.track.is_some_and(|(t, _)| t == track) {
                piece.track = None;
            }
        }
    }

    /// Whether piece `q`, at the cell of position `index` of `track`, counts at that position:
    /// a piece put at a position of this track counts there; any other at its cell's first
    /// index.
    pub fn counts_at(&self, q: PieceId, track: &super::topology::Track, index: u32) -> bool {
        let piece = self.piece(q);
        match piece.track {
            Some((t, i)) if t == track.id => i == index,
            _ => track.first(piece.loc) == Some(index),
        }
    }

    /// Pieces at `loc`, bottom to top.
    pub fn at(&self, loc: Loc) -> &[PieceId] {
        &self.stacks[loc as usize - 1]
    }

    pub fn count(&self, loc: Loc, owner: Option<Seat>, kind: Option<&str>) -> usize {
        self.at(loc)
            .iter()
            .filter(|&&p| {
                let piece = self.piece(p);
                owner.is_none_or(|o| piece.owner == o) && kind.is_none_or(|k| piece.kind == k)
            })
            .count()
    }

    /// The pieces in the game (removed ones left out), in id order.
    pub fn pieces(&self) -> impl Iterator<Item = (PieceId, &Piece)> {
        self.pieces
            .iter()
            .enumerate()
            .map(|(i, p)| (i as PieceId + 1, p))
            .filter(|(_, p)| !p.removed)
    }

    pub fn cell_props(&self, loc: Loc) -> &Props {
        &self.cell_props[loc as usize - 1]
    }

    pub fn cell_props_mut(&mut self, loc: Loc) -> &mut Props {
        &mut self.cell_props[loc as usize - 1]
    }

    /// Removes one `item` from the bag; false if it is not there.
    pub fn bag_take(&mut self, bag: &str, item: &str) -> bool {
        let Some(items) = self.bags.get_mut(bag) else {
            return false;
        };
        match items.binary_search_by(|i| i.as_str().cmp(item)) {
            Ok(i) => {
                let item = items.remove(i);
                self.bytes = self.bytes.saturating_sub(24 + item.len());
                true
            }
            Err(_) => false,
        }
    }

    pub fn bag_add(&mut self, bag: &str, item: &str) {
        let items = self.bags.entry(bag.to_string()).or_default();
        let i = items.partition_point(|i| i.as_str() <= item);
        items.insert(i, item.to_string());
    }

    /// Appends a public log line.
    pub fn log(&mut self, line: String) {
        self.log_for(line, ALL_SEATS);
    }

    /// Tells in the log that the decision `why` had no option and its fallback ran, the
    /// fallback's lines from `mark` on: as one event with the fallback's first line where
    /// everyone reads it ("W2 at G2: which cave to come out of — nothing to choose, so W2 is
    /// lost in the cave"), else as a line of its own before them.
    pub fn told_instead(&mut self, mark: usize, why: &str) {
        if !self.logging {
            return;
        }
        self.log
            .rewrite_from(mark, |lines| match lines.first_mut() {
                Some(l) if l.seen_by == ALL_SEATS && l.otherwise.is_none() => {
                    l.text = format!("{why} — nothing to choose, so {}", l.text)
                }
                _ => lines.insert(0, LogLine::public(format!("{why} (nothing to choose)"))),
            });
    }

    /// Appends a log line that only the seats of `seen_by` (and the referee) may read.
    pub fn log_for(&mut self, text: String, seen_by: u64) {
        if self.logging {
            let mut line = LogLine::public(text);
            line.seen_by = seen_by;
            self.log.push(line);
        }
    }

    /// Whether anything in the state is hidden from `viewer`: a secret, a bag's contents.
    pub fn hides_from(&self, viewer: Viewer) -> bool {
        self.secrets.values().any(|s| !viewer.sees(s.visible))
            || self.bag_seen.values().any(|&seats| !viewer.sees(seats))
    }

    /// Whether the viewer may see the contents of bag `name`.
    pub fn bag_visible(&self, name: &str, viewer: Viewer) -> bool {
        viewer.sees(self.bag_seen.get(name).copied().unwrap_or(ALL_SEATS))
    }

    /// Everything that decides the game, for comparing two states in tests (the log aside).
    pub fn fingerprint(&self) -> String {
        let mut out = String::new();
        use std::fmt::Write;
        for (i, p) in self.pieces.iter().enumerate() {
            let _ = write!(
                out,
                "{}:{}:{}:{}:{:?}:{:?}:{};",
                i + 1,
                p.kind,
                p.owner,
                p.loc,
                p.track,
                p.props,
                p.removed
            );
        }
        let _ = write!(
            out,
            "|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
            self.props,
            self.player_props,
            self.cell_props,
            self.turn,
            self.secrets,
            self.bags,
            self.bag_seen,
            self.streams,
            self.secret_streams,
            self.pending
        );
        out
    }
}

/// The secret seed a public seed gives when the user chose the seed (`--seed`), so that
/// experiments stay reproducible from one number.
pub fn derived_secret_seed(seed: u64) -> u64 {
    let mut x = seed ^ 0x5EC2_E75E_ED00_0001;
    super::rng::splitmix64(&mut x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        let mut s = State::new(vec!["A".into(), "B".into()], 1, Arc::default());
        s.topology_mut().place("x");
        s.topology_mut().place("y");
        s.sync_places();
        s
    }

    #[test]
    fn pieces_stack_and_move() {
        let mut s = state();
        let a = s.add_piece("checker", 1, 1);
        let b = s.add_piece("checker", 2, 1);
        assert_eq!(s.at(1), &[a, b]);
        s.move_piece(a, 2);
        assert_eq!(s.at(1), &[b]);
        assert_eq!(s.count(2, Some(1), None), 1);
        assert_eq!(s.count(2, Some(2), None), 0);
        s.move_piece(b, 0);
        assert!(s.at(1).is_empty());
    }

    #[test]
    fn bags_stay_sorted() {
        let mut s = state();
        for item in ["c", "a", "b", "a"] {
            s.bag_add("deck", item);
        }
        assert_eq!(s.bags["deck"], ["a", "a", "b", "c"]);
        assert!(s.bag_take("deck", "a"));
        assert!(!s.bag_take("deck", "z"));
        assert_eq!(s.bags["deck"], ["a", "b", "c"]);
    }

    #[test]
    fn snapshot_is_independent() {
        let mut s = state();
        let snap = s.clone();
        s.add_piece("k", 1, 1);
        s.stream("dice").next_u64();
        assert_ne!(snap.fingerprint(), s.fingerprint());
    }
}
