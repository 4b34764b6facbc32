//! The `engine::Game` implementation: decisions, atomic `apply`, the engine playing on by
//! itself between decisions (BB-4 round structure), defaults on time-up, sampling.

use crate::cards::{Card, CardPlay};
use crate::error::BbError;
use crate::event::{EventSink, NoEvents};
use crate::movement::Step;
use crate::setup::Setup;
use crate::speed::{SpeedChoice, legal_speed_after, speed_after};
use crate::state::{BumpingBots, Phase, Turn, TurnStep};
use crate::view::View;
use crate::{Action, Event};
use engine::{Decision, Game, Observer, Outcome, Rng, Seat, SetupError};

impl BumpingBots {
    /// The seat that owes the current decision.
    pub(crate) fn owing(&self) -> Option<Seat> {
        match &self.phase {
            Phase::Pick(s) => Some(*s),
            Phase::Turn(t) => match t.step {
                TurnStep::Speed
                | TurnStep::Move
                | TurnStep::Shock(_)
                | TurnStep::Orient
                | TurnStep::Magnet => Some(self.order[self.cursor]),
                _ => None,
            },
            Phase::Over => None,
        }
    }

    /// Plays on by itself through everything that needs no decision (BB-4).
    fn advance(&mut self, ev: &mut impl EventSink) {
        // The turn is taken out of the phase while the engine plays it, and put back.
        let mut t = match std::mem::replace(&mut self.phase, Phase::Over) {
            Phase::Turn(t) => t,
            other => {
                self.phase = other;
                return;
            }
        };
        if self.advance_turn(&mut t, ev) {
            self.phase = Phase::Turn(t);
        }
    }

    /// [`Self::advance`] with the turn `t` held outside the phase: plays on to the next
    /// decision (true; `t` is then the turn that owes it) or to the end of the race (false:
    /// `end_round` set the phase).
    #[inline(always)]
    fn advance_turn(&mut self, t: &mut Turn, ev: &mut impl EventSink) -> bool {
        // The steps in the order a turn takes them, each tested once per pass (a chain of
        // well-predicted branches rather than one indirect jump per step, issue 17).
        loop {
            if matches!(t.step, TurnStep::Moving) {
                if let Step::Wait = self.run_move(t, ev) {
                    return true;
                }
                t.step = TurnStep::EndMove;
            }
            if matches!(t.step, TurnStep::EndMove) {
                self.end_move(t);
            }
            if matches!(t.step, TurnStep::MagnetCheck) {
                let bot = t.bot;
                // BB-9.2: asked whenever the bot holds an unused Magnet and a target is in
                // range, whatever card it played at the start of this turn.
                let holds = self.bots[bot].holds_magnet();
                t.step = if holds && self.magnet_target(bot).is_some() {
                    TurnStep::Magnet
                } else {
                    TurnStep::EndTurn
                };
            }
            if !matches!(t.step, TurnStep::EndTurn) {
                return true;
            }
            if !self.next_bot(t, ev) {
                // The race is over: `end_round` set the phase.
                return false;
            }
        }
    }

    /// BB-7.1 / BB-8.4 / BB-10 after the move: finished bots leave; orient after a collision,
    /// except after a throw (BB-8.4) and under a quick rotation card, whose rules replace the
    /// classic rotations and may not be mixed with them (BB-9.5; the booklet: "il n'est pas
    /// possible de cumuler les règles classiques et ces règles spéciales").
    #[inline(always)]
    fn end_move(&mut self, t: &mut Turn) {
        let bot = t.bot;
        let finished = self.bots[bot].finished;
        let orient = t.collided && !t.thrown && !finished && !t.quick_card;
        self.remove_finished();
        t.step = if orient {
            TurnStep::Orient
        } else if finished {
            TurnStep::EndTurn
        } else {
            TurnStep::MagnetCheck
        };
    }

