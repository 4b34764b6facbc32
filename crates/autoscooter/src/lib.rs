//! Autoscooter: bumper cars on a 38-hex rink, for 2 to 8 players (Günter Cornett, Bambus).
//!
//! Every player secretly plots a turn number and a movement letter for each car; then the cars
//! move in number order and crash for chits. The rules are numbered `AS-n.m` as in the
//! project's `docs/autoscooter.md`; every module cites the rules it implements.
//!
//! ```
//! use autoscooter::{Autoscooter, Action, Setup, Variants};
//! use engine::{Game, Seat};
//!
//! let setup = Setup::standard(2, false, Variants::default()).unwrap();
//! let mut game = Autoscooter::new(&setup, 1).unwrap();
//! let mut events = Vec::new();
//! // The cars are drawn by lots from the seed (AS-1.3): one of seat 0's.
//! let car = game.cars().find(|c| c.owner == Some(Seat(0))).unwrap().id;
//! // Seat 0 plots its first number (AS-2.1: car c's column starts c + 1).
//! game.apply(Seat(0), &Action::plot(car, car + 1, None), &mut events).unwrap();
//! // The car is seat 0's: seat 1 may not plot it.
//! assert!(game.apply(Seat(1), &Action::plot(car, car + 9, None), &mut events).is_err());
//! ```
//!
//! **Invariant:** this crate does no I/O, reads no clock and has no randomness of its own:
//! a game is a pure function of (setup, seed, actions).
#![deny(clippy::unwrap_used)]

/// The version of these rules, stored with every game a server starts: a log replays the same
/// game only under the rules it was played under, so a server refuses to replay a stored game of
/// another version (docs/security.md "Rules versions"). Bump it with every change that can make
/// a stored log replay differently (another result, another view, a refused action).
/// 1: the rules before issue 22's round 2; 2: after it (the players' cars dealt by lots from the
/// seed (AS-1.3)).
pub const RULES_VERSION: u32 = 2;

pub mod board;
pub mod chart;
pub mod choices;
mod conformance;
pub mod encoding;
mod error;
pub mod event;
pub mod from_view;
mod observation;
pub mod playout;
pub mod purse;
pub mod resolve;
pub mod rulebook;
pub mod setup;
pub mod sheet;
mod state;
pub mod static_data;
pub mod view;

pub use board::{Board, BoardSpec, Start};
pub use chart::{CHART, ChartMove, Letter, LetterInput};
pub use error::ActionError;
pub use event::{CrashKind, Event, Holder, NoEvents, Path, Sink};
pub use resolve::{Preview, Previews};
pub use setup::{CarSetup, PlayerSetup, Setup, Variants, WildCar};
pub use state::{Autoscooter, Car, Plot};
pub use static_data::Static;
pub use view::View;

use engine::{Decision, Game, Observer, Outcome, Rng, Seat, SetupError};
use grid::{Hex, HexDir};
use serde::{Deserialize, Serialize};
use state::Stage;
use std::collections::BTreeMap;

/// A seat's decision (AS-8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Plot a car's turn number and, for a moving car, its letter (AS-4.1).
    Plot {
        car: u8,
        number: u32,
        #[serde(default)]
        letter: Option<LetterInput>,
    },
    /// Plot the wild car's letter (AS-7.1).
    PlotWild {
        #[serde(default)]
        letter: Option<LetterInput>,
    },
    /// Case D: start a stationary car (AS-5.4).
    Start { car: u8, to: Hex, facing: HexDir },
    /// AS-7.3: the colours taken (from a player or the box).
    Take { colours: BTreeMap<String, u16> },
    /// AS-7.3: the colours paid into the box.
    Pay { colours: BTreeMap<String, u16> },
}

/// What a seat owes ([`Autoscooter::owed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owed {
    Plot(u8),
    PlotWild,
    Start(u8),
    Payment,
}

impl Action {
    pub fn plot(car: u8, number: u8, letter: Option<Letter>) -> Action {
        Action::Plot { car, number: number as u32, letter: letter.map(LetterInput::Valid) }
    }
}

impl Game for Autoscooter {
    const NAME: &'static str = "autoscooter";
    type Setup = Setup;
    type Action = Action;
    type Event = Event;
    type Error = ActionError;
    type View = View;
    type Static = Static;

