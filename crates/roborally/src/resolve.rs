//! The resumable cursor: `RoboRally::play_on` advances the turn step by step (RR-3, RR-5)
//! until some seat owes a decision or the game is over. Each step is small and leaves the
//! state consistent, so any stop can be cloned, viewed, saved and replayed.

use crate::event::{Event, Revealed, Sink};
use crate::{Phase, RoboRally, Step};

impl RoboRally {
    /// Play on by itself to the next decision (conventions.md).
    pub(crate) fn play_on(&mut self, events: &mut impl Sink) {
        loop {
            if self.phase == Phase::Over {
                return;
            }
            if !self.play_step(events) {
                return;
            }
        }
    }

    /// One step of the cursor (a card, a board-element step, a laser step, ...), for step-by-step
    /// animation and benches. Returns false when a decision is owed or the game is over.
    pub fn play_step(&mut self, events: &mut impl Sink) -> bool {
        if matches!(self.phase, Phase::Over) || self.settle_pending(events) {
            return false;
        }
        // Checked between registers' steps only outside execution: a register in which the last
        // robots go out runs on harmlessly (nobody is on the board) and the game ends after it.
        if !matches!(self.phase, Phase::Execute { .. }) && self.everyone_done() {
            self.end_game(events);
            return false;
        }
        let more = self.advance(events);
        debug_assert!(self.occupancy_consistent(), "the occupancy table drifted");
        more
    }

    /// No robot left in play (all out or finished).
    fn everyone_done(&self) -> bool {
        self.robots.iter().all(|r| !r.active())
    }

    /// One step. Returns false when a decision is owed.
    #[inline(always)]
    fn advance(&mut self, events: &mut impl Sink) -> bool {
        match &self.phase {
            Phase::Over => false,
            Phase::StayDown { owes, stay } => {
                if owes.iter().any(|&o| o) {
                    return false;
                }
                let stay = stay.clone();
                self.start_turn(&stay, events);
                true
            }
            Phase::Program { owes } => {
                if owes.iter().any(|&o| o) {
                    return false;
                }
                self.finish_programming(events);
                true
            }
            Phase::Reenter { queue } => match queue.first() {
                None => {
                    self.begin_turn(events);
                    true
                }
                Some(&i) => {
                    if self.reentry_nowhere(i) {
                        self.pop_reentry();
                        return true;
                    }
                    false
                }
            },
            Phase::Execute { register, .. } => {
                let register = *register;
                self.moment += 1;
                self.execute(register, events);
                true
            }
        }
    }

    pub(crate) fn pop_reentry(&mut self) {
        if let Phase::Reenter { queue } = &mut self.phase
            && !queue.is_empty()
        {
            queue.remove(0);
        }
    }

    /// One step of register `register` (RR-5.1–5.5, RR-5.3 order): the step in the cursor,
    /// worked in place (issue 17: the cursor is not moved out and back for every step; only the
    /// move step's `next` changes while the cards run), then the next step written.
    fn execute(&mut self, register: u8, events: &mut impl Sink) {
        let Phase::Execute { step, .. } = &self.phase else { return };
        let next = match step {
            Step::Reveal => {
                // RR-9 Conditional Program / Abort Switch: asked before the cards show.
                if self.robots.iter().any(|r| !r.options.is_empty()) && self.ask_reveal(register) {
                    return;
                }
                Step::Move { order: self.reveal(register, events), next: 0 }
            }
            Step::Move { order, next } => {
                let Some(&i) = order.get(*next) else {
                    self.set_step(register, Step::Express);
                    return;
                };
                let card = self.card_of(i, register as usize - 1);
                if let (Some(card), true) =
                    (card, self.robots[i].cell().is_some() && !self.robots[i].powered_down)
                {
                    if self.robots[i].options.is_empty() {
                        self.play_card(i, card, events);
                    } else if !self.play_with_options(i, register, card, events) {
                        // A question waits: the same card runs when the step comes again.
                        return;
                    }
                }
                if let Phase::Execute { step: Step::Move { next, .. }, .. } = &mut self.phase {
                    *next += 1;
                }
                return;
            }
            Step::Express => {
                self.run_belts(true, events);
                Step::Belts
            }
            Step::Belts => {
                self.run_belts(false, events);
                Step::Pushers
            }
            Step::Pushers => {
                self.run_pushers(register, events);
                Step::Gears
            }
            Step::Gears => {
                self.run_gears(events);
                Step::Lasers
            }
            Step::Lasers => {
                self.run_lasers(events);
                let on_sites = self.robots.iter().any(|r| {
                    r.cell().is_some_and(|at| self.board.repairs(at))
                        || (!r.options.is_empty() && r.has(crate::OptionCard::MechanicalArm))
                });
                Step::Checkpoints {
                    order: if on_sites {
                        self.move_order(register)
                    } else {
                        crate::PerRobot::new()
                    },
                }
            }
            Step::Checkpoints { order } => {
                let order = order.clone();
                // RR-9 Mechanical Arm: which site to touch, asked before the step.
                if self.robots.iter().any(|r| !r.options.is_empty()) && self.ask_arm(register) {
                    return;
                }
                self.run_checkpoints(&order, events);
                if self.phase == Phase::Over {
                    return;
                }
                if register < 5 {
                    self.phase = Phase::Execute { register: register + 1, step: Step::Reveal };
                } else {
                    self.cleanup(events);
                }
                return;
            }
        };
        self.set_step(register, next);
    }

