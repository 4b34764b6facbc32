//! RR-5.3 step 4: gears rotate the robots on them 90°.

use crate::RoboRally;
use crate::event::{Cause, Sink};

impl RoboRally {
    pub(crate) fn run_gears(&mut self, events: &mut impl Sink) {
        if !self.board.elements().gears {
            return;
        }
        for i in 0..self.robots.len() {
            let Some(at) = self.robots[i].cell() else { continue };
            let turn = self.board.gear_turn(at);
            if turn != 0 && !self.stabilized(i) {
                self.rotate(i, turn, Cause::Gear, events);
            }
        }
    }
}
