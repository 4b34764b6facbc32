//! RR-1.3 / RR-2 The playing area: cells, walls, board lasers, flags and start docks.
//!
//! A [`Board`] is any rectangle of cells; cells outside every factory board of a course are
//! [`Cell::Void`] (off the board, RR-8.1). Board pieces are read from text ([`parse_board`]),
//! joined into courses ([`course`]) or given inline by a scenario ([`inline`]).

pub mod course;
pub mod inline;
pub mod parse;
pub mod validate;

pub use course::{Course, CourseError, course_by_name, load_text, shipped_courses};
pub use parse::{BoardError, parse_board};

use grid::{Sq, SqDir, SqEdge};
use serde::Serialize;

/// Which way a gear (or a belt turn) rotates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    Left,
    Right,
}

impl Turn {
    pub const fn quarter_turns(self) -> i32 {
        match self {
            Turn::Left => -1,
            Turn::Right => 1,
        }
    }
}

/// A conveyor cell (RR-2). `from` marks a rotating section: the side the belt comes in through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Belt {
    pub dir: SqDir,
    pub express: bool,
    pub from: Option<SqDir>,
}

/// What one cell holds (RR-2). Walls, lasers, flags and docks are kept beside the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Cell {
    /// Not part of any board: entering it is leaving the board.
    Void,
    #[default]
    Floor,
    Pit,
    Belt(Belt),
    /// A pusher mounted on `side`, active in the registers of the bit mask (bit r = register r).
    Pusher {
        side: SqDir,
        registers: u8,
    },
    Gear(Turn),
    Repair,
    /// Double repair site: wrench and hammer (repair and draw an option, RR-6.1).
    RepairOption,
}

/// A board laser: the beam starts in `at` and shoots towards `dir` (RR-5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Laser {
    pub at: Sq,
    pub dir: SqDir,
    pub beams: u8,
}

/// A start dock (RR-1.3): number 1..8, its cell and the facing of a robot starting there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Dock {
    pub number: u8,
    pub at: Sq,
    pub facing: SqDir,
}

/// The playing area of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    pub width: i32,
    pub height: i32,
    cells: Vec<Cell>,
    /// Wall bit mask per cell (bit d = a wall on side d); both cells of an edge carry it.
    walls: Vec<u8>,
    pub lasers: Vec<Laser>,
    /// Checkpoint flags in order (RR-1.3).
    pub flags: Vec<Sq>,
    pub docks: Vec<Dock>,
    /// How far a beam gets from each cell (see [`Board::reach`]), built on first use and
    /// dropped by every change of a cell or wall; derived data, so neither compared nor
    /// serialised.
    #[serde(skip)]
    reach: Reach,
    /// Which element kinds the cells hold (see [`Elements`]), built on first use and dropped by
    /// every change of a cell; derived, so neither compared nor serialised.
    #[serde(skip)]
    elements: Derived<Elements>,
    /// The row-major indices of the repair site cells (single and double; flags are kept
    /// apart, `flags` being public), built on first use and dropped by every change of a cell;
    /// derived, so neither compared nor serialised.
    #[serde(skip)]
    repair_cells: Derived<Vec<u32>>,
}

/// Which kinds of board element any cell holds (RR-2), so that a register step whose element
/// the board lacks looks up no robot's cell (issue 17: Dizzy Dash has no gear and no repair
/// cell; its flags are checked apart, `Board::flags` being a public list).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Elements {
    pub(crate) belts: bool,
    pub(crate) express: bool,
    /// The registers in which some pusher is active (bit r = register r, as `Cell::Pusher`).
    pub(crate) pushers: u8,
    pub(crate) gears: bool,
    /// A repair site cell (single or double); flags, also repair sites, are not counted.
    pub(crate) repair_cells: bool,
}

/// A value derived from the cells, built on first use (as [`Reach`]): equal for every board.
#[derive(Clone, Debug, Default)]
struct Derived<T>(std::sync::OnceLock<T>);

impl<T> PartialEq for Derived<T> {
    fn eq(&self, _: &Derived<T>) -> bool {
        true
    }
}
impl<T> Eq for Derived<T> {}

/// Per cell of the rectangle (row-major) and side (`SqDir::index`), the cells a beam from the
/// cell crosses towards that side before a wall or the board's edge stops it (RR-5.4), capped
/// at `u16::MAX` (then walked); issue 17: lasers look up, never walk.
#[derive(Clone, Debug, Default)]
struct Reach(std::sync::OnceLock<Vec<[u16; 4]>>);

impl PartialEq for Reach {
    fn eq(&self, _: &Reach) -> bool {
        true
    }
}
impl Eq for Reach {}