    fn new(setup: &Setup, seed: u64) -> Result<Self, SetupError> {
        Autoscooter::create(setup, seed)
    }

    fn seats(&self) -> usize {
        self.seats as usize
    }

    fn decision(&self) -> Option<Decision> {
        match &self.stage {
            Stage::Plan => Some(Decision::Simultaneous(self.owing())),
            Stage::AwaitStart { seat, .. } | Stage::AwaitPayment { seat, .. } => {
                Some(Decision::One(*seat))
            }
            Stage::Act | Stage::Over => None,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.stage == Stage::Over).then(|| self.compute_outcome())
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
        match self.stage.clone() {
            Stage::Plan => self.fill_missing_plots(events),
            Stage::AwaitStart { car, seat } => {
                let (cell, facing) = self.default_start(car).expect("a start was possible");
                self.do_start(seat, car, cell, facing, events);
            }
            Stage::AwaitPayment { .. } => {
                let p = self.default_payment().expect("a payment has options");
                self.do_payment(p, events);
            }
            Stage::Act => {}
            Stage::Over => return Err(ActionError::GameOver),
        }
        self.run(events);
        Ok(())
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::new();
        match &self.stage {
            Stage::Plan => {
                for c in self
                    .cars()
                    .filter(|c| c.owner == Some(seat) && self.plots[c.id as usize].is_none())
                {
                    let (lo, hi) = Letter::range_at(c.speed);
                    for n in c.unused_numbers() {
                        if c.speed == 0 {
                            out.push(Action::plot(c.id, n, None));
                        } else {
                            for i in lo..=hi {
                                out.push(Action::plot(c.id, n, Letter::from_index(i)));
                            }
                        }
                    }
                }
                if self.check_plot_wild(seat, &None).is_ok() {
                    let w = self.car(self.wild.expect("wild"));
                    let (lo, hi) = Letter::range_at(w.speed);
                    for i in lo..=hi {
                        out.push(Action::PlotWild {
                            letter: Letter::from_index(i).map(LetterInput::Valid),
                        });
                    }
                }
            }
            Stage::AwaitStart { car, seat: s } if *s == seat => {
                let c = self.car(*car);
                for d in HexDir::ALL {
                    let n = self.board.neighbour(c.cell, d);
                    if self.is_free(n) {
                        for t in -2..=2 {
                            out.push(Action::Start {
                                car: *car,
                                to: self.board.hex(n),
                                facing: d.turn(t),
                            });
                        }
                    }
                }
            }
            Stage::AwaitPayment { seat: s, take, options } if *s == seat => {
                for p in options {
                    let colours = view::colour_map(p);
                    out.push(if *take {
                        Action::Take { colours }
                    } else {
                        Action::Pay { colours }
                    });
                }
            }
            _ => {}
        }
        out
    }

    fn sample_action(&self, seat: Seat, rng: &mut Rng) -> Option<Action> {
        match &self.stage {
            Stage::Plan => {
                if let Some(c) = self
                    .cars()
                    .find(|c| c.owner == Some(seat) && self.plots[c.id as usize].is_none())
                {
                    let free = sheet::ROUNDS as u32 - c.used.count_ones();
                    let k = rng.below(free.max(1));
                    let number = c.nth_unused(k)?;
                    return Some(Action::plot(c.id, number, random_letter(c.speed, rng)));
                }
                if self.check_plot_wild(seat, &None).is_ok() {
                    let l = random_letter(self.car(self.wild?).speed, rng)?;
                    return Some(Action::PlotWild { letter: Some(LetterInput::Valid(l)) });
                }
                None
            }
            Stage::AwaitStart { car, seat: s } if *s == seat => {
                let c = self.car(*car);
                let (free, n) = self.free_directions(c.cell);
                let d = free[rng.index(n.max(1))];
                let facing = d.turn(rng.below(5) as i32 - 2);
                Some(Action::Start {
                    car: *car,
                    to: self.board.hex(self.board.neighbour(c.cell, d)),
                    facing,
                })
            }
            Stage::AwaitPayment { seat: s, .. } if *s == seat => {
                let all = self.legal_actions(seat);
                rng.pick(&all).cloned()
            }
            _ => None,
        }
    }

