//! `engine::Game` for [`RoboRally`]: decisions, atomic `apply`, `time_up`, legal actions,
//! views and determinization.

use crate::error::ActionError;
use crate::event::{Event, NoEvents, Sink};
use crate::option::OptionCard;
use crate::option_use::OptionUse;
use crate::setup::Setup;
use crate::view::{BoardView, Static, View};
use crate::{Action, Pending, Phase, RoboRally};
use engine::{Clock, Decision, Game, Observer, Outcome, Rng, Seat, SeatSet, SetupError};
use grid::SqDir;

impl Game for RoboRally {
    const NAME: &'static str = "roborally";
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type Error = ActionError;
    type View = View;
    type Static = Static;

    fn new(setup: &Setup, seed: u64) -> Result<Self, SetupError> {
        let mut g = RoboRally::from_setup(setup, seed)?;
        g.play_on(&mut NoEvents);
        Ok(g)
    }

    fn seats(&self) -> usize {
        self.robots.len()
    }

    fn decision(&self) -> Option<Decision> {
        let set = |owes: &[bool]| {
            owes.iter()
                .enumerate()
                .filter(|(_, o)| **o)
                .map(|(i, _)| Seat(i as u8))
                .collect::<SeatSet>()
        };
        if let Some(p) = self.pending.front() {
            let seat = self.robots[p.robot()].seat;
            // RR-7.4 for Recompile's damage while programming: that seat answers while the
            // others go on programming (in secret, as before).
            if let Phase::Program { owes } = &self.phase {
                let mut all = set(owes);
                all.insert(seat);
                return Some(Decision::Simultaneous(all));
            }
            return Some(Decision::One(seat));
        }
        match &self.phase {
            Phase::Over => None,
            Phase::StayDown { owes, .. } | Phase::Program { owes } => {
                Some(Decision::Simultaneous(set(owes)))
            }
            Phase::Reenter { queue } => {
                queue.first().map(|&i| Decision::One(self.robots[usize::from(i)].seat))
            }
            Phase::Execute { .. } => None,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| self.ranking())
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.apply_to(seat, action, events)
    }