impl Board {
    /// An all-floor board.
    pub fn new(width: i32, height: i32) -> Board {
        let n = (width.max(0) * height.max(0)) as usize;
        Board {
            width,
            height,
            cells: vec![Cell::Floor; n],
            walls: vec![0; n],
            lasers: Vec::new(),
            flags: Vec::new(),
            docks: Vec::new(),
            reach: Reach::default(),
            elements: Derived::default(),
            repair_cells: Derived::default(),
        }
    }

    #[inline]
    pub fn in_bounds(&self, at: Sq) -> bool {
        at.x >= 0 && at.y >= 0 && at.x < self.width && at.y < self.height
    }

    /// Issue 17 (about a hundred look-ups a register): two unsigned comparisons (a negative
    /// coordinate wraps above every width), then the index checked against the cells, which
    /// answers for a board with a width or height of 0 or less too (`Board::new` gives it no
    /// cells) and lets the compiler drop the cells' own bounds check.
    #[inline]
    fn index(&self, at: Sq) -> Option<usize> {
        if (at.x as u32) < (self.width as u32) && (at.y as u32) < (self.height as u32) {
            let i = at.y.wrapping_mul(self.width).wrapping_add(at.x) as usize;
            (i < self.cells.len()).then_some(i)
        } else {
            None
        }
    }

    /// The row-major index of a cell of the rectangle (`None` outside it), for tables kept
    /// beside the board (the state's occupancy, the laser table).
    #[inline]
    pub fn index_of(&self, at: Sq) -> Option<usize> {
        self.index(at)
    }

    /// Cells in the rectangle (`width × height`).
    pub fn area(&self) -> usize {
        self.cells.len()
    }

    /// The cell at `at`; outside the rectangle it is [`Cell::Void`].
    #[inline]
    pub fn cell(&self, at: Sq) -> Cell {
        self.index(at).map_or(Cell::Void, |i| self.cells[i])
    }

    /// The cell and its wall mask at a row-major index of the rectangle ([`Board::index_of`]):
    /// for a caller that has the index already (issue 17: one index computed per look-up).
    #[inline]
    pub(crate) fn at_index(&self, k: usize) -> (Cell, u8) {
        (self.cells[k], self.walls[k])
    }

    pub fn set_cell(&mut self, at: Sq, cell: Cell) {
        if let Some(i) = self.index(at) {
            self.cells[i] = cell;
            self.reach = Reach::default();
            self.elements = Derived::default();
            self.repair_cells = Derived::default();
        }
    }

    /// True for a cell a robot can stand on (RR-8.1: not void).
    #[inline]
    pub fn on_board(&self, at: Sq) -> bool {
        !matches!(self.cell(at), Cell::Void)
    }

    #[inline]
    pub fn is_pit(&self, at: Sq) -> bool {
        matches!(self.cell(at), Cell::Pit)
    }

    /// Put a wall on side `side` of `at` (and on the matching side of the neighbour).
    pub fn add_wall(&mut self, at: Sq, side: SqDir) {
        let e = SqEdge::new(at, side);
        for e in [e, e.flipped()] {
            if let Some(i) = self.index(e.at) {
                self.walls[i] |= 1 << e.side.index();
            }
        }
        self.reach = Reach::default();
    }

    /// RR-5.4: how many cells a beam from `start` towards `dir` crosses before a wall on its
    /// way or the board's edge (a cell off every board) stops it; `None` for a start outside
    /// the rectangle or a reach of `u16::MAX` or more. A beam gets `d` cells far exactly when
    /// `d` is at most this ([`Board::beam_clear`]).
    #[inline]
    pub fn reach(&self, start: Sq, dir: SqDir) -> Option<u32> {
        self.reach_at(self.index(start)?, dir)
    }

    /// [`Board::reach`] from the row-major index of the start ([`Board::index_of`]).
    #[inline]
    pub(crate) fn reach_at(&self, k: usize, dir: SqDir) -> Option<u32> {
        let table = self.reach.0.get_or_init(|| self.reach_table());
        let r = table[k][dir.index() as usize];
        (r != u16::MAX).then_some(u32::from(r))
    }

    /// The walk [`Board::reach`] looks up, from every cell towards every side.
    fn reach_table(&self) -> Vec<[u16; 4]> {
        let mut table = vec![[0u16; 4]; self.cells.len()];
        for y in 0..self.height {
            for x in 0..self.width {
                let at = Sq::new(x, y);
                let Some(i) = self.index(at) else { continue };
                for dir in SqDir::ALL {
                    let mut cell = at;
                    let mut n: u16 = 0;
                    while n < u16::MAX && !self.wall(cell, dir) {
                        cell = cell.neighbour(dir);
                        if !self.on_board(cell) {
                            break;
                        }
                        n += 1;
                    }
                    table[i][dir.index() as usize] = n;
                }
            }
        }
        table
    }

    /// [`Board::wall`] on side `side` of the cell of row-major index `k` ([`Board::index_of`]).
    #[inline]
    pub(crate) fn wall_at_index(&self, k: usize, side: SqDir) -> bool {
        self.walls[k] & (1 << side.index()) != 0
    }

