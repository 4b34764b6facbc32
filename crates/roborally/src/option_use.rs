//! RR-9 Option cards in play: the automatic effects that need a helper (Power-Down Shield,
//! Ablative Coat, Ramming Gear, Mechanical Arm, Circuit Breaker) and the `use_option` decision
//! (weapons instead of laser damage, Brakes / Fourth Gear / Reverse Gears, Recompile and the
//! Gyroscopic Stabilizer switch while programming). `docs/roborally-options.md` is the rule text.

use crate::board::Cell;
use crate::card::{Card, CardKind};
use crate::error::ActionError;
use crate::event::{Cause, Event, Shooter, Sink};
use crate::option::{ABLATIVE_POINTS, HOWITZER_SHOTS, OptionCard};
use crate::{Pending, Phase, RoboRally};
use grid::{Sq, SqDir};

/// A `use_option` action validated by [`RoboRally::check_use`]: everything
/// [`RoboRally::apply_use`] needs, with nothing left to check again (RR-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OptionUse {
    /// While programming, Crab Legs / Dual Processor: `card` leaves the hand to go with
    /// register `k` (0-based).
    Combine { option: OptionCard, k: usize, card: Card },
    /// While programming, Crab Legs / Dual Processor: the card with register `k` goes back to
    /// the hand.
    TakeBack { option: OptionCard, k: usize },
    /// While programming, Flywheel / Conditional Program: `card` leaves the hand for the option.
    Keep { option: OptionCard, card: Card },
    /// While programming: a new hand for 1 damage.
    Recompile,
    /// The answer to the Gyroscopic Stabilizer question: active this turn.
    StabilizerOn,
    /// The answer to a Mechanical Arm question: the site touched (`None`: the arm is not
    /// used, only the site under the robot counts).
    Arm { at: Option<Sq> },
    /// The answer to a move-option question: the option used, or `None` (declined).
    MoveAnswer { used: Option<OptionCard> },
    /// The answer to a weapon question: declined, so the main laser's `points` hit `target`.
    WeaponDeclined { target: usize, points: u8 },
    /// The answer to a weapon question: `weapon` instead of the main laser's damage.
    Weapon { target: usize, weapon: Weapon },
    /// The answer to a reveal question: declined.
    RevealDeclined,
    /// Conditional Program: its card replaces register `k`'s (0-based) before it is revealed.
    Conditional { k: usize },
    /// Abort Switch: registers `k..5` that are not locked get new cards from the deck.
    Abort { k: usize },
}

impl OptionUse {
    /// Whether this use answers the option question at the head of the queue.
    const fn answers(self) -> bool {
        !matches!(
            self,
            OptionUse::Combine { .. }
                | OptionUse::TakeBack { .. }
                | OptionUse::Keep { .. }
                | OptionUse::Recompile
        )
    }
}

/// An RR-9 weapon fired, with its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Weapon {
    PressorBeam,
    TractorBeam,
    MiniHowitzer,
    Scrambler,
    RadioControl,
    /// Fire Control jamming the target's register `register` (1-based).
    Jam {
        register: u8,
    },
    /// Fire Control destroying the target's option `option`.
    Wreck {
        option: OptionCard,
    },
}

impl Weapon {
    /// The weapon of an option card that takes no argument (all but Fire Control).
    const fn plain(o: OptionCard) -> Option<Weapon> {
        Some(match o {
            OptionCard::PressorBeam => Weapon::PressorBeam,
            OptionCard::TractorBeam => Weapon::TractorBeam,
            OptionCard::MiniHowitzer => Weapon::MiniHowitzer,
            OptionCard::Scrambler => Weapon::Scrambler,
            OptionCard::RadioControl => Weapon::RadioControl,
            _ => return None,
        })
    }
    const fn card(self) -> OptionCard {
        match self {
            Weapon::PressorBeam => OptionCard::PressorBeam,
            Weapon::TractorBeam => OptionCard::TractorBeam,
            Weapon::MiniHowitzer => OptionCard::MiniHowitzer,
            Weapon::Scrambler => OptionCard::Scrambler,
            Weapon::RadioControl => OptionCard::RadioControl,
            Weapon::Jam { .. } | Weapon::Wreck { .. } => OptionCard::FireControl,
        }
    }
}

