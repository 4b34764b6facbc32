//! The game state and the planning phase (AS-4).

use crate::board::{Board, Cell, NONE};
use crate::chart::{Letter, LetterInput};
use crate::error::{ActionError, check_letter};
use crate::event::{Event, Holder, Sink};
use crate::purse::Purse;
use crate::setup::{Setup, TOTAL_CHITS, Variants, WildCar};
use crate::sheet;
use arrayvec::ArrayVec;
use engine::{Rng, Seat, SeatSet, SetupError};
use grid::HexDir;
use std::sync::Arc;

/// "No car" in the occupancy table.
pub(crate) const EMPTY: u8 = u8::MAX;

/// A car on the rink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Car {
    pub id: u8,
    pub owner: Option<Seat>,
    pub cell: Cell,
    pub facing: HexDir,
    pub speed: u8,
    /// Rows of the sheet already used (bit i = row i).
    pub used: u16,
}

impl Car {
    /// The `k`-th unused turn number (0-based), ascending.
    #[inline]
    pub fn nth_unused(&self, k: u32) -> Option<u8> {
        let free = !self.used & ((1 << sheet::ROUNDS) - 1);
        let row = nth_bit(free, k)?;
        Some(sheet::number(self.id, row))
    }
    /// Unused turn numbers, ascending.
    pub fn unused_numbers(&self) -> impl Iterator<Item = u8> + '_ {
        (0..sheet::ROUNDS).filter(|i| self.used & (1 << i) == 0).map(|i| sheet::number(self.id, i))
    }
    /// Used turn numbers, ascending.
    pub fn used_numbers(&self) -> impl Iterator<Item = u8> + '_ {
        (0..sheet::ROUNDS).filter(|i| self.used & (1 << i) != 0).map(|i| sheet::number(self.id, i))
    }
}

/// `SELECT8[b][k]`: the position of the `k`-th set bit (0-based, from the lowest) of the byte
/// `b`, or 8 when `b` has at most `k` set bits.
static SELECT8: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// `ONES8[b]`: the set bits of the byte `b` (`u8::count_ones`, which the baseline x86-64 target
/// has no instruction for: a sequence of a dozen instructions per call).
static ONES8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    t
};

/// The set bits of a `u16`, by [`ONES8`].
#[inline]
pub(crate) fn ones16(x: u16) -> u32 {
    ONES8[(x & 0xff) as usize] as u32 + ONES8[(x >> 8) as usize] as u32
}

/// [`HexDir::ALL`] by index, and E for the indices 6..=8 ([`SELECT8`]'s "no such bit" is 8).
const DIR_OR_E: [HexDir; 9] = {
    let mut t = [HexDir::E; 9];
    let mut i = 0;
    while i < 6 {
        t[i] = HexDir::ALL[i];
        i += 1;
    }
    t
};

/// The free directions of a set of them ([`Autoscooter::free_mask`]): how many, and the `k`-th
/// (`k` below that count) — a case D start's draw without listing the six (issue 17 round 7).
#[inline]
pub(crate) fn dir_count(free: usize) -> u32 {
    ONES8[free & 0xff] as u32
}

/// The `k`-th direction (0-based, in [`HexDir::ALL`]'s order) of the set `free`; E when there
/// is no such direction.
#[inline]
pub(crate) fn nth_dir(free: usize, k: u32) -> HexDir {
    DIR_OR_E[SELECT8[free & 0xff][(k & 7) as usize] as usize]
}

/// The position of the `k`-th set bit of `x` (0-based, from the lowest), if `x` has more than
/// `k`: a table lookup per byte instead of clearing `k` bits one by one (whose loop ends at a
/// random place in random play: a mispredicted branch per plot; issue 17).
#[inline]
pub(crate) fn nth_bit(x: u16, k: u32) -> Option<u8> {
    let ones = ONES8[(x & 0xff) as usize] as u32;
    // In the high byte or not, by arithmetic (the comparison is random in random play).
    let high = (k >= ones) as u32;
    let byte = (x >> (8 * high)) as u8;
    let k = k - ones * high;
    if k >= 8 {
        return None;
    }
    let bit = SELECT8[byte as usize][k as usize];
    (bit < 8).then_some(8 * high as u8 + bit)
}