    /// A wall on side `side` of `at` (RR-2): blocks crossing that edge both ways.
    #[inline]
    pub fn wall(&self, at: Sq, side: SqDir) -> bool {
        match self.index(at) {
            Some(i) => self.walls[i] & (1 << side.index()) != 0,
            None => self
                .index(at.neighbour(side))
                .is_some_and(|i| self.walls[i] & (1 << side.opposite().index()) != 0),
        }
    }

    /// Every wall, each edge once, spelled from a cell inside the board.
    pub fn walls(&self) -> Vec<SqEdge> {
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let at = Sq::new(x, y);
                for d in SqDir::ALL {
                    if !self.wall(at, d) {
                        continue;
                    }
                    let other = at.neighbour(d);
                    let first = !self.in_bounds(other) || d == SqDir::N || d == SqDir::W;
                    if first {
                        out.push(SqEdge::new(at, d));
                    }
                }
            }
        }
        out
    }

    /// The flag index at a cell, if any.
    #[inline]
    pub fn flag_at(&self, at: Sq) -> Option<usize> {
        self.flags.iter().position(|&f| f == at)
    }

    /// RR-2/RR-6.1: a flag cell is also a single repair site.
    #[inline]
    pub fn repairs(&self, at: Sq) -> bool {
        (self.elements().repair_cells && matches!(self.cell(at), Cell::Repair | Cell::RepairOption))
            || self.flag_at(at).is_some()
    }

    /// The row-major indices ([`Board::index_of`]) of the repair site cells, single and double
    /// (not the flags, also repair sites: [`Board::repairs`]).
    #[inline]
    pub(crate) fn repair_cells(&self) -> &[u32] {
        self.repair_cells.0.get_or_init(|| {
            (0..self.cells.len())
                .filter(|&k| matches!(self.cells[k], Cell::Repair | Cell::RepairOption))
                .map(|k| k as u32)
                .collect()
        })
    }

    /// Which element kinds the cells hold.
    #[inline]
    pub(crate) fn elements(&self) -> Elements {
        *self.elements.0.get_or_init(|| {
            let mut e = Elements::default();
            for c in &self.cells {
                match *c {
                    Cell::Belt(b) => {
                        e.belts = true;
                        e.express |= b.express;
                    }
                    Cell::Pusher { registers, .. } => e.pushers |= registers,
                    Cell::Gear(_) => e.gears = true,
                    Cell::Repair | Cell::RepairOption => e.repair_cells = true,
                    Cell::Void | Cell::Floor | Cell::Pit => {}
                }
            }
            e
        })
    }

    pub fn dock(&self, number: u8) -> Option<&Dock> {
        self.docks.iter().find(|d| d.number == number)
    }

    /// All cells in row-major order.
    pub fn cells(&self) -> impl Iterator<Item = (Sq, Cell)> + '_ {
        (0..self.height)
            .flat_map(move |y| (0..self.width).map(move |x| Sq::new(x, y)))
            .map(|at| (at, self.cell(at)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_block_both_ways() {
        let mut b = Board::new(3, 3);
        b.add_wall(Sq::new(1, 1), SqDir::N);
        assert!(b.wall(Sq::new(1, 1), SqDir::N));
        assert!(b.wall(Sq::new(1, 0), SqDir::S));
        assert!(!b.wall(Sq::new(1, 1), SqDir::S));
        b.add_wall(Sq::new(0, 0), SqDir::W);
        assert!(b.wall(Sq::new(0, 0), SqDir::W));
        assert_eq!(b.walls().len(), 2);
    }

    /// RR-5.4: the reach table (issue 17) answers what walking the beam answers, from every
    /// cell of every shipped course towards every side, at every distance; and a wall added
    /// after a look-up is seen.
    #[test]
    fn reach_is_the_walked_beam() {
        for course in shipped_courses() {
            let b = &course.board;
            for y in -1..=b.height {
                for x in -1..=b.width {
                    let at = Sq::new(x, y);
                    for dir in SqDir::ALL {
                        for d in 0..=b.width.max(b.height) + 1 {
                            assert_eq!(
                                b.beam_clear(at, dir, d),
                                b.beam_walk(at, dir, d),
                                "{} {at} {dir:?} {d}",
                                course.name
                            );
                        }
                    }
                }
            }
        }
        let mut b = Board::new(5, 1);
        assert_eq!(b.reach(Sq::new(0, 0), SqDir::E), Some(4));
        b.add_wall(Sq::new(2, 0), SqDir::E);
        assert_eq!(b.reach(Sq::new(0, 0), SqDir::E), Some(2));
        b.set_cell(Sq::new(1, 0), Cell::Void);
        assert_eq!(b.reach(Sq::new(0, 0), SqDir::E), Some(0));
        assert_eq!(b.reach(Sq::new(-1, 0), SqDir::E), None);
    }
}