impl RoboRally {
    /// Run `f` so that whatever it adds to `pending` comes before the questions already waiting
    /// (the effect of an answer is settled before the next question).
    pub(crate) fn in_front(&mut self, f: impl FnOnce(&mut RoboRally)) {
        let rest = std::mem::take(&mut self.pending);
        f(self);
        self.pending.extend(rest);
    }

    /// Power-Down Shield, then Ablative Coat: the points of a hit that these cards absorb
    /// (automatically, before RR-7.4's question). Returns the points left.
    pub(crate) fn option_soak(
        &mut self,
        i: usize,
        mut points: u8,
        source: Shooter,
        events: &mut impl Sink,
    ) -> u8 {
        let seat = self.robots[i].seat;
        if self.robots[i].powered_down
            && self.robots[i].has(OptionCard::PowerDownShield)
            && let Some(side) = self.damage_side(i, source)
        {
            let bit = 1u8 << side.index();
            if self.robots[i].opt.shielded & bit == 0 {
                self.robots[i].opt.shielded |= bit;
                points -= 1;
                events.push(Event::OptionAbsorbed {
                    seat,
                    option: OptionCard::PowerDownShield,
                    points: 1,
                });
            }
        }
        if points > 0 && self.robots[i].has(OptionCard::AblativeCoat) {
            let r = &mut self.robots[i];
            let soak = points.min(ABLATIVE_POINTS - r.opt.ablative);
            r.opt.ablative += soak;
            points -= soak;
            events.push(Event::OptionAbsorbed {
                seat,
                option: OptionCard::AblativeCoat,
                points: soak,
            });
            if self.robots[i].opt.ablative >= ABLATIVE_POINTS {
                self.discard_option(i, OptionCard::AblativeCoat, events);
            }
        }
        points
    }

    /// The side of robot `i` a damage point comes from (for Power-Down Shield).
    fn damage_side(&self, i: usize, source: Shooter) -> Option<SqDir> {
        let at = self.robots[i].cell()?;
        match source {
            Shooter::Board { at: from } if from == at => {
                self.board.lasers.iter().find(|l| l.at == from).map(|l| l.dir.opposite())
            }
            Shooter::Board { at: from } => at.line_to(from).map(|(d, _)| d),
            Shooter::Robot { seat } | Shooter::Rear { seat } => {
                at.line_to(self.robots.get(seat.index())?.cell()?).map(|(d, _)| d)
            }
            Shooter::Recompile { .. } => None,
        }
    }

    /// The weapons robot `shooter` may fire at `target` instead of its main laser's damage.
    pub(crate) fn weapons_for(&self, shooter: usize, target: usize) -> Vec<OptionCard> {
        let s = &self.robots[shooter];
        if s.options.is_empty() {
            return Vec::new();
        }
        let t = &self.robots[target];
        let (Some(sa), Some(ta)) = (s.cell(), t.cell()) else { return Vec::new() };
        let register = self.register().unwrap_or(5);
        OptionCard::WEAPONS
            .into_iter()
            .filter(|&w| s.has(w))
            .filter(|&w| match w {
                OptionCard::TractorBeam => sa.manhattan(ta) > 1,
                OptionCard::Scrambler => {
                    register < 5
                        && t.registers[register as usize].is_some()
                        && !t.locked(register as usize)
                }
                _ => true,
            })
            .collect()
    }

    /// Brakes (Move 1), Fourth Gear (Move 3), Reverse Gears (Back Up): the option robot `i`
    /// may use on `card`.
    pub(crate) fn move_option_for(&self, i: usize, card: Card) -> Option<OptionCard> {
        let r = &self.robots[i];
        if r.options.is_empty() {
            return None;
        }
        let o = match card.card {
            CardKind::Move1 => OptionCard::Brakes,
            CardKind::Move3 => OptionCard::FourthGear,
            CardKind::Backup => OptionCard::ReverseGear,
            _ => return None,
        };
        r.has(o).then_some(o)
    }

    /// Ramming Gear: robot `i` stepping towards `dir` bumps or pushes the robot ahead, which
    /// takes 1 damage.
    pub(crate) fn ram(&mut self, i: usize, dir: SqDir, events: &mut impl Sink) {
        let Some(at) = self.robots[i].cell() else { return };
        if self.board.wall(at, dir) {
            return;
        }
        if let Some(j) = self.robot_at(at.neighbour(dir)) {
            let seat = self.robots[i].seat;
            events.push(Event::OptionUsed { seat, option: OptionCard::RammingGear });
            self.damage(j, 1, Shooter::Robot { seat }, events);
        }
    }