/// A car's plot for this round (AS-4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plot {
    pub number: u8,
    pub letter: Option<Letter>,
}

/// One car's turn in the action phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Turn {
    pub car: u8,
    /// Its turn number this round (0 for the wild car, which moves last).
    pub number: u8,
    /// The seat that moves it (its owner; for the wild car, AS-7.1's player).
    pub mover: Seat,
    pub letter: Option<Letter>,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// Secret, simultaneous planning (AS-4).
    Plan,
    /// Cars act in turn order; `step` indexes `turns`.
    Act,
    /// Case D: `seat` chooses where car `car` starts (AS-5.4).
    AwaitStart {
        car: u8,
        seat: Seat,
    },
    /// AS-7.3: `seat` chooses the colours of the payment at `work.next`.
    AwaitPayment {
        seat: Seat,
        take: bool,
        options: Vec<Purse>,
    },
    Over,
}

/// A money transfer owed by a crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Transfer {
    pub from: Holder,
    pub to: Holder,
    pub amount: u32,
}

/// What a crash does to cars once its chits are paid (AS-5.5: chits first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    Speed(u8, u8),
    Turn(u8, i32),
    Jolt(u8, Cell),
}

/// A crash being scored: transfers in order, then effects.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct CrashWork {
    pub transfers: ArrayVec<Transfer, 2>,
    pub next: usize,
    pub effects: ArrayVec<Effect, 2>,
}

/// An Autoscooter game. Create it with [`engine::Game::new`].
#[derive(Clone, Debug, PartialEq)]
pub struct Autoscooter {
    pub(crate) board: Arc<Board>,
    pub(crate) variants: Variants,
    pub(crate) seats: u8,
    /// Cars by id; `None` for ids the game does not have.
    pub(crate) cars: [Option<Car>; 8],
    /// The car on each cell, or [`EMPTY`]: a board has fewer than 255 cells (`Cell` is a `u8`),
    /// so a fixed table, copied by `clone` without an allocation (issue 17).
    pub(crate) occupancy: [u8; 256],
    /// Per seat (`seats` of them).
    pub(crate) players: ArrayVec<Purse, 8>,
    pub(crate) car_purses: [Purse; 8],
    pub(crate) box_purse: Purse,
    pub(crate) wild: Option<u8>,
    pub(crate) round: u8,
    pub(crate) stage: Stage,
    pub(crate) plots: [Option<Plot>; 8],
    /// Per seat: the wild car letter plotted this round (`Some(None)`: plotted "no letter").
    pub(crate) wild_plots: ArrayVec<Option<Option<Letter>>, 8>,
    /// Does the wild car need a letter this round (it started the round moving)?
    pub(crate) wild_moving: bool,
    /// Seats that still owe something in planning (kept up to date by `refresh_owing`).
    pub(crate) owing: SeatSet,
    /// Per seat: its cars without a plot this round, as a set of car ids (bit `c`: car `c`),
    /// kept by every writer of `plots` (`refresh_owing` rebuilds it, `do_plot` removes the car)
    /// so that a plot need not scan the cars: the seat's next car to plot is the lowest bit
    /// (issue 17; `debug_assert`ed against the scan in `refresh_owing_of`).
    pub(crate) unplotted: [u8; 8],
    /// This round's turns in acting order (at most 8 cars and the wild car).
    pub(crate) turns: ArrayVec<Turn, 9>,
    pub(crate) step: usize,
    pub(crate) work: Option<CrashWork>,
    /// Unused by the rules (Autoscooter has no chance); kept for determinized copies.
    pub(crate) rng: Rng,
    /// The last-player clock's length in seconds (0: off), from the setup.
    pub(crate) last_player_seconds: u32,
}

