//! RR-5.2 Robots moving: cards, single steps, pushes and chains, walls, pits, the board edge.
//!
//! `RoboRally::step` is the one way a robot moves on its own or is shoved (cards, pushers);
//! belts move robots without pushing (see `elements::conveyor`). Option cards (RR-9) hook in
//! here: both receive the robot index and the cause.

use crate::RoboRally;
use crate::board::Cell;
use crate::card::Card;
use crate::event::{Cause, DestroyCause, Event, Sink};
use grid::{Sq, SqDir};

impl RoboRally {
    /// RR-5.2: execute one card for robot `i`.
    pub(crate) fn play_card(&mut self, i: usize, card: Card, events: &mut impl Sink) {
        let turn = card.turn();
        if turn != 0 {
            self.rotate(i, turn, Cause::Card, events);
            return;
        }
        self.walk(i, card.steps(), events);
    }

    /// RR-9 Brakes (Move 1 as 0), Fourth Gear (Move 3 as 4) and Reverse Gears (Back Up as 2
    /// back) when `boost` is set; otherwise the card as printed.
    pub(crate) fn play_card_with(
        &mut self,
        i: usize,
        card: Card,
        boost: bool,
        events: &mut impl Sink,
    ) {
        if !boost || card.turn() != 0 {
            self.play_card(i, card, events);
            return;
        }
        let steps = match card.steps() {
            1 => 0,
            3 => 4,
            -1 => -2,
            s => s,
        };
        self.walk(i, steps, events);
    }

    /// `steps` single steps forward (negative: backward), stopping when one fails.
    fn walk(&mut self, i: usize, steps: i32, events: &mut impl Sink) {
        let facing = self.robots[i].facing;
        let (dir, n) = if steps < 0 { (facing.opposite(), -steps) } else { (facing, steps) };
        for _ in 0..n {
            if !self.step(i, dir, Cause::Card, events) {
                break;
            }
        }
    }

    /// Turn a robot in place by `quarter_turns` (clockwise positive).
    pub(crate) fn rotate(
        &mut self,
        i: usize,
        quarter_turns: i32,
        by: Cause,
        events: &mut impl Sink,
    ) {
        let r = &mut self.robots[i];
        let from = r.facing;
        r.facing = from.turn(quarter_turns);
        events.push(Event::Turned { seat: r.seat, from, to: r.facing, by });
    }

    /// One step of robot `i` towards `dir`, pushing the robots in the way (RR-5.2). Returns
    /// true when the robot moved and is still on the board (so a Move N may go on).
    pub(crate) fn step(&mut self, i: usize, dir: SqDir, by: Cause, events: &mut impl Sink) -> bool {
        let Some(from) = self.robots[i].cell() else { return false };
        if by == Cause::Card
            && !self.robots[i].options.is_empty()
            && self.robots[i].has(crate::option::OptionCard::RammingGear)
        {
            self.ram(i, dir, events);
            if self.robots[i].cell().is_none() {
                return false;
            }
        }
        // Most steps push nobody: no wall, nobody ahead (issue 17: no chain built; the walls
        // read by the robot's cell index, the cell ahead indexed once for the occupancy and
        // the arrival).
        let to = from.neighbour(dir);
        let walled = match self.index_of_robot(i) {
            Some(f) => self.board.wall_at_index(f, dir),
            None => self.board.wall(from, dir),
        };
        let k = self.board.index_of(to);
        if !walled && k.is_none_or(|k| self.occupancy[k] == crate::NO_ROBOT) {
            self.arrive_at(i, from, to, k, by, events);
            return self.robots[i].cell().is_some();
        }
        let Some(chain) = self.push_chain(from, dir) else {
            events.push(Event::Blocked { seat: self.robots[i].seat, at: from, dir });
            return false;
        };
        for &j in chain.iter().rev() {
            self.displace(usize::from(j), dir, Cause::Push, events);
        }
        self.arrive(i, from, to, by, events);
        self.robots[i].cell().is_some()
    }

    /// The robots a step from `from` towards `dir` would push, nearest first; `None` when a
    /// wall stops the mover or any robot of the chain (then nobody moves).
    pub(crate) fn push_chain(&self, from: Sq, dir: SqDir) -> Option<crate::PerRobot<u8>> {
        if self.board.wall(from, dir) {
            return None;
        }
        let mut chain = crate::PerRobot::new();
        let mut cell = from.neighbour(dir);
        while let Some(j) = self.robot_at(cell) {
            if self.board.wall(cell, dir) {
                return None;
            }
            chain.push(j as u8);
            cell = cell.neighbour(dir);
        }
        Some(chain)
    }

    /// Move robot `j` one cell towards `dir` (the way is known to be clear of walls); a pit or
    /// the board edge destroys it at once (RR-5.2, RR-8.1).
    pub(crate) fn displace(&mut self, j: usize, dir: SqDir, by: Cause, events: &mut impl Sink) {
        let Some(from) = self.robots[j].cell() else { return };
        let to = from.neighbour(dir);
        self.arrive(j, from, to, by, events);
    }

    /// Put robot `j` on `to` (from `from`), destroying it when `to` is a pit or off the board.
    pub(crate) fn arrive(&mut self, j: usize, from: Sq, to: Sq, by: Cause, events: &mut impl Sink) {
        let k = self.board.index_of(to);
        self.arrive_at(j, from, to, k, by, events);
    }

    /// [`RoboRally::arrive`] with the index of `to` known (`k`: [`crate::Board::index_of`]).
    #[inline]
    pub(crate) fn arrive_at(
        &mut self,
        j: usize,
        from: Sq,
        to: Sq,
        k: Option<usize>,
        by: Cause,
        events: &mut impl Sink,
    ) {
        let seat = self.robots[j].seat;
        // One index for the occupancy and the cell (issue 17); outside the rectangle is void.
        self.set_at_index(j, Some(to), k);
        events.push(Event::Moved { seat, from, to, by });
        match k.map_or(Cell::Void, |k| self.board.at_index(k).0) {
            Cell::Void => self.destroy(j, DestroyCause::OffBoard, events),
            Cell::Pit => self.destroy(j, DestroyCause::Pit, events),
            _ => {}
        }
    }
}
