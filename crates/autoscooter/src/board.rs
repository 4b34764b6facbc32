//! The rink (AS-1.1): a set of hex cells; every edge leading off it is a barrier.

use grid::{Hex, HexDir};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// A start space (AS-1.2): where a car stands at the start, and its facing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    pub at: Hex,
    pub facing: HexDir,
}

/// A board as written in files and scenarios (AS-8): cells and start spaces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
        standard_parsed().0.clone()
    }
    /// A shipped board by name.
    pub fn named(name: &str) -> Option<BoardSpec> {
        match name {
            "standard" => Some(BoardSpec::standard()),
            _ => None,
        }
    }
    /// A shipped board's file text by name.
    pub fn shipped_text(name: &str) -> Option<&'static str> {
        (name == "standard").then_some(STANDARD)
    }
    /// The names of the shipped boards.
    pub const SHIPPED: &'static [&'static str] = &["standard"];
}

/// The standard rink, parsed and built once per process (issue 17: setup costs nothing per
/// game); every game on it shares the built board.
fn standard_parsed() -> &'static (BoardSpec, Arc<Board>) {
    static PARSED: OnceLock<(BoardSpec, Arc<Board>)> = OnceLock::new();
    PARSED.get_or_init(|| {
        let spec: BoardSpec =
            serde_json::from_str(STANDARD).expect("the shipped standard rink parses");
        let board = Board::new(&spec).expect("the shipped standard rink is valid");
        (spec, Arc::new(board))
    })
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
    /// As [`Board::new`], shared: a shipped board is built once per process and every game on
    /// it holds the same one; any other spec is built afresh.
    pub fn shared(spec: &BoardSpec) -> Result<Arc<Board>, Vec<String>> {
        let (standard, board) = standard_parsed();
        if spec == standard {
            return Ok(Arc::clone(board));
        }
        Board::new(spec).map(Arc::new)
    }

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