impl Autoscooter {
    pub(crate) fn create(setup: &Setup, seed: u64) -> Result<Autoscooter, SetupError> {
        let mut problems = Vec::new();
        let board = match Board::shared(&setup.board) {
            Ok(b) => b,
            Err(p) => return Err(SetupError { problems: p }),
        };
        let seats = setup.players.len();
        if seats > 8 {
            problems.push(format!("at most 8 players, not {seats}"));
        }
        for (i, p) in setup.players.iter().enumerate() {
            if p.seat.index() != i {
                problems.push(format!(
                    "players[{i}] has seat {}: seats are numbered 0, 1, 2… in order",
                    p.seat.0
                ));
            }
        }
        if !(1..=sheet::ROUNDS).contains(&setup.round) {
            problems.push(format!("round must be 1..11, not {}", setup.round));
        }
        let v = &setup.variants;
        if v.per_car_scoring && !v.colour_scoring {
            problems.push("per_car_scoring needs colour_scoring (AS-7.4)".into());
        }
        // AS-1.3: the deal, by lots from the seed or as the setup lists it.
        let mut rng = Rng::seeded(seed);
        // The lots' draw, in place (no vector per seat: issue 17, a setup per simulated game).
        let mut all: [u8; 8] = std::array::from_fn(|c| c as u8);
        // At most 8 seats (more is a problem above, and an error below): no vector (issue 17).
        let dealt: ArrayVec<&[u8], 8> = match setup.lots {
            None => setup.players.iter().take(8).map(|p| p.cars.as_slice()).collect(),
            Some(each) => {
                if setup.players.iter().any(|p| !p.cars.is_empty()) {
                    problems
                        .push("lots: the cars are drawn by lots, so players list no cars".into());
                }
                if each == 0 || each as usize * seats > sheet::CARS as usize {
                    problems.push(format!(
                        "lots: {seats} players cannot draw {each} of the 8 cars each (AS-1.3)"
                    ));
                    (0..seats.min(8)).map(|_| &[][..]).collect()
                } else {
                    rng.shuffle(&mut all);
                    all.chunks_mut(each as usize)
                        .take(seats)
                        .map(|c| {
                            c.sort_unstable();
                            &*c
                        })
                        .collect()
                }
            }
        };
        let mut owner: [Option<Seat>; 8] = [None; 8];
        for (p, cars) in setup.players.iter().zip(&dealt) {
            for &c in *cars {
                if c >= sheet::CARS {
                    problems.push(format!("car {c} does not exist (cars are 0..7)"));
                } else if let Some(o) = owner[c as usize] {
                    problems.push(format!("car {c} belongs to both {o} and {}", p.seat));
                } else {
                    owner[c as usize] = Some(p.seat);
                }
            }
        }
        let mut cars: [Option<Car>; 8] = [None; 8];
        let mut occupancy = [EMPTY; 256];
        for c in &setup.cars {
            if c.car >= sheet::CARS {
                problems.push(format!("car {} does not exist (cars are 0..7)", c.car));
            } else if setup.cars.iter().filter(|o| o.car == c.car).count() > 1 {
                problems.push(format!("car {} is placed twice", c.car));
            }
        }
        for id in 0..sheet::CARS {
            let Some(place) = setup.placement(id) else {
                if owner[id as usize].is_some() {
                    problems.push(format!(
                        "car {id} belongs to a player but has no place and no start space"
                    ));
                }
                continue;
            };
            let Some(cell) = board.cell(place.at) else {
                problems.push(format!("car {id} at {} is off the rink", place.at));
                continue;
            };
            if occupancy[cell as usize] != EMPTY {
                problems
                    .push(format!("cars {} and {id} share {}", occupancy[cell as usize], place.at));
                continue;
            }
            if place.speed > 3 {
                problems.push(format!("car {id}: speed is 0..3, not {}", place.speed));
            }
            // AS-2.1: a player's car uses one number a round, so it needs one for this round
            // and each later one (else the timer's default would have no number to plot).
            let rounds_left = (sheet::ROUNDS + 1).saturating_sub(setup.round) as usize;
            let distinct = match place.used_numbers.len() {
                0 => 0,
                _ => place.used_numbers.iter().collect::<std::collections::BTreeSet<_>>().len(),
            };
            let numbers_left = (sheet::ROUNDS as usize).saturating_sub(distinct);
            if owner[id as usize].is_some() && numbers_left < rounds_left {
                problems.push(format!(
                    "car {id} has {numbers_left} turn numbers left for {rounds_left} rounds (rounds {}..11): a car uses one number a round (AS-2.1)",
                    setup.round
                ));
            }
            let mut used = 0u16;
            for &n in &place.used_numbers {
                match sheet::row_of(id, n) {
                    Some(i) => used |= 1 << i,
                    None => {
                        problems.push(format!("car {id}: used number {n} is not in its column"))
                    }
                }
            }
            occupancy[cell as usize] = id;
            cars[id as usize] = Some(Car {
                id,
                owner: owner[id as usize],
                cell,
                facing: place.facing,
                speed: place.speed.min(3),
                used,
            });
        }
        let wild = match v.wild_car {
            None | Some(WildCar::Lowest(false)) => None,
            Some(WildCar::Lowest(true)) => {
                let w = (0..8u8).find(|&c| cars[c as usize].is_some_and(|car| car.owner.is_none()));
                if w.is_none() {
                    problems.push("wild_car: every car on the rink belongs to a player".into());
                }
                w
            }
            Some(WildCar::Car(c)) => {
                match cars.get(c as usize).copied().flatten() {
                    Some(car) if car.owner.is_none() => {}
                    Some(_) => problems.push(format!("wild_car {c} belongs to a player (AS-7.1)")),
                    None => problems.push(format!("wild_car {c} is not on the rink")),
                }
                Some(c)
            }
        };
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }

