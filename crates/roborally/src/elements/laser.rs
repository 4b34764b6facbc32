//! RR-5.4 Lasers. Board lasers: the first robot along the beam (starting in the emitter's
//! cell) takes 1 damage per beam; beams stop at walls and robots. Robot lasers: every robot on
//! the board that is not powered down fires forward; the first robot in line takes 1 damage.
//! All lasers fire at once: hits are found first, then damage is dealt (through `damage`).

use crate::RoboRally;
use crate::event::{Event, Shooter};
use crate::option::OptionCard;
use engine::Seat;
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
        self.for_each_hit(|h| hits.push(h));
        hits
    }

    /// Call `f` for every hit (the hook where RR-9 laser options will act).
    fn for_each_hit(&self, mut f: impl FnMut(Hit)) {
        let mut cells = [None; 16];
        for (c, r) in cells.iter_mut().zip(&self.robots) {
            *c = r.cell();
        }
        let cells = &cells[..self.robots.len()];
        for l in &self.board.lasers {
            if let Some(t) = self.beam(cells, l.at, l.dir, true) {
                f(Hit { target: t, points: l.beams, by: Shooter::Board { at: l.at } });
            }
        }
        for r in &self.robots {
            let Some(at) = r.cell() else { continue };
            if r.powered_down {
                continue;
            }
            if r.options.is_empty() {
                if let Some(t) = self.beam(cells, at, r.facing, false) {
                    f(Hit { target: t, points: 1, by: Shooter::Robot { seat: r.seat } });
                }
            } else {
                self.option_hits(cells, r, at, &mut f);
            }
        }
    }

    /// RR-9: Double-Barreled Laser (2 points), High-Power Laser (through one wall or robot),
    /// Rear-Firing Laser (a second, plain laser backwards).
    #[inline(never)]
    fn option_hits(&self, cells: &[Option<Sq>], r: &crate::Robot, at: Sq, f: &mut impl FnMut(Hit)) {
        let by = Shooter::Robot { seat: r.seat };
        let points = if r.has(OptionCard::DoubleBarreledLaser) { 2 } else { 1 };
        if r.has(OptionCard::HighPowerLaser) {
            for t in self.piercing_beam(cells, at, r.facing).into_iter().flatten() {
                f(Hit { target: t, points, by });
            }
        } else if let Some(t) = self.beam(cells, at, r.facing, false) {
            f(Hit { target: t, points, by });
        }
        if r.has(OptionCard::RearFiringLaser)
            && let Some(t) = self.beam(cells, at, r.facing.opposite(), false)
        {
            f(Hit { target: t, points: 1, by: Shooter::Rear { seat: r.seat } });
        }
    }

    /// High-Power Laser: the beam goes on through the first wall or robot in its way; up to
    /// two robots are hit.
    fn piercing_beam(&self, cells: &[Option<Sq>], start: Sq, dir: SqDir) -> [Option<usize>; 2] {
        let mut hits = [None, None];
        let mut pierce = true;
        let mut cell = start;
        loop {
            if self.board.wall(cell, dir) {
                if !pierce {
                    return hits;
                }
                pierce = false;
            }
            cell = cell.neighbour(dir);
            if !self.board.on_board(cell) {
                return hits;
            }
            if let Some(t) = cells.iter().position(|&c| c == Some(cell)) {
                if hits[0].is_none() {
                    hits[0] = Some(t);
                    if !pierce {
                        return hits;
                    }
                    pierce = false;
                } else {
                    hits[1] = Some(t);
                    return hits;
                }
            }
        }
    }

    /// The first robot along a beam from `start` towards `dir` (including `start` itself for
    /// a board laser), stopping at walls and the board edge. The nearest robot in line is found
    /// first; only the cells up to it are walked for walls (most beams hit nobody).
    fn beam(
        &self,
        cells: &[Option<Sq>],
        start: Sq,
        dir: SqDir,
        include_start: bool,
    ) -> Option<usize> {
        let (dx, dy) = dir.step();
        let mut best: Option<(i32, usize)> = None;
        for (i, at) in cells.iter().enumerate() {
            let Some(at) = *at else { continue };
            let (ox, oy) = (at.x - start.x, at.y - start.y);
            let dist =
                if dx != 0 { (oy == 0).then_some(ox * dx) } else { (ox == 0).then_some(oy * dy) };
            let Some(d) = dist.filter(|&d| d > 0 || (d == 0 && include_start)) else { continue };
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, i));
            }
        }
        let (d, target) = best?;
        self.board.beam_clear(start, dir, d).then_some(target)
    }

    pub(crate) fn run_lasers(&mut self, events: &mut Vec<Event>) {
        // All lasers fire at once: find every hit first, then deal the damage hit by hit.
        // On the stack (issue 17: no allocation per register); a board with more beams than
        // that spills the rest into a vector, in the same order.
        let mut hits: arrayvec::ArrayVec<Hit, 32> = arrayvec::ArrayVec::new();
        let mut more = Vec::new();
        self.for_each_hit(|h| {
            if let Err(e) = hits.try_push(h) {
                more.push(e.element());
            }
        });
        let asked_before = self.pending.len();
        for h in hits.into_iter().chain(more) {
            events.push(Event::Shot { seat: Seat(h.target as u8), by: h.by, beams: h.points });
            // RR-9: a main laser whose robot holds a weapon usable on the target asks first.
            if let Shooter::Robot { seat } = h.by
                && !self.robots[seat.index()].options.is_empty()
                && !self.weapons_for(seat.index(), h.target).is_empty()
            {
                self.pending.push_back(crate::Pending::Weapon {
                    robot: seat.index(),
                    target: h.target,
                    points: h.points,
                });
                continue;
            }
            self.damage(h.target, h.points, h.by, events);
        }
        // RR-9, the booklet's sidebar "Ordre de jeu des cartes d'équipement": the questions
        // due together (weapons, RR-7.4 discards) go to the player who started on dock 1
        // first, then the following docks (a stable sort keeps one player's own order).
        if self.pending.len() > asked_before + 1 {
            let robots = &self.robots;
            self.pending.make_contiguous()[asked_before..].sort_by_key(|p| robots[p.robot()].dock);
        }
    }
}
