//! The shape of a board: named places, rectangular grids with eight directions, per-player
//! tracks and explicit links. Built by a game's `setup`, rarely changed afterwards, so states
//! share it copy-on-write.

use std::collections::{BTreeMap, HashMap};

/// A location: a point, a grid cell or an off-board zone. Numbered from 1.
pub type Loc = u32;

/// The eight compass directions of a grid; N is up (y − 1).
pub const DIRECTIONS: [(&str, i32, i32); 8] = [
    ("N", 0, -1),
    ("NE", 1, -1),
    ("E", 1, 0),
    ("SE", 1, 1),
    ("S", 0, 1),
    ("SW", -1, 1),
    ("W", -1, 0),
    ("NW", -1, -1),
];

#[derive(Clone, Debug)]
struct Grid {
    prefix: String,
    w: u32,
    h: u32,
    first: Loc,
    /// Chess-style: cells named by column letter and row number, row 1 at the bottom, so
    /// north is y + 1. Otherwise cells are `<prefix>x,y` with y growing downwards.
    rows_up: bool,
}

/// How grid distances are measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Steps in eight directions (a king's moves): max(|dx|, |dy|).
    Chebyshev,
    /// Steps in four directions (a rook's single steps): |dx| + |dy|.
    Manhattan,
}

impl Metric {
    pub fn parse(name: Option<&str>) -> Result<Metric, String> {
        match name {
            None | Some("chebyshev") => Ok(Metric::Chebyshev),
            Some("manhattan") => Ok(Metric::Manhattan),
            Some(other) => Err(format!("unknown metric '{other}' (chebyshev, manhattan)")),
        }
    }
}

/// How a grid names its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridNames {
    /// `<prefix>x,y`, y = 1 at the top.
    Coordinates,
    /// `<prefix>A1`: column letter, row number, row 1 at the bottom (at most 26 columns).
    Letters,
}

/// A route: locations in order, a location possibly more than once.
#[derive(Clone, Debug, Default)]
pub struct Track {
    pub locs: Vec<Loc>,
    /// The first index (1-based) of each location.
    pos: HashMap<Loc, u32>,
    /// Stable while the topology lives: pieces record their track position by it.
    pub id: u32,
    /// Whether some location appears twice: then a piece's cell alone does not say where on
    /// the track it is.
    pub revisits: bool,
}

impl Track {
    /// The first index (1-based) of `loc` on the track.
    pub fn first(&self, loc: Loc) -> Option<u32> {
        self.pos.get(&loc).copied()
    }
}

/// All places of a game and how they connect.
#[derive(Clone, Debug, Default)]
pub struct Topology {
    names: Vec<String>,
    by_name: HashMap<String, Loc>,
    grids: Vec<Grid>,
    /// For each location: (grid index, x, y) when it is a grid cell.
    cell_xy: Vec<Option<(u32, u32, u32)>>,
    tracks: BTreeMap<String, Track>,
    /// Track names by id.
    track_names: Vec<String>,
    links: Vec<Vec<(Loc, String)>>,
}

impl Topology {
    /// How many locations exist.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Creates the named location, or returns the existing one.
    pub fn place(&mut self, name: &str) -> Loc {
        if let Some(&loc) = self.by_name.get(name) {
            return loc;
        }
        self.names.push(name.to_string());
        self.cell_xy.push(None);
        self.links.push(Vec::new());
        let loc = self.names.len() as Loc;
        self.by_name.insert(name.to_string(), loc);
        loc
    }

    pub fn loc(&self, name: &str) -> Option<Loc> {
        self.by_name.get(name).copied()
    }

    pub fn name(&self, loc: Loc) -> Option<&str> {
        self.names
            .get(loc.checked_sub(1)? as usize)
            .map(String::as_str)
    }

    /// Creates a w×h grid of cells named as `names` says.
    pub fn grid(&mut self, prefix: &str, w: u32, h: u32, names: GridNames) -> Result<(), String> {
        if self.grids.iter().any(|g| g.prefix == prefix) {
            return Err(format!("grid '{prefix}' already exists"));
        }
        if w == 0
            || h == 0
            || u64::from(w) * u64::from(h) > 1 << 16
            || (names == GridNames::Letters && w > 26)
        {
            return Err(format!("grid size {w}x{h} is out of range"));
        }
        let first = self.names.len() as Loc + 1;
        let index = self.grids.len() as u32;
        for y in 1..=h {
            for x in 1..=w {
                let name = match names {
                    GridNames::Coordinates => format!("{prefix}{x},{y}"),
                    GridNames::Letters => format!("{prefix}{}{y}", (b'A' + x as u8 - 1) as char),
                };
                let loc = self.place(&name);
                if loc < first {
                    return Err(format!("cell name {name} is already a place"));
                }
                self.cell_xy[loc as usize - 1] = Some((index, x, y));
            }
        }
        self.grids.push(Grid {
            prefix: prefix.to_string(),
            w,
            h,
            first,
            rows_up: names == GridNames::Letters,
        });
        Ok(())
    }