    fn view(&self, observer: Observer) -> View {
        self.make_view(observer)
    }

    fn static_data(&self) -> Static {
        Static::of(&self.board)
    }

    /// The setting's "last player" clock: once every other player has plotted, the last one
    /// has `last_player_seconds` (AS-3.5's `time_up` then plots for them).
    fn clock(&self) -> Option<engine::Clock> {
        engine::last_player_clock(
            self.decision().as_ref(),
            self.seats as usize,
            self.last_player_seconds,
        )
    }

    /// AS-4.1: plots stay secret until every player has committed. A plot (of a car or the
    /// wild car) after which the plotter still owes another leaves everything public as it
    /// was — who still owes (`waiting`) included — and no other seat sees it: only the
    /// plotter's own view changes (its plots, its choices). The plot that ends a seat's
    /// planning changes every view's `waiting` (and may start the action phase); a start or a
    /// payment moves cars and chits: everyone's.
    fn views_touched(&self, seat: Seat, action: &Action) -> engine::Touched {
        if self.stage != Stage::Plan || seat.index() >= self.seats as usize {
            return engine::Touched::All;
        }
        let (cars_left, wild_left) = match action {
            Action::Plot { car, .. } => match 1u8.checked_shl(u32::from(*car)) {
                Some(bit) => (self.unplotted[seat.index()] & !bit, self.wild_moving),
                None => return engine::Touched::All,
            },
            Action::PlotWild { .. } => (self.unplotted[seat.index()], false),
            _ => return engine::Touched::All,
        };
        let wild_left = wild_left && self.wild_plots[seat.index()].is_none();
        if cars_left != 0 || wild_left { engine::Touched::only(seat) } else { engine::Touched::All }
    }

    fn determinize(&self, seat: Seat, rng: &mut Rng) -> Self {
        let mut g = self.clone();
        if g.stage == Stage::Plan {
            // Other seats' committed plots are secret (AS-4.1): keep the fact that they are
            // committed, resample what they say.
            for id in 0..8u8 {
                let (Some(c), Some(_)) = (g.cars[id as usize], g.plots[id as usize]) else {
                    continue;
                };
                if c.owner == Some(seat) {
                    continue;
                }
                let free = sheet::ROUNDS as u32 - c.used.count_ones();
                let number = c.unused_numbers().nth(rng.below(free.max(1)) as usize).unwrap_or(0);
                g.plots[id as usize] = Some(Plot { number, letter: random_letter(c.speed, rng) });
            }
            let wild_speed = g.wild.and_then(|w| g.cars[w as usize]).map_or(0, |c| c.speed);
            for (s, w) in g.wild_plots.iter_mut().enumerate() {
                if s != seat.index() && w.is_some() {
                    *w = Some(random_letter(wild_speed, rng));
                }
            }
        }
        g.rng = rng.fork();
        g
    }
}

/// Why [`Autoscooter::plan_round_random`] stopped.
enum Planned {
    /// Every car has its plot.
    All,
    /// After the most plots it was allowed.
    Capped,
    /// Where [`Autoscooter::play_random`] returns `None`: a seat owes a plot it cannot draw.
    Stuck,
}

/// A uniformly random letter allowed at `speed` (none for a stationary car).
#[inline]
fn random_letter(speed: u8, rng: &mut Rng) -> Option<Letter> {
    // AS-3.3's ranges by speed (`Letter::range_at`) as tables: first letter and how many.
    const LO: [u8; 4] = [0, 0, 0, 5];
    const COUNT: [u8; 4] = [0, 15, 16, 11];
    let s = speed as usize;
    if COUNT.get(s).is_none_or(|&n| n == 0) {
        return None;
    }
    debug_assert_eq!(Letter::range_at(speed), (LO[s], LO[s] + COUNT[s] - 1));
    Letter::from_index(LO[s] + rng.below(COUNT[s] as u32) as u8)
}