    fn time_up(&mut self, events: &mut Vec<Event>) -> Result<(), ActionError> {
        let Some(decision) = self.decision() else { return Err(ActionError::GameOver) };
        let mut g = self.clone();
        let mut rng = g.rng.fork();
        let (turn, phase) = (g.turn, std::mem::discriminant(&g.phase));
        let mut out = Vec::new();
        for seat in decision.seats().iter() {
            if g.turn != turn
                || std::mem::discriminant(&g.phase) != phase
                || !g.decision().is_some_and(|d| d.owes(seat))
            {
                break;
            }
            let action = g.default_action(seat.index(), &mut rng);
            g.apply(seat, &action, &mut out)?;
            // While programming, a seat that first answered RR-7.4's question for its
            // Recompile still owes its program: that comes now too.
            if matches!(g.phase, Phase::Program { .. })
                && g.turn == turn
                && g.owed(seat) == Some(Owed::Program)
            {
                let action = g.default_action(seat.index(), &mut rng);
                g.apply(seat, &action, &mut out)?;
            }
        }
        *self = g;
        events.append(&mut out);
        Ok(())
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let Some(kind) = self.owed(seat) else { return Vec::new() };
        let i = seat.index();
        match kind {
            Owed::Program => {
                let downs: &[bool] =
                    if self.robots[i].damage > 0 { &[false, true] } else { &[false] };
                let progs = self.all_programs(i);
                let mut v: Vec<Action> = downs
                    .iter()
                    .flat_map(|&d| {
                        progs
                            .iter()
                            .map(move |&r| Action::Program { registers: r, power_down_next: d })
                    })
                    .collect();
                v.extend(self.program_use_actions(i));
                v.extend(self.place_actions(i));
                v
            }
            Owed::StayDown => {
                vec![Action::StayDown { value: false }, Action::StayDown { value: true }]
            }
            Owed::Reenter => self
                .reentry_moves(i)
                .into_iter()
                .flat_map(|(at, facing)| {
                    [false, true].map(|p| Action::Reenter { at, facing, powered_down: p })
                })
                .collect(),
            Owed::UseOption => match self.pending.front() {
                Some(&Pending::MoveOption { option, .. }) => {
                    vec![Action::use_option(Some(option)), Action::use_option(None)]
                }
                Some(&Pending::Stabilizer { .. }) => vec![
                    Action::use_option(Some(OptionCard::GyroscopicStabilizer)),
                    Action::use_option(None),
                ],
                Some(&Pending::Arm { .. }) => {
                    let mut v: Vec<Action> = self
                        .arm_sites(i)
                        .into_iter()
                        .map(|at| Action::UseOption {
                            option: Some(OptionCard::MechanicalArm),
                            register: None,
                            destroy: None,
                            card: None,
                            at: Some(at),
                        })
                        .collect();
                    v.push(Action::use_option(None));
                    v
                }
                Some(&Pending::Reveal { register, .. }) => {
                    let mut v: Vec<Action> = self
                        .reveal_uses(i, register)
                        .into_iter()
                        .map(|o| Action::use_option(Some(o)))
                        .collect();
                    v.push(Action::use_option(None));
                    v
                }
                Some(&Pending::Weapon { target, .. }) => {
                    let mut v = Vec::new();
                    for w in self.weapons_for(i, target) {
                        if w == OptionCard::FireControl {
                            v.extend((1..=5).map(|k| Action::UseOption {
                                option: Some(w),
                                register: Some(k),
                                destroy: None,
                                card: None,
                                at: None,
                            }));
                            v.extend(self.robots[target].options.iter().map(|&d| {
                                Action::UseOption {
                                    option: Some(w),
                                    register: None,
                                    destroy: Some(d),
                                    card: None,
                                    at: None,
                                }
                            }));
                        } else {
                            v.push(Action::use_option(Some(w)));
                        }
                    }
                    v.push(Action::use_option(None));
                    v
                }
                _ => Vec::new(),
            },
            Owed::Discard => {
                let mut v: Vec<Action> = self.robots[i]
                    .options
                    .iter()
                    .map(|&o| Action::DiscardOption { option: Some(o) })
                    .collect();
                if matches!(self.pending.front(), Some(Pending::Damage { .. })) {
                    v.push(Action::DiscardOption { option: None });
                }
                v
            }
        }
    }

    fn sample_action(&self, seat: Seat, rng: &mut Rng) -> Option<Action> {
        let kind = self.owed(seat)?;
        let i = seat.index();
        Some(match kind {
            Owed::Program => {
                let r = &self.robots[i];
                if !r.options.is_empty() && rng.below(4) == 0 {
                    let uses = self.program_use_actions(i);
                    if let Some(a) = rng.pick(&uses) {
                        return Some(a.clone());
                    }
                }
                // RR-4.3: sometimes a card placed in the draft (or taken back) first.
                if rng.below(4) == 0
                    && let Some(a) = self.pick_place(i, rng)
                {
                    return Some(a);
                }
                let power_down_next = r.damage >= 4 && rng.below(3) == 0;
                Action::Program { registers: self.random_program(i, rng), power_down_next }
            }
            Owed::StayDown => Action::StayDown { value: rng.below(4) == 0 },
            _ => {
                let all = self.legal_actions(seat);
                rng.pick(&all)?.clone()
            }
        })
    }

    fn view(&self, observer: Observer) -> View {
        View::of(self, observer)
    }

    fn static_data(&self) -> Static {
        Static { board: BoardView::of(&self.board) }
    }

    fn determinize(&self, seat: Seat, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        g.resample_hidden(seat, rng);
        g
    }

    /// RR-4.3: a `place` changes the seat's secret draft and nothing else, and nobody else
    /// sees a draft: only that seat's view. A committed `program` is not so: every view shows
    /// its registers as filled (hidden cards) and who still programs; every other action
    /// moves the game on.
    fn views_touched(&self, seat: Seat, action: &Action) -> engine::Touched {
        match action {
            Action::Place { .. } => engine::Touched::only(seat),
            _ => engine::Touched::All,
        }
    }

