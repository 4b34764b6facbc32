//! The car chart (AS-3.2): sixteen movement options A–P, kept as one table.
//!
//! Each option lists the hexes the car passes, as turns relative to its facing at the start of
//! the move, and its facing at the end. The booklet's picture is lost; the project's design
//! (see `docs/autoscooter.md`, with a picture of all sixteen) keeps to the spec's fixed points:
//! every first hex is straight ahead; A–E are one hex with end facings −120°…+120°; J is two
//! hexes straight; P is three hexes straight; no option ends facing backwards; no path bends more
//! than 60° from one hex to the next, and a speed-2 option turns at most 120° in all.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One option of the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChartMove {
    /// Direction of each hex step, relative to the start facing (in 60° steps, + = clockwise).
    pub steps: &'static [i8],
    /// Facing at the end, relative to the start facing.
    pub end: i8,
}

impl ChartMove {
    /// The option's speed: the number of hexes it moves.
    pub const fn speed(&self) -> u8 {
        self.steps.len() as u8
    }
}

/// The chart, indexed by letter (A = 0 … P = 15).
pub const CHART: [ChartMove; 16] = [
    // speed 1: one hex straight ahead, five end facings (AS-3.2).
    ChartMove { steps: &[0], end: -2 }, // A
    ChartMove { steps: &[0], end: -1 }, // B
    ChartMove { steps: &[0], end: 0 },  // C
    ChartMove { steps: &[0], end: 1 },  // D
    ChartMove { steps: &[0], end: 2 },  // E
    // speed 2: straight, then straight or a 60° bend; from hardest left to hardest right.
    ChartMove { steps: &[0, -1], end: -2 }, // F  bend left, nose further left
    ChartMove { steps: &[0, -1], end: -1 }, // G  bend left
    ChartMove { steps: &[0, -1], end: 0 },  // H  bend left, straighten out (side step)
    ChartMove { steps: &[0, 0], end: -1 },  // I  straight, turn left at the end
    ChartMove { steps: &[0, 0], end: 0 },   // J  two hexes straight ahead
    ChartMove { steps: &[0, 0], end: 1 },   // K  straight, turn right at the end
    ChartMove { steps: &[0, 1], end: 0 },   // L  bend right, straighten out (side step)
    ChartMove { steps: &[0, 1], end: 1 },   // M  bend right
    ChartMove { steps: &[0, 1], end: 2 },   // N  bend right, nose further right
    ChartMove { steps: &[0, 0], end: 2 },   // O  straight, hard right at the end (the "spin")
    // speed 3
    ChartMove { steps: &[0, 0, 0], end: 0 }, // P  three hexes straight ahead
];

/// A movement letter A–P.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Letter(u8);

impl Letter {
    pub const A: Letter = Letter(0);
    pub const C: Letter = Letter(2);
    pub const J: Letter = Letter(9);
    pub const P: Letter = Letter(15);

    /// The letter for `'A'..='P'`.
    pub fn from_char(c: char) -> Option<Letter> {
        if ('A'..='P').contains(&c) { Some(Letter(c as u8 - b'A')) } else { None }
    }
    pub const fn from_index(i: u8) -> Option<Letter> {
        if i < 16 { Some(Letter(i)) } else { None }
    }
    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn char(self) -> char {
        (b'A' + self.0) as char
    }
    pub const fn chart(self) -> &'static ChartMove {
        &CHART[self.0 as usize]
    }
    pub const fn speed(self) -> u8 {
        self.chart().speed()
    }
    /// "Straight ahead at the current speed" (AS-4.2): C, J or P.
    pub const fn straight(speed: u8) -> Letter {
        match speed {
            3 => Letter::P,
            2 => Letter::J,
            _ => Letter::C,
        }
    }
    /// Is this option allowed for a car moving at `speed` (AS-3.3: change by at most 1, no stop)?
    pub const fn allowed_at(self, speed: u8) -> bool {
        let s = self.speed();
        speed > 0 && s + 1 >= speed && s <= speed + 1
    }
    /// The letters allowed at a speed, as a contiguous range of indices (AS-3.3).
    pub const fn range_at(speed: u8) -> (u8, u8) {
        match speed {
            1 => (0, 14), // A–O
            2 => (0, 15), // A–P
            3 => (5, 15), // F–P
            _ => (1, 0),  // none
        }
    }
}