impl Autoscooter {
    /// [`Game::apply`] writing its events to any [`Sink`]: the same checks, the same state
    /// after, the same events but those a sink declines ([`Sink::SUMMARIES`]).
    pub fn apply_to(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut impl Sink,
    ) -> Result<(), ActionError> {
        if seat.index() >= self.seats as usize {
            return Err(self.wrong_time(seat));
        }
        match action {
            Action::Plot { car, number, letter } => {
                let plot = self.check_plot(seat, *car, *number, letter)?;
                self.do_plot(seat, *car, plot, events);
            }
            Action::PlotWild { letter } => {
                let l = self.check_plot_wild(seat, letter)?;
                self.wild_plots[seat.index()] = Some(l);
                self.refresh_owing_of(seat);
                events.push(Event::WildCommitted { seat });
                events.push(Event::WildPlotted { seat, letter: l });
            }
            Action::Start { car, to, facing } => {
                let cell = self.check_start(seat, *car, *to, *facing)?;
                self.do_start(seat, *car, cell, *facing, events);
            }
            Action::Take { colours } | Action::Pay { colours } => {
                let take = matches!(action, Action::Take { .. });
                let paid = self.check_payment(seat, take, colours)?;
                self.do_payment(paid, events);
            }
        }
        self.run(events);
        Ok(())
    }

    /// A random action for `seat`, applied: the same draws from `rng`, in the same order, and the
    /// same state after as [`Game::sample_action`] followed by [`Game::apply`] (and the same
    /// events, to `events`), without building the [`Action`] and checking it again — a sampled
    /// plot or start is legal by construction. `None` when `sample_action` would return `None`.
    /// For random play where nobody reads the action: `robodrome sim`, search playouts (issue 17;
    /// `tests/properties.rs::play_random_is_sample_then_apply` compares both ways).
    pub fn play_random(
        &mut self,
        seat: Seat,
        rng: &mut Rng,
        events: &mut impl Sink,
    ) -> Option<Result<(), ActionError>> {
        if seat.index() >= self.seats as usize {
            return None;
        }
        match &self.stage {
            Stage::Plan => {
                self.plan_random(seat, rng, events)?;
                // `run` goes on only once nobody owes a plot (AS-4.1): skip the call before.
                if !self.owing.is_empty() {
                    return Some(Ok(()));
                }
            }
            Stage::AwaitStart { car, seat: s } if *s == seat => {
                let car = *car;
                if let Some(refused) = self.start_random(seat, car, rng, events) {
                    return Some(refused);
                }
            }
            Stage::AwaitPayment { seat: s, .. } if *s == seat => {
                let all = self.legal_actions(seat);
                let a = rng.pick(&all)?;
                return Some(self.apply_to(seat, a, events));
            }
            _ => return None,
        }
        self.run(events);
        Some(Ok(()))
    }

    /// The start step of [`Self::play_random`] (case D, AS-5.4: `seat` starts `car`): the
    /// draws of [`Game::sample_action`], played as `apply` would. `Some` of `apply`'s answer
    /// when it went through `apply` (a refused start: the rules never ask when no hex is free),
    /// else `None`. Does not [`Self::run`].
    #[inline]
    fn start_random(
        &mut self,
        seat: Seat,
        car: u8,
        rng: &mut Rng,
        events: &mut impl Sink,
    ) -> Option<Result<(), ActionError>> {
        let c = *self.car(car);
        let (free, n) = self.free_directions(c.cell);
        let d = free[rng.index(n.max(1))];
        // `HexDir::turn` by table, without its `rem_euclid` (issue 17 round 6).
        let facing = resolve::turn(d, rng.below(5) as i32 - 2);
        let to = self.board.neighbour(c.cell, d);
        if !self.is_free(to) {
            // No free hex (the rules never ask then, AS-5.4): `apply` refuses the start
            // `sample_action` draws, with its own error.
            let a = Action::Start { car, to: self.board.hex(to), facing };
            return Some(self.apply_to(seat, &a, events));
        }
        self.do_start(seat, car, to, facing, events);
        None
    }

