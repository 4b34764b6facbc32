//! RR-4 Dealing and programming, RR-4.4 power down, RR-6.4 stay down, RR-4.3 timer defaults.

use crate::card::Card;
use crate::error::ActionError;
use crate::event::{Event, Sink};
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
    pub(crate) fn begin_turn(&mut self, events: &mut impl Sink) {
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
    pub(crate) fn start_turn(&mut self, stay: &[bool], events: &mut impl Sink) {
        for (i, &stays) in stay.iter().enumerate() {
            self.set_power(i, stays, events);
        }
        self.deck.gather_and_shuffle(&mut self.rng);
        events.push(Event::Shuffled { cards: self.deck.draw.len() });
        let owes = (0..self.robots.len()).map(|i| self.deal_to(i, events)).collect();
        self.phase = Phase::Program { owes };
    }

    fn set_power(&mut self, i: usize, stay: bool, events: &mut impl Sink) {
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
    fn deal_to(&mut self, i: usize, events: &mut impl Sink) -> bool {
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
        events: &mut impl Sink,
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
        events: &mut impl Sink,
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
        // The unplaced cards go to the discards in hand order, with no vector in between. A
        // card is compared whole with the five registers as one integer each (kind and
        // priority: distinct for distinct cards; an empty register matches no card), without
        // a branch per register (issue 17: the filter through `contains`, then a priority mask
        // and `contains`, were 6–7 % of a random 8-robot game).
        let keys = placed.map(|p| p.map_or(u32::MAX, card_key));
        self.deck.discard.reserve(r.hand.len());
        for &c in &r.hand {
            let key = card_key(c);
            if !keys.iter().fold(false, |seen, &k| seen | (k == key)) {
                self.deck.discard.push(c);
            }
        }
        r.hand.clear();
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
        let (register, card) = self.pick_place_at(i, rng)?;
        Some(crate::Action::Place { register, card })
    }

    /// [`Self::pick_place`]'s draw as (register, card): the same `rng.index` over the same
    /// count, the same place ([`Self::nth_place`]).
    pub(crate) fn pick_place_at(&self, i: usize, rng: &mut Rng) -> Option<(u8, Option<Card>)> {
        let n = self.place_count(i);
        if n == 0 {
            return None;
        }
        self.nth_place(i, rng.index(n))
    }

    /// How many `place` actions robot `i` may send now, counted without listing them (issue
    /// 17: the listing was 5 % of a random 8-robot game). By `check_place`: in each unlocked
    /// register, `null` when the register holds a drafted card, and every hand card not in the
    /// draft (a drafted card is taken back before it moves), up to [`MAX_PLACES`].
    fn place_count(&self, i: usize) -> usize {
        let r = &self.robots[i];
        if r.places >= MAX_PLACES {
            return 0;
        }
        let free = r.hand.iter().filter(|c| !r.draft.contains(&Some(**c))).count();
        (0..5).filter(|&k| !r.locked(k)).map(|k| usize::from(r.draft[k].is_some()) + free).sum()
    }

    /// The `index`-th `place` of [`Self::place_actions`]' order (registers 1 to 5; in each,
    /// `null` first, then the hand in order), found by counting ([`Self::place_count`]).
    fn nth_place(&self, i: usize, mut index: usize) -> Option<(u8, Option<Card>)> {
        let r = &self.robots[i];
        if r.places >= MAX_PLACES {
            return None;
        }
        let mut free_cards = r.hand.iter().copied().filter(|c| !r.draft.contains(&Some(*c)));
        let free = free_cards.clone().count();
        for register in 1..=5u8 {
            let k = register as usize - 1;
            if r.locked(k) {
                continue;
            }
            if r.draft[k].is_some() {
                if index == 0 {
                    return Some((register, None));
                }
                index -= 1;
            }
            if index < free {
                return free_cards.nth(index).map(|c| (register, Some(c)));
            }
            index -= free;
        }
        None
    }

    /// Call `f` with every legal `place` of robot `i` in list order, until `f` returns true.
    fn for_each_place(&self, i: usize, mut f: impl FnMut(u8, Option<Card>) -> bool) {
        // `check_place` unrolled (issue 17: it was called 100 times per random draw): the
        // limit and the lock are the same for a whole register, the card is from the hand.
        // `every_place_is_checked` compares it with `check_place` on every candidate.
        let r = &self.robots[i];
        if r.places >= MAX_PLACES {
            return;
        }
        for register in 1..=5u8 {
            let k = register as usize - 1;
            if r.locked(k) {
                continue;
            }
            for card in std::iter::once(None).chain(r.hand.iter().copied().map(Some)) {
                let legal = r.draft[k] != card && card.is_none_or(|c| !r.draft.contains(&Some(c)));
                if legal && f(register, card) {
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
    pub(crate) fn finish_programming(&mut self, events: &mut impl Sink) {
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

/// A card as one integer: its kind and its priority (distinct for distinct cards, never
/// `u32::MAX`).
#[inline]
fn card_key(c: Card) -> u32 {
    ((c.card as u32) << 16) | u32::from(c.priority)
}

#[cfg(test)]
mod place_tests {
    use crate::{BoardSpec, RoboRally, Setup, Variants};
    use engine::{Decision, Game, Rng};

    /// Issue 17: `for_each_place` (the unrolled check behind `place_actions`) lists exactly the
    /// `place` actions `check_place` accepts, in its order, and `place_count` / `nth_place`
    /// (behind `pick_place`) count and find them in that order, in every
    /// programming position of seeded random 8-robot games (drafts and locks included: the
    /// random player places cards a quarter of the time, damage locks registers).
    #[test]
    fn every_place_is_checked() {
        let setup = Setup::new_game(BoardSpec::Named("dizzy-dash".into()), 8, Variants::default());
        let mut positions = 0;
        for seed in 0..6u64 {
            let mut g = RoboRally::new(&setup, seed).unwrap();
            let mut rng = Rng::seeded(seed);
            let mut events = Vec::new();
            while let Some(d) = g.decision() {
                let seat = match d {
                    Decision::One(s) => s,
                    Decision::Simultaneous(set) => set.first().unwrap(),
                };
                if g.owed(seat) == Some(crate::game::Owed::Program) {
                    let i = seat.index();
                    let mut listed = Vec::new();
                    g.for_each_place(i, |register, card| {
                        listed.push((register, card));
                        false
                    });
                    let r = &g.robots[i];
                    let cards = std::iter::once(None).chain(r.hand.iter().copied().map(Some));
                    let checked: Vec<_> = (0..=6u8)
                        .flat_map(|register| cards.clone().map(move |c| (register, c)))
                        .filter(|&(register, c)| g.check_place(i, register, c).is_ok())
                        .collect();
                    assert_eq!(listed, checked, "seed {seed}, turn {}", g.turn());
                    // The count and the arithmetic walk (issue 17) agree with the listing.
                    assert_eq!(g.place_count(i), listed.len());
                    let walked: Vec<_> =
                        (0..listed.len()).map(|k| g.nth_place(i, k).unwrap()).collect();
                    assert_eq!(walked, listed, "seed {seed}, turn {}", g.turn());
                    assert_eq!(g.nth_place(i, listed.len()), None);
                    positions += 1;
                }
                let Some(a) = g.sample_action(seat, &mut rng) else { break };
                g.apply(seat, &a, &mut events).unwrap();
                events.clear();
                if g.turn() > 30 {
                    break;
                }
            }
        }
        assert!(positions > 500, "{positions} programming positions");
    }
}