        // Chits (AS-5.6, AS-7.3).
        let mut players: ArrayVec<Purse, 8> = (0..seats).map(|_| Purse::default()).collect();
        let mut car_purses = [Purse::default(); 8];
        let mut box_purse = Purse::default();
        if v.colour_scoring {
            for (i, (p, cars)) in setup.players.iter().zip(&dealt).enumerate() {
                let mut purse = Purse::default();
                match &p.colours {
                    Some(map) => {
                        for (&c, &n) in map {
                            if c < 8 {
                                purse.0[c as usize] = n.min(u16::MAX as u32) as u16;
                            }
                        }
                    }
                    None => {
                        for &c in *cars {
                            purse.0[c as usize] = 10;
                        }
                    }
                }
                if v.per_car_scoring {
                    // Each colour goes to the car of that colour, or the player's lowest car.
                    let lowest = cars.iter().copied().min();
                    for c in 0..8u8 {
                        let n = purse.0[c as usize];
                        let to = if cars.contains(&c) { Some(c) } else { lowest };
                        if let Some(to) = to {
                            car_purses[to as usize].0[c as usize] += n;
                        }
                    }
                } else {
                    players[i] = purse;
                }
            }
            match setup.box_chits {
                Some(n) => box_purse = Purse::plain(n),
                None => {
                    for (c, car) in cars.iter().enumerate() {
                        if car.is_some_and(|car| car.owner.is_none()) {
                            box_purse.0[c] = 10;
                        }
                    }
                }
            }
        } else {
            let given: u32 = setup.players.iter().map(|p| p.chits).sum();
            for (i, p) in setup.players.iter().enumerate() {
                players[i] = Purse::plain(p.chits);
            }
            box_purse = Purse::plain(setup.box_chits.unwrap_or(TOTAL_CHITS.saturating_sub(given)));
        }