    /// Makes `t` the next bot's turn; false when the race is over.
    #[inline(always)]
    fn next_bot(&mut self, t: &mut Turn, ev: &mut impl EventSink) -> bool {
        self.cursor += 1;
        while self.cursor < self.order.len() && self.bots[self.order[self.cursor].index()].finished
        {
            self.cursor += 1;
        }
        if self.cursor >= self.order.len() && !self.end_round(ev) {
            return false;
        }
        t.reset(self.order[self.cursor].index());
        true
    }
    /// BB-4 end of round: motorised obstacles turn, engines count down, places are settled
    /// (BB-10); then the next round's order (BB-2.2). Returns false when the race is over.
    fn end_round(&mut self, ev: &mut impl EventSink) -> bool {
        self.turn_motors(ev);
        self.remove_finished();
        for b in &mut self.bots {
            b.engine_turns = b.engine_turns.saturating_sub(1);
        }
        self.settle_places(ev);
        if self.check_race_over(ev) {
            self.phase = Phase::Over;
            return false;
        }
        self.reorder();
        self.round += 1;
        self.cursor = 0;
        while self.bots[self.order[self.cursor].index()].finished {
            self.cursor += 1;
        }
        // A summary (the state shows the round and its order): built only for a sink that
        // reads it (issue 17).
        if sink_reads_summaries(ev) {
            ev.push(Event::RoundStarted {
                round: self.round,
                order: crate::event::SeatList::new(&self.order).expect("at most 9 bots (BB-1.1)"),
            });
        }
        true
    }

    /// One action, validated before anything changes.
    fn act(&mut self, seat: Seat, action: &Action, ev: &mut impl EventSink) -> Result<(), BbError> {
        if matches!(self.phase, Phase::Over) {
            return Err(BbError::GameOver);
        }
        if self.owing() != Some(seat) {
            return Err(BbError::NotYourTurn);
        }
        self.act_owed(seat, action, ev)
    }

    /// [`Self::act`] once the caller knows that `seat` owes the decision (so the race is not over).
    #[inline(always)]
    fn act_owed(
        &mut self,
        seat: Seat,
        action: &Action,
        ev: &mut impl EventSink,
    ) -> Result<(), BbError> {
        debug_assert_eq!(self.owing(), Some(seat));
        // The turn is taken out of the phase while the action is played, and put back; an
        // error leaves it as it was (every handler validates before it changes anything).
        let mut t = match std::mem::replace(&mut self.phase, Phase::Over) {
            Phase::Turn(t) => t,
            other => {
                self.phase = other;
                return match (&self.phase, action) {
                    (
                        Phase::Pick(_),
                        Action::Card { card, target: None, when: None, at_cell: None, rotations },
                    ) if rotations.is_empty() => self.pick(seat, *card, ev),
                    (Phase::Pick(_), Action::Card { .. }) => {
                        Err(BbError::IllegalCard("a pick names only the card (BB-3 choose_cards)"))
                    }
                    _ => Err(BbError::WrongAction { expected: self.expected() }),
                };
            }
        };
        let r = self.act_turn(&mut t, action, ev);
        self.phase = Phase::Turn(t);
        r
    }

    /// [`Self::act`] during a turn.
    #[inline(always)]
    fn act_turn(
        &mut self,
        t: &mut Turn,
        action: &Action,
        ev: &mut impl EventSink,
    ) -> Result<(), BbError> {
        match (&t.step, action) {
            (TurnStep::Speed, Action::Speed { choice, new_speed }) => {
                self.choose_speed(t, *choice, *new_speed, ev)
            }
            (TurnStep::Speed, Action::Card { .. }) => {
                self.play_start_card(t, t.bot, &card_play(action), ev)
            }
            (TurnStep::Move, Action::Move { rotate_before_last, rotate_after }) => {
                self.start_move(t, t.bot, *rotate_before_last, *rotate_after)
            }
            (TurnStep::Shock(pending), Action::ShockChoice { turn_passive, turn_first }) => {
                let pending = pending.clone();
                self.resolve_shock_choice(t, pending, turn_passive, *turn_first, ev)
            }
            (TurnStep::Orient, Action::Orient { turn }) => self.orient(t, *turn, ev),
            (TurnStep::Magnet, Action::Card { .. }) => {
                self.play_end_magnet(t, t.bot, &card_play(action), ev)?;
                t.step = TurnStep::EndTurn;
                Ok(())
            }
            _ => Err(BbError::WrongAction { expected: expected_in(&t.step) }),
        }
    }

    /// BB-7.1: the turn after a collision (the `Orient` step).
    #[inline(always)]
    fn orient(&mut self, t: &mut Turn, turn: i8, ev: &mut impl EventSink) -> Result<(), BbError> {
        if !(-1..=1).contains(&turn) {
            return Err(BbError::IllegalRotation("orient turns -1, 0 or 1 (BB-7.1)"));
        }
        self.rotate(t.bot, turn, ev);
        t.step = TurnStep::MagnetCheck;
        Ok(())
    }