    /// RR-4.3, the hourglass: while programming, it runs only when every robot but one has
    /// been programmed (and at least one has: a robot programming alone has no hourglass),
    /// for that robot's player, `timer_seconds` per robot still to program (one robot per
    /// seat here). Every other decision (stay down, re-entry, option questions) has
    /// `timer_seconds` from when it is owed (a decision: `docs/roborally.md`).
    fn clock(&self) -> Option<Clock> {
        let seconds = self.rules.timer_seconds;
        if seconds == 0 {
            return None;
        }
        let decision = self.decision()?;
        if let (Phase::Program { owes }, None) = (&self.phase, self.pending.front()) {
            let owing: Vec<usize> = (0..owes.len()).filter(|&i| owes[i]).collect();
            let [last] = owing[..] else { return None };
            let programmed = (0..owes.len()).any(|i| {
                let r = &self.robots[i];
                !owes[i] && r.active() && !r.destroyed && !r.powered_down
            });
            let seat = self.robots[last].seat;
            let robots = owing.iter().filter(|&&i| self.robots[i].seat == seat).count() as u32;
            return programmed
                .then_some(Clock { seats: SeatSet::single(seat), seconds: seconds * robots });
        }
        Some(Clock { seats: decision.seats(), seconds })
    }
}

/// The kind of decision a seat owes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Owed {
    Program,
    StayDown,
    Reenter,
    Discard,
    UseOption,
}

impl Owed {
    fn name(self) -> &'static str {
        match self {
            Owed::Program => "program",
            Owed::StayDown => "stay_down",
            Owed::Reenter => "reenter",
            Owed::Discard => "discard_option",
            Owed::UseOption => "use_option",
        }
    }
}

impl RoboRally {
    /// [`Game::apply`] writing its events to any [`Sink`]: the same checks, the same game; only
    /// the events written differ (issue 17: `NoEvents` or the simulator's tally build none
    /// nobody reads).
    pub fn apply_to(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut impl Sink,
    ) -> Result<(), ActionError> {
        let (i, option_use) = self.check(seat, action)?;
        // Checked: nothing below can fail, so the events go straight to the caller's vector
        // (issue 17: no vector per action, none regrown while a turn resolves).
        let out = events;
        if let Some(used) = option_use {
            self.apply_use(i, used, out);
            self.play_on(out);
            self.prune_drafts();
            return Ok(());
        }
        match *action {
            // RR-4.3: the draft changes, nothing else; nobody else is told.
            Action::Place { register, card } => {
                self.place(i, register, card);
                return Ok(());
            }
            Action::Program { registers, power_down_next } => {
                self.commit_program(i, &registers, power_down_next, out)
            }
            Action::Reenter { at, facing, powered_down } => {
                self.pop_reentry();
                self.reenter(i, at, facing, powered_down, out);
            }
            Action::StayDown { value } => self.answer_stay_down(i, value, out),
            Action::DiscardOption { option } => self.apply_discard(option, out),
            // Validated into an `OptionUse` by `check`, applied above.
            Action::UseOption { .. } => {}
        }
        self.play_on_after_action(out);
        Ok(())
    }

    /// What follows every applied action but a `place`: play on to the next decision, drafts
    /// pruned.
    #[inline]
    fn play_on_after_action(&mut self, out: &mut impl Sink) {
        self.play_on(out);
        self.prune_drafts();
        debug_assert!(self.occupancy_consistent(), "the occupancy table drifted");
    }

    /// RR-6.4: robot `i`'s checked `stay_down` answer.
    fn answer_stay_down(&mut self, i: usize, value: bool, out: &mut impl Sink) {
        if let Phase::StayDown { owes, stay } = &mut self.phase {
            owes[i] = false;
            stay[i] = value;
        }
        out.push(Event::StayDownSent { seat: self.robots[i].seat });
    }