    /// The planning step of [`Self::play_random`]: the seat's first car without a plot gets a
    /// random unused number and letter, else the wild car a random letter (the draws of
    /// [`Game::sample_action`]); `None` when the seat owes nothing. Does not [`Self::run`].
    #[inline]
    fn plan_random(&mut self, seat: Seat, rng: &mut Rng, events: &mut impl Sink) -> Option<()> {
        // The seat's lowest car without a plot (the first `sample_action` finds).
        let mask = self.unplotted[seat.index()];
        if mask != 0 {
            let c = *self.car(mask.trailing_zeros() as u8);
            let free = sheet::ROUNDS as u32 - state::ones16(c.used);
            let k = rng.below(free.max(1));
            let number = c.nth_unused(k)?;
            let letter = random_letter(c.speed, rng);
            let plot = Plot { number, letter };
            debug_assert!(
                self.check_plot(seat, c.id, number as u32, &letter.map(LetterInput::Valid))
                    == Ok(plot)
            );
            self.do_plot(seat, c.id, plot, events);
        } else if self.check_plot_wild(seat, &None).is_ok() {
            let l = random_letter(self.car(self.wild?).speed, rng)?;
            self.wild_plots[seat.index()] = Some(Some(l));
            self.refresh_owing_of(seat);
            events.push(Event::WildCommitted { seat });
            events.push(Event::WildPlotted { seat, letter: Some(l) });
        } else {
            return None;
        }
        Some(())
    }

    /// Random play to the end: what the loop "the seat that owes the decision (the first of
    /// several) → [`Self::play_random`]" plays from `rng` — the same draws in the same order,
    /// the same state and the same events — stopping where that loop stops (no decision, no
    /// action to draw, a refused action) or after `max_actions`. Returns the actions played.
    /// Without the loop's round trips (`decision`, the acting order rebuilt per action): for
    /// `robodrome sim` and playouts (issue 17; `tests/properties.rs` compares both ways).
    pub fn play_random_game(
        &mut self,
        rng: &mut Rng,
        max_actions: u64,
        events: &mut impl Sink,
    ) -> u64 {
        let mut n = 0;
        while n < max_actions {
            let seat = match &self.stage {
                // Without the wild car's letters, a planning phase is every seat's cars in order:
                // played in one loop (issue 17 round 6).
                Stage::Plan if !self.wild_moving && !self.owing.is_empty() => {
                    let (played, planned) = self.plan_round_random(rng, max_actions - n, events);
                    n += played;
                    match planned {
                        // The last plot's `play_random` runs the action phase; the starts it
                        // meets are drawn there, each an action of the cap (issue 17 round 7).
                        Planned::All => n += self.run_random(rng, max_actions - n, events),
                        Planned::Capped => {}
                        Planned::Stuck => break,
                    }
                    continue;
                }
                // A start (case D) without the round trip through `play_random`.
                &Stage::AwaitStart { car, seat } if seat.index() < self.seats as usize => {
                    match self.start_random(seat, car, rng, events) {
                        None => {
                            n += 1;
                            n += self.run_random(rng, max_actions - n, events);
                        }
                        Some(Ok(())) => n += 1,
                        Some(Err(_)) => break,
                    }
                    continue;
                }
                Stage::Plan => match self.owing.first() {
                    Some(s) => s,
                    None => break,
                },
                Stage::AwaitStart { seat, .. } | Stage::AwaitPayment { seat, .. } => *seat,
                Stage::Act | Stage::Over => break,
            };
            match self.play_random(seat, rng, events) {
                Some(Ok(())) => n += 1,
                _ => break,
            }
        }
        n
    }

