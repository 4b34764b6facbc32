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
        for l in &self.board.lasers {
            if let Some(t) = self.beam(l.at, l.dir, true) {
                f(Hit { target: t, points: l.beams, by: Shooter::Board { at: l.at } });
            }
        }
        for (i, r) in self.robots.iter().enumerate() {
            let Some(at) = r.cell() else { continue };
            if r.powered_down {
                continue;
            }
            if r.options.is_empty() {
                if let Some(t) = self.beam_from(self.index_of_robot(i), at, r.facing, false) {
                    f(Hit { target: t, points: 1, by: Shooter::Robot { seat: r.seat } });
                }
            } else {
                self.option_hits(r, at, &mut f);
            }
        }
    }

    /// RR-9: Double-Barreled Laser (2 points), High-Power Laser (through one wall or robot),
    /// Rear-Firing Laser (a second, plain laser backwards).
    #[inline(never)]
    fn option_hits(&self, r: &crate::Robot, at: Sq, f: &mut impl FnMut(Hit)) {
        let by = Shooter::Robot { seat: r.seat };
        let points = if r.has(OptionCard::DoubleBarreledLaser) { 2 } else { 1 };
        if r.has(OptionCard::HighPowerLaser) {
            let cells = Lineup::of(&self.robots);
            for t in self.piercing_beam(&cells, at, r.facing).into_iter().flatten() {
                f(Hit { target: t, points, by });
            }
        } else if let Some(t) = self.beam(at, r.facing, false) {
            f(Hit { target: t, points, by });
        }
        if r.has(OptionCard::RearFiringLaser)
            && let Some(t) = self.beam(at, r.facing.opposite(), false)
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
    /// a board laser), stopping at walls and the board edge: the cells up to the beam's reach
    /// (looked up, [`crate::Board::reach`]) read in the occupancy table, nearest first (issue
    /// 17: a few bytes read instead of every robot's coordinates compared; robots never share
    /// a cell, so the first robot found is the nearest). Every cell within the reach is on the
    /// board, so in the rectangle. A start outside it (or a reach too long for the table) goes
    /// to [`RoboRally::beam_by_robots`].
    #[inline]
    fn beam(&self, start: Sq, dir: SqDir, include_start: bool) -> Option<usize> {
        self.beam_from(self.board.index_of(start), start, dir, include_start)
    }

    /// [`RoboRally::beam`] with the row-major index of `start` known (`k`: a robot's
    /// [`RoboRally::index_of_robot`]).
    #[inline]
    fn beam_from(
        &self,
        k: Option<usize>,
        start: Sq,
        dir: SqDir,
        include_start: bool,
    ) -> Option<usize> {
        let Some((at, reach)) = k.and_then(|k| Some((k, self.board.reach_at(k, dir)?))) else {
            return self.beam_by_robots(start, dir, include_start);
        };
        let (dx, dy) = dir.step();
        let stride = dx as isize + dy as isize * self.board.width as isize;
        let mut k = at as isize;
        if !include_start {
            if reach == 0 {
                return None;
            }
            k += stride;
        }
        let n = reach as usize + usize::from(include_start);
        for _ in 0..n {
            let j = self.occupancy[k as usize];
            if j != crate::NO_ROBOT {
                return Some(usize::from(j));
            }
            k += stride;
        }
        None
    }

    /// [`RoboRally::beam`] from the robots' coordinates: the nearest robot in line is found
    /// first; only the cells up to it are walked for walls.
    #[inline(never)]
    fn beam_by_robots(&self, start: Sq, dir: SqDir, include_start: bool) -> Option<usize> {
        let cells = &Lineup::of(&self.robots);
        let (dx, dy) = dir.step();
        // The beam's axis and the other one: a robot is in line when its coordinate across
        // equals the start's, and its distance is the difference along, negated for a beam
        // towards lower coordinates (`back`: all ones). No multiplication (issue 17: so the
        // compiler does the eight slots side by side in the baseline x86-64 vector unit).
        let (along, across, a0, c0) = if dx != 0 {
            (&cells.xs, &cells.ys, start.x, start.y)
        } else {
            (&cells.ys, &cells.xs, start.y, start.x)
        };
        let back = -i32::from(dx + dy < 0);
        let least = i32::from(!include_start);
        // The nearest robot in line: the least (distance, index) key, as a first-found minimum
        // over the robots in order; computed for all the slots at once, without a branch.
        let mut best = i32::MAX;
        for i in 0..MAX_ROBOTS {
            let d = ((along[i] - a0) ^ back) - back;
            // A robot in line is on the board: `d` is below the board's size (a robot off the
            // board is at `OFF`, in line with no cell).
            let key = if across[i] == c0 && d >= least { (d << 8) | i as i32 } else { i32::MAX };
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
        // Read in place (moving the array out copied its 32 slots, issue 17).
        for &h in hits.iter().chain(&more) {
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