    /// A random action for `seat`, applied: the same draws from `rng`, in the same order, and
    /// the same state after (and the same events, to `events`) as [`Game::sample_action`]
    /// followed by [`Game::apply`], without building the [`Action`] and checking it again where
    /// the draw is legal by construction — a random program (`random_program`: the draft kept,
    /// the other unlocked registers filled from the rest of the hand, RR-4.3), a `place` among
    /// the listed ones, a `stay_down` answer (checked again in debug builds). The rare draws
    /// from a list (option uses, re-entries, option questions) go through [`Self::apply_to`].
    /// `None` when `sample_action` would return `None`. For random play nobody watches:
    /// `robodrome sim` with the tally as the sink (issue 17;
    /// `tests/props.rs::play_random_is_sample_then_apply` compares both ways).
    pub fn play_random(
        &mut self,
        seat: Seat,
        rng: &mut Rng,
        events: &mut impl Sink,
    ) -> Option<Result<(), ActionError>> {
        let kind = self.owed(seat)?;
        let i = seat.index();
        match kind {
            Owed::Program => {
                // `sample_action`'s draws, in its order.
                if !self.robots[i].options.is_empty() && rng.below(4) == 0 {
                    let uses = self.program_use_actions(i);
                    if let Some(a) = rng.pick(&uses) {
                        let a = a.clone();
                        return Some(self.apply_to(seat, &a, events));
                    }
                }
                if rng.below(4) == 0
                    && let Some((register, card)) = self.pick_place_at(i, rng)
                {
                    debug_assert_eq!(self.check_place(i, register, card), Ok(()));
                    self.place(i, register, card);
                    return Some(Ok(()));
                }
                let power_down_next = self.robots[i].damage >= 4 && rng.below(3) == 0;
                let registers = self.random_program(i, rng);
                debug_assert_eq!(self.check_program(i, &registers, power_down_next), Ok(()));
                self.commit_program(i, &registers, power_down_next, events);
            }
            Owed::StayDown => {
                let value = rng.below(4) == 0;
                self.answer_stay_down(i, value, events);
            }
            Owed::Reenter | Owed::Discard | Owed::UseOption => {
                let all = self.legal_actions(seat);
                let a = rng.pick(&all)?.clone();
                return Some(self.apply_to(seat, &a, events));
            }
        }
        self.play_on_after_action(events);
        Some(Ok(()))
    }

    /// What `seat` owes now, if anything.
    pub(crate) fn owed(&self, seat: Seat) -> Option<Owed> {
        let owed = self.owed_now(seat);
        // Every test checks it against the decision (as the occupancy table is checked).
        debug_assert_eq!(
            owed.is_some(),
            engine::Game::decision(self).is_some_and(|d| d.owes(seat)),
            "owed and decision disagree for {seat:?}"
        );
        owed
    }

    fn owed_now(&self, seat: Seat) -> Option<Owed> {
        // What `decision` says for this seat, without building the decision (issue 17: asked
        // twice per action, by `sample_action` and `check`). Robot `i` is seat `i`.
        let owes = |owes: &[bool]| owes.get(seat.index()).copied().unwrap_or(false);
        if let Some(p) = self.pending.front() {
            if self.robots[p.robot()].seat == seat {
                return Some(match p {
                    Pending::Damage { .. } | Pending::LoseOption { .. } => Owed::Discard,
                    _ => Owed::UseOption,
                });
            }
            // RR-7.4 while programming: the others go on programming.
            return match &self.phase {
                Phase::Program { owes: o } if owes(o) => Some(Owed::Program),
                _ => None,
            };
        }
        match &self.phase {
            Phase::Program { owes: o } => owes(o).then_some(Owed::Program),
            Phase::StayDown { owes: o, .. } => owes(o).then_some(Owed::StayDown),
            Phase::Reenter { queue } => queue
                .first()
                .is_some_and(|&h| self.robots[usize::from(h)].seat == seat)
                .then_some(Owed::Reenter),
            Phase::Execute { .. } | Phase::Over => None,
        }
    }

