//! The rink (AS-1.1): a set of hex cells; every edge leading off it is a barrier.

use grid::{Hex, HexDir};
use serde::{Deserialize, Serialize};

/// A start space (AS-1.2): where a car stands at the start, and its facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    pub at: Hex,
    pub facing: HexDir,
}

/// A board as written in files and scenarios (AS-8): cells and start spaces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing)]
    pub about: Option<String>,
    pub cells: Vec<Hex>,
    #[serde(default)]
    pub starts: Vec<Start>,
}

const STANDARD: &str = include_str!("../boards/standard.json");

impl BoardSpec {
    /// The standard 38-hex rink of AS-1.1 with the start spaces of AS-1.2.
    pub fn standard() -> BoardSpec {
        serde_json::from_str(STANDARD).expect("the shipped standard rink parses")
    }
    /// A shipped board by name.
    pub fn named(name: &str) -> Option<BoardSpec> {
        match name {
            "standard" => Some(BoardSpec::standard()),
            _ => None,
        }
    }
    /// The names of the shipped boards.
    pub const SHIPPED: &'static [&'static str] = &["standard"];
}

/// A cell index on a [`Board`].
pub type Cell = u8;
/// "No cell": off the rink.
pub const NONE: Cell = u8::MAX;

/// A validated rink with precomputed neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    cells: Vec<Hex>,
    min_q: i32,
    min_r: i32,
    width: i32,
    height: i32,
    index: Vec<Cell>,
    nbr: Vec<[Cell; 6]>,
    starts: Vec<Start>,
}

impl Board {
    /// Check a board spec: at least one cell, no duplicates, fewer than 255 cells, start spaces
    /// on distinct cells of the rink. Every problem is listed.
    pub fn new(spec: &BoardSpec) -> Result<Board, Vec<String>> {
        let mut problems = Vec::new();
        if spec.cells.is_empty() {
            problems.push("the board has no cells".to_string());
        }
        if spec.cells.len() >= NONE as usize {
            problems.push(format!("a board has at most 254 cells, this one {}", spec.cells.len()));
            return Err(problems);
        }
        let (mut min_q, mut min_r, mut max_q, mut max_r) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for h in &spec.cells {
            min_q = min_q.min(h.q);
            min_r = min_r.min(h.r);
            max_q = max_q.max(h.q);
            max_r = max_r.max(h.r);
        }
        let (width, height) =
            if spec.cells.is_empty() { (0, 0) } else { (max_q - min_q + 1, max_r - min_r + 1) };
        if (width as i64) * (height as i64) > 1 << 20 {
            problems.push("the board's cells are spread too far apart".to_string());
            return Err(problems);
        }
        let mut board = Board {
            cells: spec.cells.clone(),
            min_q,
            min_r,
            width,
            height,
            index: vec![NONE; (width * height).max(0) as usize],
            nbr: Vec::new(),
            starts: spec.starts.clone(),
        };
        for (i, h) in spec.cells.iter().enumerate() {
            let slot = board.slot(*h).expect("inside the bounding box");
            if board.index[slot] != NONE {
                problems.push(format!("cell {h} is listed twice"));
            }
            board.index[slot] = i as Cell;
        }
        board.nbr = spec
            .cells
            .iter()
            .map(|h| HexDir::ALL.map(|d| board.cell(h.neighbour(d)).unwrap_or(NONE)))
            .collect();
        for (i, s) in spec.starts.iter().enumerate() {
            if board.cell(s.at).is_none() {
                problems.push(format!("start space {i} at {} is off the board", s.at));
            }
            if spec.starts[..i].iter().any(|o| o.at == s.at) {
                problems.push(format!("start space {i} at {} repeats an earlier one", s.at));
            }
        }
        if problems.is_empty() { Ok(board) } else { Err(problems) }
    }

    fn slot(&self, h: Hex) -> Option<usize> {
        let (x, y) = (h.q - self.min_q, h.r - self.min_r);
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            None
        } else {
            Some((y * self.width + x) as usize)
        }
    }

    /// The cell index of a hex, if it is on the rink.
    pub fn cell(&self, h: Hex) -> Option<Cell> {
        self.slot(h).map(|s| self.index[s]).filter(|&c| c != NONE)
    }
    /// The hex of a cell index.
    pub fn hex(&self, c: Cell) -> Hex {
        self.cells[c as usize]
    }
    /// The neighbouring cell, or [`NONE`] when the edge is a barrier.
    #[inline]
    pub fn neighbour(&self, c: Cell, d: HexDir) -> Cell {
        self.nbr[c as usize][d.index() as usize]
    }
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    pub fn cells(&self) -> &[Hex] {
        &self.cells
    }
    pub fn starts(&self) -> &[Start] {
        &self.starts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_rink_has_38_cells_in_rows_8_7_8_7_8() {
        let spec = BoardSpec::standard();
        let b = Board::new(&spec).unwrap();
        assert_eq!(b.len(), 38);
        let mut rows = [0; 5];
        for h in b.cells() {
            rows[h.r as usize] += 1;
        }
        assert_eq!(rows, [8, 7, 8, 7, 8]);
        assert_eq!(b.starts().len(), 8);
        // AS-1.2: car 0 starts on [1,0] facing SE.
        assert_eq!(b.starts()[0], Start { at: Hex::new(1, 0), facing: HexDir::SE });
        // Every start space's facing points to a cell of the rink.
        for s in b.starts() {
            assert!(b.cell(s.at.neighbour(s.facing)).is_some(), "{s:?}");
        }
    }

    #[test]
    fn barrier_edges_are_off_the_rink() {
        let b = Board::new(&BoardSpec::standard()).unwrap();
        let c = b.cell(Hex::new(0, 0)).unwrap();
        assert_eq!(b.neighbour(c, HexDir::W), NONE);
        assert_eq!(b.neighbour(c, HexDir::NE), NONE);
        assert_eq!(b.hex(b.neighbour(c, HexDir::E)), Hex::new(1, 0));
    }

    #[test]
    fn bad_boards_list_every_problem() {
        let spec = BoardSpec {
            name: None,
            about: None,
            cells: vec![Hex::new(0, 0), Hex::new(0, 0)],
            starts: vec![Start { at: Hex::new(5, 5), facing: HexDir::E }],
        };
        let e = Board::new(&spec).unwrap_err();
        assert_eq!(e.len(), 2, "{e:?}");
    }
}
