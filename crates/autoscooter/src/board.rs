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
    /// The neighbour of each cell index (a `u8`: every one, [`NONE`] and the indices past the
    /// last cell included, whose rows are all [`NONE`]) by direction (6 and 7: [`NONE`]): a
    /// lookup that needs no bounds check, so a move's steps can be walked without a branch on
    /// the position (issue 17 round 7).
    nbr: Box<[[Cell; 8]; 256]>,
    /// The hex of each cell index, and `Hex::default()` past the last cell: for the events of
    /// the hot path, whose hexes a sink that does not read them then never computes (a bounds
    /// check would keep each lookup alive).
    hexes: Box<[Hex; 256]>,
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
        let (mut min_q, mut min_r) = (i32::MAX, i32::MAX);
        for h in &spec.cells {
            min_q = min_q.min(h.q);
            min_r = min_r.min(h.r);
        }
        if let Some(h) = spec.cells.iter().find(|h| !in_range(**h)) {
            problems.push(format!("cell {h} is out of range: coordinates are within ±{MAX_COORD}"));
            return Err(problems);
        }
        let (width, height) = spread(&spec.cells).unwrap_or((0, 0));
        if width * height > MAX_SPREAD {
            problems.push("the board's cells are spread too far apart".to_string());
            return Err(problems);
        }
        let (width, height) = (width as i32, height as i32);
        let mut board = Board {
            cells: spec.cells.clone(),
            min_q,
            min_r,
            width,
            height,
            index: vec![NONE; (width * height).max(0) as usize],
            nbr: Box::new([[NONE; 8]; 256]),
            hexes: Box::new([Hex::default(); 256]),
            starts: spec.starts.clone(),
        };
        for (i, h) in spec.cells.iter().enumerate() {
            let slot = board.slot(*h).expect("inside the bounding box");
            if board.index[slot] != NONE {
                problems.push(format!("cell {h} is listed twice"));
            }
            board.index[slot] = i as Cell;
        }
        for (i, h) in spec.cells.iter().enumerate() {
            for d in HexDir::ALL {
                board.nbr[i][d.index() as usize] = board.cell(h.neighbour(d)).unwrap_or(NONE);
            }
            board.hexes[i] = *h;
        }
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
    /// The hex of a cell index without a bounds check: `Hex::default()` for an index that is
    /// no cell (for events that a sink may never read, issue 17 round 7).
    #[inline]
    pub(crate) fn hex_of(&self, c: Cell) -> Hex {
        self.hexes[c as usize]
    }
    /// The neighbouring cell, or [`NONE`] when the edge is a barrier (and from [`NONE`]).
    #[inline]
    pub fn neighbour(&self, c: Cell, d: HexDir) -> Cell {
        // `& 7`: a direction is 0..6, and the table's rows have 8 slots (no bounds check).
        self.nbr[c as usize][(d.index() & 7) as usize]
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
/// line and column (the findings of [`inspect`], without their cells).
pub fn check_text(text: &str) -> Vec<engine::check::Finding> {
    inspect(text).findings.into_iter().map(|(f, _)| f).collect()
}

/// What the checker says about a rink file, for the editor: each finding with the hex it
/// concerns (when it concerns one), and the rink when the text is one.
#[derive(Clone, Debug)]
pub struct Inspection {
    pub findings: Vec<(engine::check::Finding, Option<Hex>)>,
    pub spec: Option<BoardSpec>,
}

/// The most hexes a rink's bounding box may hold ([`Board::new`] indexes cells in it).
pub const MAX_SPREAD: i64 = 1 << 20;

/// Every finding about a rink file, with the hex each concerns. Errors (the rink cannot be
/// loaded or played): not JSON or not the schema (AS-8), no cells, a cell listed twice, more
/// than 254 cells, cells spread over a bounding box of more than [`MAX_SPREAD`] hexes (AS-1.1),
/// a start space off the rink or on another's cell, fewer than 8 start spaces (AS-1.2: every
/// car has one, and a game always places all 8 — the cars of nobody stand on theirs, AS-1.4).
/// Warnings (the rink is played as it is): a rink of other than 38 cells (AS-1.1), start
/// spaces beyond the 8 cars (never used), a start space facing the barrier (AS-1.2's all face
/// into the rink), a start space with no neighbouring cell (its car can never move, AS-5.4) or
/// whose neighbouring cells are all start spaces (its car cannot start until one of them has
/// moved away, AS-5.4), a rink in several pieces (cells no car can drive between: every edge
/// off the rink is a barrier; one warning per piece beyond the first, on its first cell).
/// Adjacent start spaces are allowed (AS-1.2's own `[1,0]` and `[0,1]` touch).
pub fn inspect(text: &str) -> Inspection {
    use engine::check::{Finding, JsonKey, locate_json};
    let spec: BoardSpec = match serde_json::from_str(text) {
        Ok(s) => s,
        Err(e) => {
            return Inspection {
                findings: vec![(
                    Finding::error("AS-8", e.to_string()).at(e.line(), e.column()),
                    None,
                )],
                spec: None,
            };
        }
    };
    let at = |f: Finding, list: &str, i: usize| match locate_json(
        text,
        &[JsonKey::Key(list), JsonKey::Index(i)],
    ) {
        Some(p) => f.at(p.line, p.column),
        None => f,
    };
    let mut out: Vec<(Finding, Option<Hex>)> = Vec::new();
    if spec.cells.is_empty() {
        out.push((Finding::error("AS-1.1", "the rink has no cells"), None));
    }
    if spec.cells.len() >= NONE as usize {
        out.push((
            Finding::error(
                "AS-1.1",
                format!("a rink has at most 254 cells, this one {}", spec.cells.len()),
            ),
            None,
        ));
        return Inspection { findings: out, spec: Some(spec) };
    }
    if let Some(i) = spec.cells.iter().position(|h| !in_range(*h)) {
        out.push((
            at(
                Finding::error(
                    "AS-8",
                    format!(
                        "cell {} is out of range: coordinates are within ±{MAX_COORD}",
                        spec.cells[i]
                    ),
                ),
                "cells",
                i,
            ),
            None,
        ));
        return Inspection { findings: out, spec: Some(spec) };
    }
    if let Some((w, h)) = spread(&spec.cells)
        && w * h > MAX_SPREAD
    {
        out.push((
            Finding::error(
                "AS-1.1",
                format!(
                    "the rink's cells span {w} columns by {h} rows: at most {MAX_SPREAD} hexes around them"
                ),
            ),
            None,
        ));
        return Inspection { findings: out, spec: Some(spec) };
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, h) in spec.cells.iter().enumerate() {
        if !seen.insert(*h) {
            out.push((
                at(Finding::error("AS-1.1", format!("cell {h} is listed twice")), "cells", i),
                Some(*h),
            ));
        }
    }
    let starts: std::collections::BTreeSet<Hex> = spec.starts.iter().map(|s| s.at).collect();
    for (i, st) in spec.starts.iter().enumerate() {
        // Only for a start space on the rink (whose coordinates are in range).
        let rink_neighbours = || -> Vec<Hex> {
            HexDir::ALL.iter().map(|&d| st.at.neighbour(d)).filter(|n| seen.contains(n)).collect()
        };
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
        } else if rink_neighbours().is_empty() {
            Finding::warning(
                "AS-5.4",
                format!(
                    "start space {i} at {} has no neighbouring cell: car {i} can never move",
                    st.at
                ),
            )
        } else if rink_neighbours().iter().all(|n| starts.contains(n)) {
            Finding::warning(
                "AS-5.4",
                format!(
                    "start space {i} at {} is surrounded by start spaces: car {i} cannot start until a neighbour has moved away",
                    st.at
                ),
            )
        } else if !seen.contains(&st.at.neighbour(st.facing)) {
            Finding::warning("AS-1.2", format!("start space {i} at {} faces the barrier", st.at))
        } else {
            continue;
        };
        out.push((at(f, "starts", i), Some(st.at)));
    }
    if spec.starts.len() < 8 {
        out.push((
            Finding::error(
                "AS-1.2",
                format!(
                    "{} start spaces: each of the 8 cars needs one (cars {}..7 have none)",
                    spec.starts.len(),
                    spec.starts.len()
                ),
            ),
            None,
        ));
    }
    if !spec.cells.is_empty() && spec.cells.len() != 38 {
        out.push((
            Finding::warning(
                "AS-1.1",
                format!("the rink has {} cells, the booklet's has 38", spec.cells.len()),
            ),
            None,
        ));
    }
    // The pieces: cells joined by edges between rink cells, each found from its first cell in
    // the file's order.
    let mut reached = std::collections::BTreeSet::new();
    let mut first_piece: Option<Hex> = None;
    for (i, &h0) in spec.cells.iter().enumerate() {
        if !reached.insert(h0) {
            continue;
        }
        let mut size = 1;
        let mut stack = vec![h0];
        while let Some(h) = stack.pop() {
            for d in HexDir::ALL {
                let n = h.neighbour(d);
                if seen.contains(&n) && reached.insert(n) {
                    stack.push(n);
                    size += 1;
                }
            }
        }
        match first_piece {
            None => first_piece = Some(h0),
            Some(first) => out.push((
                at(
                    Finding::warning(
                        "AS-1.1",
                        format!(
                            "cell {h0} cannot be driven to from cell {first}: the rink is in pieces, barriers between them (this piece: {size} cell{})",
                            if size == 1 { "" } else { "s" }
                        ),
                    ),
                    "cells",
                    i,
                ),
                Some(h0),
            )),
        }
    }
    out.sort_by(|a, b| {
        (a.0.place, a.0.severity, &a.0.message).cmp(&(b.0.place, b.0.severity, &b.0.message))
    });
    Inspection { findings: out, spec: Some(spec) }
}