    /// One random action of the turn `t` (which owes a decision), drawn as
    /// [`crate::view::sample_turn`] draws it and played as [`Self::act_turn`] plays it; the
    /// common decisions (speed, move, orient) are played from the drawn fields without building
    /// an [`Action`] (issue 17: no action to build, match and drop). `tests/random_race.rs`
    /// holds it to the ordinary loop.
    #[inline(always)]
    fn random_turn_action(&mut self, t: &mut Turn, rng: &mut Rng) -> Result<(), BbError> {
        let bot = t.bot;
        match t.step {
            TurnStep::Speed => match crate::view::sample_card(self, t, bot, rng) {
                Some(action) => self.act_turn(t, &action, &mut NoEvents),
                None => {
                    let (speed, reverse, turned) =
                        crate::view::sample_speed_outcome(self, bot, rng);
                    self.set_speed(t, speed, reverse, turned, &mut NoEvents);
                    Ok(())
                }
            },
            TurnStep::Move => {
                let (before_last, after) = crate::view::sample_move_turns(self, t, bot, rng);
                self.start_move(t, bot, before_last, after)
            }
            TurnStep::Orient => {
                let turn = crate::view::sample_orient(self, bot, rng);
                self.orient(t, turn, &mut NoEvents)
            }
            _ => {
                let action = crate::view::sample_turn(self, t, rng);
                self.act_turn(t, &action, &mut NoEvents)
            }
        }
    }

