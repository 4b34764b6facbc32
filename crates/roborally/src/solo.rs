//! One robot alone on the board: the board elements' steps as pure functions of the board and
//! one robot's cell and facing, in the order of RR-5 — the card (RR-5.2), express belts, then
//! every belt with rotating sections (RR-5.3 steps 1–2), active pushers (step 3), gears
//! (step 4) and the board lasers' damage (RR-5.4).
//!
//! The engine's element steps (`elements`, `movement`) call the same board functions
//! ([`Board::falls`], [`Board::belt_carry`], [`Board::section_turn`], [`Board::pusher_push`],
//! [`Board::gear_turn`], [`Board::beam_clear`]) for each robot and add what only several robots
//! have (pushes, belt conflicts, robot lasers) and option cards; [`register`] strings them
//! together for a robot with nobody else on the board (the search bots' register tables).

use crate::CardKind;
use crate::board::{Board, Cell};
use grid::{Sq, SqDir};

impl Board {
    /// A robot on `at` falls: a pit or off the board (RR-5.2, RR-8.1).
    #[inline]
    pub fn falls(&self, at: Sq) -> bool {
        matches!(self.cell(at), Cell::Void | Cell::Pit)
    }

    /// RR-5.3 steps 1–2: where the belt on `at` carries a robot (`express_only`: step 1, only
    /// express belts) and which way it travels; `None` when no belt moves it (none, not express
    /// in step 1, or a wall in the way).
    #[inline]
    pub fn belt_carry(&self, at: Sq, express_only: bool) -> Option<(Sq, SqDir)> {
        // Outside the rectangle is void: no belt.
        self.belt_carry_at(self.index_of(at)?, at, express_only)
    }

    /// [`Board::belt_carry`] from `at` and its row-major index `k` ([`Board::index_of`]).
    #[inline]
    pub(crate) fn belt_carry_at(
        &self,
        k: usize,
        at: Sq,
        express_only: bool,
    ) -> Option<(Sq, SqDir)> {
        // The cell's own wall mask is its walls (`Board::wall`); both from one index.
        let (Cell::Belt(b), walls) = self.at_index(k) else { return None };
        if (express_only && !b.express) || walls & (1 << b.dir.index()) != 0 {
            return None;
        }
        Some((at.neighbour(b.dir), b.dir))
    }

    /// The quarter turns (clockwise positive) of a robot a belt carried onto `at` travelling
    /// `travel`: a rotating section turns it the way the belt turns; anything else 0.
    #[inline]
    pub fn section_turn(&self, at: Sq, travel: SqDir) -> i32 {
        self.section_turn_of(self.cell(at), travel)
    }

    /// [`Board::section_turn`] for the cell a robot was carried onto.
    #[inline]
    pub(crate) fn section_turn_of(&self, cell: Cell, travel: SqDir) -> i32 {
        let Cell::Belt(b) = cell else { return 0 };
        if b.from.is_none() {
            0
        } else if b.dir == travel.turn(1) {
            1
        } else if b.dir == travel.turn(-1) {
            -1
        } else {
            0
        }
    }

    /// RR-5.3 step 3: the way an active pusher on `at` pushes in register `register`
    /// (away from its wall), if there is one active.
    #[inline]
    pub fn pusher_push(&self, at: Sq, register: u8) -> Option<SqDir> {
        Self::pusher_push_of(self.cell(at), register)
    }

    /// [`Board::pusher_push`] for the cell a robot stands on.
    #[inline]
    pub(crate) fn pusher_push_of(cell: Cell, register: u8) -> Option<SqDir> {
        match cell {
            Cell::Pusher { side, registers } if registers & (1 << register) != 0 => {
                Some(side.opposite())
            }
            _ => None,
        }
    }

    /// RR-5.3 step 4: the quarter turns a gear on `at` gives (0: no gear).
    #[inline]
    pub fn gear_turn(&self, at: Sq) -> i32 {
        Self::gear_turn_of(self.cell(at))
    }

    /// [`Board::gear_turn`] for the cell a robot stands on.
    #[inline]
    pub(crate) fn gear_turn_of(cell: Cell) -> i32 {
        match cell {
            Cell::Gear(t) => t.quarter_turns(),
            _ => 0,
        }
    }

    /// RR-5.4: does a beam from `start` towards `dir` get `d` cells far (walls and the board
    /// edge stop it)?
    #[inline]
    pub fn beam_clear(&self, start: Sq, dir: SqDir, d: i32) -> bool {
        if let Some(reach) = self.reach(start, dir) {
            return d <= reach as i32;
        }
        self.beam_walk(start, dir, d)
    }

