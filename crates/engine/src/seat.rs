use serde::{Deserialize, Serialize};
use std::fmt;

/// A player's seat, numbered from 0 in the order the game was set up.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}
impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}
impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// A small set of seats (at most 16), as a bit mask: cheap to copy and compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeatSet(u16);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);
    pub const fn single(s: Seat) -> SeatSet {
        SeatSet(1 << s.0)
    }
    pub const fn contains(self, s: Seat) -> bool {
        s.0 < 16 && self.0 & (1 << s.0) != 0
    }
    pub fn insert(&mut self, s: Seat) {
        self.0 |= 1 << s.0;
    }
    pub fn remove(&mut self, s: Seat) {
        self.0 &= !(1 << s.0);
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn first(self) -> Option<Seat> {
        if self.0 == 0 { None } else { Some(Seat(self.0.trailing_zeros() as u8)) }
    }
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..16u8).filter(move |i| self.0 & (1 << i) != 0).map(Seat)
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(it: I) -> Self {
        let mut s = SeatSet::EMPTY;
        for x in it {
            s.insert(x);
        }
        s
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|s| s.0)).finish()
    }
}

impl Serialize for SeatSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}