    fn expected(&self) -> &'static str {
        match &self.phase {
            Phase::Pick(_) => "card",
            Phase::Turn(t) => expected_in(&t.step),
            Phase::Over => "no",
        }
    }

    /// BB-5 step (1) of the turn.
    #[inline(always)]
    fn choose_speed(
        &mut self,
        t: &mut Turn,
        choice: SpeedChoice,
        new_speed: Option<u8>,
        ev: &mut impl EventSink,
    ) -> Result<(), BbError> {
        let bot = t.bot;
        let (speed, reverse) = match legal_speed_after(&self.bots[bot], choice, new_speed) {
            Some(answer) => answer,
            None => return Err(speed_refusal(&self.bots[bot], choice, new_speed)),
        };
        self.set_speed(t, speed, reverse, choice == SpeedChoice::Reverse, ev);
        Ok(())
    }

    /// [`Self::choose_speed`] once the choice is known legal and its outcome worked out
    /// (the random race's speed draw, [`crate::view::sample_speed_outcome`]).
    #[inline(always)]
    fn set_speed(
        &mut self,
        t: &mut Turn,
        speed: u8,
        reverse: bool,
        changed_direction: bool,
        ev: &mut impl EventSink,
    ) {
        let b = &mut self.bots[t.bot];
        b.speed = speed;
        b.reverse = reverse;
        b.changed_direction = changed_direction;
        ev.push(Event::SpeedChosen { seat: b.seat, speed, reverse });
        t.chosen_speed = speed;
        t.step = TurnStep::Move;
    }

    /// BB-3 `choose_cards`: pick one card. **Decision (secrecy):** every seat picks from its
    /// own full set of the 45 tuning cards (9 of each kind), not from what the earlier pickers
    /// left: their picks are secret (`CardPicked` is for the picker only), and a shared,
    /// shrinking supply would let a refusal tell a seat what the others took. So a pick is
    /// refused only when the seat itself already holds all 9 cards of that kind — whatever the
    /// other seats hold.
    // Rare in a race: kept out of the engine loop (`advance`, `act`).
    #[inline(never)]
    fn pick(
        &mut self,
        seat: Seat,
        card: Option<Card>,
        ev: &mut impl EventSink,
    ) -> Result<(), BbError> {
        let card = card.ok_or(BbError::IllegalCard("name the card to pick"))?;
        if !self.pickable(seat, card) {
            return Err(BbError::CardNotInDeck);
        }
        self.bots[seat.index()].cards.push(card);
        self.bots[seat.index()].hand_changed();
        self.picks_left[seat.index()] -= 1;
        ev.push(Event::CardPicked { seat, card });
        self.phase = match self.next_picker() {
            Some(s) => Phase::Pick(s),
            None => Phase::Turn(Box::new(Turn::new(self.order[self.cursor].index()))),
        };
        Ok(())
    }

    /// `choose_cards`: may `seat` pick one more `card`? Depends on its own hand only.
    pub(crate) fn pickable(&self, seat: Seat, card: Card) -> bool {
        let held = self.bots[seat.index()].cards.iter().filter(|&&c| c == card).count();
        held < crate::cards::COPIES_PER_KIND
    }

    /// The rules' default for the decision owed now (`time_up`).
    fn default_action(&self) -> Option<Action> {
        let t = match &self.phase {
            // The shuffled deck's first kind the picker may still take.
            Phase::Pick(s) => {
                return Some(Action::Card {
                    card: self.deck.iter().copied().find(|&c| self.pickable(*s, c)),
                    target: None,
                    when: None,
                    at_cell: None,
                    rotations: vec![],
                });
            }
            Phase::Turn(t) => t,
            Phase::Over => return None,
        };
        Some(match &t.step {
            TurnStep::Speed => Action::Speed { choice: SpeedChoice::Keep, new_speed: None },
            TurnStep::Move => Action::Move { rotate_before_last: 0, rotate_after: 0 },
            // Push every cell, turn nobody (`turn_passive` has one entry per cell it may turn).
            TurnStep::Shock(p) => {
                Action::ShockChoice { turn_passive: vec![0; p.turn_cells()], turn_first: 0 }
            }
            TurnStep::Orient => Action::Orient { turn: 0 },
            TurnStep::Magnet => Action::Card {
                card: None,
                target: None,
                when: None,
                at_cell: None,
                rotations: vec![],
            },
            _ => return None,
        })
    }

    /// Plays on to the first decision (a setup may start mid-resolution).
    pub(crate) fn start(&mut self) {
        self.advance(&mut Vec::new());
    }

    /// A random race nobody watches (issue 17; `robodrome sim` through
    /// `games::Registered::sim_random_game`): at most `max_actions` actions, each what
    /// [`Game::sample_action`] draws from `rng` for the seat that owes the decision, played as
    /// [`Game::apply`] plays it, until the race ends. The same `owing` → `view::sample` → `act`
    /// → `advance` as `decision` → `sample_action` → `apply`, with the events dropped where
    /// they are written ([`NoEvents`]: the compiler removes their construction), so the same
    /// race from the same draws (`tests/random_race.rs`). Returns the actions played.
    ///
    /// During the turns (all of a race but `choose_cards`' picks) the turn is taken out of the
    /// phase once and played on outside it, decision after decision, the sampler and the rules
    /// reading it there, instead of being taken out and put back twice per action (issue 17).
    pub fn play_random_race(&mut self, rng: &mut Rng, max_actions: u64) -> u64 {
        let mut n = 0;
        while n < max_actions {
            if !matches!(self.phase, Phase::Turn(_)) {
                let Some(seat) = self.owing() else { break };
                let action = crate::view::sample(self, rng);
                // `owing` just named the seat: `act`'s own checks would repeat it.
                if self.act_owed(seat, &action, &mut NoEvents).is_err() {
                    break;
                }
                self.advance(&mut NoEvents);
                n += 1;
                continue;
            }
            let Phase::Turn(mut t) = std::mem::replace(&mut self.phase, Phase::Over) else {
                unreachable!("a turn's phase")
            };
            loop {
                // What `owing` asks: a step that waits for the active bot's decision.
                let owes = matches!(
                    t.step,
                    TurnStep::Speed
                        | TurnStep::Move
                        | TurnStep::Shock(_)
                        | TurnStep::Orient
                        | TurnStep::Magnet
                );
                if n >= max_actions || !owes {
                    self.phase = Phase::Turn(t);
                    return n;
                }
                if self.random_turn_action(&mut t, rng).is_err() {
                    self.phase = Phase::Turn(t);
                    return n;
                }
                n += 1;
                // A speed chosen, the move is owed: nothing for the engine to play before it
                // (`advance_turn` would test four steps to find that out).
                if matches!(t.step, TurnStep::Move) {
                    continue;
                }
                if !self.advance_turn(&mut t, &mut NoEvents) {
                    // The race is over: `end_round` set the phase.
                    return n;
                }
            }
        }
        n
    }

    pub fn phase_name(&self) -> &'static str {
        self.phase.name()
    }
    pub fn round(&self) -> u32 {
        self.round
    }
}

/// Why [`BumpingBots::choose_speed`] refuses a choice (BB-5), out of the random race's way.
#[cold]
#[inline(never)]
fn speed_refusal(bot: &crate::state::Bot, choice: SpeedChoice, new_speed: Option<u8>) -> BbError {
    match speed_after(bot, choice, new_speed) {
        Err(e) => e,
        Ok(_) => unreachable!("legal_speed_after refuses only what speed_after refuses"),
    }
}