    /// Mechanical Arm: the flags and repair sites robot `i` may touch (its own cell first, then
    /// the cells of [`RoboRally::reach`]); empty for a robot without the arm or off the board.
    pub(crate) fn arm_sites(&self, i: usize) -> Vec<Sq> {
        let r = &self.robots[i];
        if r.options.is_empty() || !r.has(OptionCard::MechanicalArm) {
            return Vec::new();
        }
        self.reach(i).into_iter().filter(|&c| self.board.repairs(c)).collect()
    }

    /// Mechanical Arm with no question (one site in reach, or none): the site touched.
    pub(crate) fn arm_default(&self, i: usize) -> Option<Sq> {
        let sites = self.arm_sites(i);
        (sites.len() == 1).then(|| sites[0])
    }

    /// Before the checkpoint step of `register`: every robot whose Mechanical Arm reaches two
    /// sites or more (its own cell included) is asked which one it touches, start dock 1 first
    /// (the booklet's order for option cards). Returns true when a question waits.
    pub(crate) fn ask_arm(&mut self, register: u8) -> bool {
        if self.arm_asked == Some(register) {
            self.arm_asked = None;
            return false;
        }
        let mut askers: Vec<(u8, usize)> = (0..self.robots.len())
            .filter(|&i| self.arm_sites(i).len() >= 2)
            .map(|i| (self.robots[i].dock, i))
            .collect();
        if askers.is_empty() {
            return false;
        }
        askers.sort_unstable();
        self.pending.extend(askers.into_iter().map(|(_, robot)| Pending::Arm { robot }));
        self.arm_asked = Some(register);
        true
    }

    /// Mechanical Arm: the cells robot `i` reaches: its own, then the 8 around it (N, E, S, W,
    /// then NE, SE, SW, NW) with no wall in between (a diagonal needs one wall-free
    /// two-step path around the corner).
    pub(crate) fn reach(&self, i: usize) -> Vec<Sq> {
        let Some(at) = self.robots[i].cell() else { return Vec::new() };
        let mut v = vec![at];
        if !self.robots[i].has(OptionCard::MechanicalArm) {
            return v;
        }
        for d in SqDir::ALL {
            if !self.board.wall(at, d) && self.board.on_board(at.neighbour(d)) {
                v.push(at.neighbour(d));
            }
        }
        for k in 0..4 {
            let (a, b) = (SqDir::ALL[k], SqDir::ALL[(k + 1) % 4]);
            let corner = at.neighbour(a).neighbour(b);
            let via = |p: SqDir, q: SqDir| {
                let mid = at.neighbour(p);
                !self.board.wall(at, p) && self.board.on_board(mid) && !self.board.wall(mid, q)
            };
            if self.board.on_board(corner) && (via(a, b) || via(b, a)) {
                v.push(corner);
            }
        }
        v
    }

    /// Gyroscopic Stabilizer: gears and turning belts leave robot `i` as it faces.
    #[inline]
    pub(crate) fn stabilized(&self, i: usize) -> bool {
        let r = &self.robots[i];
        !r.options.is_empty() && r.has(OptionCard::GyroscopicStabilizer) && r.opt.stabilizer_on
    }

    /// Circuit Breaker at the end of the turn: 3 or more damage powers the robot down next turn.
    pub(crate) fn circuit_breakers(&mut self, events: &mut impl Sink) {
        for r in &mut self.robots {
            if r.cell().is_some()
                && r.damage >= 3
                && !r.power_down_next
                && r.has(OptionCard::CircuitBreaker)
            {
                r.power_down_next = true;
                events.push(Event::OptionUsed { seat: r.seat, option: OptionCard::CircuitBreaker });
                events.push(Event::PowerDownAnnounced { seat: r.seat });
            }
        }
    }

    /// The option uses without argument a seat may send while it owes a program (Recompile).
    pub(crate) fn program_uses(&self, i: usize) -> Vec<OptionCard> {
        let r = &self.robots[i];
        let mut v = Vec::new();
        if r.has(OptionCard::Recompile)
            && !r.opt.recompiled
            && r.damage < 9
            && !Self::loaded_after_programming(r)
        {
            v.push(OptionCard::Recompile);
        }
        v
    }

    /// Flywheel or Conditional Program holds a card loaded this turn (while programming, the
    /// only cards there are this turn's: a kept Flywheel card joined the hand at the deal).
    fn loaded_after_programming(r: &crate::Robot) -> bool {
        r.stash.flywheel.is_some() || r.stash.conditional.is_some()
    }