    /// Check an action without changing anything; returns the robot index and, for a
    /// `use_option`, the validated use.
    fn check(
        &self,
        seat: Seat,
        action: &Action,
    ) -> Result<(usize, Option<OptionUse>), ActionError> {
        if self.phase == Phase::Over {
            return Err(ActionError::GameOver);
        }
        let i = seat.index();
        self.robots.get(i).ok_or(ActionError::UnknownSeat)?;
        let Some(owed) = self.owed(seat) else {
            return Err(self.why_not(i, action));
        };
        if let (
            Owed::UseOption | Owed::Program,
            Action::UseOption { option, register, destroy, card, at },
        ) = (owed, action)
        {
            let used = self.check_use(i, *option, *register, *destroy, *card, *at)?;
            return Ok((i, Some(used)));
        }
        match (owed, action) {
            (Owed::Program, Action::Program { registers, power_down_next }) => {
                self.check_program(i, registers, *power_down_next)
            }
            (Owed::Program, Action::Place { register, card }) => {
                self.check_place(i, *register, *card)
            }
            (Owed::StayDown, Action::StayDown { .. }) => Ok(()),
            (Owed::Reenter, Action::Reenter { at, facing, .. }) => {
                self.check_reenter(i, *at, *facing)
            }
            (Owed::Discard, Action::DiscardOption { option }) => self.check_discard(*option),
            (_, Action::UseOption { option: Some(o), .. }) if !self.robots[i].has(*o) => {
                Err(ActionError::OptionNotHeld)
            }
            (_, Action::UseOption { option: Some(_), .. }) => Err(ActionError::OptionWrongTime),
            (owed, _) => Err(ActionError::WrongAction { expected: owed.name() }),
        }?;
        Ok((i, None))
    }

    /// The most telling error for a seat that owes nothing.
    fn why_not(&self, i: usize, action: &Action) -> ActionError {
        let r = &self.robots[i];
        if r.out {
            ActionError::RobotOut
        } else if r.destroyed {
            ActionError::RobotDestroyed
        } else if matches!(action, Action::Program { .. } | Action::Place { .. }) && r.powered_down
        {
            ActionError::PoweredDown
        } else if matches!(action, Action::Program { .. } | Action::Place { .. })
            && matches!(self.phase, Phase::Program { .. })
        {
            ActionError::AlreadyProgrammed
        } else {
            ActionError::NotYourDecision
        }
    }

    /// RR-4.3 and the documented defaults when time is up: the draft kept and its empty
    /// registers filled at random from the rest of the hand (no power down); stay down: no; re-entry: `default_reentry`, powered on; discard_option:
    /// decline the damage point, or give up the first option held when destroyed.
    fn default_action(&self, i: usize, rng: &mut Rng) -> Action {
        match self.owed(Seat(i as u8)) {
            Some(Owed::Program) => {
                Action::Program { registers: self.random_program(i, rng), power_down_next: false }
            }
            Some(Owed::StayDown) => Action::StayDown { value: false },
            Some(Owed::Reenter) => {
                let (at, facing) =
                    self.default_reentry(i).unwrap_or((self.robots[i].archive, SqDir::N));
                Action::Reenter { at, facing, powered_down: false }
            }
            Some(Owed::UseOption) => Action::use_option(None),
            Some(Owed::Discard) | None => match self.pending.front() {
                Some(Pending::LoseOption { .. }) => {
                    Action::DiscardOption { option: self.robots[i].options.first().copied() }
                }
                _ => Action::DiscardOption { option: None },
            },
        }
    }

    /// RR-10: the winner first; with `full_ranking`, finish order, then flags touched, then
    /// distance to the next flag.
    pub fn ranking(&self) -> Outcome {
        let mut ranking: Vec<Vec<Seat>> = Vec::new();
        for &s in &self.finish_order {
            ranking.push(vec![s]);
        }
        let mut rest: Vec<usize> = (0..self.robots.len())
            .filter(|&i| !self.finish_order.contains(&self.robots[i].seat))
            .collect();
        let key = |i: usize| {
            let r = &self.robots[i];
            let dist = match (r.cell(), self.board.flags.get(r.flags_touched as usize)) {
                (Some(at), Some(&f)) => at.manhattan(f),
                _ => i32::MAX / 2,
            };
            (std::cmp::Reverse(r.flags_touched), dist)
        };
        rest.sort_by_key(|&i| key(i));
        let mut k = 0;
        while k < rest.len() {
            let mut group = vec![self.robots[rest[k]].seat];
            while k + 1 < rest.len() && key(rest[k + 1]) == key(rest[k]) {
                k += 1;
                group.push(self.robots[rest[k]].seat);
            }
            ranking.push(group);
            k += 1;
        }
        Outcome {
            ranking,
            scores: Some(self.robots.iter().map(|r| r.flags_touched as i64).collect()),
        }
    }
}
