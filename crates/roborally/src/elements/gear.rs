//! RR-5.3 step 4: gears rotate the robots on them 90°.

use crate::RoboRally;
use crate::board::Cell;
use crate::event::{Cause, Event};

impl RoboRally {
    pub(crate) fn run_gears(&mut self, events: &mut Vec<Event>) {
        for i in 0..self.robots.len() {
            let Some(at) = self.robots[i].cell() else { continue };
            if let Cell::Gear(t) = self.board.cell(at)
                && !self.stabilized(i)
            {
                self.rotate(i, t.quarter_turns(), Cause::Gear, events);
            }
        }
    }
}
