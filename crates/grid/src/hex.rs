use serde::{Deserialize, Serialize};
use std::fmt;

/// A hex cell in axial coordinates (pointy-top). `s = -q - r` is derived.
///
/// Serialised as `[q, r]`, as in every Robodrome file and message.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(from = "[i32; 2]", into = "[i32; 2]")]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

impl From<[i32; 2]> for Hex {
    fn from([q, r]: [i32; 2]) -> Self {
        Hex { q, r }
    }
}
impl From<Hex> for [i32; 2] {
    fn from(h: Hex) -> Self {
        [h.q, h.r]
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{},{}]", self.q, self.r)
    }
}
impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.q, self.r)
    }
}

/// One of the six hex directions, clockwise on screen from east.
///
/// ```text
///        4 NW   5 NE
///           \   /
///   3 W  --  hex  --  0 E
///           /   \
///        2 SW   1 SE
/// ```
/// Turning right (clockwise) by 60° is `+1 mod 6`, left is `-1`, about-turn `+3`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(try_from = "u8", into = "u8")]
pub struct HexDir(u8);

impl HexDir {
    pub const E: HexDir = HexDir(0);
    pub const SE: HexDir = HexDir(1);
    pub const SW: HexDir = HexDir(2);
    pub const W: HexDir = HexDir(3);
    pub const NW: HexDir = HexDir(4);
    pub const NE: HexDir = HexDir(5);
    /// All six directions in number order.
    pub const ALL: [HexDir; 6] = [Self::E, Self::SE, Self::SW, Self::W, Self::NW, Self::NE];
    const STEPS: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
    const NAMES: [&'static str; 6] = ["E", "SE", "SW", "W", "NW", "NE"];

    /// The direction with this number, if it is 0..=5.
    #[inline]
    pub const fn new(n: u8) -> Option<HexDir> {
        if n < 6 { Some(HexDir(n)) } else { None }
    }
    /// The direction `n mod 6` (negative numbers wrap).
    #[inline]
    pub const fn wrapping(n: i32) -> HexDir {
        HexDir(n.rem_euclid(6) as u8)
    }
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
    /// Turn by `steps` × 60°, clockwise for positive steps.
    #[inline]
    pub const fn turn(self, steps: i32) -> HexDir {
        HexDir::wrapping(self.0 as i32 + steps)
    }
    #[inline]
    pub const fn opposite(self) -> HexDir {
        self.turn(3)
    }
    /// The signed turn in `-2..=3` that takes `self` to `other`.
    #[inline]
    pub const fn turn_to(self, other: HexDir) -> i32 {
        let d = (other.0 as i32 - self.0 as i32).rem_euclid(6);
        if d > 3 { d - 6 } else { d }
    }
    #[inline]
    pub const fn step(self) -> (i32, i32) {
        Self::STEPS[self.0 as usize]
    }
    #[inline]
    pub const fn name(self) -> &'static str {
        Self::NAMES[self.0 as usize]
    }
}

impl TryFrom<u8> for HexDir {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, String> {
        HexDir::new(n).ok_or_else(|| format!("hex direction must be 0..5, got {n}"))
    }
}
impl From<HexDir> for u8 {
    fn from(d: HexDir) -> u8 {
        d.0
    }
}
impl fmt::Debug for HexDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
impl fmt::Display for HexDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0, self.name())
    }
}

impl Hex {
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };
    #[inline]
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }
    #[inline]
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }
    /// The neighbouring cell in direction `d`.
    #[inline]
    pub const fn neighbour(self, d: HexDir) -> Hex {
        let (dq, dr) = d.step();
        Hex { q: self.q + dq, r: self.r + dr }
    }
    /// The cell `n` steps away in direction `d`.
    #[inline]
    pub const fn offset(self, d: HexDir, n: i32) -> Hex {
        let (dq, dr) = d.step();
        Hex { q: self.q + dq * n, r: self.r + dr * n }
    }
    /// Hex distance (number of steps).
    #[inline]
    pub const fn distance(self, other: Hex) -> i32 {
        let dq = (self.q - other.q).abs();
        let dr = (self.r - other.r).abs();
        let ds = (self.s() - other.s()).abs();
        let m = if dq > dr { dq } else { dr };
        if m > ds { m } else { ds }
    }
    /// The direction from `self` to an adjacent `other`, if they are neighbours.
    #[inline]
    pub fn direction_to(self, other: Hex) -> Option<HexDir> {
        HexDir::ALL.into_iter().find(|&d| self.neighbour(d) == other)
    }
    /// If `other` lies on one of the six straight lines from `self`, that line's
    /// direction and the distance along it.
    #[inline]
    pub fn line_to(self, other: Hex) -> Option<(HexDir, i32)> {
        let n = self.distance(other);
        if n == 0 {
            return None;
        }
        HexDir::ALL.into_iter().find(|&d| self.offset(d, n) == other).map(|d| (d, n))
    }
    /// Rotate about `centre` by `steps` × 60° clockwise.
    #[inline]
    pub fn rotate_about(self, centre: Hex, steps: i32) -> Hex {
        let (mut x, mut z) = (self.q - centre.q, self.r - centre.r);
        let mut y = -x - z;
        for _ in 0..steps.rem_euclid(6) {
            // clockwise 60° in cube coordinates (x, y, z) -> (-z, -x, -y)
            let (nx, ny, nz) = (-z, -x, -y);
            x = nx;
            y = ny;
            z = nz;
        }
        let _ = y;
        Hex { q: centre.q + x, r: centre.r + z }
    }
}