    /// The cell at (x, y) of the grid, if inside.
    pub fn cell(&self, prefix: &str, x: i64, y: i64) -> Option<Loc> {
        let g = self.grids.iter().find(|g| g.prefix == prefix)?;
        Self::grid_cell(g, x, y)
    }

    fn grid_cell(g: &Grid, x: i64, y: i64) -> Option<Loc> {
        if x < 1 || y < 1 || x > i64::from(g.w) || y > i64::from(g.h) {
            return None;
        }
        Some(g.first + (y as u32 - 1) * g.w + (x as u32 - 1))
    }

    pub fn xy(&self, loc: Loc) -> Option<(u32, u32)> {
        let (_, x, y) = (*self.cell_xy.get(loc.checked_sub(1)? as usize)?)?;
        Some((x, y))
    }

    /// The cell n steps from `loc` towards `dir`, or None off the grid.
    pub fn step(&self, loc: Loc, dir: &str, n: i64) -> Result<Option<Loc>, String> {
        let (_, dx, dy) = DIRECTIONS
            .iter()
            .find(|(name, _, _)| *name == dir)
            .ok_or_else(|| format!("unknown direction '{dir}' (use N NE E SE S SW W NW)"))?;
        let Some((gi, x, y)) = self
            .cell_xy
            .get(loc.wrapping_sub(1) as usize)
            .copied()
            .flatten()
        else {
            return Err(format!("location {loc} is not a grid cell"));
        };
        let g = &self.grids[gi as usize];
        let dy = if g.rows_up { -dy } else { *dy };
        Ok(Self::grid_cell(
            g,
            i64::from(x) + i64::from(*dx) * n,
            i64::from(y) + i64::from(dy) * n,
        ))
    }

    /// Defines (or redefines) a track; returns its id.
    pub fn set_track(&mut self, name: &str, locs: Vec<Loc>) -> u32 {
        let mut pos = HashMap::new();
        for (i, &l) in locs.iter().enumerate() {
            pos.entry(l).or_insert(i as u32 + 1);
        }
        let id = match self.tracks.get(name) {
            Some(t) => t.id,
            None => {
                self.track_names.push(name.to_string());
                self.track_names.len() as u32 - 1
            }
        };
        let revisits = pos.len() < locs.len();
        let track = Track {
            locs,
            pos,
            id,
            revisits,
        };
        self.tracks.insert(name.to_string(), track);
        id
    }

    pub fn track(&self, name: &str) -> Result<&[Loc], String> {
        self.track_info(name).map(|t| t.locs.as_slice())
    }

    pub fn track_info(&self, name: &str) -> Result<&Track, String> {
        self.tracks
            .get(name)
            .ok_or_else(|| format!("unknown track '{name}'"))
    }

    /// The name of the track with id `id`.
    pub fn track_name(&self, id: u32) -> &str {
        &self.track_names[id as usize]
    }

    /// The first index of `loc` on the track.
    pub fn track_pos(&self, name: &str, loc: Loc) -> Result<Option<u32>, String> {
        self.track_info(name).map(|t| t.first(loc))
    }

    /// Every index (1-based) where the track passes `loc`, in order.
    pub fn track_positions(&self, name: &str, loc: Loc) -> Result<Vec<u32>, String> {
        let t = self.track_info(name)?;
        Ok((1..=t.locs.len() as u32)
            .filter(|&i| t.locs[i as usize - 1] == loc)
            .collect())
    }

    /// Links a and b both ways with a kind ("cave", "teleport", …).
    pub fn link(&mut self, a: Loc, b: Loc, kind: &str) {
        self.link_to(a, b, kind);
        self.link_to(b, a, kind);
    }

    /// Links a to b one way (a current, a chute): b is among a's links, not a among b's.
    pub fn link_to(&mut self, a: Loc, b: Loc, kind: &str) {
        let list = &mut self.links[a as usize - 1];
        if !list.iter().any(|(l, k)| *l == b && k == kind) {
            list.push((b, kind.to_string()));
        }
    }

    /// The grid index and coordinates of a grid cell.
    fn grid_of(&self, loc: Loc) -> Result<(u32, u32, u32), String> {
        self.cell_xy
            .get(loc.wrapping_sub(1) as usize)
            .copied()
            .flatten()
            .ok_or_else(|| format!("location {loc} is not a grid cell"))
    }

    /// The cells next to `loc` on its grid: eight (Chebyshev: a king's step) or four
    /// (Manhattan: a rook's step), in the order N NE E SE S SW W NW; cells off the grid left out.
    pub fn neighbours(&self, loc: Loc, metric: Metric) -> Result<Vec<Loc>, String> {
        self.grid_of(loc)?;
        let mut out = Vec::new();
        for (i, (dir, _, _)) in DIRECTIONS.iter().enumerate() {
            if metric == Metric::Manhattan && i % 2 == 1 {
                continue;
            }
            if let Some(l) = self.step(loc, dir, 1)? {
                out.push(l);
            }
        }
        Ok(out)
    }

