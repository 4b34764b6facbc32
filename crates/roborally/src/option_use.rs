//! RR-9 Option cards in play: the automatic effects that need a helper (Power-Down Shield,
//! Ablative Coat, Ramming Gear, Mechanical Arm, Circuit Breaker) and the `use_option` decision
//! (weapons instead of laser damage, Brakes / Fourth Gear / Reverse Gears, Recompile and the
//! Gyroscopic Stabilizer switch while programming). `docs/roborally-options.md` is the rule text.

use crate::board::Cell;
use crate::card::{Card, CardKind};
use crate::error::ActionError;
use crate::event::{Cause, Event, Shooter};
use crate::option::{ABLATIVE_POINTS, HOWITZER_SHOTS, OptionCard};
use crate::{Pending, Phase, RoboRally};
use grid::{Sq, SqDir};

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
        events: &mut Vec<Event>,
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
    pub(crate) fn ram(&mut self, i: usize, dir: SqDir, events: &mut Vec<Event>) {
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
        !r.options.is_empty() && r.has(OptionCard::GyroscopicStabilizer) && !r.opt.stabilizer_off
    }

    /// Circuit Breaker at the end of the turn: 3 or more damage powers the robot down next turn.
    pub(crate) fn circuit_breakers(&mut self, events: &mut Vec<Event>) {
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

    /// The option uses a seat may send while it owes a program (Recompile, the stabilizer switch).
    pub(crate) fn program_uses(&self, i: usize) -> Vec<OptionCard> {
        let r = &self.robots[i];
        let mut v = Vec::new();
        if r.has(OptionCard::Recompile) && !r.opt.recompiled && r.damage < 9 {
            v.push(OptionCard::Recompile);
        }
        if r.has(OptionCard::GyroscopicStabilizer) && !r.opt.stabilizer_off {
            v.push(OptionCard::GyroscopicStabilizer);
        }
        v
    }

    /// Check a `use_option` action from robot `i` (which owes a program or a `use_option`
    /// answer) without changing anything.
    pub(crate) fn check_use(
        &self,
        i: usize,
        option: Option<OptionCard>,
        register: Option<u8>,
        destroy: Option<OptionCard>,
        card: Option<Card>,
    ) -> Result<(), ActionError> {
        let r = &self.robots[i];
        if matches!(self.phase, Phase::Program { .. }) && self.pending.is_empty() {
            let Some(o) = option else { return Err(ActionError::OptionNotUsable) };
            if !r.has(o) {
                return Err(ActionError::OptionNotHeld);
            }
            if destroy.is_some() {
                return Err(ActionError::OptionNotUsable);
            }
            if let Some(c) = card
                && !r.hand.contains(&c)
            {
                return Err(ActionError::CardNotInHand { priority: c.priority });
            }
            // Only a spare card: the hand must still fill every unlocked register.
            let spare = r.hand.len() > (0..5).filter(|&k| !r.locked(k)).count();
            match o {
                OptionCard::CrabLegs | OptionCard::DualProcessor => {
                    let Some(k) = register.filter(|k| (1..=5).contains(k)).map(|k| k as usize - 1)
                    else {
                        return Err(ActionError::OptionNotUsable);
                    };
                    return match card {
                        None if r.stash.side[k].is_some_and(|(x, _)| x == o) => Ok(()),
                        None => Err(ActionError::OptionNotUsable),
                        Some(_) if r.locked(k) => {
                            Err(ActionError::RegisterLocked { register: k as u8 + 1 })
                        }
                        Some(_) if r.stash.side[k].is_some() => Err(ActionError::OptionAlreadyUsed),
                        Some(c) if o == OptionCard::CrabLegs && c.card != CardKind::Move1 => {
                            Err(ActionError::OptionNotUsable)
                        }
                        Some(_) if !spare => Err(ActionError::OptionNotUsable),
                        Some(_) => Ok(()),
                    };
                }
                OptionCard::Flywheel | OptionCard::ConditionalProgram => {
                    let held = if o == OptionCard::Flywheel {
                        r.stash.flywheel
                    } else {
                        r.stash.conditional
                    };
                    return match card {
                        _ if register.is_some() => Err(ActionError::OptionNotUsable),
                        None => Err(ActionError::OptionNotUsable),
                        Some(_) if held.is_some() => Err(ActionError::OptionAlreadyUsed),
                        Some(_) if !spare => Err(ActionError::OptionNotUsable),
                        Some(_) => Ok(()),
                    };
                }
                _ => {}
            }
            if register.is_some() || card.is_some() {
                return Err(ActionError::OptionNotUsable);
            }
            return match o {
                OptionCard::Recompile if r.opt.recompiled => Err(ActionError::OptionAlreadyUsed),
                OptionCard::AbortSwitch if r.opt.aborted => Err(ActionError::OptionAlreadyUsed),
                OptionCard::Recompile if r.damage >= 9 => Err(ActionError::OptionNotUsable),
                OptionCard::GyroscopicStabilizer if r.opt.stabilizer_off => {
                    Err(ActionError::OptionAlreadyUsed)
                }
                OptionCard::Recompile | OptionCard::GyroscopicStabilizer => Ok(()),
                _ => Err(ActionError::OptionWrongTime),
            };
        }
        let Some(p) = self.pending.front() else { return Err(ActionError::NotYourDecision) };
        if card.is_some() {
            return Err(ActionError::OptionNotUsable);
        }
        if let Some(o) = option
            && !r.has(o)
        {
            return Err(ActionError::OptionNotHeld);
        }
        match *p {
            Pending::MoveOption { option: asked, .. } => match option {
                None if register.is_none() && destroy.is_none() => Ok(()),
                Some(o) if o == asked && register.is_none() && destroy.is_none() => Ok(()),
                Some(_) => Err(ActionError::OptionWrongTime),
                None => Err(ActionError::OptionNotUsable),
            },
            Pending::Weapon { target, .. } => {
                let Some(o) = option else {
                    return if register.is_none() && destroy.is_none() {
                        Ok(())
                    } else {
                        Err(ActionError::OptionNotUsable)
                    };
                };
                if !self.weapons_for(i, target).contains(&o) {
                    return Err(if OptionCard::WEAPONS.contains(&o) {
                        ActionError::OptionNotUsable
                    } else {
                        ActionError::OptionWrongTime
                    });
                }
                let t = &self.robots[target];
                match (o, register, destroy) {
                    (OptionCard::FireControl, Some(k), None) if (1..=5).contains(&k) => Ok(()),
                    (OptionCard::FireControl, None, Some(d)) if t.has(d) => Ok(()),
                    (OptionCard::FireControl, None, Some(_)) => Err(ActionError::OptionNotHeld),
                    (OptionCard::FireControl, _, _) => Err(ActionError::OptionNotUsable),
                    (_, None, None) => Ok(()),
                    _ => Err(ActionError::OptionNotUsable),
                }
            }
            Pending::Reveal { register: k, .. } => match option {
                _ if register.is_some() || destroy.is_some() => Err(ActionError::OptionNotUsable),
                None => Ok(()),
                Some(o) if self.reveal_uses(i, k).contains(&o) => Ok(()),
                Some(OptionCard::AbortSwitch) if r.opt.aborted => {
                    Err(ActionError::OptionAlreadyUsed)
                }
                Some(OptionCard::AbortSwitch | OptionCard::ConditionalProgram) => {
                    Err(ActionError::OptionNotUsable)
                }
                Some(_) => Err(ActionError::OptionWrongTime),
            },
            Pending::Damage { .. } | Pending::LoseOption { .. } => {
                Err(ActionError::WrongAction { expected: "discard_option" })
            }
        }
    }

    /// Apply a checked `use_option`.
    pub(crate) fn apply_use(
        &mut self,
        i: usize,
        option: Option<OptionCard>,
        register: Option<u8>,
        destroy: Option<OptionCard>,
        card: Option<Card>,
        events: &mut Vec<Event>,
    ) {
        let seat = self.robots[i].seat;
        if matches!(self.phase, Phase::Program { .. }) && self.pending.is_empty() {
            match option {
                Some(
                    o @ (OptionCard::CrabLegs
                    | OptionCard::DualProcessor
                    | OptionCard::Flywheel
                    | OptionCard::ConditionalProgram),
                ) => {
                    let r = &mut self.robots[i];
                    if let Some(c) = card {
                        r.hand.retain(|&h| h != c);
                    }
                    let back = match (o, register) {
                        (OptionCard::Flywheel, _) => {
                            r.stash.flywheel.replace(card.expect("checked"))
                        }
                        (OptionCard::ConditionalProgram, _) => {
                            r.stash.conditional.replace(card.expect("checked"))
                        }
                        (_, Some(k)) => std::mem::replace(
                            &mut r.stash.side[k as usize - 1],
                            card.map(|c| (o, c)),
                        )
                        .map(|(_, c)| c),
                        _ => None,
                    };
                    r.hand.extend(back);
                    events.push(Event::OptionUsed { seat, option: o });
                    events.push(Event::Stashed { seat, option: o, register, card });
                }
                Some(OptionCard::Recompile) => {
                    let r = &mut self.robots[i];
                    r.opt.recompiled = true;
                    let old = std::mem::take(&mut r.hand);
                    self.deck.discard_all(old);
                    let n = self.robots[i].cards_to_deal();
                    let hand = self.deck.deal(n);
                    events.push(Event::OptionUsed { seat, option: OptionCard::Recompile });
                    events.push(Event::Dealt { seat, count: hand.len() });
                    events.push(Event::Hand { seat, cards: hand.clone() });
                    let r = &mut self.robots[i];
                    r.hand_size = hand.len() as u8;
                    r.hand = hand;
                    // The price of the card: not preventable (a decision, see the docs).
                    self.take_damage(i, 1, events);
                }
                Some(OptionCard::GyroscopicStabilizer) => {
                    self.robots[i].opt.stabilizer_off = true;
                    events
                        .push(Event::OptionUsed { seat, option: OptionCard::GyroscopicStabilizer });
                }
                _ => {}
            }
            return;
        }
        let Some(p) = self.pending.pop_front() else { return };
        match p {
            Pending::MoveOption { .. } => {
                self.move_answer = Some(option.is_some());
                if let Some(o) = option {
                    events.push(Event::OptionUsed { seat, option: o });
                }
            }
            Pending::Weapon { target, points, .. } => {
                let by = Shooter::Robot { seat };
                let Some(o) = option else {
                    self.in_front(|g| g.damage(target, points, by, events));
                    return;
                };
                events.push(Event::OptionUsed { seat, option: o });
                let (Some(sa), Some(ta)) = (self.robots[i].cell(), self.robots[target].cell())
                else {
                    return;
                };
                let away = sa.line_to(ta).map(|(d, _)| d);
                self.in_front(|g| match o {
                    OptionCard::PressorBeam => {
                        if let Some(d) = away {
                            g.step(target, d, Cause::Push, events);
                        }
                    }
                    OptionCard::TractorBeam => {
                        if let Some(d) = away {
                            g.step(target, d.opposite(), Cause::Push, events);
                        }
                    }
                    OptionCard::MiniHowitzer => {
                        if let Some(d) = away {
                            g.step(target, d, Cause::Push, events);
                        }
                        g.robots[i].opt.howitzer += 1;
                        if g.robots[i].opt.howitzer >= HOWITZER_SHOTS {
                            g.discard_option(i, OptionCard::MiniHowitzer, events);
                        }
                        g.damage(target, 1, by, events);
                    }
                    OptionCard::Scrambler => {
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
                    OptionCard::RadioControl => {
                        g.robots[target].opt.radio = Some(seat);
                        events
                            .push(Event::RadioControlled { seat: g.robots[target].seat, by: seat });
                    }
                    OptionCard::FireControl => {
                        let tseat = g.robots[target].seat;
                        if let Some(k) = register {
                            g.robots[target].opt.jammed[k as usize - 1] = 2;
                            events.push(Event::RegisterJammed { seat: tseat, register: k });
                        } else if let Some(d) = destroy {
                            g.discard_option(target, d, events);
                        }
                    }
                    _ => {}
                });
            }
            Pending::Reveal { register, .. } => {
                let k = register as usize - 1;
                match option {
                    Some(OptionCard::ConditionalProgram) => {
                        let r = &mut self.robots[i];
                        let new = r.stash.conditional.take();
                        let old = std::mem::replace(&mut r.registers[k], new);
                        self.deck.discard_all(old);
                        events.push(Event::OptionUsed {
                            seat,
                            option: OptionCard::ConditionalProgram,
                        });
                    }
                    Some(OptionCard::AbortSwitch) => {
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
                    _ => {}
                }
            }
            Pending::Damage { .. } | Pending::LoseOption { .. } => {}
        }
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
        let mut askers: Vec<(u8, usize)> = (0..self.robots.len())
            .filter(|&i| !self.reveal_uses(i, register).is_empty())
            .map(|i| (self.robots[i].dock, i))
            .collect();
        if askers.is_empty() {
            return false;
        }
        askers.sort_unstable();
        self.pending
            .extend(askers.into_iter().map(|(_, robot)| Pending::Reveal { robot, register }));
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
        events: &mut Vec<Event>,
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

    /// Mechanical Arm / own cell: the repair site robot `i` uses at clean-up, if any.
    pub(crate) fn repair_site(&self, i: usize) -> Option<Sq> {
        let at = self.robots[i].cell()?;
        if self.board.repairs(at) {
            return Some(at);
        }
        if !self.robots[i].has(OptionCard::MechanicalArm) {
            return None;
        }
        self.reach(i).into_iter().find(|&c| self.board.repairs(c))
    }

    /// A double repair site (RR-6.1) draws an option.
    pub(crate) fn is_double_site(&self, at: Sq) -> bool {
        self.board.cell(at) == Cell::RepairOption
    }
}