    /// The plots of [`Self::play_random_game`]'s actions in a planning phase without the wild
    /// car's letters (`wild_moving` false): the first seat that owes plots its lowest car without
    /// a plot, again and again — [`Self::plan_random`]'s draws and state, [`Self::do_plot`]'s
    /// events — without going through [`Self::play_random`] for each plot. Stops after `max`
    /// plots. Returns the plots made and why it stopped; does not [`Self::run`].
    #[inline]
    fn plan_round_random(
        &mut self,
        rng: &mut Rng,
        max: u64,
        events: &mut impl Sink,
    ) -> (u64, Planned) {
        debug_assert!(self.stage == Stage::Plan && !self.wild_moving);
        let mut n = 0;
        while let Some(seat) = self.owing.first() {
            let mut mask = self.unplotted[seat.index()];
            if mask == 0 {
                // `plan_random` finds nothing to plot (no wild car letter to owe).
                return (n, Planned::Stuck);
            }
            while mask != 0 {
                if n == max {
                    return (n, Planned::Capped);
                }
                let car = mask.trailing_zeros() as u8;
                let c = *self.car(car);
                let free = sheet::ROUNDS as u32 - state::ones16(c.used);
                let k = rng.below(free.max(1));
                let Some(number) = c.nth_unused(k) else {
                    return (n, Planned::Stuck);
                };
                let letter = random_letter(c.speed, rng);
                debug_assert!(
                    self.check_plot(seat, car, number as u32, &letter.map(LetterInput::Valid))
                        .is_ok()
                );
                self.plots[car as usize] = Some(Plot { number, letter });
                mask &= mask - 1;
                self.unplotted[seat.index()] = mask;
                events.push(Event::Committed { seat, car });
                events.push(Event::Plotted { seat, car, number, letter });
                n += 1;
            }
            // `refresh_owing_of`: no car left, and no wild car letter owed.
            self.owing.remove(seat);
        }
        (n, Planned::All)
    }

    /// A seat's final score: chits; chits × colours (AS-7.3); its best car's (AS-7.4).
    #[inline]
    pub fn seat_score(&self, seat: Seat) -> i64 {
        if self.variants.per_car_scoring {
            self.cars()
                .filter(|c| c.owner == Some(seat))
                .map(|c| self.score_of(&self.car_purses[c.id as usize]))
                .max()
                .unwrap_or(0)
        } else {
            self.score_of(&self.chits(seat))
        }
    }

    /// The seats in first place of a finished game (AS-6: the highest score; equal scores share
    /// the place), as the first group of the outcome's ranking, without building the ranking
    /// (issue 17: `robodrome sim` reads only the first place of every game). `None` before the
    /// end.
    pub fn winners(&self) -> Option<engine::SeatSet> {
        if !self.is_over() {
            return None;
        }
        let mut best = i64::MIN;
        let mut top = engine::SeatSet::EMPTY;
        for s in (0..self.seats).map(Seat) {
            let score = self.seat_score(s);
            if score > best {
                (best, top) = (score, engine::SeatSet::single(s));
            } else if score == best {
                top.insert(s);
            }
        }
        Some(top)
    }

    /// Ranking by score; ties share the place (AS-6).
    pub(crate) fn compute_outcome(&self) -> Outcome {
        let scores: Vec<i64> = (0..self.seats).map(|s| self.seat_score(Seat(s))).collect();
        // At most 8 seats (`create` refuses more): the order on the stack, the ranking's
        // places allocated once (issue 17: `robodrome sim` builds an outcome per game).
        let mut order: arrayvec::ArrayVec<Seat, 8> = (0..self.seats).map(Seat).collect();
        order.sort_by_key(|s| (std::cmp::Reverse(scores[s.index()]), s.0));
        let mut ranking: Vec<Vec<Seat>> = Vec::with_capacity(order.len());
        for s in order {
            match ranking.last_mut() {
                Some(g) if scores[g[0].index()] == scores[s.index()] => g.push(s),
                _ => ranking.push(vec![s]),
            }
        }
        Outcome { ranking, scores: Some(scores) }
    }

    /// What `seat` owes now, without listing every action: the first car it must plot, the wild
    /// car's letter, a start, or a colour choice.
    pub fn owed(&self, seat: Seat) -> Option<Owed> {
        match &self.stage {
            Stage::Plan => {
                if let Some(c) = self
                    .cars()
                    .find(|c| c.owner == Some(seat) && self.plots[c.id as usize].is_none())
                {
                    Some(Owed::Plot(c.id))
                } else if self.check_plot_wild(seat, &None).is_ok() {
                    Some(Owed::PlotWild)
                } else {
                    None
                }
            }
            Stage::AwaitStart { car, seat: s } if *s == seat => Some(Owed::Start(*car)),
            Stage::AwaitPayment { seat: s, .. } if *s == seat => Some(Owed::Payment),
            _ => None,
        }
    }

    /// Is the game over (AS-6)? [`Game::outcome`] without building the ranking.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    /// The scenario `phase`.
    pub fn phase(&self) -> &'static str {
        self.phase_name()
    }
}
