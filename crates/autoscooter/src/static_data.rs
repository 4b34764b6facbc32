//! The game's static part ([`engine::Game::Static`]): what never changes during a game and a
//! client needs — the rink (AS-1.1, AS-1.2), the car chart (AS-3.2), the letters allowed at each
//! speed (AS-3.3), every car's column of turn numbers (AS-2.1) and the last round (AS-6). Sent
//! once per game, so a client draws and previews with the engine's own tables instead of copies.

use crate::board::{Board, Start};
use crate::chart::{CHART, Letter};
use crate::sheet;
use grid::Hex;
use serde::Serialize;

/// One option of the chart (AS-3.2): the hex steps relative to the start facing (60° steps,
/// + = clockwise) and the facing at the end, relative to the start facing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChartEntry {
    pub letter: Letter,
    pub steps: Vec<i8>,
    pub end: i8,
}

/// The letters a car moving at `speed` may plot (AS-3.3): `first`…`last`, a contiguous range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LetterRange {
    pub speed: u8,
    pub first: Letter,
    pub last: Letter,
}

/// The rink: its cells and start spaces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RinkStatic {
    pub cells: Vec<Hex>,
    pub starts: Vec<Start>,
}

/// Autoscooter's static part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Static {
    pub board: RinkStatic,
    /// The sixteen options A–P in letter order.
    pub chart: Vec<ChartEntry>,
    /// For each speed a car can move at (1–3), the letters it may plot.
    pub ranges: Vec<LetterRange>,
    /// Car `c`'s turn numbers, ascending (`columns[c]`, one per round).
    pub columns: Vec<[u8; sheet::ROUNDS as usize]>,
    /// The number of the last round (the game ends after it at the latest).
    pub last_round: u8,
}

impl Static {
    pub fn of(board: &Board) -> Static {
        let chart = CHART
            .iter()
            .zip(0u8..)
            .filter_map(|(m, i)| {
                Some(ChartEntry {
                    letter: Letter::from_index(i)?,
                    steps: m.steps.to_vec(),
                    end: m.end,
                })
            })
            .collect();
        let ranges = (1..=3u8)
            .filter_map(|speed| {
                let (lo, hi) = Letter::range_at(speed);
                Some(LetterRange {
                    speed,
                    first: Letter::from_index(lo)?,
                    last: Letter::from_index(hi)?,
                })
            })
            .collect();
        Static {
            board: RinkStatic { cells: board.cells().to_vec(), starts: board.starts().to_vec() },
            chart,
            ranges,
            columns: (0..sheet::CARS).map(sheet::column).collect(),
            last_round: sheet::ROUNDS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSpec;

    #[test]
    fn the_static_tables_are_the_rules_tables() {
        let b = Board::new(&BoardSpec::standard()).unwrap();
        let s = Static::of(&b);
        assert_eq!(s.board.cells.len(), 38, "AS-1.1: 38 hexes");
        assert_eq!(s.board.starts.len(), 8, "AS-1.2: eight start spaces");
        assert_eq!(s.chart.len(), 16, "AS-3.2: A–P");
        for (i, e) in s.chart.iter().enumerate() {
            assert_eq!(e.letter.index() as usize, i);
            assert_eq!(e.steps.len() as u8, e.letter.speed());
        }
        // AS-3.3: a car at speed s plays options of speed s-1..=s+1 (never 0).
        for r in &s.ranges {
            for l in (0..16).filter_map(Letter::from_index) {
                let inside = (r.first.index()..=r.last.index()).contains(&l.index());
                assert_eq!(inside, l.allowed_at(r.speed), "{l} at {}", r.speed);
            }
        }
        // AS-2.1: car 1's column starts 1, 12, 23; all 88 numbers distinct.
        assert_eq!(&s.columns[0][..3], &[1, 12, 23]);
        let mut all: Vec<u8> = s.columns.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 88);
        assert_eq!(s.last_round, 11);
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(
            json["chart"][15],
            serde_json::json!({"letter": "P", "steps": [0, 0, 0], "end": 0})
        );
        assert_eq!(json["ranges"][2], serde_json::json!({"speed": 3, "first": "F", "last": "P"}));
    }
}
