//! Seating and turn order: play units (colours, sides, teams) with their controlling seats,
//! direction, teams, skipped turns and extra turns. Without declared units every seat is a
//! unit of its own.

use std::sync::Arc;

/// Seats are numbered 1..=n.
pub type Seat = u32;

/// A play unit: a colour, side or team that takes turns, and the seat that controls it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub name: String,
    pub seat: Seat,
    /// The unit's team; without one, its seat's.
    pub team: Option<u32>,
}

/// At most this many units, so that a set of them fits in a `u64`.
pub const MAX_UNITS: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnOrder {
    names: Vec<String>,
    /// Whether a seat is shown by the units it plays (Jackal's "yellow"), not by its name.
    by_units: bool,
    teams: Vec<u32>,
    /// The play units in order of play; `None`: every seat is a unit of its own, named as
    /// the seat. Declared once, so states share them.
    units: Option<Arc<[Unit]>>,
    /// The unit to play (1-based).
    current: u32,
    direction: i32,
    /// Per unit.
    skips: Vec<u32>,
    /// Per unit.
    extra: Vec<u32>,
}

impl TurnOrder {
    /// `names.len()` seats, each its own team and its own unit, seat 1 to play, clockwise.
    pub fn new(names: Vec<String>) -> TurnOrder {
        let n = names.len();
        TurnOrder {
            teams: (1..=n as u32).collect(),
            names,
            by_units: false,
            units: None,
            current: 1,
            direction: 1,
            skips: vec![0; n],
            extra: vec![0; n],
        }
    }

    /// Shows each seat by the units it plays from now on (the game's `seats.shown = "units"`).
    pub fn show_by_units(&mut self) {
        self.by_units = true;
    }

    pub fn seats(&self) -> u32 {
        self.names.len() as u32
    }

    pub fn check(&self, seat: i64) -> Result<Seat, String> {
        if seat >= 1 && seat <= i64::from(self.seats()) {
            Ok(seat as Seat)
        } else {
            Err(format!("no seat {seat} (seats are 1..{})", self.seats()))
        }
    }

    pub fn name(&self, seat: Seat) -> &str {
        &self.names[seat as usize - 1]
    }

    /// The seat whose name is `name` (case-insensitive), or a seat number, or the seat that
    /// controls the unit of that name, or the seat shown by that name: a game that shows its
    /// colours ("white to play") takes them where a seat is asked for (`show yellow`, `as
    /// white`, `bot white+black greedy`), and the declared name (`P2`) still works.
    pub fn find(&self, name: &str) -> Option<Seat> {
        self.names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .map(|i| i as Seat + 1)
            .or_else(|| name.parse().ok().and_then(|s: i64| self.check(s).ok()))
            .or_else(|| {
                let units = self.units.as_ref()?;
                units
                    .iter()
                    .find(|u| u.name.eq_ignore_ascii_case(name))
                    .map(|u| u.seat)
            })
            .or_else(|| {
                (1..=self.seats()).find(|&s| self.player_name(s).eq_ignore_ascii_case(name))
            })
    }

    /// Declares the play units in order of play; unit 1 is to play, with no skips or extra
    /// turns pending.
    pub fn set_units(&mut self, units: Vec<Unit>) -> Result<(), String> {
        if units.is_empty() || units.len() > MAX_UNITS {
            return Err(format!("1..{MAX_UNITS} units, not {}", units.len()));
        }
        for (i, u) in units.iter().enumerate() {
            if u.name.is_empty() {
                return Err(format!("unit {} has no name", i + 1));
            }
            if units[..i]
                .iter()
                .any(|v| v.name.eq_ignore_ascii_case(&u.name))
            {
                return Err(format!("unit '{}' is named twice", u.name));
            }
            self.check(i64::from(u.seat))
                .map_err(|e| format!("unit '{}': {e}", u.name))?;
        }
        let n = units.len();
        self.units = Some(units.into());
        self.current = 1;
        self.skips = vec![0; n];
        self.extra = vec![0; n];
        Ok(())
    }

    /// How many units take turns.
    pub fn units(&self) -> u32 {
        self.skips.len() as u32
    }