impl fmt::Debug for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
impl Serialize for Letter {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(self.char())
    }
}
impl<'de> Deserialize<'de> for Letter {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let mut it = s.chars();
        match (it.next(), it.next()) {
            (Some(c), None) => Letter::from_char(c)
                .ok_or_else(|| serde::de::Error::custom(format!("{s:?} is not a letter A–P"))),
            _ => Err(serde::de::Error::custom(format!("{s:?} is not a letter A–P"))),
        }
    }
}

/// A plotted letter as written by a player: anything, checked by the rules (a letter that is
/// not A–P is an illegal action, exit 3, not a schema error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LetterInput {
    Valid(Letter),
    Invalid(String),
}

impl LetterInput {
    pub fn letter(&self) -> Option<Letter> {
        match self {
            LetterInput::Valid(l) => Some(*l),
            LetterInput::Invalid(_) => None,
        }
    }
}
impl From<Letter> for LetterInput {
    fn from(l: Letter) -> Self {
        LetterInput::Valid(l)
    }
}
impl Serialize for LetterInput {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LetterInput::Valid(l) => l.serialize(s),
            LetterInput::Invalid(t) => s.serialize_str(t),
        }
    }
}
impl<'de> Deserialize<'de> for LetterInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let mut it = s.chars();
        Ok(match (it.next(), it.next()) {
            (Some(c), None) => match Letter::from_char(c) {
                Some(l) => LetterInput::Valid(l),
                None => LetterInput::Invalid(s),
            },
            _ => LetterInput::Invalid(s),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_points_of_as_3_2() {
        for (i, m) in CHART.iter().enumerate() {
            assert_eq!(m.steps[0], 0, "first hex straight ahead ({i})");
            assert!(m.end.abs() <= 2, "never ends facing backwards ({i})");
            for w in m.steps.windows(2) {
                assert!((w[1] - w[0]).abs() <= 1, "at most 60° per hex ({i})");
            }
            let last = *m.steps.last().unwrap();
            assert!((m.end - last).abs() <= 2);
        }
        let ends: Vec<i8> = CHART[..5].iter().map(|m| m.end).collect();
        assert_eq!(ends, [-2, -1, 0, 1, 2]);
        assert!(CHART[..5].iter().all(|m| m.speed() == 1));
        assert!(CHART[5..15].iter().all(|m| m.speed() == 2));
        assert_eq!(CHART[9], ChartMove { steps: &[0, 0], end: 0 });
        assert_eq!(CHART[15], ChartMove { steps: &[0, 0, 0], end: 0 });
    }

    #[test]
    fn options_are_distinct() {
        for (i, a) in CHART.iter().enumerate() {
            for (j, b) in CHART[..i].iter().enumerate() {
                assert_ne!(a, b, "{i} and {j}");
            }
        }
    }

    #[test]
    fn speed_changes_by_at_most_one() {
        for speed in 1..=3u8 {
            let (lo, hi) = Letter::range_at(speed);
            for i in 0..16 {
                let l = Letter::from_index(i).unwrap();
                assert_eq!(l.allowed_at(speed), (lo..=hi).contains(&i), "{l} at {speed}");
            }
        }
        assert!(!Letter::C.allowed_at(0));
    }
}

#[cfg(test)]
mod path_tests {
    use super::*;

    /// `resolve::path_of` groups exactly the letters whose steps are the same (AS-3.2).
    #[test]
    fn letters_of_a_path_share_their_steps() {
        for a in 0..16u8 {
            for b in 0..16u8 {
                let (la, lb) = (Letter(a), Letter(b));
                assert_eq!(
                    crate::resolve::path_of(la) == crate::resolve::path_of(lb),
                    la.chart().steps == lb.chart().steps,
                    "{la:?} {lb:?}"
                );
            }
        }
    }
}