    /// Check a `use_option` action from robot `i` (which owes a program or a `use_option`
    /// answer) without changing anything: the validated use, for [`RoboRally::apply_use`].
    pub(crate) fn check_use(
        &self,
        i: usize,
        option: Option<OptionCard>,
        register: Option<u8>,
        destroy: Option<OptionCard>,
        card: Option<Card>,
        at: Option<Sq>,
    ) -> Result<OptionUse, ActionError> {
        use ActionError as E;
        let r = &self.robots[i];
        // While programming, unless this seat's own question (RR-7.4 for Recompile) waits.
        if matches!(self.phase, Phase::Program { .. })
            && self.pending.front().is_none_or(|p| p.robot() != i)
        {
            let Some(o) = option else { return Err(E::OptionMissing) };
            if !r.has(o) {
                return Err(E::OptionNotHeld);
            }
            if destroy.is_some() || at.is_some() {
                return Err(E::OptionExtraArgument);
            }
            if let Some(c) = card
                && !r.hand.contains(&c)
            {
                return Err(E::CardNotInHand { priority: c.priority });
            }
            // Only a spare card: the hand must still fill every unlocked register.
            let spare = r.hand.len() > (0..5).filter(|&k| !r.locked(k)).count();
            match o {
                OptionCard::CrabLegs | OptionCard::DualProcessor => {
                    let Some(n) = register else { return Err(E::OptionRegisterRequired) };
                    if !(1..=5).contains(&n) {
                        return Err(E::RegisterOutOfRange { register: n });
                    }
                    let k = n as usize - 1;
                    return match card {
                        None if r.stash.side[k].is_some_and(|(x, _)| x == o) => {
                            Ok(OptionUse::TakeBack { option: o, k })
                        }
                        None => Err(E::OptionNothingOnIt),
                        Some(_) if r.locked(k) => Err(E::RegisterLocked { register: n }),
                        Some(_) if r.stash.side[k].is_some() => Err(E::OptionAlreadyUsed),
                        Some(c) if o == OptionCard::CrabLegs && c.card != CardKind::Move1 => {
                            Err(E::OptionCardUnfit)
                        }
                        Some(_) if !spare => Err(E::OptionNoSpareCard),
                        Some(card) => Ok(OptionUse::Combine { option: o, k, card }),
                    };
                }
                OptionCard::Flywheel | OptionCard::ConditionalProgram => {
                    let held = if o == OptionCard::Flywheel {
                        r.stash.flywheel
                    } else {
                        r.stash.conditional
                    };
                    return match card {
                        _ if register.is_some() => Err(E::OptionExtraArgument),
                        None => Err(E::OptionCardRequired),
                        Some(_) if held.is_some() => Err(E::OptionAlreadyUsed),
                        Some(_) if !spare => Err(E::OptionNoSpareCard),
                        Some(card) => Ok(OptionUse::Keep { option: o, card }),
                    };
                }
                _ => {}
            }
            if register.is_some() || card.is_some() {
                return Err(E::OptionExtraArgument);
            }
            return match o {
                OptionCard::Recompile if r.opt.recompiled => Err(E::OptionAlreadyUsed),
                OptionCard::AbortSwitch if r.opt.aborted => Err(E::OptionAlreadyUsed),
                OptionCard::Recompile if r.damage >= 9 => Err(E::RecompileTooDamaged),
                OptionCard::Recompile if Self::loaded_after_programming(r) => {
                    Err(E::RecompileAfterLoading)
                }
                OptionCard::Recompile => Ok(OptionUse::Recompile),
                _ => Err(E::OptionWrongTime),
            };
        }
        let Some(p) = self.pending.front() else { return Err(E::NotYourDecision) };
        if card.is_some() {
            return Err(E::OptionExtraArgument);
        }
        if let Some(o) = option
            && !r.has(o)
        {
            return Err(E::OptionNotHeld);
        }
        if at.is_some() && !matches!(p, Pending::Arm { .. }) {
            return Err(E::OptionExtraArgument);
        }
        let bare = register.is_none() && destroy.is_none();
        match *p {
            Pending::Stabilizer { .. } => match option {
                _ if !bare => Err(E::OptionExtraArgument),
                None => Ok(OptionUse::RevealDeclined),
                Some(OptionCard::GyroscopicStabilizer) => Ok(OptionUse::StabilizerOn),
                Some(_) => Err(E::OptionWrongTime),
            },
            Pending::Arm { .. } => match (option, at) {
                _ if !bare => Err(E::OptionExtraArgument),
                (None, None) => Ok(OptionUse::Arm { at: None }),
                (None, Some(_)) => Err(E::OptionExtraArgument),
                (Some(OptionCard::MechanicalArm), None) => Err(E::OptionTargetRequired),
                (Some(OptionCard::MechanicalArm), Some(c)) if self.arm_sites(i).contains(&c) => {
                    Ok(OptionUse::Arm { at: Some(c) })
                }
                (Some(OptionCard::MechanicalArm), Some(c)) => Err(E::ArmOutOfReach { at: c }),
                (Some(_), _) => Err(E::OptionWrongTime),
            },
            Pending::MoveOption { option: asked, .. } => match option {
                Some(o) if o != asked => Err(E::OptionWrongTime),
                _ if !bare => Err(E::OptionExtraArgument),
                used => Ok(OptionUse::MoveAnswer { used }),
            },
            Pending::Weapon { target, points, .. } => {
                let Some(o) = option else {
                    return if bare {
                        Ok(OptionUse::WeaponDeclined { target, points })
                    } else {
                        Err(E::OptionExtraArgument)
                    };
                };
                if !OptionCard::WEAPONS.contains(&o) {
                    return Err(E::OptionWrongTime);
                }
                if !self.weapons_for(i, target).contains(&o) {
                    return Err(match o {
                        OptionCard::TractorBeam => E::TargetAdjacent,
                        OptionCard::Scrambler => E::NoCardToScramble,
                        _ => E::OptionConditionUnmet,
                    });
                }
                let t = &self.robots[target];
                let fire_control = o == OptionCard::FireControl;
                let weapon = match (register, destroy) {
                    (Some(k), None) if fire_control && (1..=5).contains(&k) => {
                        Weapon::Jam { register: k }
                    }
                    (Some(k), None) if fire_control => {
                        return Err(E::RegisterOutOfRange { register: k });
                    }
                    (None, Some(d)) if fire_control && t.has(d) => Weapon::Wreck { option: d },
                    (None, Some(_)) if fire_control => return Err(E::OptionNotHeld),
                    (None, None) if fire_control => return Err(E::OptionTargetRequired),
                    (None, None) => Weapon::plain(o).ok_or(E::OptionWrongTime)?,
                    _ => return Err(E::OptionExtraArgument),
                };
                Ok(OptionUse::Weapon { target, weapon })
            }
            Pending::Reveal { register: n, .. } => {
                let k = n as usize - 1;
                let usable = |o: OptionCard| self.reveal_uses(i, n).contains(&o);
                match option {
                    _ if !bare => Err(E::OptionExtraArgument),
                    None => Ok(OptionUse::RevealDeclined),
                    Some(OptionCard::ConditionalProgram)
                        if usable(OptionCard::ConditionalProgram) =>
                    {
                        Ok(OptionUse::Conditional { k })
                    }
                    Some(OptionCard::AbortSwitch) if usable(OptionCard::AbortSwitch) => {
                        Ok(OptionUse::Abort { k })
                    }
                    Some(OptionCard::AbortSwitch) if r.opt.aborted => Err(E::OptionAlreadyUsed),
                    Some(OptionCard::ConditionalProgram) if r.stash.conditional.is_none() => {
                        Err(E::OptionNothingOnIt)
                    }
                    Some(OptionCard::AbortSwitch | OptionCard::ConditionalProgram) => {
                        Err(E::OptionConditionUnmet)
                    }
                    Some(_) => Err(E::OptionWrongTime),
                }
            }
            Pending::Damage { .. } | Pending::LoseOption { .. } => {
                Err(E::WrongAction { expected: "discard_option" })
            }
        }
    }