    /// The distance between two cells of one grid (None when on different grids).
    pub fn distance(&self, a: Loc, b: Loc, metric: Metric) -> Result<Option<u32>, String> {
        let ((ga, xa, ya), (gb, xb, yb)) = (self.grid_of(a)?, self.grid_of(b)?);
        if ga != gb {
            return Ok(None);
        }
        let (dx, dy) = (xa.abs_diff(xb), ya.abs_diff(yb));
        Ok(Some(match metric {
            Metric::Chebyshev => dx.max(dy),
            Metric::Manhattan => dx + dy,
        }))
    }

    /// Locations linked to `loc` by `kind`, in the order the links were made.
    pub fn links(&self, loc: Loc, kind: &str) -> Vec<Loc> {
        self.links
            .get(loc.wrapping_sub(1) as usize)
            .map(|l| {
                l.iter()
                    .filter(|(_, k)| k == kind)
                    .map(|(l, _)| *l)
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_steps_and_edges() {
        let mut t = Topology::default();
        t.place("bar");
        t.grid("c", 13, 13, GridNames::Coordinates).unwrap();
        let a = t.cell("c", 1, 1).unwrap();
        assert_eq!(t.name(a), Some("c1,1"));
        assert_eq!(t.xy(a), Some((1, 1)));
        assert_eq!(t.step(a, "N", 1).unwrap(), None);
        assert_eq!(t.step(a, "SE", 2).unwrap(), t.cell("c", 3, 3));
        assert!(t.step(a, "UP", 1).is_err());
        assert!(t.step(1, "N", 1).is_err());
        assert_eq!(t.cell("c", 14, 1), None);
    }

    #[test]
    fn letter_grids_count_rows_from_the_bottom() {
        let mut t = Topology::default();
        t.grid("", 13, 13, GridNames::Letters).unwrap();
        let g1 = t.loc("G1").unwrap();
        assert_eq!(t.xy(g1), Some((7, 1)));
        assert_eq!(t.step(g1, "N", 1).unwrap(), t.loc("G2"));
        assert_eq!(t.step(g1, "NE", 2).unwrap(), t.loc("I3"));
        assert_eq!(t.step(g1, "S", 1).unwrap(), None);
        assert_eq!(t.cell("", 13, 13), t.loc("M13"));
        assert!(t.grid("x", 27, 2, GridNames::Letters).is_err());
    }

    #[test]
    fn tracks_and_links() {
        let mut t = Topology::default();
        let a = t.place("a");
        let b = t.place("b");
        t.set_track("x", vec![b, a]);
        assert_eq!(t.track("x").unwrap(), &[b, a]);
        assert_eq!(t.track_pos("x", a).unwrap(), Some(2));
        t.link(a, b, "cave");
        assert_eq!(t.links(b, "cave"), vec![a]);
        assert!(t.links(b, "other").is_empty());
        t.link_to(a, b, "current");
        assert_eq!(t.links(a, "current"), vec![b]);
        assert!(t.links(b, "current").is_empty(), "a current runs one way");
    }

    #[test]
    fn neighbours_and_distances() {
        let mut t = Topology::default();
        t.grid("c", 3, 3, GridNames::Coordinates).unwrap();
        t.grid("d", 2, 2, GridNames::Coordinates).unwrap();
        let at = |x, y| t.cell("c", x, y).unwrap();
        let names = |v: Vec<Loc>| {
            v.iter()
                .map(|&l| t.name(l).unwrap().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(t.neighbours(at(1, 1), Metric::Chebyshev).unwrap()),
            ["c2,1", "c2,2", "c1,2"]
        );
        assert_eq!(t.neighbours(at(2, 2), Metric::Chebyshev).unwrap().len(), 8);
        assert_eq!(
            names(t.neighbours(at(2, 2), Metric::Manhattan).unwrap()),
            ["c2,1", "c3,2", "c2,3", "c1,2"]
        );
        assert_eq!(
            t.distance(at(1, 1), at(3, 2), Metric::Chebyshev).unwrap(),
            Some(2)
        );
        assert_eq!(
            t.distance(at(1, 1), at(3, 2), Metric::Manhattan).unwrap(),
            Some(3)
        );
        assert_eq!(
            t.distance(at(1, 1), t.cell("d", 1, 1).unwrap(), Metric::Manhattan)
                .unwrap(),
            None
        );
        assert_eq!(
            Metric::parse(Some("taxi")).unwrap_err(),
            "unknown metric 'taxi' (chebyshev, manhattan)"
        );
    }

    #[test]
    fn a_route_may_pass_a_cell_twice() {
        let mut t = Topology::default();
        let (a, b, c) = (t.place("a"), t.place("b"), t.place("c"));
        let id = t.set_track("loop", vec![a, b, c, b, a]);
        let info = t.track_info("loop").unwrap();
        assert!(info.revisits);
        assert_eq!(t.track_pos("loop", b).unwrap(), Some(2));
        assert_eq!(t.track_positions("loop", b).unwrap(), vec![2, 4]);
        assert_eq!(t.track_positions("loop", c).unwrap(), vec![3]);
        assert_eq!(
            t.set_track("loop", vec![a]),
            id,
            "a redefined track keeps its id"
        );
        assert_eq!(t.track_name(id), "loop");
        assert!(!t.track_info("loop").unwrap().revisits);
    }
}
