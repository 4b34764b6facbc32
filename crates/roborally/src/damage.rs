//! RR-7 Damage and RR-8.1–8.2 destruction. `RoboRally::damage` is the one way a robot takes
//! damage (lasers, the RR-9 weapons and Ramming Gear; Ablative Coat, Power-Down Shield and
//! the RR-7.4 discard may prevent it), `RoboRally::destroy` the one way it is destroyed.

use crate::error::ActionError;
use crate::event::{DestroyCause, Event, Shooter, Sink};
use crate::option::OptionCard;
use crate::{Pending, RoboRally};

impl RoboRally {
    /// Deal `points` damage from `source` to robot `i`. A robot holding option cards is asked,
    /// point by point, whether to discard one to prevent it (RR-7.4): the points wait in
    /// `pending`. The source is kept for the option cards of RR-9 that depend on it.
    pub(crate) fn damage(&mut self, i: usize, points: u8, source: Shooter, events: &mut impl Sink) {
        if points == 0 || self.robots[i].cell().is_none() {
            return;
        }
        if !self.robots[i].options.is_empty() {
            let points = self.option_soak(i, points, source, events);
            if points == 0 {
                return;
            }
            if !self.robots[i].options.is_empty() {
                self.pending.push_back(Pending::Damage { robot: i, points, source });
                return;
            }
            self.take_damage(i, points, events);
            return;
        }
        if self.robots[i].options.is_empty() {
            self.take_damage(i, points, events);
        } else {
            self.pending.push_back(Pending::Damage { robot: i, points, source });
        }
    }

    /// Damage that is not prevented: 10 destroys (RR-8.1); a newly locked register that holds
    /// no card is filled face up from the draw pile (RR-7.3, amended RR-9: powered down or not).
    pub(crate) fn take_damage(&mut self, i: usize, points: u8, events: &mut impl Sink) {
        let before = self.robots[i].lock_mask();
        let r = &mut self.robots[i];
        r.damage = (r.damage + points).min(10);
        events.push(Event::Damaged { seat: r.seat, points, damage: r.damage });
        if r.damage >= 10 {
            self.destroy(i, DestroyCause::Damage, events);
            return;
        }
        if r.damage >= 5 {
            self.fill_new_locks(i, before, events);
        }
    }

    /// RR-7.3 and the amended RR-9 (booklet p.8): each register of robot `i` locked now but not
    /// in `before` that holds no card is filled at once with the top card of the draw pile,
    /// face up (event `register_filled`); the card stays while the register is locked.
    pub(crate) fn fill_new_locks(&mut self, i: usize, before: [bool; 5], events: &mut impl Sink) {
        for (k, was) in before.into_iter().enumerate() {
            if was || !self.robots[i].locked(k) || self.robots[i].registers[k].is_some() {
                continue;
            }
            let Some(card) = self.deck.top(&mut self.rng) else { continue };
            let r = &mut self.robots[i];
            r.registers[k] = Some(card);
            r.revealed[k] = true;
            events.push(Event::RegisterFilled { seat: r.seat, register: k as u8 + 1, card });
        }
    }

    /// RR-8.1–8.2: the robot leaves the board and discards a life token (none left: out).
    /// Holding options, it must give one up (asked through `pending`).
    pub(crate) fn destroy(&mut self, i: usize, cause: DestroyCause, events: &mut impl Sink) {
        let moment = self.moment;
        let at = self.robots[i].at.unwrap_or(self.robots[i].archive);
        // Off the board either way (out, or waiting to re-enter).
        self.set_at(i, None);
        let r = &mut self.robots[i];
        r.destroyed = true;
        r.destroyed_at = moment;
        let seat = r.seat;
        events.push(Event::Destroyed { seat, at, cause });
        if r.lives == 0 {
            r.out = true;
            r.opt = Default::default();
            let stash = std::mem::take(&mut r.stash);
            self.deck.discard_all(stash.cards());
            let r = &mut self.robots[i];
            let options: Vec<OptionCard> = r.options.drain(..).collect();
            self.option_discard.extend(options);
            events.push(Event::Eliminated { seat });
            return;
        }
        r.lives -= 1;
        events.push(Event::LifeLost { seat, lives: r.lives });
        if !r.options.is_empty() {
            self.pending.push_back(Pending::LoseOption { robot: i });
        }
    }