/// The largest coordinate a rink's cell may have (either sign), so that its neighbours' are
/// computed without overflow.
pub const MAX_COORD: i32 = 1 << 20;

fn in_range(h: Hex) -> bool {
    (-MAX_COORD..=MAX_COORD).contains(&h.q) && (-MAX_COORD..=MAX_COORD).contains(&h.r)
}

/// The columns and rows of the cells' bounding box (`None`: no cells), without overflow.
fn spread(cells: &[Hex]) -> Option<(i64, i64)> {
    let qs = cells.iter().map(|h| i64::from(h.q));
    let rs = cells.iter().map(|h| i64::from(h.r));
    let w = qs.clone().max()? - qs.min()? + 1;
    let h = rs.clone().max()? - rs.min()? + 1;
    Some((w, h))
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

    /// A rink file from cells and start spaces (`(q, r, facing)`), one value per line.
    fn rink(cells: &[(i32, i32)], starts: &[(i32, i32, u8)]) -> String {
        let cells: Vec<String> = cells.iter().map(|(q, r)| format!("[{q},{r}]")).collect();
        let starts: Vec<String> = starts
            .iter()
            .map(|(q, r, d)| format!("{{\"at\": [{q},{r}], \"facing\": {d}}}"))
            .collect();
        format!(
            "{{\"cells\": [\n{}\n],\n\"starts\": [\n{}\n]}}\n",
            cells.join(",\n"),
            starts.join(",\n")
        )
    }

    /// The cells of a row `r` from `q0` to `q1`.
    fn row(r: i32, q0: i32, q1: i32) -> Vec<(i32, i32)> {
        (q0..=q1).map(|q| (q, r)).collect()
    }

    /// Eight start spaces on row 0 at q = 0..7, facing SE (into row 1).
    fn eight_on_row_0() -> Vec<(i32, i32, u8)> {
        (0..8).map(|q| (q, 0, 1)).collect()
    }

    fn with_cells(text: &str) -> Vec<(Severity, &'static str, Option<Hex>)> {
        inspect(text).findings.into_iter().map(|(f, h)| (f.severity, f.rule, h)).collect()
    }

    #[test]
    fn every_finding_about_a_cell_names_it_for_the_editor_as_1_1_as_1_2() {
        // Rows 0 and 1 (8 + 8 cells), cell [3,1] listed twice, start 1 off the rink at [9,9].
        let mut cells = row(0, 0, 7);
        cells.extend(row(1, 0, 7));
        cells.push((3, 1));
        let mut starts = eight_on_row_0();
        starts[1] = (9, 9, 1);
        let f = with_cells(&rink(&cells, &starts));
        assert!(f.contains(&(Severity::Error, "AS-1.1", Some(Hex::new(3, 1)))), "{f:?}");
        assert!(f.contains(&(Severity::Error, "AS-1.2", Some(Hex::new(9, 9)))), "{f:?}");
        // The 16 cells are not 38: a warning about the whole rink, no cell.
        assert!(f.contains(&(Severity::Warning, "AS-1.1", None)), "{f:?}");
        assert_eq!(f.len(), 3, "{f:?}");
        // check_text says the same, by line: [3,1] is the 17th cell, on line 18.
        let lines: Vec<_> = check_text(&rink(&cells, &starts))
            .into_iter()
            .filter_map(|f| f.place.map(|p| p.line))
            .collect();
        assert!(lines.contains(&18), "{lines:?}");
    }

    #[test]
    fn a_start_space_no_car_can_leave_is_a_warning_on_its_cell_as_5_4() {
        // Row 0 with 8 starts and row 1 below; plus an island [20,5] holding... nothing: start
        // 7 moved onto it has no neighbouring cell at all.
        let mut cells = row(0, 0, 7);
        cells.extend(row(1, 0, 7));
        cells.push((20, 5));
        let mut starts = eight_on_row_0();
        starts[7] = (20, 5, 0);
        let f = with_cells(&rink(&cells, &starts));
        assert!(f.contains(&(Severity::Warning, "AS-5.4", Some(Hex::new(20, 5)))), "{f:?}");
        assert!(f.iter().all(|x| x.0 == Severity::Warning), "{f:?}");
        // A single row of 8 cells, all start spaces: every car is boxed in by the others (the
        // end ones have one neighbour, a start space too).
        let f = with_cells(&rink(&row(0, 0, 7), &eight_on_row_0()));
        let boxed: Vec<_> = f.iter().filter(|x| x.1 == "AS-5.4").collect();
        assert_eq!(boxed.len(), 8, "{f:?}");
        // Adjacent start spaces with a free neighbour are fine (AS-1.2's [1,0] and [0,1] touch).
        let mut cells = row(0, 0, 7);
        cells.extend(row(1, -1, 7));
        let f = with_cells(&rink(&cells, &eight_on_row_0()));
        assert_eq!(f, [(Severity::Warning, "AS-1.1", None)], "only the size: {f:?}");
    }

    #[test]
    fn each_piece_beyond_the_first_is_a_warning_on_its_first_cell_as_1_1() {
        let mut cells = row(0, 0, 7);
        cells.extend(row(1, 0, 7));
        cells.extend([(10, 4), (11, 4), (0, 6)]);
        let f = with_cells(&rink(&cells, &eight_on_row_0()));
        let pieces: Vec<_> = f.iter().filter(|x| x.1 == "AS-1.1" && x.2.is_some()).collect();
        assert_eq!(
            pieces,
            [
                &(Severity::Warning, "AS-1.1", Some(Hex::new(10, 4))),
                &(Severity::Warning, "AS-1.1", Some(Hex::new(0, 6)))
            ],
            "{f:?}"
        );
    }

    #[test]
    fn cells_spread_too_far_are_an_error_and_nothing_panics_as_1_1() {
        // Coordinates at the ends of i32: an error (their neighbours would overflow), in the
        // checker and the loader alike; a start space there is off the rink.
        for cells in [vec![(i32::MIN, i32::MAX), (i32::MAX, i32::MIN)], vec![(i32::MAX, 0)]] {
            let text = rink(&cells, &[(i32::MAX, i32::MAX, 0), (0, i32::MIN, 1)]);
            let f = with_cells(&text);
            assert!(f.iter().any(|x| x.0 == Severity::Error && x.1 == "AS-8"), "{f:?}");
            let spec: BoardSpec = serde_json::from_str(&text).unwrap();
            assert!(Board::new(&spec).is_err());
        }
        let text = rink(&[(0, 0)], &[(i32::MAX, i32::MAX, 0)]);
        assert!(with_cells(&text).iter().any(|x| x.0 == Severity::Error && x.1 == "AS-1.2"));
        // Cells far apart within range: the bounding box is too big (AS-1.1).
        let text = rink(&[(-MAX_COORD, -MAX_COORD), (MAX_COORD, MAX_COORD)], &[]);
        let f = with_cells(&text);
        assert!(f.iter().any(|x| x.0 == Severity::Error && x.1 == "AS-1.1"), "{f:?}");
        let spec: BoardSpec = serde_json::from_str(&text).unwrap();
        assert!(Board::new(&spec).is_err());
        // 1025 × 1025 hexes around two cells: too many; 1024 × 1024: the limit itself.
        let far = rink(&[(0, 0), (1024, 1024)], &[]);
        assert!(check_text(&far).iter().any(|f| f.message.contains("span 1025 columns")));
        let near = rink(&[(0, 0), (1023, 1023)], &[]);
        assert!(!check_text(&near).iter().any(|f| f.message.contains("span")));
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
