//! RR-5.3 steps 1–2: conveyor belts. Belt moves are simultaneous and never push.
//!
//! * Step 1 (`express_only`): robots on express belts move 1 cell.
//! * Step 2: robots on any belt move 1 cell (including those step 1 brought onto a belt).
//! * A belt running into a wall leaves its robot where it is.
//! * Two robots that would enter the same cell: neither moves. A robot whose destination holds
//!   a robot that does not leave stays (found by a fixpoint, so a robot queueing behind a
//!   blocked one stays too). Decisions: two robots that would swap cells head-on both stay;
//!   robots carried into a pit or off the board are not in conflict (they all fall).
//! * A robot carried onto a rotating section (a belt cell with a `from` side) turns 90° the
//!   way the belt turns: by the quarter turn between its travel and the section's direction.

use crate::RoboRally;
use crate::board::Cell;
use crate::event::{Cause, Sink};
use crate::setup::MAX_ROBOTS;
use arrayvec::ArrayVec;
use grid::{Sq, SqDir};

/// One robot a belt would carry. Indices as bytes and `u32` (issue 17 round 7: 24 bytes, not
/// 64; `settle` copies carries while it compares them).
#[derive(Clone, Copy, Default)]
struct Carry {
    from: Sq,
    to: Sq,
    /// The row-major index of `to` ([`crate::Board::index_of`]; [`crate::NOWHERE`] outside the
    /// rectangle).
    to_index: u32,
    robot: u8,
    /// The robot standing on `to` now ([`crate::NO_ROBOT`]: none).
    occupant: u8,
    dir: SqDir,
    moving: bool,
}

impl Carry {
    /// The index of `to`, `None` outside the rectangle.
    fn target(&self) -> Option<usize> {
        (self.to_index != crate::NOWHERE).then_some(self.to_index as usize)
    }
}

/// No carry for this robot.
const NONE: u8 = u8::MAX;

impl RoboRally {
    pub(crate) fn run_belts(&mut self, express_only: bool, events: &mut impl Sink) {
        let kinds = self.board.elements();
        if !(if express_only { kinds.express } else { kinds.belts }) {
            return;
        }
        // Filled in place (issue 17: returned by value it was copied whole, 8 carries).
        let mut carries = ArrayVec::new();
        self.belt_carries(express_only, &mut carries);
        if carries.as_slice().is_empty() {
            return;
        }
        self.settle(carries.as_mut_slice());
        for c in carries.as_slice().iter().filter(|c| c.moving) {
            let i = usize::from(c.robot);
            self.arrive_at(i, c.from, c.to, c.target(), Cause::Belt, events);
            // Still on the board: on a cell of the rectangle.
            if let (Some(_), Some(k)) = (self.robots[i].cell(), c.target()) {
                self.turn_on_section(i, k, c.dir, events);
            }
        }
    }

    /// The robots a belt would carry (walls already stop some of them).
    #[inline]
    fn belt_carries(&self, express_only: bool, out: &mut ArrayVec<Carry, MAX_ROBOTS>) {
        for (i, r) in self.robots.iter().enumerate() {
            // Off the board, or outside the rectangle (no belt there): not carried.
            let (Some(at), Some(k)) = (r.cell(), self.index_of_robot(i)) else { continue };
            let Some((to, dir)) = self.board.belt_carry_at(k, at, express_only) else { continue };
            let to_index = self.board.index_of(to);
            out.push(Carry {
                from: at,
                to,
                to_index: to_index.map_or(crate::NOWHERE, |k| k as u32),
                robot: i as u8,
                occupant: to_index.map_or(crate::NO_ROBOT, |k| self.occupancy[k]),
                dir,
                moving: true,
            });
        }
    }

    /// Mark the carries that cannot happen, until nothing changes.
    fn settle(&self, carries: &mut [Carry]) {
        // Void outside the rectangle; inside, the cell read by its index.
        let falls = |c: &Carry| {
            c.target().is_none_or(|k| matches!(self.board.at_index(k).0, Cell::Void | Cell::Pit))
        };
        for k in 0..carries.len() {
            let c = carries[k];
            let conflict =
                carries.iter().enumerate().any(|(m, o)| m != k && o.to == c.to) && !falls(&c);
            let swap = carries.iter().any(|o| o.from == c.to && o.to == c.from);
            if conflict || swap {
                carries[k].moving = false;
            }
        }
        // carry_of[robot] = index of its carry
        let mut carry_of = [NONE; MAX_ROBOTS];
        for (k, c) in carries.iter().enumerate() {
            carry_of[usize::from(c.robot)] = k as u8;
        }
        loop {
            let mut changed = false;
            for k in 0..carries.len() {
                let j = usize::from(carries[k].occupant);
                if !carries[k].moving || j == usize::from(crate::NO_ROBOT) {
                    continue;
                }
                let leaves = carry_of[j] != NONE && carries[carry_of[j] as usize].moving;
                if !leaves {
                    carries[k].moving = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// The turn of a robot carried onto the cell of row-major index `k`.
    fn turn_on_section(&mut self, i: usize, k: usize, travel: SqDir, events: &mut impl Sink) {
        let turn = self.board.section_turn_of(self.board.at_index(k).0, travel);
        if turn != 0 && !self.stabilized(i) {
            self.rotate(i, turn, Cause::Belt, events);
        }
    }
}
