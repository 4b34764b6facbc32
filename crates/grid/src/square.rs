use serde::{Deserialize, Serialize};
use std::fmt;

/// A square cell `[x, y]`: x grows to the right, y downwards, `[0, 0]` top-left.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct Sq {
    pub x: i32,
    pub y: i32,
}

impl From<[i32; 2]> for Sq {
    fn from([x, y]: [i32; 2]) -> Self {
        Sq { x, y }
    }
}
impl From<Sq> for [i32; 2] {
    fn from(s: Sq) -> Self {
        [s.x, s.y]
    }
}
impl fmt::Debug for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{},{}]", self.x, self.y)
    }
}
impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.x, self.y)
    }
}

/// A square direction: N=0, E=1, S=2, W=3. Turning right by 90° is `+1 mod 4`.
///
/// Serialised as its number; walls and pushers use the letter form ([`SqDir::letter`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(try_from = "u8", into = "u8")]
pub struct SqDir(u8);

impl SqDir {
    pub const N: SqDir = SqDir(0);
    pub const E: SqDir = SqDir(1);
    pub const S: SqDir = SqDir(2);
    pub const W: SqDir = SqDir(3);
    pub const ALL: [SqDir; 4] = [Self::N, Self::E, Self::S, Self::W];
    const STEPS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
    const LETTERS: [char; 4] = ['N', 'E', 'S', 'W'];

    #[inline]
    pub const fn new(n: u8) -> Option<SqDir> {
        if n < 4 { Some(SqDir(n)) } else { None }
    }
    #[inline]
    pub const fn wrapping(n: i32) -> SqDir {
        SqDir(n.rem_euclid(4) as u8)
    }
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
    /// Turn by `steps` × 90°, clockwise for positive steps.
    #[inline]
    pub const fn turn(self, steps: i32) -> SqDir {
        SqDir::wrapping(self.0 as i32 + steps)
    }
    #[inline]
    pub const fn opposite(self) -> SqDir {
        self.turn(2)
    }
    #[inline]
    pub const fn step(self) -> (i32, i32) {
        Self::STEPS[self.0 as usize]
    }
    #[inline]
    pub const fn letter(self) -> char {
        Self::LETTERS[self.0 as usize]
    }
    #[inline]
    pub fn from_letter(c: &str) -> Option<SqDir> {
        match c {
            "N" => Some(Self::N),
            "E" => Some(Self::E),
            "S" => Some(Self::S),
            "W" => Some(Self::W),
            _ => None,
        }
    }
}

impl TryFrom<u8> for SqDir {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, String> {
        SqDir::new(n).ok_or_else(|| format!("square direction must be 0..3, got {n}"))
    }
}
impl From<SqDir> for u8 {
    fn from(d: SqDir) -> u8 {
        d.0
    }
}
impl fmt::Debug for SqDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl Sq {
    #[inline]
    pub const fn new(x: i32, y: i32) -> Sq {
        Sq { x, y }
    }
    #[inline]
    pub const fn neighbour(self, d: SqDir) -> Sq {
        let (dx, dy) = d.step();
        Sq { x: self.x + dx, y: self.y + dy }
    }
    #[inline]
    pub const fn offset(self, d: SqDir, n: i32) -> Sq {
        let (dx, dy) = d.step();
        Sq { x: self.x + dx * n, y: self.y + dy * n }
    }
    /// Manhattan distance.
    #[inline]
    pub const fn manhattan(self, o: Sq) -> i32 {
        (self.x - o.x).abs() + (self.y - o.y).abs()
    }
    /// If `other` lies on the same row or column as `self` (and differs), the direction
    /// from `self` towards it and the distance along it.
    #[inline]
    pub const fn line_to(self, other: Sq) -> Option<(SqDir, i32)> {
        let (dx, dy) = (other.x - self.x, other.y - self.y);
        match (dx, dy) {
            (0, 0) => None,
            (0, _) => Some((if dy < 0 { SqDir::N } else { SqDir::S }, dy.abs())),
            (_, 0) => Some((if dx < 0 { SqDir::W } else { SqDir::E }, dx.abs())),
            _ => None,
        }
    }
    /// Chebyshev distance (rings of the 8 surrounding cells).
    #[inline]
    pub const fn chebyshev(self, o: Sq) -> i32 {
        let dx = (self.x - o.x).abs();
        let dy = (self.y - o.y).abs();
        if dx > dy { dx } else { dy }
    }
}

/// The edge between `at` and its neighbour on `side`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct SqEdge {
    pub at: Sq,
    pub side: SqDir,
}

impl SqEdge {
    #[inline]
    pub const fn new(at: Sq, side: SqDir) -> SqEdge {
        SqEdge { at, side }
    }
    #[inline]
    pub const fn flipped(self) -> SqEdge {
        SqEdge { at: self.at.neighbour(self.side), side: self.side.opposite() }
    }
    /// Canonical spelling (sides N and W only).
    #[inline]
    pub const fn normalised(self) -> SqEdge {
        if self.side.index() == 0 || self.side.index() == 3 { self } else { self.flipped() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn conventions_table() {
        let o = Sq::new(5, 5);
        assert_eq!(o.neighbour(SqDir::N), Sq::new(5, 4));
        assert_eq!(o.neighbour(SqDir::E), Sq::new(6, 5));
        assert_eq!(o.neighbour(SqDir::S), Sq::new(5, 6));
        assert_eq!(o.neighbour(SqDir::W), Sq::new(4, 5));
        for d in SqDir::ALL {
            assert_eq!(SqDir::from_letter(&d.letter().to_string()), Some(d));
        }
    }

    proptest! {
        #[test]
        fn four_turns_identity(n in 0u8..4, k in -10i32..10) {
            let d = SqDir::new(n).unwrap();
            prop_assert_eq!(d.turn(k).turn(-k), d);
            prop_assert_eq!(d.turn(4), d);
        }
        #[test]
        fn step_back(x in -30i32..30, y in -30i32..30, n in 0u8..4) {
            let d = SqDir::new(n).unwrap();
            let s = Sq::new(x, y);
            prop_assert_eq!(s.neighbour(d).neighbour(d.opposite()), s);
            // A straight line: `line_to` finds the direction and distance back.
            for n in 1..5 {
                prop_assert_eq!(s.line_to(s.offset(d, n)), Some((d, n)));
            }
            prop_assert_eq!(s.line_to(s), None);
            prop_assert_eq!(s.line_to(s.neighbour(d).neighbour(d.turn(1))), None);
            let e = SqEdge::new(s, d);
            prop_assert_eq!(e.normalised(), e.flipped().normalised());
        }
    }
}