    /// Apply a use validated by [`RoboRally::check_use`]. An answer to an option question
    /// takes the question off the queue.
    pub(crate) fn apply_use(&mut self, i: usize, used: OptionUse, events: &mut impl Sink) {
        let seat = self.robots[i].seat;
        if used.answers() {
            self.pending.pop_front();
        }
        match used {
            OptionUse::Combine { option, k, card } => {
                let r = &mut self.robots[i];
                r.hand.retain(|&h| h != card);
                let back = r.stash.side[k].replace((option, card)).map(|(_, c)| c);
                r.hand.extend(back);
                events.push(Event::OptionUsed { seat, option });
                let register = Some(k as u8 + 1);
                events.push(Event::Stashed { seat, option, register, card: Some(card) });
            }
            OptionUse::TakeBack { option, k } => {
                let r = &mut self.robots[i];
                let back = r.stash.side[k].take().map(|(_, c)| c);
                r.hand.extend(back);
                events.push(Event::OptionUsed { seat, option });
                let register = Some(k as u8 + 1);
                events.push(Event::Stashed { seat, option, register, card: None });
            }
            OptionUse::Keep { option, card } => {
                let r = &mut self.robots[i];
                r.hand.retain(|&h| h != card);
                let kept = if option == OptionCard::Flywheel {
                    &mut r.stash.flywheel
                } else {
                    &mut r.stash.conditional
                };
                let back = kept.replace(card);
                r.hand.extend(back);
                events.push(Event::OptionUsed { seat, option });
                events.push(Event::Stashed { seat, option, register: None, card: Some(card) });
            }
            OptionUse::Recompile => {
                let r = &mut self.robots[i];
                r.opt.recompiled = true;
                let old = std::mem::take(&mut r.hand);
                self.deck.discard_all(old);
                // Cards of the old hand put with registers (Crab Legs, Dual Processor) go with
                // it: the whole hand dealt is thrown away (a decision, see the docs).
                let r = &mut self.robots[i];
                let mut side = Vec::new();
                for k in 0..5 {
                    if let Some((option, c)) = r.stash.side[k].take() {
                        side.push(c);
                        let register = Some(k as u8 + 1);
                        events.push(Event::Stashed { seat, option, register, card: None });
                    }
                }
                self.deck.discard_all(side);
                let n = self.robots[i].cards_to_deal();
                let hand = self.deck.deal(n);
                events.push(Event::OptionUsed { seat, option: OptionCard::Recompile });
                events.push(Event::Dealt { seat, count: hand.len() });
                events.push(Event::Hand { seat, cards: crate::event::hand_cards(&hand) });
                let r = &mut self.robots[i];
                r.hand_size = hand.len() as u8;
                r.hand = hand;
                // The price of the card is damage like any other (amended RR-9): Ablative Coat
                // absorbs it and RR-7.4's discard is offered for it.
                self.damage(i, 1, Shooter::Recompile { seat }, events);
            }
            OptionUse::StabilizerOn => {
                self.robots[i].opt.stabilizer_on = true;
                events.push(Event::OptionUsed { seat, option: OptionCard::GyroscopicStabilizer });
            }
            OptionUse::Arm { at } => {
                // Read by the checkpoint step; `None` leaves only the site under the robot.
                let own = self.robots[i].cell().filter(|&c| self.board.repairs(c));
                self.robots[i].opt.arm_choice = Some(at.or(own));
            }
            OptionUse::MoveAnswer { used } => {
                self.move_answer = Some(used.is_some());
                if let Some(option) = used {
                    events.push(Event::OptionUsed { seat, option });
                }
            }
            OptionUse::WeaponDeclined { target, points } => {
                let by = Shooter::Robot { seat };
                self.in_front(|g| g.damage(target, points, by, events));
            }
            OptionUse::Weapon { target, weapon } => self.fire(i, target, weapon, events),
            OptionUse::RevealDeclined => {}
            OptionUse::Conditional { k } => {
                let r = &mut self.robots[i];
                let new = r.stash.conditional.take();
                let old = std::mem::replace(&mut r.registers[k], new);
                self.deck.discard_all(old);
                events.push(Event::OptionUsed { seat, option: OptionCard::ConditionalProgram });
            }
            OptionUse::Abort { k } => {
                self.robots[i].opt.aborted = true;
                events.push(Event::OptionUsed { seat, option: OptionCard::AbortSwitch });
                for j in k..5 {
                    if self.robots[i].locked(j) || self.robots[i].registers[j].is_none() {
                        continue;
                    }
                    let Some(new) = self.deck.top(&mut self.rng) else { continue };
                    let old = self.robots[i].registers[j].replace(new);
                    self.deck.discard_all(old);
                }
            }
        }
    }

