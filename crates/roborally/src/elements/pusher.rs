//! RR-5.3 step 3: active pushers push the robot on their cell one cell away from their wall,
//! like a robot's move (RR-5.2): a chain is pushed along, a wall stops the whole chain.
//!
//! Decision: the robots to push are those standing on an active pusher when the step begins
//! (a robot pushed onto another pusher is not pushed again); pushers act in row-major order.

use crate::RoboRally;
use crate::event::{Cause, Sink};
use arrayvec::ArrayVec;
use grid::{Sq, SqDir};

impl RoboRally {
    pub(crate) fn run_pushers(&mut self, register: u8, events: &mut impl Sink) {
        if self.board.elements().pushers & (1 << register) == 0 {
            return;
        }
        let mut todo: ArrayVec<(Sq, usize, SqDir), { crate::setup::MAX_ROBOTS }> = ArrayVec::new();
        for (i, r) in self.robots.iter().enumerate() {
            let (Some(at), Some(k)) = (r.cell(), self.index_of_robot(i)) else { continue };
            if let Some(dir) = crate::Board::pusher_push_of(self.board.at_index(k).0, register) {
                todo.push((at, i, dir));
            }
        }
        todo.as_mut_slice().sort_unstable_by_key(|&(at, i, _)| (at.y, at.x, i));
        for &(at, i, dir) in todo.as_slice() {
            if self.robots[i].cell() == Some(at) {
                self.step(i, dir, Cause::Pusher, events);
            }
        }
    }
}
