//! RR-4 Dealing and programming, RR-4.4 power down, RR-6.4 stay down, RR-4.3 timer defaults.

use crate::card::Card;
use crate::error::ActionError;
use crate::event::Event;
use crate::{Phase, RoboRally, Step};
use engine::Rng;

/// RR-4.3 drafts: the most `place` actions a robot may send in one turn (a decision: every
/// placement is an input the server stores; 60 lets a player place and rearrange five
/// registers many times over).
pub const MAX_PLACES: u16 = 60;

impl RoboRally {
    /// RR-6.4: a new turn begins. Powered-down robots on the board are asked `stay_down`; when
    /// none is, the turn starts at once. A robot already bound to be down next turn (RR-9
    /// Circuit Breaker) is not asked: its answer could change nothing.
    pub(crate) fn begin_turn(&mut self, events: &mut Vec<Event>) {
        self.turn += 1;
        events.push(Event::TurnStarted { turn: self.turn });
        let owes: crate::PerRobot<bool> = self
            .robots
            .iter()
            .map(|r| r.active() && r.cell().is_some() && r.powered_down && !r.power_down_next)
            .collect();
        if owes.iter().any(|&o| o) {
            let n = owes.len();
            self.phase = Phase::StayDown { owes, stay: crate::per_robot(false, n) };
        } else {
            // Nobody stays down: no answers to keep.
            let nobody = crate::per_robot(false, self.robots.len());
            self.start_turn(&nobody, events);
        }
    }

    /// RR-4.4 power down / up, then RR-4.1 shuffle and deal, then the programming phase.
    pub(crate) fn start_turn(&mut self, stay: &[bool], events: &mut Vec<Event>) {
        for (i, &stays) in stay.iter().enumerate() {
            self.set_power(i, stays, events);
        }
        self.deck.gather_and_shuffle(&mut self.rng);
        events.push(Event::Shuffled { cards: self.deck.draw.len() });
        let owes = (0..self.robots.len()).map(|i| self.deal_to(i, events)).collect();
        self.phase = Phase::Program { owes };
    }

    fn set_power(&mut self, i: usize, stay: bool, events: &mut Vec<Event>) {
        let r = &mut self.robots[i];
        r.opt.recompiled = false;
        r.opt.stabilizer_on = false;
        // RR-9 Abort Switch: once each turn (the printed 2005 card).
        r.opt.aborted = false;
        if !r.active() || r.destroyed {
            return;
        }
        let seat = r.seat;
        let down = (r.powered_down && stay) || r.power_down_next;
        let was = r.powered_down;
        if was {
            events.push(Event::StayedDown { seat, value: down });
        }
        r.power_down_next = false;
        r.powered_down = down;
        if down {
            // RR-4.4: discards all its damage; registers empty but for locked ones (at 0
            // damage only a Fire Control jam still locks one: its card stays, RR-7.3).
            r.damage = 0;
            // Straight onto the discards, register order (issue 17: no vector in between).
            for k in 0..5 {
                if !r.locked(k) {
                    self.deck.discard_all(r.registers[k].take());
                    r.revealed[k] = false;
                }
            }
            events.push(Event::PoweredDown { seat });
        } else if was {
            events.push(Event::PoweredUp { seat });
        }
    }

    /// RR-4.1 / RR-7.1: deal `9 - damage` cards to an active, powered-on robot. Returns whether
    /// its player owes a program (RR-11: even with no card to place).
    fn deal_to(&mut self, i: usize, events: &mut Vec<Event>) -> bool {
        let r = &self.robots[i];
        if !r.active() || r.destroyed || r.powered_down {
            self.robots[i].hand_size = 0;
            return false;
        }
        let n = r.cards_to_deal();
        let seat = r.seat;
        // Dealt into the old hand's buffer (emptied: what it held is dropped, as before).
        let mut hand = std::mem::take(&mut self.robots[i].hand);
        hand.clear();
        self.deck.deal_into(n, &mut hand);
        // RR-9 Flywheel: the card kept back joins the new hand.
        hand.extend(self.robots[i].stash.flywheel.take());
        events.push(Event::Dealt { seat, count: hand.len() });
        events.push(Event::Hand { seat, cards: crate::event::hand_cards(&hand) });
        let r = &mut self.robots[i];
        r.hand_size = hand.len() as u8;
        r.hand = hand;
        r.draft = [None; 5];
        r.places = 0;
        true
    }