    /// Resolve pending damage that needs no choice (the robot holds no option any more).
    /// Returns true when the front of `pending` waits for a player.
    pub(crate) fn settle_pending(&mut self, events: &mut impl Sink) -> bool {
        if self.pending.is_empty() {
            return false;
        }
        while let Some(p) = self.pending.front().cloned() {
            match p {
                Pending::Damage { robot, points, .. } => {
                    if points == 0 || self.robots[robot].cell().is_none() {
                        self.pending.pop_front();
                    } else if self.robots[robot].options.is_empty() {
                        self.pending.pop_front();
                        self.take_damage(robot, points, events);
                    } else {
                        return true;
                    }
                }
                Pending::LoseOption { robot } => {
                    if self.robots[robot].options.is_empty() {
                        self.pending.pop_front();
                    } else {
                        return true;
                    }
                }
                Pending::MoveOption { robot, option } => {
                    if self.robots[robot].has(option) && self.robots[robot].cell().is_some() {
                        return true;
                    }
                    // Asked no more (the card is run as printed when its step comes again).
                    self.pending.pop_front();
                }
                Pending::Reveal { robot, register } => {
                    if self.reveal_uses(robot, register).is_empty() {
                        self.pending.pop_front();
                    } else {
                        return true;
                    }
                }
                Pending::Stabilizer { robot } => {
                    let r = &self.robots[robot];
                    if r.cell().is_some() && r.has(OptionCard::GyroscopicStabilizer) {
                        return true;
                    }
                    self.pending.pop_front();
                }
                Pending::Arm { robot } => {
                    if self.arm_sites(robot).len() >= 2 {
                        return true;
                    }
                    self.pending.pop_front();
                }
                Pending::Weapon { robot, target, points } => {
                    if self.robots[target].cell().is_none() {
                        self.pending.pop_front();
                    } else if self.weapons_for(robot, target).is_empty() {
                        self.pending.pop_front();
                        let by = Shooter::Robot { seat: self.robots[robot].seat };
                        self.in_front(|g| g.damage(target, points, by, events));
                    } else {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Check a `discard_option` answer to the front of `pending`.
    pub(crate) fn check_discard(&self, option: Option<OptionCard>) -> Result<(), ActionError> {
        let Some(p) = self.pending.front() else { return Err(ActionError::NotYourDecision) };
        let robot = match *p {
            Pending::Damage { robot, .. } => robot,
            Pending::LoseOption { robot } => {
                if option.is_none() {
                    return Err(ActionError::OptionRequired);
                }
                robot
            }
            Pending::MoveOption { .. }
            | Pending::Weapon { .. }
            | Pending::Reveal { .. }
            | Pending::Stabilizer { .. }
            | Pending::Arm { .. } => {
                return Err(ActionError::WrongAction { expected: "use_option" });
            }
        };
        match option {
            Some(o) if !self.robots[robot].options.contains(&o) => Err(ActionError::OptionNotHeld),
            _ => Ok(()),
        }
    }

    /// Apply a checked `discard_option` answer.
    pub(crate) fn apply_discard(&mut self, option: Option<OptionCard>, events: &mut impl Sink) {
        let Some(p) = self.pending.pop_front() else { return };
        let robot = p.robot();
        if let Some(o) = option {
            self.discard_option(robot, o, events);
        }
        if let Pending::Damage { points, source, .. } = p {
            if option.is_some() {
                events.push(Event::DamagePrevented { seat: self.robots[robot].seat });
            } else {
                self.take_damage(robot, 1, events);
            }
            if points > 1 {
                self.pending.push_front(Pending::Damage { robot, points: points - 1, source });
            }
        }
    }

    pub(crate) fn discard_option(&mut self, robot: usize, o: OptionCard, events: &mut impl Sink) {
        let r = &mut self.robots[robot];
        if let Some(k) = r.options.iter().position(|&x| x == o) {
            r.options.remove(k);
            match o {
                OptionCard::AblativeCoat => r.opt.ablative = 0,
                OptionCard::MiniHowitzer => r.opt.howitzer = 0,
                OptionCard::Flywheel => self.deck.discard.extend(r.stash.flywheel.take()),
                OptionCard::ConditionalProgram => {
                    self.deck.discard.extend(r.stash.conditional.take())
                }
                _ => {}
            }
            let r = &mut self.robots[robot];
            self.option_discard.push(o);
            events.push(Event::OptionDiscarded { seat: r.seat, option: o });
        }
    }

    /// RR-6.1: draw one option card (the discards are shuffled back when the deck is empty).
    pub(crate) fn draw_option(&mut self, i: usize, events: &mut impl Sink) {
        if self.option_deck.is_empty() {
            self.option_deck.append(&mut self.option_discard);
            self.option_deck.sort();
            self.rng.shuffle(&mut self.option_deck);
        }
        if let Some(o) = self.option_deck.pop() {
            self.robots[i].options.push(o);
            events.push(Event::OptionDrawn { seat: self.robots[i].seat, option: o });
        }
    }
}