    /// [`Board::beam_clear`] walked cell by cell (the reach table's meaning).
    pub fn beam_walk(&self, start: Sq, dir: SqDir, d: i32) -> bool {
        let mut cell = start;
        for _ in 0..d {
            if self.wall(cell, dir) {
                return false;
            }
            cell = cell.neighbour(dir);
            if !self.on_board(cell) {
                return false;
            }
        }
        true
    }

    /// RR-5.4: the damage the board lasers deal a robot alone on `at` (a beam starts in its
    /// emitter's cell; walls and the edge stop it).
    pub fn board_laser_damage(&self, at: Sq) -> u8 {
        let mut damage = 0u8;
        for l in &self.lasers {
            let (dx, dy) = l.dir.step();
            let (ox, oy) = (at.x - l.at.x, at.y - l.at.y);
            let d =
                if dx != 0 { (oy == 0).then_some(ox * dx) } else { (ox == 0).then_some(oy * dy) };
            if d.is_some_and(|d| d >= 0 && self.beam_clear(l.at, l.dir, d)) {
                damage += l.beams;
            }
        }
        damage
    }
}

/// RR-5.2: a card (`None`: an empty register) for a robot alone: single steps that a wall
/// stops; `None` when it falls.
pub fn card(board: &Board, at: Sq, facing: SqDir, kind: Option<CardKind>) -> Option<(Sq, SqDir)> {
    let Some(kind) = kind else { return Some((at, facing)) };
    let turn = kind.turn();
    if turn != 0 {
        return Some((at, facing.turn(turn)));
    }
    let steps = kind.steps();
    let dir = if steps < 0 { facing.opposite() } else { facing };
    let mut at = at;
    for _ in 0..steps.abs() {
        if board.wall(at, dir) {
            break;
        }
        at = at.neighbour(dir);
        if board.falls(at) {
            return None;
        }
    }
    Some((at, facing))
}

/// RR-5.3 steps 1–2 for a robot alone: express belts, then every belt; `None` when it falls.
pub fn belts(board: &Board, at: Sq, facing: SqDir) -> Option<(Sq, SqDir)> {
    let (mut at, mut facing) = (at, facing);
    for express_only in [true, false] {
        let Some((to, travel)) = board.belt_carry(at, express_only) else { continue };
        at = to;
        if board.falls(at) {
            return None;
        }
        facing = facing.turn(board.section_turn(at, travel));
    }
    Some((at, facing))
}

/// RR-5.3 step 3 for a robot alone in register `reg`: `None` when it is pushed into a pit or
/// off the board.
pub fn pusher(board: &Board, at: Sq, facing: SqDir, reg: u8) -> Option<(Sq, SqDir)> {
    match board.pusher_push(at, reg) {
        Some(dir) if !board.wall(at, dir) => {
            let to = at.neighbour(dir);
            (!board.falls(to)).then_some((to, facing))
        }
        _ => Some((at, facing)),
    }
}

/// RR-5.3 step 4 for a robot alone.
pub fn gear(board: &Board, at: Sq, facing: SqDir) -> (Sq, SqDir) {
    (at, facing.turn(board.gear_turn(at)))
}

/// Where register `reg` takes a robot alone (`None`: destroyed): the card, belts, pushers,
/// gears, in the order of RR-5.2 and RR-5.3.
pub fn moves(
    board: &Board,
    at: Sq,
    facing: SqDir,
    kind: Option<CardKind>,
    reg: u8,
) -> Option<(Sq, SqDir)> {
    card(board, at, facing, kind)
        .and_then(|(a, f)| belts(board, a, f))
        .and_then(|(a, f)| pusher(board, a, f, reg))
        .map(|(a, f)| gear(board, a, f))
}

/// Register `reg` (1..=5) of a robot alone on `board` from `at` facing `facing` with a card
/// of `kind` (`None`: no card, powered down): where it ends (`None`: destroyed) and the board
/// lasers' damage there. Flags, repairs and damage are the caller's.
pub fn register(
    board: &Board,
    at: Sq,
    facing: SqDir,
    kind: Option<CardKind>,
    reg: u8,
) -> (Option<(Sq, SqDir)>, u8) {
    match moves(board, at, facing, kind, reg) {
        Some((at, facing)) => (Some((at, facing)), board.board_laser_damage(at)),
        None => (None, 0),
    }
}
