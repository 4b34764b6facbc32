//! The `engine::Game` implementation: decisions, atomic `apply`, the engine playing on by
//! itself between decisions (BB-4 round structure), defaults on time-up, sampling.

use crate::cards::{Card, CardPlay};
use crate::error::BbError;
use crate::movement::Step;
use crate::setup::Setup;
use crate::speed::{SpeedChoice, speed_after};
use crate::state::{BumpingBots, Phase, Turn};
use crate::view::View;
use crate::{Action, Event};
use engine::{Decision, Game, Observer, Outcome, Rng, Seat, SetupError};

impl BumpingBots {
    /// The seat that owes the current decision.
    fn owing(&self) -> Option<Seat> {
        match &self.phase {
            Phase::Pick(s) => Some(*s),
            Phase::Speed | Phase::Move | Phase::Shock(_) | Phase::Orient | Phase::Magnet => {
                Some(self.order[self.cursor])
            }
            _ => None,
        }
    }

    fn active(&self) -> usize {
        self.turn.bot
    }

    /// Plays on by itself through everything that needs no decision (BB-4).
    fn advance(&mut self, ev: &mut Vec<Event>) {
        loop {
            match self.phase {
                Phase::Moving => match self.step_move(ev) {
                    Step::Continue => {}
                    Step::Wait => return,
                    Step::Done => self.phase = Phase::EndMove,
                },
                Phase::EndMove => self.end_move(),
                Phase::MagnetCheck => {
                    let bot = self.active();
                    // BB-9.2, with the one-card-per-turn decision: not asked after another card.
                    let played = self.turn.card.is_some();
                    let holds = !played && self.bots[bot].cards.contains(&Card::Magnet);
                    self.phase = if holds && self.magnet_target(bot).is_some() {
                        Phase::Magnet
                    } else {
                        Phase::EndTurn
                    };
                }
                Phase::EndTurn => self.next_bot(ev),
                _ => return,
            }
        }
    }

    /// BB-7.1 / BB-8.4 / BB-10 after the move: finished bots leave; orient after a collision.
    fn end_move(&mut self) {
        let bot = self.active();
        let t = &self.turn;
        let finished = self.bots[bot].finished;
        let orient = t.collided && !t.thrown && !finished;
        self.remove_finished();
        self.phase = if orient {
            Phase::Orient
        } else if finished {
            Phase::EndTurn
        } else {
            Phase::MagnetCheck
        };
    }

    fn next_bot(&mut self, ev: &mut Vec<Event>) {
        self.cursor += 1;
        while self.cursor < self.order.len() && self.bots[self.order[self.cursor].index()].finished
        {
            self.cursor += 1;
        }
        if self.cursor >= self.order.len() && !self.end_round(ev) {
            return;
        }
        self.turn = Turn::new(self.order[self.cursor].index());
        self.phase = Phase::Speed;
    }

    /// BB-4 end of round: motorised obstacles turn, engines count down, places are settled
    /// (BB-10); then the next round's order (BB-2.2). Returns false when the race is over.
    fn end_round(&mut self, ev: &mut Vec<Event>) -> bool {
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
        let (seats, n) = self.sorted_order();
        self.order.clear();
        self.order.extend_from_slice(&seats[..n]);
        self.round += 1;
        self.cursor = 0;
        while self.bots[self.order[self.cursor].index()].finished {
            self.cursor += 1;
        }
        ev.push(Event::RoundStarted { round: self.round, order: self.order.clone() });
        true
    }

