//! RR-5.5 Checkpoints and RR-10 winning. A robot on the next flag of its sequence touches it;
//! a robot on a flag or a repair site moves its archive there. The first robot to touch its
//! last flag wins at once (decision: robots are checked in this register's move order, then
//! robots without a card by dock; so among two finishing in one register, the higher priority
//! wins). Variant `full_ranking`: a finished robot leaves the board and play goes on.

use crate::event::{Event, Sink};
use crate::{Phase, RoboRally};

impl RoboRally {
    pub(crate) fn run_checkpoints(&mut self, order: &[u8], events: &mut impl Sink) {
        // Fast path: nobody stands on a flag or a repair site.
        if !self.anyone_on_sites() {
            return;
        }
        let mut rest: arrayvec::ArrayVec<(u8, usize), { crate::setup::MAX_ROBOTS }> =
            arrayvec::ArrayVec::new();
        for i in (0..self.robots.len()).filter(|&i| !order.contains(&(i as u8))) {
            rest.push((self.robots[i].dock, i));
        }
        rest.as_mut_slice().sort_unstable();
        let rest = rest.as_slice().iter().map(|&(_, i)| i);
        for i in order.iter().map(|&i| usize::from(i)).chain(rest) {
            self.checkpoint(i, events);
            if self.phase == Phase::Over {
                return;
            }
        }
    }

    /// Some robot stands on a flag or a repair site (RR-5.5), or holds a Mechanical Arm (RR-9:
    /// it may touch one nearby): the checkpoint step has work. Asked by the laser step (for the
    /// move order) and again by the checkpoint step (questions between the two may move
    /// robots). Issue 17 round 7: the few site cells looked up in the occupancy table (a robot
    /// stands on a cell of the rectangle exactly when it is marked there) instead of every
    /// robot's cell compared with every flag and looked up on the board.
    #[inline]
    pub(crate) fn anyone_on_sites(&self) -> bool {
        let occupied = |k: usize| self.occupancy[k] != crate::NO_ROBOT;
        self.board.flags.iter().any(|&f| self.board.index_of(f).is_some_and(occupied))
            || self.board.repair_cells().iter().any(|&k| occupied(k as usize))
            || self
                .robots
                .iter()
                .any(|r| !r.options.is_empty() && r.has(crate::OptionCard::MechanicalArm))
    }

    fn checkpoint(&mut self, i: usize, events: &mut impl Sink) {
        let arm = !self.robots[i].options.is_empty()
            && self.robots[i].has(crate::OptionCard::MechanicalArm);
        if arm {
            self.robots[i].opt.arm_touched = None;
        }
        let Some(mut at) = self.robots[i].cell() else { return };
        let seat = self.robots[i].seat;
        let flags = self.board.flags.len();
        if arm {
            // RR-9 Mechanical Arm: the site its player chose (asked when two or more are in
            // reach), else the only one in reach, else none.
            let choice = match self.robots[i].opt.arm_choice.take() {
                Some(choice) => choice,
                None => self.arm_default(i),
            };
            self.robots[i].opt.arm_touched = choice;
            match choice {
                Some(c) => {
                    if c != at {
                        events.push(Event::OptionUsed {
                            seat,
                            option: crate::OptionCard::MechanicalArm,
                        });
                    }
                    at = c;
                }
                None => return,
            }
        }
        if self.board.flag_at(at) == Some(self.robots[i].flags_touched as usize) {
            self.robots[i].flags_touched += 1;
            events.push(Event::FlagTouched { seat, flag: self.robots[i].flags_touched });
        }
        if self.board.repairs(at) && self.robots[i].archive != at {
            self.robots[i].archive = at;
            events.push(Event::ArchiveMoved { seat, at });
        }
        if self.robots[i].flags_touched as usize >= flags && flags > 0 {
            self.finish(i, events);
        }
    }

    fn finish(&mut self, i: usize, events: &mut impl Sink) {
        let seat = self.robots[i].seat;
        if self.winner.is_none() {
            self.winner = Some(seat);
        }
        self.finish_order.push(seat);
        if !self.rules.variants.full_ranking {
            self.end_game(events);
            return;
        }
        self.set_at(i, None);
        let r = &mut self.robots[i];
        r.finished = true;
        events.push(Event::Finished { seat, place: self.finish_order.len() as u8 });
    }

    pub(crate) fn end_game(&mut self, events: &mut impl Sink) {
        self.phase = Phase::Over;
        self.pending.clear();
        events.push(Event::GameOver { winner: self.winner });
    }
}