    #[inline]
    fn set_step(&mut self, register: u8, step: Step) {
        self.phase = Phase::Execute { register, step };
    }

    /// RR-5.1: reveal every robot's card for this register; returns the move order (RR-5.2).
    fn reveal(&mut self, register: u8, events: &mut impl Sink) -> crate::PerRobot<usize> {
        let k = register as usize - 1;
        let mut cards = crate::PerRobot::new();
        for r in &mut self.robots {
            r.opt.shielded = 0;
            if let Some(card) = r.registers[k]
                && r.cell().is_some()
            {
                r.revealed[k] = true;
                cards.push(Revealed { seat: r.seat, card });
            }
        }
        events.push(Event::RegisterRevealed { register, cards });
        self.move_order(register)
    }

    /// RR-9: run robot `i`'s card when it holds options (Crab Legs / Dual Processor, or the
    /// move options' question first). Returns false when a question waits; the answer is read
    /// from `move_answer` when the step runs again.
    #[inline(never)]
    fn play_with_options(
        &mut self,
        i: usize,
        register: u8,
        card: crate::Card,
        events: &mut impl Sink,
    ) -> bool {
        let k = register as usize - 1;
        if self.robots[i].stash.side[k].is_some()
            && self.robots[i].opt.radio.is_none()
            && self.play_side(i, k, card, events)
        {
            return true;
        }
        match self.move_option_for(i, card) {
            None => self.play_card(i, card, events),
            Some(option) => match self.move_answer.take() {
                None => {
                    self.pending.push_back(crate::Pending::MoveOption { robot: i, option });
                    return false;
                }
                Some(boost) => self.play_card_with(i, card, boost, events),
            },
        }
        true
    }

    /// The card robot `i` runs in register `k` (0-based): its own, or under Radio Control its
    /// controller's.
    #[inline]
    fn card_of(&self, i: usize, k: usize) -> Option<crate::Card> {
        match self.robots[i].opt.radio {
            None => self.robots[i].registers[k],
            Some(by) => self.robots[by.index()].registers[k],
        }
    }

    /// Robots with a card this register, on the board and powered on, by descending priority.
    pub(crate) fn move_order(&self, register: u8) -> crate::PerRobot<usize> {
        let k = register as usize - 1;
        // (priority key, robot) packed in one integer (a robot index is below 256), so the
        // sort compares integers (issue 17): the order of the (key, robot) pairs.
        let mut keyed: arrayvec::ArrayVec<u64, { crate::setup::MAX_ROBOTS }> =
            arrayvec::ArrayVec::new();
        let key = |p: u64, i: usize| (p << 8) | i as u64;
        for (i, r) in self.robots.iter().enumerate() {
            if r.cell().is_none() || r.powered_down {
                continue;
            }
            // RR-9 Radio Control: a controlled robot runs its controller's card, right after it.
            if let Some(by) = r.opt.radio {
                if let Some(c) = self.robots[by.index()].registers[k] {
                    keyed.push(key(c.priority as u64 * 2, i));
                }
                continue;
            }
            if let Some(c) = r.registers[k] {
                let p = if r.stash.side[k].is_some() {
                    self.side_priority(i, k, c)
                } else {
                    c.priority
                };
                keyed.push(key(p as u64 * 2 + 1, i));
            }
        }
        // Descending: each key goes to its rank, the number of greater keys (the keys are
        // distinct: the robot is in them), without a branch per comparison (issue 17).
        let keyed = keyed.as_slice();
        let mut order = [0usize; crate::setup::MAX_ROBOTS];
        for &key in keyed {
            let rank = keyed.iter().fold(0, |n, &other| n + usize::from(other > key));
            order[rank] = (key & 0xff) as usize;
        }
        order[..keyed.len()].iter().copied().collect()
    }
}