    /// A setup in the programming phase: robots without a given hand are dealt one.
    pub(crate) fn start_program_phase_from_setup(
        &mut self,
        given: &[bool],
        events: &mut Vec<Event>,
    ) {
        let mut owes = crate::per_robot(false, self.robots.len());
        for i in 0..self.robots.len() {
            let r = &self.robots[i];
            if !r.active() || r.powered_down {
                let hand = std::mem::take(&mut self.robots[i].hand);
                self.deck.discard_all(hand);
                self.robots[i].hand_size = 0;
            } else if given[i] {
                owes[i] = true;
            } else {
                owes[i] = self.deal_to(i, events);
            }
        }
        self.phase = Phase::Program { owes };
    }

    /// Check a program against RR-4.2 / RR-7.2 / RR-4.4 without changing anything.
    pub(crate) fn check_program(
        &self,
        i: usize,
        regs: &[Option<Card>; 5],
        power_down_next: bool,
    ) -> Result<(), ActionError> {
        let r = &self.robots[i];
        let mut seen: arrayvec::ArrayVec<Card, 5> = arrayvec::ArrayVec::new();
        for (k, entry) in regs.iter().enumerate() {
            let register = k as u8 + 1;
            if r.locked(k) {
                if entry.is_some() && *entry != r.registers[k] {
                    return Err(ActionError::RegisterLocked { register });
                }
                continue;
            }
            let Some(c) = entry else { continue };
            if seen.contains(c) {
                return Err(ActionError::DuplicateCard { priority: c.priority });
            }
            if !r.hand.contains(c) {
                return Err(ActionError::CardNotInHand { priority: c.priority });
            }
            seen.push(*c);
        }
        let unlocked = (0..5).filter(|&k| !r.locked(k)).count();
        let must_fill = unlocked.min(r.hand.len());
        if seen.len() < must_fill {
            let k = (0..5).find(|&k| !r.locked(k) && regs[k].is_none()).unwrap_or(0);
            return Err(ActionError::RegisterEmpty { register: k as u8 + 1 });
        }
        if power_down_next && r.damage == 0 {
            return Err(ActionError::PowerDownUndamaged);
        }
        Ok(())
    }

    /// Commit a checked program: cards into the unlocked registers, the rest of the hand
    /// discarded (RR-4.2).
    pub(crate) fn commit_program(
        &mut self,
        i: usize,
        regs: &[Option<Card>; 5],
        power_down_next: bool,
        events: &mut Vec<Event>,
    ) {
        let r = &mut self.robots[i];
        for (k, entry) in regs.iter().enumerate() {
            if !r.locked(k) {
                r.registers[k] = *entry;
                r.revealed[k] = false;
            }
        }
        r.draft = [None; 5];
        let placed = r.registers;
        r.power_down_next = power_down_next;
        let seat = r.seat;
        // The unplaced cards go to the discards in hand order, with no vector in between.
        self.deck.discard_all(r.hand.drain(..).filter(|c| !placed.contains(&Some(*c))));
        events.push(Event::Programmed { seat });
        events.push(Event::Program { seat, registers: placed, power_down_next });
        if let Phase::Program { owes } = &mut self.phase {
            owes[i] = false;
        }
    }

    /// RR-4.3: the draft kept, its empty unlocked registers filled at random from the rest of
    /// the hand (no power down).
    pub(crate) fn random_program(&self, i: usize, rng: &mut Rng) -> [Option<Card>; 5] {
        let r = &self.robots[i];
        // A hand holds at most 9 dealt cards and a Flywheel card (RR-4.1, RR-9): on the stack
        // (issue 17); the same cards in the same order, so the same shuffle.
        let mut hand: arrayvec::ArrayVec<Card, 16> = arrayvec::ArrayVec::new();
        let mut spill: Vec<Card> = Vec::new();
        for &c in r.hand.iter().filter(|c| !r.draft.contains(&Some(**c))) {
            if let Err(e) = hand.try_push(c) {
                spill.push(e.element());
            }
        }
        if !spill.is_empty() {
            // Never with the rules' hands; kept so that any hand works.
            let mut all: Vec<Card> = hand.iter().copied().chain(spill).collect();
            rng.shuffle(&mut all);
            let mut regs = [None; 5];
            for (k, reg) in regs.iter_mut().enumerate() {
                if !r.locked(k) {
                    *reg = r.draft[k].or_else(|| all.pop());
                }
            }
            return regs;
        }
        rng.shuffle(&mut hand);
        let mut regs = [None; 5];
        for (k, reg) in regs.iter_mut().enumerate() {
            if !r.locked(k) {
                *reg = r.draft[k].or_else(|| hand.pop());
            }
        }
        regs
    }