/// `robodrome board check`: every finding about a rink file (JSON, AS-8's inline board), by
/// line and column. Errors: not JSON or not the schema, no cells, a cell listed twice, too many
/// cells, a start space off the rink or on another's cell, fewer than 8 start spaces (AS-1.2:
/// every car has one; a normal game places all 8). Warnings: a rink of other than 38 cells
/// (AS-1.1), start spaces beyond the 8 cars (never used), a start space facing the barrier
/// (AS-1.2's all face into the rink), a rink in several pieces (cells no car can drive
/// between: every edge off the rink is a barrier).
pub fn check_text(text: &str) -> Vec<engine::check::Finding> {
    use engine::check::{Finding, JsonKey, locate_json};
    let spec: BoardSpec = match serde_json::from_str(text) {
        Ok(s) => s,
        Err(e) => return vec![Finding::error("AS-8", e.to_string()).at(e.line(), e.column())],
    };
    let at = |f: Finding, list: &str, i: usize| match locate_json(
        text,
        &[JsonKey::Key(list), JsonKey::Index(i)],
    ) {
        Some(p) => f.at(p.line, p.column),
        None => f,
    };
    let mut out = Vec::new();
    if spec.cells.is_empty() {
        out.push(Finding::error("AS-1.1", "the rink has no cells"));
    }
    if spec.cells.len() >= NONE as usize {
        out.push(Finding::error(
            "AS-1.1",
            format!("a rink has at most 254 cells, this one {}", spec.cells.len()),
        ));
        return out;
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, h) in spec.cells.iter().enumerate() {
        if !seen.insert(*h) {
            out.push(at(Finding::error("AS-1.1", format!("cell {h} is listed twice")), "cells", i));
        }
    }
    for (i, st) in spec.starts.iter().enumerate() {
        let f = if !seen.contains(&st.at) {
            Finding::error("AS-1.2", format!("start space {i} at {} is off the rink", st.at))
        } else if spec.starts[..i].iter().any(|o| o.at == st.at) {
            Finding::error("AS-1.2", format!("start space {i} at {} repeats an earlier one", st.at))
        } else if i >= 8 {
            Finding::warning(
                "AS-1.2",
                format!(
                    "start space {i}: there are 8 cars, start spaces 8 and later are never used"
                ),
            )
        } else if !seen.contains(&st.at.neighbour(st.facing)) {
            Finding::warning("AS-1.2", format!("start space {i} at {} faces the barrier", st.at))
        } else {
            continue;
        };
        out.push(at(f, "starts", i));
    }
    if spec.starts.len() < 8 {
        out.push(Finding::error(
            "AS-1.2",
            format!(
                "{} start spaces: each of the 8 cars needs one (cars {}..7 have none)",
                spec.starts.len(),
                spec.starts.len()
            ),
        ));
    }
    if !spec.cells.is_empty() && spec.cells.len() != 38 {
        out.push(Finding::warning(
            "AS-1.1",
            format!("the rink has {} cells, the booklet's has 38", spec.cells.len()),
        ));
    }
    if let Some(&first) = spec.cells.first() {
        let mut reached = std::collections::BTreeSet::from([first]);
        let mut stack = vec![first];
        while let Some(h) = stack.pop() {
            for d in HexDir::ALL {
                let n = h.neighbour(d);
                if seen.contains(&n) && reached.insert(n) {
                    stack.push(n);
                }
            }
        }
        if let Some(i) = spec.cells.iter().position(|h| !reached.contains(h)) {
            out.push(at(
                Finding::warning(
                    "AS-1.1",
                    format!(
                        "cell {} cannot be driven to from cell {first}: the rink is in pieces, barriers between them",
                        spec.cells[i]
                    ),
                ),
                "cells",
                i,
            ));
        }
    }
    engine::check::sort(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::check::Severity;

    type Found = (Severity, Option<(usize, usize)>, &'static str);

    fn findings(text: &str) -> Vec<Found> {
        check_text(text)
            .into_iter()
            .map(|f| (f.severity, f.place.map(|p| (p.line, p.column)), f.rule))
            .collect()
    }

    /// The standard rink's file with its start spaces replaced.
    fn standard_with_starts(starts: &str) -> String {
        let s = include_str!("../boards/standard.json");
        let i = s.find("\"starts\"").unwrap();
        format!("{}\"starts\": [\n{starts}\n  ]\n}}\n", &s[..i])
    }

    #[test]
    fn the_standard_rink_checks_clean_as_1_1_as_1_2() {
        assert_eq!(findings(include_str!("../boards/standard.json")), []);
    }

    #[test]
    fn start_spaces_off_the_rink_repeated_or_missing_are_errors_as_1_2() {
        // Line 11 opens "starts"; the entries are lines 12.. at column 5.
        let text = standard_with_starts(
            "    {\"at\": [1,0], \"facing\": 1},\n    {\"at\": [9,9], \"facing\": 2},\n    {\"at\": [1,0], \"facing\": 0}",
        );
        let f = findings(&text);
        assert_eq!(
            f,
            [
                (Severity::Error, None, "AS-1.2"),
                (Severity::Error, Some((13, 5)), "AS-1.2"),
                (Severity::Error, Some((14, 5)), "AS-1.2")
            ],
            "{:?}",
            check_text(&text)
        );
    }

    #[test]
    fn a_start_space_facing_the_barrier_is_a_warning_as_1_2() {
        // Car 0 on [1,0] facing NW (4): [1,-1] is off the rink.
        let s = include_str!("../boards/standard.json")
            .replace("{\"at\": [1,0], \"facing\": 1}", "{\"at\": [1,0], \"facing\": 4}");
        assert_eq!(findings(&s), [(Severity::Warning, Some((12, 5)), "AS-1.2")]);
    }

    #[test]
    fn rinks_in_pieces_or_of_another_size_are_warnings_as_1_1() {
        let mut cells: Vec<String> = (0..8).map(|q| format!("[{q},0]")).collect();
        cells.push("[0,5]".into());
        let starts: Vec<String> =
            (0..8).map(|q| format!("{{\"at\": [{q},0], \"facing\": 0}}")).collect();
        let text =
            format!("{{\"cells\": [{}],\n\"starts\": [{}]}}", cells.join(", "), starts.join(", "));
        let f = findings(&text);
        // [0,5] sits at column 68 of line 1: `{"cells": [` is 11 characters, then 8 cells of 7.
        assert!(f.contains(&(Severity::Warning, Some((1, 68)), "AS-1.1")), "{f:?}");
        assert!(f.contains(&(Severity::Warning, None, "AS-1.1")), "{f:?}");
        // The last start faces the barrier (E of [7,0]).
        assert!(f.iter().all(|x| x.0 == Severity::Warning), "{f:?}");
    }

    #[test]
    fn text_that_is_not_a_rink_is_one_error_at_its_place_as_8() {
        let f = findings("{\"cells\": [[0,0],\n  [1,x]]}");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].1.map(|p| p.0), Some(2), "{f:?}");
        let f = findings("{\"cells\": [[0,0], [0,0]], \"starts\": []}");
        assert!(f.contains(&(Severity::Error, Some((1, 19)), "AS-1.1")), "{f:?}");
    }

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
