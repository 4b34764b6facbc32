//! RR-5.3 step 4: gears rotate the robots on them 90°.

use crate::RoboRally;
use crate::event::{Cause, Sink};

impl RoboRally {
    pub(crate) fn run_gears(&mut self, events: &mut impl Sink) {
        if !self.board.elements().gears {
            return;
        }
        for i in 0..self.robots.len() {
            let Some(k) = self.index_of_robot(i) else { continue };
            let turn = crate::Board::gear_turn_of(self.board.at_index(k).0);
            if turn != 0 && !self.stabilized(i) {
                self.rotate(i, turn, Cause::Gear, events);
            }
        }
    }
}
