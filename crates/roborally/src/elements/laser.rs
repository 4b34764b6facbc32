//! RR-5.4 Lasers. Board lasers: the first robot along the beam (starting in the emitter's
//! cell) takes 1 damage per beam; beams stop at walls and robots. Robot lasers: every robot on
//! the board that is not powered down fires forward; the first robot in line takes 1 damage.
//! All lasers fire at once: hits are found first, then damage is dealt (through `damage`).

use crate::event::{Event, Shooter};
use crate::RoboRally;
use grid::{Sq, SqDir};

/// One laser hit: target robot, points, source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub target: usize,
    pub points: u8,
    pub by: Shooter,
}

impl RoboRally {
    /// Every hit of this register's laser step (RR-5.4).
    pub fn laser_hits(&self) -> Vec<Hit> {
        let mut hits = Vec::new();
        for l in &self.board.lasers {
            if let Some(t) = self.beam(l.at, l.dir, true) {
                hits.push(Hit { target: t, points: l.beams, by: Shooter::Board { at: l.at } });
            }
        }
        for r in &self.robots {
            let Some(at) = r.cell() else { continue };
            if r.powered_down {
                continue;
            }
            if let Some(t) = self.beam(at, r.facing, false) {
                hits.push(Hit { target: t, points: 1, by: Shooter::Robot { seat: r.seat } });
            }
        }
        hits
    }

    /// The first robot along a beam from `start` towards `dir` (including `start` itself for
    /// a board laser), stopping at walls and the board edge.
    fn beam(&self, start: Sq, dir: SqDir, include_start: bool) -> Option<usize> {
        let mut cell = start;
        if include_start && let Some(t) = self.robot_at(cell) {
            return Some(t);
        }
        loop {
            if self.board.wall(cell, dir) {
                return None;
            }
            cell = cell.neighbour(dir);
            if !self.board.on_board(cell) {
                return None;
            }
            if let Some(t) = self.robot_at(cell) {
                return Some(t);
            }
        }
    }

    pub(crate) fn run_lasers(&mut self, events: &mut Vec<Event>) {
        let hits = self.laser_hits();
        let mut total = vec![0u8; self.robots.len()];
        for h in &hits {
            events.push(Event::Shot { seat: self.robots[h.target].seat, by: h.by, beams: h.points });
            total[h.target] = total[h.target].saturating_add(h.points);
        }
        for (i, &points) in total.iter().enumerate() {
            self.damage(i, points, events);
        }
    }
}
