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

/// How a grid names its cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridNames {
    /// `<prefix>x,y`, y = 1 at the top.
    Coordinates,
    /// `<prefix>A1`: column letter, row number, row 1 at the bottom (at most 26 columns).
    Letters,
}

#[derive(Clone, Debug, Default)]
struct Track {
    locs: Vec<Loc>,
    pos: HashMap<Loc, u32>,
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

    pub fn set_track(&mut self, name: &str, locs: Vec<Loc>) {
        let pos = locs
            .iter()
            .enumerate()
            .map(|(i, &l)| (l, i as u32 + 1))
            .collect();
        self.tracks.insert(name.to_string(), Track { locs, pos });
    }

    pub fn track(&self, name: &str) -> Result<&[Loc], String> {
        self.tracks
            .get(name)
            .map(|t| t.locs.as_slice())
            .ok_or_else(|| format!("unknown track '{name}'"))
    }

    pub fn track_pos(&self, name: &str, loc: Loc) -> Result<Option<u32>, String> {
        self.tracks
            .get(name)
            .map(|t| t.pos.get(&loc).copied())
            .ok_or_else(|| format!("unknown track '{name}'"))
    }

    /// Links a and b both ways with a kind ("cave", "teleport", …).
    pub fn link(&mut self, a: Loc, b: Loc, kind: &str) {
        for (from, to) in [(a, b), (b, a)] {
            let list = &mut self.links[from as usize - 1];
            if !list.iter().any(|(l, k)| *l == to && k == kind) {
                list.push((to, kind.to_string()));
            }
        }
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
    }
}