/// Whether `ev` reads the events that summarise a step ([`engine::Sink::SUMMARIES`]: the
/// round's order, the race's ranking), which the state shows anyway.
#[inline(always)]
pub(crate) fn sink_reads_summaries<S: EventSink + ?Sized>(_: &S) -> bool {
    S::SUMMARIES
}

fn expected_in(step: &TurnStep) -> &'static str {
    match step {
        TurnStep::Magnet => "card",
        TurnStep::Speed => "speed (or card)",
        TurnStep::Move => "move",
        TurnStep::Shock(_) => "shock_choice",
        TurnStep::Orient => "orient",
        _ => "no",
    }
}

fn card_play(a: &Action) -> CardPlay {
    match a {
        Action::Card { card, target, when, at_cell, rotations } => CardPlay {
            card: *card,
            target: *target,
            when: *when,
            at_cell: *at_cell,
            rotations: rotations.clone(),
        },
        _ => CardPlay::default(),
    }
}

impl Game for BumpingBots {
    const NAME: &'static str = "bumping-bots";
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type Error = BbError;
    type View = View;
    type Static = crate::view::Static;

    fn new(setup: &Setup, seed: u64) -> Result<Self, SetupError> {
        let mut g = BumpingBots::from_setup(setup, seed)?;
        g.start();
        Ok(g)
    }

    fn seats(&self) -> usize {
        self.bots.len()
    }

    fn decision(&self) -> Option<Decision> {
        self.owing().map(Decision::One)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores = self.race_points().into_iter().map(i64::from).collect();
        Some(Outcome { ranking: self.ranking(), scores: Some(scores) })
    }

    fn apply(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), BbError> {
        // Every handler validates before it changes anything, so an error leaves `self` as it was.
        let mark = events.len();
        match self.act(seat, action, events) {
            Ok(()) => {
                self.advance(events);
                Ok(())
            }
            Err(e) => {
                events.truncate(mark);
                Err(e)
            }
        }
    }

    fn time_up(&mut self, events: &mut Vec<Event>) -> Result<(), BbError> {
        let (Some(seat), Some(a)) = (self.owing(), self.default_action()) else {
            return Err(BbError::GameOver);
        };
        self.apply(seat, &a, events)
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.owing() != Some(seat) {
            return Vec::new();
        }
        crate::view::candidates(self)
            .into_iter()
            .filter(|a| {
                let mut g = self.clone();
                g.act(seat, a, &mut Vec::new()).is_ok()
            })
            .collect()
    }

    fn sample_action(&self, seat: Seat, rng: &mut Rng) -> Option<Action> {
        if self.owing() != Some(seat) {
            return None;
        }
        Some(crate::view::sample(self, rng))
    }

    fn view(&self, observer: Observer) -> View {
        View::of(self, observer)
    }

    fn static_data(&self) -> crate::view::Static {
        crate::view::Static { track: self.board.spec.clone() }
    }

    /// The setting's "last player" clock: Bumping Bots' decisions come one bot at a time
    /// (BB-2.2), so "every player but one has decided" is the round's last bot to act, when
    /// a bot still racing acted before it this round: its player has `last_player_seconds` for its turn.
    fn clock(&self) -> Option<engine::Clock> {
        let seconds = self.last_player_seconds;
        if seconds == 0 || !matches!(self.phase, Phase::Turn(_)) {
            return None;
        }
        let seat = self.owing()?;
        let rest = self.order.get(self.cursor + 1..)?;
        let last = rest.iter().all(|s| self.bots[s.index()].finished);
        let before = self.order[..self.cursor].iter().any(|s| !self.bots[s.index()].finished);
        (last && before).then_some(engine::Clock { seats: engine::SeatSet::single(seat), seconds })
    }

    fn determinize(&self, seat: Seat, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        let mut pool: Vec<Card> = g.deck.clone();
        for b in g.bots.iter().filter(|b| b.seat != seat) {
            pool.extend(b.cards.iter().copied());
        }
        // Sorted first, so the resampled state depends only on what the seat can see.
        pool.sort();
        rng.shuffle(&mut pool);
        for b in g.bots.iter_mut().filter(|b| b.seat != seat) {
            for c in b.cards.iter_mut() {
                *c = pool.pop().expect("as many cards as were taken");
            }
            b.hand_changed();
        }
        g.deck = pool;
        g.rng = rng.fork();
        g
    }
}