    pub fn check_unit(&self, unit: i64) -> Result<u32, String> {
        if unit >= 1 && unit <= i64::from(self.units()) {
            Ok(unit as u32)
        } else {
            Err(format!("no unit {unit} (units are 1..{})", self.units()))
        }
    }

    pub fn unit_name(&self, unit: u32) -> &str {
        match &self.units {
            Some(units) => &units[unit as usize - 1].name,
            None => self.name(unit),
        }
    }

    /// A seat as the game shows its players: its name, or where the game shows seats by their
    /// units, the units it plays, joined ("white+black"), unless it plays none.
    pub fn player_name(&self, seat: Seat) -> String {
        if !self.by_units {
            return self.name(seat).to_string();
        }
        let plays: Vec<&str> = self
            .units
            .iter()
            .flat_map(|units| units.iter())
            .filter(|u| u.seat == seat)
            .map(|u| u.name.as_str())
            .collect();
        if plays.is_empty() {
            self.name(seat).to_string()
        } else {
            plays.join("+")
        }
    }

    /// The seat that controls `unit`.
    pub fn unit_seat(&self, unit: u32) -> Seat {
        match &self.units {
            Some(units) => units[unit as usize - 1].seat,
            None => unit,
        }
    }

    pub fn unit_team(&self, unit: u32) -> u32 {
        match &self.units {
            Some(units) => {
                let u = &units[unit as usize - 1];
                u.team.unwrap_or_else(|| self.team(u.seat))
            }
            None => self.team(unit),
        }
    }

    /// The unit named `name` (case-insensitive).
    pub fn find_unit(&self, name: &str) -> Option<u32> {
        (1..=self.units()).find(|&u| self.unit_name(u).eq_ignore_ascii_case(name))
    }

    /// The unit to play.
    pub fn unit(&self) -> u32 {
        self.current
    }

    pub fn set_unit(&mut self, unit: u32) {
        self.current = unit;
    }

    /// The seat that controls the unit to play.
    pub fn current(&self) -> Seat {
        self.unit_seat(self.current)
    }

    /// Makes `seat` the one to play: the current unit if the seat controls it, else the first
    /// unit it controls in order of play.
    pub fn set_current(&mut self, seat: Seat) -> Result<(), String> {
        if self.current() == seat {
            return Ok(());
        }
        match (1..=self.units()).find(|&u| self.unit_seat(u) == seat) {
            Some(u) => {
                self.current = u;
                Ok(())
            }
            None => Err(format!("seat {seat} controls no unit")),
        }
    }

    pub fn direction(&self) -> i32 {
        self.direction
    }

    pub fn set_direction(&mut self, d: i32) {
        self.direction = if d < 0 { -1 } else { 1 };
    }

    pub fn team(&self, seat: Seat) -> u32 {
        self.teams[seat as usize - 1]
    }

    pub fn set_team(&mut self, seat: Seat, team: u32) {
        self.teams[seat as usize - 1] = team;
    }

    /// Seats of the same team as `seat`, itself included, in seat order.
    pub fn teammates(&self, seat: Seat) -> Vec<Seat> {
        let t = self.team(seat);
        (1..=self.seats()).filter(|&s| self.team(s) == t).collect()
    }

    /// `unit` passes its next `turns` turns.
    pub fn skip(&mut self, unit: u32, turns: u32) {
        let skips = &mut self.skips[unit as usize - 1];
        *skips = skips.saturating_add(turns);
    }

    pub fn extra_turn(&mut self, unit: u32) {
        let extra = &mut self.extra[unit as usize - 1];
        *extra = extra.saturating_add(1);
    }

    /// Passes the turn: a pending extra turn keeps the unit; otherwise the next unit in the
    /// direction of play whose skip counter is zero (skips are used up on the way).
    pub fn advance(&mut self) -> u32 {
        self.advance_past(0).expect("no unit is passed over")
    }

