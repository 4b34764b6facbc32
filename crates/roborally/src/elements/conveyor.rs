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
use crate::event::{Cause, Sink};
use crate::setup::MAX_ROBOTS;
use arrayvec::ArrayVec;
use grid::{Sq, SqDir};

#[derive(Clone, Copy, Default)]
struct Carry {
    robot: usize,
    from: Sq,
    to: Sq,
    dir: SqDir,
    moving: bool,
    /// The robot standing on `to` now, if any.
    occupant: Option<usize>,
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
            self.arrive(c.robot, c.from, c.to, Cause::Belt, events);
            if self.robots[c.robot].cell().is_some() {
                self.turn_on_section(c.robot, c.to, c.dir, events);
            }
        }
    }

    /// The robots a belt would carry (walls already stop some of them).
    #[inline]
    fn belt_carries(&self, express_only: bool, out: &mut ArrayVec<Carry, MAX_ROBOTS>) {
        for (i, r) in self.robots.iter().enumerate() {
            let Some(at) = r.cell() else { continue };
            let Some((to, dir)) = self.board.belt_carry(at, express_only) else { continue };
            out.push(Carry {
                robot: i,
                from: at,
                to,
                dir,
                moving: true,
                occupant: self.robot_at(to),
            });
        }
    }

    /// Mark the carries that cannot happen, until nothing changes.
    fn settle(&self, carries: &mut [Carry]) {
        let falls = |s: Sq| self.board.falls(s);
        for k in 0..carries.len() {
            let c = carries[k];
            let conflict =
                carries.iter().enumerate().any(|(m, o)| m != k && o.to == c.to) && !falls(c.to);
            let swap = carries.iter().any(|o| o.from == c.to && o.to == c.from);
            if conflict || swap {
                carries[k].moving = false;
            }
        }
        // carry_of[robot] = index of its carry
        let mut carry_of = [NONE; MAX_ROBOTS];
        for (k, c) in carries.iter().enumerate() {
            carry_of[c.robot] = k as u8;
        }
        loop {
            let mut changed = false;
            for k in 0..carries.len() {
                let Some(j) = carries[k].occupant.filter(|_| carries[k].moving) else { continue };
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

    fn turn_on_section(&mut self, i: usize, at: Sq, travel: SqDir, events: &mut impl Sink) {
        let turn = self.board.section_turn(at, travel);
        if turn != 0 && !self.stabilized(i) {
            self.rotate(i, turn, Cause::Belt, events);
        }
    }
}