    /// Check a `place` (RR-4.3 draft) without changing anything.
    pub(crate) fn check_place(
        &self,
        i: usize,
        register: u8,
        card: Option<Card>,
    ) -> Result<(), ActionError> {
        let r = &self.robots[i];
        if !(1..=5).contains(&register) {
            return Err(ActionError::RegisterOutOfRange { register });
        }
        let k = register as usize - 1;
        if r.locked(k) {
            return Err(ActionError::RegisterLocked { register });
        }
        if r.draft[k] == card {
            return Err(ActionError::DraftUnchanged { register });
        }
        if let Some(c) = card {
            if !r.hand.contains(&c) {
                return Err(ActionError::CardNotInHand { priority: c.priority });
            }
            if r.draft.contains(&Some(c)) {
                return Err(ActionError::DuplicateCard { priority: c.priority });
            }
        }
        if r.places >= MAX_PLACES {
            return Err(ActionError::TooManyPlaces);
        }
        Ok(())
    }

    /// Apply a checked `place`: the card in the register (replacing what was there), or the
    /// register emptied.
    pub(crate) fn place(&mut self, i: usize, register: u8, card: Option<Card>) {
        let r = &mut self.robots[i];
        r.draft[register as usize - 1] = card;
        r.places += 1;
    }

    /// Every `place` robot `i` may send now (at most 5 × (hand + 1)).
    pub(crate) fn place_actions(&self, i: usize) -> Vec<crate::Action> {
        let mut out = Vec::new();
        self.for_each_place(i, |register, card| {
            out.push(crate::Action::Place { register, card });
            false
        });
        out
    }

    /// One of [`Self::place_actions`] drawn uniformly, as `rng.pick(&self.place_actions(i))`
    /// draws it (the same draw, the same action) but without building the list (issue 17).
    pub(crate) fn pick_place(&self, i: usize, rng: &mut Rng) -> Option<crate::Action> {
        let mut n = 0;
        self.for_each_place(i, |_, _| {
            n += 1;
            false
        });
        if n == 0 {
            return None;
        }
        let mut k = rng.index(n);
        let mut found = None;
        self.for_each_place(i, |register, card| {
            if k == 0 {
                found = Some(crate::Action::Place { register, card });
                return true;
            }
            k -= 1;
            false
        });
        found
    }

    /// Call `f` with every legal `place` of robot `i` in list order, until `f` returns true.
    fn for_each_place(&self, i: usize, mut f: impl FnMut(u8, Option<Card>) -> bool) {
        let r = &self.robots[i];
        for register in 1..=5u8 {
            for card in std::iter::once(None).chain(r.hand.iter().copied().map(Some)) {
                if self.check_place(i, register, card).is_ok() && f(register, card) {
                    return;
                }
            }
        }
    }

    /// Drafts hold only cards still in the hand, in unlocked registers, while programming (an
    /// option card may take a card from the hand, a lock may come, the phase ends).
    pub(crate) fn prune_drafts(&mut self) {
        let programming = matches!(self.phase, Phase::Program { .. });
        for r in &mut self.robots {
            for k in 0..5 {
                if let Some(c) = r.draft[k]
                    && (!programming || r.locked(k) || !r.hand.contains(&c))
                {
                    r.draft[k] = None;
                }
            }
            if !programming {
                r.places = 0;
            }
        }
    }

    /// All programs from the dealt hand (up to 15,120 per power-down choice).
    pub(crate) fn all_programs(&self, i: usize) -> Vec<[Option<Card>; 5]> {
        let r = &self.robots[i];
        let slots: Vec<usize> = (0..5).filter(|&k| !r.locked(k)).collect();
        let k = slots.len().min(r.hand.len());
        let mut out = Vec::new();
        let mut used = vec![false; r.hand.len()];
        let mut regs = [None; 5];
        permute(&r.hand, &slots[..k], 0, &mut used, &mut regs, &mut out);
        out
    }

    /// The programming phase is over once every seat has committed: reveal the power-down
    /// announcements (RR-4.4) and start register 1.
    pub(crate) fn finish_programming(&mut self, events: &mut Vec<Event>) {
        for r in &self.robots {
            if r.power_down_next && r.active() {
                events.push(Event::PowerDownAnnounced { seat: r.seat });
            }
        }
        self.phase = Phase::Execute { register: 1, step: Step::Reveal };
    }
}

fn permute(
    hand: &[crate::Card],
    slots: &[usize],
    depth: usize,
    used: &mut [bool],
    regs: &mut [Option<Card>; 5],
    out: &mut Vec<[Option<Card>; 5]>,
) {
    if depth == slots.len() {
        out.push(*regs);
        return;
    }
    for j in 0..hand.len() {
        if used[j] {
            continue;
        }
        used[j] = true;
        regs[slots[depth]] = Some(hand[j]);
        permute(hand, slots, depth + 1, used, regs, out);
        regs[slots[depth]] = None;
        used[j] = false;
    }
}