        let mut g = Autoscooter {
            board,
            variants: v.clone(),
            last_player_seconds: setup.last_player_seconds,
            seats: seats as u8,
            cars,
            occupancy,
            players,
            car_purses,
            box_purse,
            wild,
            round: setup.round,
            stage: Stage::Plan,
            plots: [None; 8],
            wild_plots: (0..seats).map(|_| None).collect(),
            wild_moving: false,
            owing: SeatSet::EMPTY,
            unplotted: [0; 8],
            turns: ArrayVec::new(),
            step: 0,
            work: None,
            rng,
        };
        g.begin_planning();
        g.run(&mut crate::event::NoEvents);
        Ok(g)
    }

    #[inline]
    pub(crate) fn begin_planning(&mut self) {
        self.stage = Stage::Plan;
        self.plots = [None; 8];
        self.wild_plots.iter_mut().for_each(|w| *w = None);
        self.wild_moving =
            self.wild.and_then(|w| self.cars[w as usize]).is_some_and(|c| c.speed > 0);
        // `refresh_owing` with no plot yet: each seat's cars, read without the plots (a round's
        // start in every random game, issue 17 round 6).
        let mut unplotted = [0u8; 8];
        let mut owing = SeatSet::EMPTY;
        for c in self.cars.iter().flatten() {
            if let Some(o) = c.owner {
                unplotted[o.index()] |= 1 << c.id;
                owing.insert(o);
            }
        }
        self.unplotted = unplotted;
        if self.wild_moving {
            self.refresh_owing_from_unplotted();
        } else {
            // Every seat with a car owes its plots (`refresh_owing_from_unplotted` without a
            // second loop over the seats, issue 17 round 7).
            debug_assert_eq!(self.unplotted, self.count_unplotted(), "unplotted cars");
            debug_assert_eq!(owing, self.compute_owing());
            self.owing = owing;
        }
    }

    // ----- small accessors -----

    #[inline]
    pub(crate) fn car(&self, id: u8) -> &Car {
        self.cars[id as usize].as_ref().expect("car exists")
    }
    #[inline]
    pub(crate) fn car_mut(&mut self, id: u8) -> &mut Car {
        self.cars[id as usize].as_mut().expect("car exists")
    }
    /// Cars that exist, by id.
    pub fn cars(&self) -> impl Iterator<Item = &Car> {
        self.cars.iter().flatten()
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn round(&self) -> u8 {
        self.round
    }
    pub fn variants(&self) -> &Variants {
        &self.variants
    }
    pub fn wild_car(&self) -> Option<u8> {
        self.wild
    }
    pub fn plot(&self, car: u8) -> Option<Plot> {
        self.plots.get(car as usize).copied().flatten()
    }
    pub(crate) fn seat_has_cars(&self, seat: Seat) -> bool {
        self.cars().any(|c| c.owner == Some(seat))
    }

    /// Seats that still owe something in planning (AS-4.1, AS-7.1).
    #[inline]
    pub(crate) fn owing(&self) -> SeatSet {
        if self.stage == Stage::Plan { self.owing } else { SeatSet::EMPTY }
    }

    /// Recompute [`Self::owing`] and [`Self::unplotted`] after the plots changed.
    pub(crate) fn refresh_owing(&mut self) {
        self.unplotted = self.count_unplotted();
        self.refresh_owing_from_unplotted();
    }

    /// [`Self::owing`] from [`Self::unplotted`] (up to date).
    #[inline]
    fn refresh_owing_from_unplotted(&mut self) {
        debug_assert_eq!(self.unplotted, self.count_unplotted(), "unplotted cars");
        // `compute_owing` from the sets just counted: a seat owes a plot when it has a car
        // without one (the wild car's letters as there).
        if self.wild_moving {
            self.owing = self.compute_owing();
            return;
        }
        let mut set = SeatSet::EMPTY;
        for (s, &cars) in self.unplotted.iter().enumerate() {
            if cars != 0 {
                set.insert(Seat(s as u8));
            }
        }
        debug_assert_eq!(set, self.compute_owing());
        self.owing = set;
    }

    /// Each seat's cars without a plot (bit `c`: car `c`), by scanning the cars.
    pub(crate) fn count_unplotted(&self) -> [u8; 8] {
        let mut n = [0u8; 8];
        for (c, p) in self.cars.iter().zip(&self.plots) {
            if let (Some(c), None) = (c, p)
                && let Some(o) = c.owner
            {
                n[o.index()] |= 1 << c.id;
            }
        }
        n
    }

    /// Update [`Self::owing`] for one seat after it plotted (`unplotted` already updated).
    #[inline]
    pub(crate) fn refresh_owing_of(&mut self, seat: Seat) {
        debug_assert_eq!(self.unplotted, self.count_unplotted(), "unplotted cars");
        let car_missing = self.unplotted[seat.index()] != 0;
        let wild_missing = self.wild_moving && self.wild_plots[seat.index()].is_none();
        if !car_missing && !wild_missing {
            self.owing.remove(seat);
        }
    }

    fn compute_owing(&self) -> SeatSet {
        let mut set = SeatSet::EMPTY;
        for c in self.cars() {
            if let Some(o) = c.owner
                && self.plots[c.id as usize].is_none()
            {
                set.insert(o);
            }
        }
        if self.wild_moving {
            for s in 0..self.seats {
                let seat = Seat(s);
                if self.wild_plots[s as usize].is_none() && self.seat_has_cars(seat) {
                    set.insert(seat);
                }
            }
        }
        set
    }

    /// A seat's chits: its purse, or with per-car scoring the sum of its cars' purses.
    #[inline]
    pub fn chits(&self, seat: Seat) -> Purse {
        if self.variants.per_car_scoring {
            let mut p = Purse::default();
            for c in self.cars().filter(|c| c.owner == Some(seat)) {
                p.add(&self.car_purses[c.id as usize]);
            }
            p
        } else {
            self.players[seat.index()]
        }
    }
    pub fn box_chits(&self) -> Purse {
        self.box_purse
    }
    pub fn car_chits(&self, car: u8) -> Purse {
        self.car_purses[car as usize]
    }

    // ----- planning actions (AS-4) -----

    pub(crate) fn check_plot(
        &self,
        seat: Seat,
        car: u8,
        number: u32,
        letter: &Option<LetterInput>,
    ) -> Result<Plot, ActionError> {
        if self.stage != Stage::Plan {
            return Err(self.wrong_time(seat));
        }
        let c = match self.cars.get(car as usize).copied().flatten() {
            Some(c) if c.owner == Some(seat) => c,
            _ => return Err(ActionError::NotYourCar { seat, car }),
        };
        if self.plots[car as usize].is_some() {
            return Err(ActionError::AlreadyPlotted { car });
        }
        let row =
            sheet::row_of(car, number).ok_or(ActionError::NumberNotInColumn { car, number })?;
        if c.used & (1 << row) != 0 {
            return Err(ActionError::NumberAlreadyUsed { car, number });
        }
        let letter = match letter {
            Some(l) => Some(check_letter(l)?),
            None => None,
        };
        Ok(Plot { number: number as u8, letter })
    }

    pub(crate) fn wrong_time(&self, seat: Seat) -> ActionError {
        if self.stage == Stage::Over {
            ActionError::GameOver
        } else {
            ActionError::NotYourDecision { seat }
        }
    }

    #[inline]
    pub(crate) fn do_plot(&mut self, seat: Seat, car: u8, plot: Plot, events: &mut impl Sink) {
        debug_assert!(self.plots[car as usize].is_none(), "check_plot refuses a second plot");
        self.plots[car as usize] = Some(plot);
        self.unplotted[seat.index()] &= !(1 << car);
        self.refresh_owing_of(seat);
        events.push(Event::Committed { seat, car });
        events.push(Event::Plotted { seat, car, number: plot.number, letter: plot.letter });
    }

    pub(crate) fn check_plot_wild(
        &self,
        seat: Seat,
        letter: &Option<LetterInput>,
    ) -> Result<Option<Letter>, ActionError> {
        if self.stage != Stage::Plan || !self.seat_has_cars(seat) {
            return Err(self.wrong_time(seat));
        }
        if self.wild.is_none() {
            return Err(ActionError::NoWildCar);
        }
        if !self.wild_moving {
            return Err(ActionError::WildCarStationary);
        }
        if self.wild_plots[seat.index()].is_some() {
            return Err(ActionError::WildAlreadyPlotted);
        }
        match letter {
            Some(l) => Ok(Some(check_letter(l)?)),
            None => Ok(None),
        }
    }

    /// AS-4.2: time is up in planning: highest unused number and straight ahead.
    pub(crate) fn fill_missing_plots(&mut self, events: &mut impl Sink) {
        for id in 0..8u8 {
            let Some(c) = self.cars[id as usize] else { continue };
            let Some(owner) = c.owner else { continue };
            if self.plots[id as usize].is_none() {
                let number = c.unused_numbers().last().unwrap_or(0);
                self.plots[id as usize] = Some(Plot { number, letter: None });
                events.push(Event::AutoPlotted { seat: owner, car: id, number });
            }
        }
        if self.wild_moving {
            for s in 0..self.seats {
                if self.wild_plots[s as usize].is_none() && self.seat_has_cars(Seat(s)) {
                    self.wild_plots[s as usize] = Some(None);
                }
            }
        }
        self.refresh_owing();
    }

    #[inline]
    pub(crate) fn is_free(&self, cell: Cell) -> bool {
        // `&`, not `&&`: the table has a slot for NONE (255, never a cell: always EMPTY), so
        // both sides are read and no branch depends on the position (issue 17).
        (cell != NONE) & (self.occupancy[cell as usize] == EMPTY)
    }

    /// The free hexes beside `cell` as a set (bit `d`: [`HexDir::ALL`]`[d]`), found without a
    /// branch on the position (issue 17).
    #[inline]
    pub(crate) fn free_mask(&self, cell: Cell) -> usize {
        let mut mask = 0usize;
        for d in HexDir::ALL {
            mask |= (self.is_free(self.board.neighbour(cell, d)) as usize) << d.index();
        }
        mask
    }

    /// The free hexes beside `cell`, in [`HexDir::ALL`]'s order, and how many (a case D
    /// start's choices, AS-5.4: `legal_actions`, `sample_action`, `play_random`, encoding).
    #[inline]
    pub(crate) fn free_directions(&self, cell: Cell) -> ([HexDir; 6], usize) {
        // The free directions as a set of bits, then the set's members in order (E in the slots
        // from `n` on, which a caller drawing from no free hex reads): no branch on the random
        // position (issue 17).
        let mask = self.free_mask(cell);
        let select = &SELECT8[mask];
        let free = std::array::from_fn(|i| DIR_OR_E[select[i] as usize]);
        (free, ONES8[mask] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's `k`-th set bit is the one left after clearing the `k` lowest set bits, for
    /// every 16-bit mask and every `k` (exhaustive).
    #[test]
    fn nth_bit_is_clearing_the_lowest_bits() {
        for x in 0..=u16::MAX {
            let mut left = x;
            for k in 0..18u32 {
                let expected = (left != 0).then(|| left.trailing_zeros() as u8);
                assert_eq!(nth_bit(x, k), expected, "x = {x:#b}, k = {k}");
                left &= left.wrapping_sub(1);
            }
        }
    }
}
