//! RR-5.4 Lasers. Board lasers: the first robot along the beam (starting in the emitter's
//! cell) takes 1 damage per beam; beams stop at walls and robots. Robot lasers: every robot on
//! the board that is not powered down fires forward; the first robot in line takes 1 damage.
//! All lasers fire at once: hits are found first, then damage is dealt (through `damage`).

use crate::RoboRally;
use crate::event::{Event, Shooter, Sink};
use crate::option::OptionCard;
use crate::setup::MAX_ROBOTS;
use engine::Seat;
use grid::{Sq, SqDir};

/// Where [`RoboRally::beam`] puts a robot that is off the board: far from every board, in line
/// with none of its cells (boards are at most a few hundred cells wide).
const OFF: Sq = Sq { x: i32::MIN / 4, y: i32::MIN / 4 };

/// The robots' cells for the laser step, by robot (slots past the last robot, and robots off the
/// board, hold [`OFF`]): two fixed-size arrays, one per coordinate.
struct Lineup {
    xs: [i32; MAX_ROBOTS],
    ys: [i32; MAX_ROBOTS],
}

impl Lineup {
    fn of(robots: &[crate::Robot]) -> Lineup {
        let mut l = Lineup { xs: [OFF.x; MAX_ROBOTS], ys: [OFF.y; MAX_ROBOTS] };
        for (i, r) in robots.iter().enumerate().take(MAX_ROBOTS) {
            let at = r.cell().unwrap_or(OFF);
            (l.xs[i], l.ys[i]) = (at.x, at.y);
        }
        l
    }

    /// The robot on a cell of the board, if any.
    fn position(&self, cell: Sq) -> Option<usize> {
        (0..MAX_ROBOTS).find(|&i| self.xs[i] == cell.x && self.ys[i] == cell.y)
    }
}

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
        let lineup = Lineup::of(&self.robots);
        for l in &self.board.lasers {
            if let Some(t) = self.beam(&lineup, l.at, l.dir, true) {
                f(Hit { target: t, points: l.beams, by: Shooter::Board { at: l.at } });
            }
        }
        for r in &self.robots {
            let Some(at) = r.cell() else { continue };
            if r.powered_down {
                continue;
            }
            if r.options.is_empty() {
                if let Some(t) = self.beam(&lineup, at, r.facing, false) {
                    f(Hit { target: t, points: 1, by: Shooter::Robot { seat: r.seat } });
                }
            } else {
                self.option_hits(&lineup, r, at, &mut f);
            }
        }
    }

    /// RR-9: Double-Barreled Laser (2 points), High-Power Laser (through one wall or robot),
    /// Rear-Firing Laser (a second, plain laser backwards).
    #[inline(never)]
    fn option_hits(&self, cells: &Lineup, r: &crate::Robot, at: Sq, f: &mut impl FnMut(Hit)) {
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
    fn piercing_beam(&self, cells: &Lineup, start: Sq, dir: SqDir) -> [Option<usize>; 2] {
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
            if let Some(t) = cells.position(cell) {
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
    fn beam(&self, cells: &Lineup, start: Sq, dir: SqDir, include_start: bool) -> Option<usize> {
        let (dx, dy) = dir.step();
        // The nearest robot in line: the least (distance, index) key, as a first-found minimum
        // over the robots in order; computed for all the slots at once, without a branch
        // (issue 17: fixed-size arrays of `i32`, so the compiler does the slots side by side).
        let mut best = i32::MAX;
        for i in 0..MAX_ROBOTS {
            let (ox, oy) = (cells.xs[i] - start.x, cells.ys[i] - start.y);
            // `dir` is one of the four unit steps: `across` is 0 exactly on the beam's line.
            let along = ox * dx + oy * dy;
            let across = ox * dy - oy * dx;
            let ahead = along > 0 || (along == 0 && include_start);
            // A robot in line is on the board: `along` is below the board's size.
            let key = if across == 0 && ahead { (along << 8) | i as i32 } else { i32::MAX };
            best = best.min(key);
        }
        if best == i32::MAX {
            return None;
        }
        let (d, target) = (best >> 8, (best & 0xff) as usize);
        self.board.beam_clear(start, dir, d).then_some(target)
    }

    pub(crate) fn run_lasers(&mut self, events: &mut impl Sink) {
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