    /// Robot `i` fires `weapon` at robot `target` instead of its main laser's damage.
    fn fire(&mut self, i: usize, target: usize, weapon: Weapon, events: &mut impl Sink) {
        let seat = self.robots[i].seat;
        let by = Shooter::Robot { seat };
        events.push(Event::OptionUsed { seat, option: weapon.card() });
        let (Some(sa), Some(ta)) = (self.robots[i].cell(), self.robots[target].cell()) else {
            return;
        };
        let away = sa.line_to(ta).map(|(d, _)| d);
        self.in_front(|g| match weapon {
            Weapon::PressorBeam => {
                if let Some(d) = away {
                    g.step(target, d, Cause::Push, events);
                }
            }
            Weapon::TractorBeam => {
                if let Some(d) = away {
                    g.step(target, d.opposite(), Cause::Push, events);
                }
            }
            Weapon::MiniHowitzer => {
                if let Some(d) = away {
                    g.step(target, d, Cause::Push, events);
                }
                g.robots[i].opt.howitzer += 1;
                if g.robots[i].opt.howitzer >= HOWITZER_SHOTS {
                    g.discard_option(i, OptionCard::MiniHowitzer, events);
                }
                g.damage(target, 1, by, events);
            }
            Weapon::Scrambler => {
                let k = g.register().unwrap_or(5) as usize;
                if k < 5
                    && let Some(old) = g.robots[target].registers[k]
                    && let Some(new) = g.deck.top(&mut g.rng)
                {
                    g.robots[target].registers[k] = Some(new);
                    g.deck.discard_all([old]);
                    events.push(Event::Scrambled {
                        seat: g.robots[target].seat,
                        register: k as u8 + 1,
                    });
                }
            }
            Weapon::RadioControl => {
                g.robots[target].opt.radio = Some(seat);
                events.push(Event::RadioControlled { seat: g.robots[target].seat, by: seat });
            }
            Weapon::Jam { register } => {
                let before = g.robots[target].lock_mask();
                g.robots[target].opt.jammed[register as usize - 1] = 2;
                let tseat = g.robots[target].seat;
                events.push(Event::RegisterJammed { seat: tseat, register });
                // Amended RR-9: an empty register (a powered-down robot's) that becomes locked
                // is filled from the deck.
                g.fill_new_locks(target, before, events);
            }
            Weapon::Wreck { option } => g.discard_option(target, option, events),
        });
    }