    /// One action, validated before anything changes.
    fn act(&mut self, seat: Seat, action: &Action, ev: &mut Vec<Event>) -> Result<(), BbError> {
        if matches!(self.phase, Phase::Over) {
            return Err(BbError::GameOver);
        }
        if self.owing() != Some(seat) {
            return Err(BbError::NotYourTurn);
        }
        match (&self.phase, action) {
            (Phase::Pick(_), Action::Card { card, .. }) => self.pick(seat, *card, ev),
            (Phase::Speed, Action::Speed { choice, new_speed }) => {
                self.choose_speed(*choice, *new_speed, ev)
            }
            (Phase::Speed, Action::Card { .. }) => {
                self.play_start_card(self.active(), &card_play(action), ev)
            }
            (Phase::Move, Action::Move { rotate_before_last, rotate_after }) => {
                self.start_move(self.active(), *rotate_before_last, *rotate_after)
            }
            (Phase::Shock(_), Action::ShockChoice { turn_passive, turn_first }) => {
                self.resolve_shock_choice(turn_passive, *turn_first, ev)
            }
            (Phase::Orient, Action::Orient { turn }) => {
                if !(-1..=1).contains(turn) {
                    return Err(BbError::IllegalRotation("orient turns -1, 0 or 1 (BB-7.1)"));
                }
                self.rotate(self.active(), *turn, ev);
                self.phase = Phase::MagnetCheck;
                Ok(())
            }
            (Phase::Magnet, Action::Card { .. }) => {
                self.play_end_magnet(self.active(), &card_play(action), ev)?;
                self.phase = Phase::EndTurn;
                Ok(())
            }
            _ => Err(BbError::WrongAction { expected: self.expected() }),
        }
    }

    fn expected(&self) -> &'static str {
        match self.phase {
            Phase::Pick(_) | Phase::Magnet => "card",
            Phase::Speed => "speed (or card)",
            Phase::Move => "move",
            Phase::Shock(_) => "shock_choice",
            Phase::Orient => "orient",
            _ => "no",
        }
    }

    /// BB-5 step (1) of the turn.
    fn choose_speed(
        &mut self,
        choice: SpeedChoice,
        new_speed: Option<u8>,
        ev: &mut Vec<Event>,
    ) -> Result<(), BbError> {
        let bot = self.active();
        let (speed, reverse) = speed_after(&self.bots[bot], choice, new_speed)?;
        let b = &mut self.bots[bot];
        b.speed = speed;
        b.reverse = reverse;
        b.changed_direction = choice == SpeedChoice::Reverse;
        ev.push(Event::SpeedChosen { seat: b.seat, speed, reverse });
        self.turn.chosen_speed = speed;
        self.phase = Phase::Move;
        Ok(())
    }

    /// BB-3 `choose_cards`: pick one card. **Decision (secrecy):** every seat picks from its
    /// own full set of the 45 tuning cards (9 of each kind), not from what the earlier pickers
    /// left: their picks are secret (`CardPicked` is for the picker only), and a shared,
    /// shrinking supply would let a refusal tell a seat what the others took. So a pick is
    /// refused only when the seat itself already holds all 9 cards of that kind — whatever the
    /// other seats hold.
    // Rare in a race: kept out of the engine loop (`advance`, `act`).
    #[inline(never)]
    fn pick(&mut self, seat: Seat, card: Option<Card>, ev: &mut Vec<Event>) -> Result<(), BbError> {
        let card = card.ok_or(BbError::IllegalCard("name the card to pick"))?;
        if !self.pickable(seat, card) {
            return Err(BbError::CardNotInDeck);
        }
        self.bots[seat.index()].cards.push(card);
        self.picks_left[seat.index()] -= 1;
        ev.push(Event::CardPicked { seat, card });
        self.phase = match self.next_picker() {
            Some(s) => Phase::Pick(s),
            None => Phase::Speed,
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
        Some(match &self.phase {
            // The shuffled deck's first kind the picker may still take.
            Phase::Pick(s) => Action::Card {
                card: self.deck.iter().copied().find(|&c| self.pickable(*s, c)),
                target: None,
                when: None,
                at_cell: None,
                rotations: vec![],
            },
            Phase::Speed => Action::Speed { choice: SpeedChoice::Keep, new_speed: None },
            Phase::Move => Action::Move { rotate_before_last: 0, rotate_after: 0 },
            Phase::Shock(_) => Action::ShockChoice { turn_passive: vec![], turn_first: 0 },
            Phase::Orient => Action::Orient { turn: 0 },
            Phase::Magnet => Action::Card {
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

    pub fn phase_name(&self) -> &'static str {
        self.phase.name()
    }
    pub fn round(&self) -> u32 {
        self.round
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
        }
        g.deck = pool;
        g.rng = rng.fork();
        g
    }
}
