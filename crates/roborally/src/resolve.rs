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
                    if self.reentry_nowhere(usize::from(i)) {
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
                let Some(&i) = order.get(usize::from(*next)) else {
                    self.set_step(register, Step::Express);
                    return;
                };
                let i = usize::from(i);
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
                Step::Checkpoints {
                    order: if self.anyone_on_sites() {
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
    fn reveal(&mut self, register: u8, events: &mut impl Sink) -> crate::PerRobot<u8> {
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
    pub(crate) fn move_order(&self, register: u8) -> crate::PerRobot<u8> {
        const N: usize = crate::setup::MAX_ROBOTS;
        let k = register as usize - 1;
        // (priority key, robot) packed in one `i32` (a priority is a `u16`, a robot index is
        // below 256), so the order of the (key, robot) pairs is the order of integers; a slot
        // without a robot moving holds -1, below every key.
        let mut keys = [-1i32; N];
        let mut n = 0;
        let key = |p: u16, radio: bool, i: usize| {
            ((i32::from(p) * 2 + i32::from(!radio)) << 8) | i as i32
        };
        for (i, r) in self.robots.iter().enumerate().take(N) {
            if r.cell().is_none() || r.powered_down {
                continue;
            }
            // RR-9 Radio Control: a controlled robot runs its controller's card, right after it.
            if let Some(by) = r.opt.radio {
                if let Some(c) = self.robots[by.index()].registers[k] {
                    keys[i] = key(c.priority, true, i);
                    n += 1;
                }
                continue;
            }
            if let Some(c) = r.registers[k] {
                let p = if r.stash.side[k].is_some() {
                    self.side_priority(i, k, c)
                } else {
                    c.priority
                };
                keys[i] = key(p, false, i);
                n += 1;
            }
        }
        // Descending (the keys are distinct: the robot is in them), the empty slots last.
        sort_descending(&mut keys);
        keys[..n].iter().map(|&key| (key & 0xff) as u8).collect()
    }
}

/// The eight slots in descending order by a sorting network: 19 compare-exchanges, each a
/// maximum and a minimum without a branch (issue 17: the move order is sorted twice a
/// register; a comparison sort's branches follow random priorities).
/// `resolve::tests::the_network_sorts` checks it on every 0-1 input (which proves a network)
/// and against the slice sort.
#[inline]
fn sort_descending(keys: &mut [i32; crate::setup::MAX_ROBOTS]) {
    #[inline(always)]
    fn exchange(keys: &mut [i32; crate::setup::MAX_ROBOTS], a: usize, b: usize) {
        let (x, y) = (keys[a], keys[b]);
        keys[a] = x.max(y);
        keys[b] = x.min(y);
    }
    // Written out (a loop over a table of pairs stays a loop, with the keys in memory).
    for (a, b) in [(0, 2), (1, 3), (4, 6), (5, 7)] {
        exchange(keys, a, b);
    }
    for (a, b) in [(0, 4), (1, 5), (2, 6), (3, 7)] {
        exchange(keys, a, b);
    }
    for (a, b) in [(0, 1), (2, 3), (4, 5), (6, 7)] {
        exchange(keys, a, b);
    }
    for (a, b) in [(2, 4), (3, 5), (1, 4), (3, 6), (1, 2), (3, 4), (5, 6)] {
        exchange(keys, a, b);
    }
}

#[cfg(test)]
mod tests {
    use super::sort_descending;

    /// The sorting network sorts: every 0-1 input (the 0-1 principle: a comparator network
    /// that sorts those sorts everything), and seeded random keys as the slice sort does.
    #[test]
    fn the_network_sorts() {
        for bits in 0u32..256 {
            let mut keys: [i32; 8] = std::array::from_fn(|i| ((bits >> i) & 1) as i32);
            let mut want = keys;
            want.sort_unstable_by(|a, b| b.cmp(a));
            sort_descending(&mut keys);
            assert_eq!(keys, want, "{bits:08b}");
        }
        let mut rng = engine::Rng::seeded(17);
        for _ in 0..1000 {
            let mut keys: [i32; 8] = std::array::from_fn(|_| rng.below(2000) as i32 - 1);
            let mut want = keys;
            want.sort_unstable_by(|a, b| b.cmp(a));
            sort_descending(&mut keys);
            assert_eq!(keys, want);
        }
    }
}