    /// Conditional Program / Abort Switch: what robot `i` may use before register `register`
    /// (1-based) is revealed.
    pub(crate) fn reveal_uses(&self, i: usize, register: u8) -> Vec<OptionCard> {
        let r = &self.robots[i];
        let k = register as usize - 1;
        let mut v = Vec::new();
        if r.options.is_empty()
            || r.cell().is_none()
            || r.powered_down
            || r.registers[k].is_none()
            || r.locked(k)
        {
            return v;
        }
        if r.stash.conditional.is_some() && r.has(OptionCard::ConditionalProgram) {
            v.push(OptionCard::ConditionalProgram);
        }
        if !r.opt.aborted && r.has(OptionCard::AbortSwitch) {
            v.push(OptionCard::AbortSwitch);
        }
        v
    }

    /// Before register `register` is revealed: the seats with a reveal use are asked, start
    /// dock 1 first (the booklet's announcement order). Returns true when a question waits.
    pub(crate) fn ask_reveal(&mut self, register: u8) -> bool {
        if self.reveal_asked == Some(register) {
            self.reveal_asked = None;
            return false;
        }
        // (dock, 0: Gyroscopic Stabilizer before register 1 / 1: reveal uses, robot)
        let mut askers: Vec<(u8, u8, usize)> = Vec::new();
        for (i, r) in self.robots.iter().enumerate() {
            if register == 1 && r.cell().is_some() && r.has(OptionCard::GyroscopicStabilizer) {
                askers.push((r.dock, 0, i));
            }
            if !self.reveal_uses(i, register).is_empty() {
                askers.push((r.dock, 1, i));
            }
        }
        if askers.is_empty() {
            return false;
        }
        askers.sort_unstable();
        self.pending.extend(askers.into_iter().map(|(_, kind, robot)| {
            if kind == 0 {
                Pending::Stabilizer { robot }
            } else {
                Pending::Reveal { robot, register }
            }
        }));
        self.reveal_asked = Some(register);
        true
    }

