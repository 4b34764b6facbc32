//! RR-8.3 Re-entry. A destroyed robot that is not out comes back on its archive cell with
//! damage 2, facing where its player chooses. When the archive cell is taken, it chooses a free
//! cell among the 8 around it (never a pit or off the board) and a facing with no robot in its
//! line of sight within 3 cells (walls block the line of sight); if no such choice exists, any
//! free cell of that ring with any facing; if the ring has no free cell, the next ring out.

use crate::RoboRally;
use crate::error::ActionError;
use crate::event::{Event, Sink};
use grid::{Sq, SqDir};

/// What a re-entering robot may choose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReentryChoice {
    /// The archive cell is free: there, any facing.
    Archive(Sq),
    /// The archive is taken: a cell of `cells`; when `clear` is not empty, a (cell, facing)
    /// from it.
    Ring { cells: Vec<Sq>, clear: Vec<(Sq, SqDir)> },
    /// Nowhere to go (the whole board is full): the robot waits a turn.
    Nowhere,
}

impl RoboRally {
    fn free(&self, at: Sq) -> bool {
        self.board.on_board(at) && !self.board.is_pit(at) && self.robot_at(at).is_none()
    }

    /// RR-8.3 line of sight: no robot within 3 cells straight ahead, walls blocking.
    pub fn line_of_sight_clear(&self, at: Sq, facing: SqDir) -> bool {
        let mut cell = at;
        for _ in 0..3 {
            if self.board.wall(cell, facing) {
                return true;
            }
            cell = cell.neighbour(facing);
            if !self.board.on_board(cell) {
                return true;
            }
            if self.robot_at(cell).is_some() {
                return false;
            }
        }
        true
    }

    /// The choices of robot `i` now.
    pub fn reentry_choice(&self, i: usize) -> ReentryChoice {
        let archive = self.robots[i].archive;
        if self.free(archive) {
            return ReentryChoice::Archive(archive);
        }
        let max = self.board.width.max(self.board.height);
        for ring in 1..=max {
            let cells: Vec<Sq> =
                ring_cells(archive, ring).into_iter().filter(|&c| self.free(c)).collect();
            if cells.is_empty() {
                continue;
            }
            let clear = cells
                .iter()
                .flat_map(|&c| SqDir::ALL.into_iter().map(move |d| (c, d)))
                .filter(|&(c, d)| self.line_of_sight_clear(c, d))
                .collect();
            return ReentryChoice::Ring { cells, clear };
        }
        ReentryChoice::Nowhere
    }

    /// The ring [`Self::reentry_choice`] offers when the archive is taken: the nearest ring of
    /// cells around it with a free cell (`None`: nowhere). Lists nothing (issue 17).
    fn first_free_ring(&self, archive: Sq) -> Option<i32> {
        let max = self.board.width.max(self.board.height);
        (1..=max).find(|&ring| ring_iter(archive, ring).any(|c| self.free(c)))
    }

    /// No cell to re-enter on ([`ReentryChoice::Nowhere`]), found without listing the choices.
    pub(crate) fn reentry_nowhere(&self, i: usize) -> bool {
        let archive = self.robots[i].archive;
        !self.free(archive) && self.first_free_ring(archive).is_none()
    }

    /// RR-8.3: is (`at`, `facing`) one of [`Self::reentry_choice`]'s choices? The same answers
    /// and errors as matching on that choice, without listing it (issue 17).
    pub(crate) fn check_reenter(&self, i: usize, at: Sq, facing: SqDir) -> Result<(), ActionError> {
        let archive = self.robots[i].archive;
        if self.free(archive) {
            return if archive == at { Ok(()) } else { Err(ActionError::ReenterArchiveFree) };
        }
        let Some(ring) = self.first_free_ring(archive) else {
            return Err(ActionError::ReenterOccupied);
        };
        if !self.board.on_board(at) {
            Err(ActionError::ReenterOffBoard)
        } else if self.board.is_pit(at) {
            Err(ActionError::ReenterPit)
        } else if self.robot_at(at).is_some() {
            Err(ActionError::ReenterOccupied)
        } else if at.chebyshev(archive) != ring {
            // A free cell (the checks above), so one of the ring's free cells exactly when
            // it lies on the ring.
            Err(ActionError::ReenterNotAdjacent)
        } else if !self.line_of_sight_clear(at, facing)
            && ring_iter(archive, ring).any(|c| {
                self.free(c) && SqDir::ALL.into_iter().any(|d| self.line_of_sight_clear(c, d))
            })
        {
            Err(ActionError::ReenterLineOfSight)
        } else {
            Ok(())
        }
    }

    /// Put a checked re-entry into effect: damage set to 2 (RR-8.3), powered down next turn if
    /// chosen (RR-4.4).
    pub(crate) fn reenter(
        &mut self,
        i: usize,
        at: Sq,
        facing: SqDir,
        powered_down: bool,
        events: &mut impl Sink,
    ) {
        self.set_at(i, Some(at));
        let r = &mut self.robots[i];
        r.facing = facing;
        // RR-9 Superior Archive: no damage on re-entry.
        r.damage = if r.has(crate::OptionCard::SuperiorArchive) { 0 } else { 2 };
        r.destroyed = false;
        // The re-entry choice alone decides next turn's power (RR-4.4); no `stay_down` question.
        r.powered_down = false;
        r.power_down_next = powered_down;
        events.push(Event::Reentered { seat: r.seat, at, facing, powered_down });
    }

    /// The timer's default (RR-4.3 applied to re-entry, a decision): the first allowed cell in
    /// row-major order and the first allowed facing in N, E, S, W order; not powered down.
    pub fn default_reentry(&self, i: usize) -> Option<(Sq, SqDir)> {
        match self.reentry_choice(i) {
            ReentryChoice::Archive(a) => Some((a, self.robots[i].facing)),
            ReentryChoice::Ring { mut cells, mut clear } => {
                clear.sort_by_key(|&(c, d)| (c.y, c.x, d));
                cells.sort_by_key(|c| (c.y, c.x));
                clear.first().copied().or(cells.first().map(|&c| (c, SqDir::N)))
            }
            ReentryChoice::Nowhere => None,
        }
    }

    /// Every legal (cell, facing) now.
    pub fn reentry_moves(&self, i: usize) -> Vec<(Sq, SqDir)> {
        match self.reentry_choice(i) {
            ReentryChoice::Archive(a) => SqDir::ALL.into_iter().map(|d| (a, d)).collect(),
            ReentryChoice::Ring { cells, clear } if clear.is_empty() => {
                cells.iter().flat_map(|&c| SqDir::ALL.into_iter().map(move |d| (c, d))).collect()
            }
            ReentryChoice::Ring { clear, .. } => clear,
            ReentryChoice::Nowhere => Vec::new(),
        }
    }
}

/// The cells at Chebyshev distance `ring` from `c`, row-major.
fn ring_cells(c: Sq, ring: i32) -> Vec<Sq> {
    ring_iter(c, ring).collect()
}

/// [`ring_cells`] one by one.
fn ring_iter(c: Sq, ring: i32) -> impl Iterator<Item = Sq> {
    (c.y - ring..=c.y + ring)
        .flat_map(move |y| (c.x - ring..=c.x + ring).map(move |x| Sq::new(x, y)))
        .filter(move |s| s.chebyshev(c) == ring)
}