    /// As `advance`, passing over the units of `passed` (bit u−1 for unit u) without touching
    /// their counters: a unit passed over takes no extra turn and uses up no skip. `None`,
    /// with nothing changed, when every unit is passed over.
    pub fn advance_past(&mut self, passed: u64) -> Option<u32> {
        let n = self.units() as usize;
        if passed.count_ones() as usize >= n {
            return None;
        }
        let i = self.current as usize - 1;
        if self.extra[i] > 0 && passed & (1 << i) == 0 {
            self.extra[i] -= 1;
            return Some(self.current);
        }
        let mut s = i as i64;
        loop {
            s = (s + i64::from(self.direction)).rem_euclid(n as i64);
            let k = s as usize;
            if passed & (1 << k) != 0 {
                continue;
            }
            if self.skips[k] == 0 {
                break;
            }
            self.skips[k] -= 1;
        }
        self.current = s as u32 + 1;
        Some(self.current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn four() -> TurnOrder {
        TurnOrder::new(["a", "b", "c", "d"].map(String::from).to_vec())
    }

    #[test]
    fn advance_with_skip_extra_and_direction() {
        let mut t = four();
        assert_eq!(t.advance(), 2);
        t.skip(3, 1);
        assert_eq!(t.advance(), 4);
        assert_eq!(t.advance(), 1);
        assert_eq!(t.advance(), 2);
        assert_eq!(t.advance(), 3, "the skip was used up");
        t.extra_turn(3);
        assert_eq!(t.advance(), 3);
        t.set_direction(-1);
        assert_eq!(t.advance(), 2);
    }

    #[test]
    fn everyone_skipped_still_terminates() {
        let mut t = four();
        for s in 1..=4 {
            t.skip(s, 2);
        }
        let next = t.advance();
        assert!((1..=4).contains(&next));
    }

    fn unit(name: &str, seat: Seat, team: Option<u32>) -> Unit {
        Unit {
            name: name.into(),
            seat,
            team,
        }
    }

    #[test]
    fn a_seat_is_found_by_its_name_its_number_or_a_unit_it_controls() {
        let mut t = TurnOrder::new(vec!["P1".into(), "P2".into()]);
        t.set_units(vec![unit("white", 1, None), unit("yellow", 2, None)])
            .unwrap();
        assert_eq!(t.find("p2"), Some(2));
        assert_eq!(t.find("1"), Some(1));
        assert_eq!(t.find("Yellow"), Some(2));
        assert_eq!(t.find("white"), Some(1));
        assert_eq!(t.find("red"), None);
    }

    #[test]
    fn units_take_turns_for_their_seats() {
        let mut t = TurnOrder::new(vec!["Ann".into(), "Bob".into()]);
        assert_eq!((t.units(), t.unit_name(2), t.unit_seat(2)), (2, "Bob", 2));
        t.set_units(vec![
            unit("S", 1, Some(1)),
            unit("E", 2, Some(2)),
            unit("N", 1, Some(1)),
            unit("W", 2, None),
        ])
        .unwrap();
        assert_eq!((t.unit(), t.current()), (1, 1));
        assert_eq!(t.advance(), 2);
        assert_eq!(t.current(), 2);
        t.skip(3, 1);
        assert_eq!(t.advance(), 4, "N skips");
        assert_eq!(t.unit_team(4), 2, "W has its seat's team");
        assert_eq!(t.find_unit("n"), Some(3));
        t.set_current(1).unwrap();
        assert_eq!(t.unit(), 1, "the first unit seat 1 controls");
        t.extra_turn(1);
        assert_eq!(t.advance(), 1);
        assert!(
            t.set_units(vec![unit("S", 1, None), unit("s", 2, None)])
                .is_err()
        );
        assert!(
            t.set_units(vec![unit("S", 3, None)])
                .unwrap_err()
                .contains("no seat 3")
        );
    }

    #[test]
    fn units_passed_over_keep_their_counters() {
        let mut t = four();
        t.skip(2, 1);
        t.extra_turn(1);
        assert_eq!(
            t.advance_past(0b0001),
            Some(3),
            "1 passed over, 2 uses its skip"
        );
        assert_eq!(t.advance_past(0b1000), Some(1));
        assert_eq!(t.advance(), 1, "1's extra turn was kept");
        let before = t.clone();
        assert_eq!(t.advance_past(0b1111), None);
        assert_eq!(t, before);
    }

    #[test]
    fn teams() {
        let mut t = four();
        t.set_team(3, 1);
        t.set_team(4, 2);
        assert_eq!(t.teammates(1), vec![1, 3]);
        assert_eq!(t.find("C"), Some(3));
        assert_eq!(t.find("2"), Some(2));
        assert_eq!(t.find("z"), None);
    }
}