    /// Crab Legs / Dual Processor: the second card `side` fits the register's card `card`.
    fn side_fits(o: OptionCard, side: Card, card: Card) -> bool {
        match o {
            OptionCard::CrabLegs => {
                side.card == CardKind::Move1
                    && matches!(card.card, CardKind::Left | CardKind::Right)
            }
            _ => (side.turn() == 0) != (card.turn() == 0),
        }
    }

    /// The option uses a seat may send while it owes a program, as actions.
    pub(crate) fn program_use_actions(&self, i: usize) -> Vec<crate::Action> {
        let act = |o, register, card| crate::Action::UseOption {
            option: Some(o),
            register,
            destroy: None,
            card,
            at: None,
        };
        let mut v: Vec<crate::Action> =
            self.program_uses(i).into_iter().map(|o| act(o, None, None)).collect();
        let r = &self.robots[i];
        let spare = r.hand.len() > (0..5).filter(|&k| !r.locked(k)).count();
        for o in [OptionCard::CrabLegs, OptionCard::DualProcessor] {
            if !r.has(o) {
                continue;
            }
            for k in 0..5u8 {
                match r.stash.side[k as usize] {
                    Some((x, _)) if x == o => v.push(act(o, Some(k + 1), None)),
                    Some(_) => {}
                    None if r.locked(k as usize) => {}
                    None if !spare => {}
                    None => v.extend(
                        r.hand
                            .iter()
                            .filter(|c| o != OptionCard::CrabLegs || c.card == CardKind::Move1)
                            .map(|&c| act(o, Some(k + 1), Some(c))),
                    ),
                }
            }
        }
        if spare && r.has(OptionCard::Flywheel) && r.stash.flywheel.is_none() {
            v.extend(r.hand.iter().map(|&c| act(OptionCard::Flywheel, None, Some(c))));
        }
        if spare && r.has(OptionCard::ConditionalProgram) && r.stash.conditional.is_none() {
            v.extend(r.hand.iter().map(|&c| act(OptionCard::ConditionalProgram, None, Some(c))));
        }
        v
    }

    /// The priority of robot `i` in register `k` (0-based): a combined register moves at its
    /// move card's priority.
    #[inline]
    pub(crate) fn side_priority(&self, i: usize, k: usize, card: Card) -> u16 {
        match self.robots[i].stash.side[k] {
            Some((o, c))
                if c.turn() == 0 && self.robots[i].has(o) && Self::side_fits(o, c, card) =>
            {
                c.priority
            }
            _ => card.priority,
        }
    }

    /// Run a combined register (Crab Legs: sidestep; Dual Processor: shorter move, then turn).
    /// Returns false when the register holds no usable second card.
    pub(crate) fn play_side(
        &mut self,
        i: usize,
        k: usize,
        card: Card,
        events: &mut impl Sink,
    ) -> bool {
        let Some((o, side)) = self.robots[i].stash.side[k] else { return false };
        if !self.robots[i].has(o) || !Self::side_fits(o, side, card) {
            return false;
        }
        let seat = self.robots[i].seat;
        events.push(Event::SideRevealed { seat, register: k as u8 + 1, card: side });
        let facing = self.robots[i].facing;
        if o == OptionCard::CrabLegs {
            let dir = facing.turn(card.turn());
            self.step(i, dir, Cause::Card, events);
            return true;
        }
        let (mv, rot) = if side.turn() == 0 { (side, card) } else { (card, side) };
        let less = if rot.card == CardKind::Uturn { 2 } else { 1 };
        let steps = mv.steps();
        let n = (steps.abs() - less).max(0);
        let dir = if steps < 0 { facing.opposite() } else { facing };
        for _ in 0..n {
            if !self.step(i, dir, Cause::Card, events) {
                break;
            }
        }
        if self.robots[i].cell().is_some() {
            self.rotate(i, rot.turn(), Cause::Card, events);
        }
        true
    }

    /// RR-6.1 / Mechanical Arm: the repair site robot `i` uses at clean-up, if any: the one
    /// under it, or with the arm the site it touched at register 5's checkpoint step.
    pub(crate) fn repair_site(&self, i: usize) -> Option<Sq> {
        let at = self.robots[i].cell()?;
        if self.robots[i].has(OptionCard::MechanicalArm) {
            return self.robots[i].opt.arm_touched;
        }
        self.board.repairs(at).then_some(at)
    }

    /// A double repair site (RR-6.1) draws an option.
    pub(crate) fn is_double_site(&self, at: Sq) -> bool {
        self.board.cell(at) == Cell::RepairOption
    }
}
