//! Seating and turn order: direction, teams, skipped turns and extra turns.

/// Seats are numbered 1..=n.
pub type Seat = u32;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnOrder {
    names: Vec<String>,
    teams: Vec<u32>,
    current: Seat,
    direction: i32,
    skips: Vec<u32>,
    extra: Vec<u32>,
}

impl TurnOrder {
    /// `names.len()` seats, each its own team, seat 1 to play, clockwise.
    pub fn new(names: Vec<String>) -> TurnOrder {
        let n = names.len();
        TurnOrder {
            teams: (1..=n as u32).collect(),
            names,
            current: 1,
            direction: 1,
            skips: vec![0; n],
            extra: vec![0; n],
        }
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

    /// The seat whose name is `name` (case-insensitive), or a seat number.
    pub fn find(&self, name: &str) -> Option<Seat> {
        self.names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .map(|i| i as Seat + 1)
            .or_else(|| name.parse().ok().and_then(|s: i64| self.check(s).ok()))
    }

    pub fn current(&self) -> Seat {
        self.current
    }

    pub fn set_current(&mut self, seat: Seat) {
        self.current = seat;
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

    pub fn skip(&mut self, seat: Seat, turns: u32) {
        self.skips[seat as usize - 1] += turns;
    }

    pub fn extra_turn(&mut self, seat: Seat) {
        self.extra[seat as usize - 1] += 1;
    }

    /// Passes the turn: a pending extra turn keeps the seat; otherwise the next seat in the
    /// direction of play whose skip counter is zero (skips are used up on the way).
    pub fn advance(&mut self) -> Seat {
        let i = self.current as usize - 1;
        if self.extra[i] > 0 {
            self.extra[i] -= 1;
            return self.current;
        }
        let n = self.seats() as i64;
        let mut s = i as i64;
        loop {
            s = (s + i64::from(self.direction)).rem_euclid(n);
            let k = s as usize;
            if self.skips[k] == 0 {
                break;
            }
            self.skips[k] -= 1;
        }
        self.current = s as Seat + 1;
        self.current
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