/// The edge between `at` and its neighbour in direction `side`: a wall or barrier.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct HexEdge {
    pub at: Hex,
    pub side: HexDir,
}

impl HexEdge {
    #[inline]
    pub const fn new(at: Hex, side: HexDir) -> HexEdge {
        HexEdge { at, side }
    }
    /// The same edge written from the other cell.
    #[inline]
    pub const fn flipped(self) -> HexEdge {
        HexEdge { at: self.at.neighbour(self.side), side: self.side.opposite() }
    }
    /// A canonical spelling: sides 0, 1, 2 only, so the two spellings of one edge are equal.
    #[inline]
    pub const fn normalised(self) -> HexEdge {
        if self.side.index() < 3 { self } else { self.flipped() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hex() -> impl Strategy<Value = Hex> {
        (-50i32..50, -50i32..50).prop_map(|(q, r)| Hex::new(q, r))
    }
    fn dir() -> impl Strategy<Value = HexDir> {
        (0u8..6).prop_map(|n| HexDir::new(n).unwrap())
    }

    #[test]
    fn conventions_table() {
        // conventions.md: 0 E [+1,0], 1 SE [0,+1], 2 SW [-1,+1], 3 W [-1,0], 4 NW [0,-1], 5 NE [+1,-1]
        let want = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
        for (d, w) in HexDir::ALL.iter().zip(want) {
            assert_eq!(Hex::ORIGIN.neighbour(*d), Hex::new(w.0, w.1));
        }
    }

    proptest! {
        #[test]
        fn six_turns_are_identity(d in dir(), k in -20i32..20) {
            prop_assert_eq!(d.turn(k).turn(-k), d);
            prop_assert_eq!(d.turn(6), d);
            prop_assert_eq!(d.turn(d.turn_to(d.turn(k))), d.turn(k));
        }
        #[test]
        fn step_and_back(h in hex(), d in dir()) {
            prop_assert_eq!(h.neighbour(d).neighbour(d.opposite()), h);
            prop_assert_eq!(h.distance(h.neighbour(d)), 1);
            prop_assert_eq!(h.direction_to(h.neighbour(d)), Some(d));
        }
        #[test]
        fn distance_is_a_metric(a in hex(), b in hex(), c in hex()) {
            prop_assert_eq!(a.distance(b), b.distance(a));
            prop_assert!(a.distance(c) <= a.distance(b) + b.distance(c));
            prop_assert_eq!(a.distance(a), 0);
        }
        #[test]
        fn edge_spellings_agree(h in hex(), d in dir()) {
            let e = HexEdge::new(h, d);
            prop_assert_eq!(e.normalised(), e.flipped().normalised());
            prop_assert_eq!(e.flipped().flipped(), e);
        }
        #[test]
        fn rotation_keeps_distance(h in hex(), c in hex(), k in 0i32..6) {
            let r = h.rotate_about(c, k);
            prop_assert_eq!(r.distance(c), h.distance(c));
            prop_assert_eq!(h.rotate_about(c, 6), h);
            prop_assert_eq!(r.rotate_about(c, 6 - k), h);
        }
        #[test]
        fn line_to_finds_straight_lines(h in hex(), d in dir(), n in 1i32..10) {
            prop_assert_eq!(h.line_to(h.offset(d, n)), Some((d, n)));
        }
    }

    #[test]
    fn rotation_direction_is_clockwise() {
        // E neighbour rotated 60° clockwise is the SE neighbour.
        let c = Hex::new(3, -2);
        for d in HexDir::ALL {
            assert_eq!(c.neighbour(d).rotate_about(c, 1), c.neighbour(d.turn(1)));
        }
    }

    #[test]
    fn serde_shapes() {
        assert_eq!(serde_json_like(Hex::new(-1, 3)), "[-1,3]");
    }
    fn serde_json_like(h: Hex) -> String {
        let a: [i32; 2] = h.into();
        format!("[{},{}]", a[0], a[1])
    }
}
