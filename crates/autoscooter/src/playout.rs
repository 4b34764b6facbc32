//! Helpers for search playouts (issue 17): the rules' own steps without the generic
//! [`crate::Action`] round trip, and the previews of a planning phase computed once.
//!
//! A search bot plays thousands of short games from one position; each of its playout steps
//! draws a seat, chooses a plot or a start and plays it. These helpers let it do so with the
//! same draws, the same checks and the same state after as [`engine::harness::next_seat`],
//! [`Game::apply`] and [`Autoscooter::preview`], without building an `Action` (whose letter may
//! own a `String`) or reading the same previews again for every car of a round.

use crate::board::{Cell, NONE};
use crate::chart::{Letter, LetterInput};
use crate::error::ActionError;
use crate::event::CrashKind;
use crate::event::Sink;
use crate::resolve::{Edge, Target, impact_edge, path_of, turn};
use crate::state::{Autoscooter, Car, EMPTY, Plot, Stage};
use engine::{Rng, Seat};
use grid::HexDir;

#[cfg(doc)]
use engine::Game;

impl Autoscooter {
    /// The seat [`engine::harness::next_seat`] draws for this state's [`Game::decision`]: the
    /// same draw from `rng` (none for a decision of one seat), without building the decision.
    /// `None` when nobody owes anything (the action phase, the end).
    #[inline]
    pub fn draw_seat(&self, rng: &mut Rng) -> Option<Seat> {
        match &self.stage {
            Stage::Plan => {
                let owing = self.owing;
                let n = owing.len();
                if n == 0 {
                    return None;
                }
                // The `k`-th seat of the set, as `SeatSet::iter().nth(k)` counts them (in
                // ascending order: the first `k` removed, without testing all 16 seats).
                let k = below(rng, n as u32);
                let mut rest = owing;
                for _ in 0..k {
                    rest.remove(rest.first()?);
                }
                rest.first()
            }
            Stage::AwaitStart { seat, .. } | Stage::AwaitPayment { seat, .. } => Some(*seat),
            Stage::Act | Stage::Over => None,
        }
    }

    /// The car [`Autoscooter::owed`] asks `seat` to plot while planning (AS-4.1): its lowest
    /// car without a plot, from the seat's bit-set of them rather than a search of the cars.
    /// `None` when it owes no plot of its own cars (ask `owed`).
    #[inline]
    pub fn owed_plot(&self, seat: Seat) -> Option<u8> {
        if !matches!(self.stage, Stage::Plan) {
            return None;
        }
        let mask = *self.unplotted.get(seat.index())?;
        (mask != 0).then(|| mask.trailing_zeros() as u8)
    }

    /// Plot `car` (AS-4.1) with a known letter, then play on to the next decision: the same
    /// checks, state after and events as [`Game::apply`] of `Action::plot(car, number, letter)`
    /// into `events`, without building the action.
    pub fn plot_to(
        &mut self,
        seat: Seat,
        car: u8,
        number: u8,
        letter: Option<Letter>,
        events: &mut impl Sink,
    ) -> Result<(), ActionError> {
        if seat.index() >= self.seats as usize {
            return Err(self.wrong_time(seat));
        }
        // By the state's bits first (issue 17 round 7): planning, a car of the seat's without a
        // plot, an unused number of its column (AS-4.1, AS-2.1); `check_plot`, for its error,
        // when one fails.
        let unplotted = matches!(self.stage, Stage::Plan)
            && car < 8
            && self.unplotted[seat.index()] & (1 << car) != 0;
        let plot = match crate::sheet::row_of(car, number as u32) {
            Some(row) if unplotted && self.car(car).used & (1 << row) == 0 => {
                Plot { number, letter }
            }
            _ => self.check_plot(seat, car, number as u32, &letter.map(LetterInput::Valid))?,
        };
        self.do_plot(seat, car, plot, events);
        // `run` goes on only once nobody owes a plot (AS-4.1): skip the call before, as
        // `play_random` does (issue 17 round 7).
        if self.owing.is_empty() {
            self.run(events);
        }
        Ok(())
    }

    /// Start `car` (AS-5.4) on the cell next to it in direction `moved`, facing `facing`, then
    /// play on to the next decision: the same checks, state after and events as [`Game::apply`]
    /// of `Action::Start` to that hex, by cell when the neighbour table has the cell (no hex
    /// built and looked up again, issue 17 round 7); anything else (a refusal, a cell across an
    /// edge the table does not cross) through `apply` itself.
    pub fn start_to(
        &mut self,
        seat: Seat,
        car: u8,
        moved: HexDir,
        facing: HexDir,
        events: &mut impl Sink,
    ) -> Result<(), ActionError> {
        if let Stage::AwaitStart { car: expected, seat: chooser } = self.stage
            && (chooser, expected) == (seat, car)
            && moved.turn_to(facing).abs() <= 2
        {
            let to = self.board.neighbour(self.car(car).cell, moved);
            if to != NONE && self.occupancy[to as usize] == EMPTY {
                self.do_start(seat, car, to, facing, events);
                self.run(events);
                return Ok(());
            }
        }
        let to = match self.car_by_id(car) {
            Some(c) => self.board.hex(c.cell).neighbour(moved),
            None => grid::Hex::new(0, 0),
        };
        self.apply_to(seat, &crate::Action::Start { car, to, facing }, events)
    }

    /// Do the players plot now (AS-4.1)? While they do, no car moves.
    #[inline]
    pub fn planning(&self) -> bool {
        matches!(self.stage, Stage::Plan)
    }

    /// The cars by id (`None` for ids the game does not have), as one value: what a search
    /// compares to know a position again (issue 17 round 8).
    #[inline]
    pub fn car_slots(&self) -> [Option<Car>; 8] {
        self.cars
    }

    /// The car with this id, if the game has it.
    #[inline]
    pub fn car_by_id(&self, id: u8) -> Option<&Car> {
        self.cars.get(id as usize)?.as_ref()
    }

    /// The car standing on `cell`, if any.
    #[inline]
    pub fn car_at(&self, cell: Cell) -> Option<u8> {
        match self.occupancy[cell as usize] {
            EMPTY => None,
            id => Some(id),
        }
    }
}

/// [`Rng::below`]`(n)`: the same draw and the same number, without the rejection step when `n`
/// is a power of two (two seats, a playout's coin of 256), where Lemire's method never rejects
/// (its threshold `2^32 mod n` is 0) and the number is the draw's high bits.
#[inline(always)]
pub fn below(rng: &mut Rng, n: u32) -> u32 {
    if n.is_power_of_two() {
        ((rng.next_u32() as u64 * n as u64) >> 32) as u32
    } else {
        rng.below(n)
    }
}

/// A move's outcome as a plot heuristic reads it ([`Autoscooter::preview`] by cell): where it
/// passes and ends, the facing and speed after, whether it crashes and into what, the chits.
/// Cells, not hexes: on a rink a cell is its hex (`Board::cell`), so comparing cells compares
/// hexes, and the board's neighbour table answers "the hex ahead" without a hex to look up.
///
/// Eight bytes (issue 17 round 8): returned in a register and kept in the cache by one store,
/// where the sixteen bytes it had were written field by field and read back whole, a load
/// that waited for the stores (a failed store forwarding after every move computed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The cells passed, in order (`Preview::path`), then [`NONE`]: a comparison of whole
    /// arrays never matches a cell past the path (no cell is `NONE`).
    pub path: [Cell; 3],
    /// The cell the move ends on (`Preview::end`).
    pub end: Cell,
    pub facing: grid::HexDir,
    pub speed: u8,
    /// How it ends: [`Move::FREE`], [`Move::CRASH`] or [`Move::BARRIER`].
    crash: u8,
    /// The chits the mover's seat gains (`Preview::chits`; a few at most: speeds are 0–3).
    chits: i8,
}

impl Move {
    /// No crash.
    const FREE: u8 = 0;
    /// A crash into a car.
    const CRASH: u8 = 1;
    /// A crash into the barrier or a car of nobody's (AS-5.5).
    const BARRIER: u8 = 2;

    /// The number of cells passed.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.path.iter().filter(|&&c| c != NONE).count()
    }

    /// No cell passed.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.path[0] == NONE
    }

    /// The cells passed.
    #[inline(always)]
    pub fn path(&self) -> &[Cell] {
        &self.path[..self.len()]
    }

    /// The move crashes (`Preview::crash` is some).
    #[inline(always)]
    pub fn crashed(&self) -> bool {
        self.crash != Move::FREE
    }

    /// It crashes into the barrier (AS-5.5).
    #[inline(always)]
    pub fn barrier(&self) -> bool {
        self.crash == Move::BARRIER
    }

    /// The chits the mover's seat gains (negative: pays), as `Preview::chits`.
    #[inline(always)]
    pub fn chits(&self) -> i32 {
        i32::from(self.chits)
    }
}

/// Where a move goes, its crash not scored: a [`Move`]'s cells, end and facing
/// ([`Moves::route`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// As [`Move::path`]: `len` cells, then [`NONE`].
    pub path: [Cell; 3],
    pub len: u8,
    pub end: Cell,
    pub facing: grid::HexDir,
}

/// The previews of every car's letters during one planning phase, each computed once.
///
/// While the players plot, no car moves, so [`Autoscooter::preview`] of a car and a letter
/// gives the same answer all phase long; a search playout asks for it again and again (for the
/// car it plots and for the planned moves of the player's other cars). This cache computes it
/// once per car and per *path* of the chart (letters of one path pass the same hexes and crash
/// alike, [`Autoscooter::previews`]) and keeps it, as a [`Move`], until the round changes or
/// planning ends. Use one cache for one game as it plays on ([`PlanPreviews::clear`] before
/// another game): `get_move` equals `preview` for that game (`tests::plan_previews_equal_preview`).
#[derive(Clone, Debug)]
pub struct PlanPreviews {
    /// The round the entries belong to (only while planning).
    round: u8,
    /// Bit `car * 5 + path`: that entry is filled (a moving car's move).
    filled: u64,
    entries: [[Move; 5]; 8],
}

impl Default for PlanPreviews {
    fn default() -> Self {
        Self::new()
    }
}

impl PlanPreviews {
    pub fn new() -> Self {
        let blank = Move {
            path: [NONE; 3],
            end: NONE,
            facing: grid::HexDir::E,
            speed: 0,
            crash: Move::FREE,
            chits: 0,
        };
        PlanPreviews { round: 0, filled: 0, entries: [[blank; 5]; 8] }
    }

    /// Forget every entry (another game, or a state changed other than by playing on).
    #[inline]
    pub fn clear(&mut self) {
        self.filled = 0;
    }

    /// [`Autoscooter::preview`] of `car` and `letter` on `game`'s current position, by cell.
    #[inline]
    pub fn get_move(&mut self, game: &Autoscooter, car: u8, letter: Letter) -> Option<Move> {
        self.on(game).get(car, letter)
    }

    /// Read moves on `game`'s current position: the entries of another round, or any entry
    /// outside planning, are forgotten once here rather than at every move read.
    #[inline]
    pub fn on<'a>(&'a mut self, game: &'a Autoscooter) -> Moves<'a> {
        let planning = matches!(game.stage, Stage::Plan);
        if !planning {
            // Cars move outside planning: nothing to keep.
            self.filled = 0;
        } else if self.round != game.round {
            self.round = game.round;
            self.filled = 0;
        }
        Moves { cache: self, game, planning }
    }

    /// The move of a moving car and a letter allowed at its speed: what `preview_allowed`
    /// computes (the walk of `trace`, AS-5.2–5.4, and the crash with its chits, AS-5.5), walked
    /// by cell: no hex looked up on the way, none to find a cell for at the end.
    #[inline]
    fn compute(game: &Autoscooter, c: &Car, letter: Letter) -> Move {
        let chart = letter.chart();
        let mut m = Move {
            path: [NONE; 3],
            end: c.cell,
            facing: turn(c.facing, chart.end as i32),
            speed: letter.speed(),
            crash: Move::FREE,
            chits: 0,
        };
        for (i, &rel) in chart.steps.iter().enumerate() {
            let dir = turn(c.facing, rel as i32);
            let next = game.board.neighbour(m.end, dir);
            if let Some(target) = game.blocker(next) {
                // Case B crashes at the round's starting speed, case C at the plotted speed.
                let speed = if i == 0 { c.speed } else { chart.speed() };
                m.facing = dir;
                let (chits, kind) = crash_score(game, c.id, dir, target, speed);
                m.crash = if kind == CrashKind::Barrier { Move::BARRIER } else { Move::CRASH };
                debug_assert!(i8::try_from(chits).is_ok(), "{chits} chits");
                m.chits = chits as i8;
                if matches!(kind, CrashKind::Barrier | CrashKind::Stationary | CrashKind::Front) {
                    // The crash stops the mover (`Effect::Speed(car, 0)`).
                    m.speed = 0;
                } else if i == 0 {
                    // Not moved (case B): the speed it had.
                    m.speed = c.speed;
                }
                return m;
            }
            m.path[i] = next;
            m.end = next;
        }
        m
    }
}

/// [`path_of`] of each letter, as a table in memory: a call of the `const fn` built its array
/// on the stack every time (13 stores per move read, issue 17 round 7).
static PATH_OF: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        if let Some(l) = Letter::from_index(i as u8) {
            t[i] = path_of(l) as u8;
        }
        i += 1;
    }
    t
};

/// A crash of `car` travelling `dir` at `speed` into `target` as the plot heuristic reads it:
/// the chits the mover's seat gains (negative: pays) and the crash's kind. The same rules as
/// [`Autoscooter::crash`] (AS-5.5, AS-5.6, AS-7.1, AS-7.2: the transfers it lists, counted for
/// the mover's seat) without building its work and event, which a planning phase's moves
/// computed for every car and path (issue 17 round 7; `tests::crash_score_is_crash`).
#[inline]
fn crash_score(
    game: &Autoscooter,
    car: u8,
    dir: HexDir,
    target: Target,
    speed: u8,
) -> (i32, CrashKind) {
    let me = game.car(car).owner;
    if me.is_none() {
        // Nobody to count for: the kind only.
        return (0, crash_kind(game, dir, target));
    }
    // The seat paying or paid for a car: the wild car's chits are the box's (AS-7.1).
    let seat_of = |x: u8| if game.wild == Some(x) { None } else { game.car(x).owner };
    // The mover's seat's gain from a transfer between two cars' holders; bumping one's own car
    // pays the box (AS-5.6).
    let gain = |from: u8, to: u8, amount: u8| {
        let (f, t) = (seat_of(from), seat_of(to));
        let t = if game.wild != Some(from) && f == t { None } else { t };
        i32::from(amount) * (i32::from(t == me) - i32::from(f == me))
    };
    let hit = match target {
        Target::Barrier => {
            let pays = game.wild != Some(car) && seat_of(car) == me;
            return (-i32::from(speed) * i32::from(pays), CrashKind::Barrier);
        }
        Target::Car(x) => x,
    };
    let (last, travel) = game.struck(hit, dir);
    let l = game.car(last);
    if l.speed == 0 {
        return (gain(last, car, speed), CrashKind::Stationary);
    }
    match impact_edge(l.facing, travel) {
        Edge::Front => {
            let chits = if speed > l.speed {
                gain(last, car, speed - l.speed)
            } else if l.speed > speed {
                gain(car, last, l.speed - speed)
            } else {
                0
            };
            (chits, CrashKind::Front)
        }
        Edge::Side(_) => (gain(last, car, speed + l.speed), CrashKind::Side),
        Edge::Rear => {
            let mut chits = gain(last, car, speed);
            if game.variants.jolting {
                let ahead = game.board.neighbour(l.cell, l.facing);
                let jolted = ahead != NONE && game.occupancy[ahead as usize] == EMPTY;
                // Jolted into a barrier: it pays its own speed to the box.
                if !jolted && game.wild != Some(last) && seat_of(last) == me {
                    chits -= i32::from(l.speed);
                }
            }
            (chits, CrashKind::Rear)
        }
    }
}

/// [`crash_score`]'s kind alone.
fn crash_kind(game: &Autoscooter, dir: HexDir, target: Target) -> CrashKind {
    let Target::Car(hit) = target else { return CrashKind::Barrier };
    let (last, travel) = game.struck(hit, dir);
    let l = game.car(last);
    if l.speed == 0 {
        return CrashKind::Stationary;
    }
    match impact_edge(l.facing, travel) {
        Edge::Front => CrashKind::Front,
        Edge::Rear => CrashKind::Rear,
        Edge::Side(_) => CrashKind::Side,
    }
}

/// The moves of one position ([`PlanPreviews::on`]): while it lives the game cannot change, so
/// the cache's entries stay the position's.
pub struct Moves<'a> {
    cache: &'a mut PlanPreviews,
    game: &'a Autoscooter,
    planning: bool,
}

impl<'a> Moves<'a> {
    /// [`PlanPreviews::get_move`]: `None` for a car the game does not have or a stationary one,
    /// a letter not allowed at the car's speed played straight (AS-4.2).
    #[inline]
    pub fn get(&mut self, car: u8, letter: Letter) -> Option<Move> {
        let (c, letter) = self.moving(car, letter)?;
        Some(self.of(c, letter))
    }

    /// The car if it moves, with the letter it plays: one not allowed at its speed is played
    /// straight (AS-4.2).
    #[inline]
    fn moving(&self, car: u8, letter: Letter) -> Option<(&'a Car, Letter)> {
        let game: &'a Autoscooter = self.game;
        let c = game.cars.get(car as usize)?.as_ref()?;
        if c.speed == 0 {
            return None;
        }
        Some((c, if letter.allowed_at(c.speed) { letter } else { Letter::straight(c.speed) }))
    }

    /// The route of [`Moves::get`]'s move: from the cache when the move is there, else walked
    /// without scoring the crash that may end it (the planned moves of a player's other cars,
    /// which the plot heuristic needs only to keep out of their way).
    #[inline]
    pub fn route(&mut self, car: u8, letter: Letter) -> Option<Route> {
        let (c, letter) = self.moving(car, letter)?;
        let path = PATH_OF[letter.index() as usize] as usize;
        if self.planning && self.cache.filled & (1u64 << (car as usize * 5 + path)) != 0 {
            let m = self.of(c, letter);
            return Some(Route { path: m.path, len: m.len() as u8, end: m.end, facing: m.facing });
        }
        let chart = letter.chart();
        let mut r = Route {
            path: [NONE; 3],
            len: 0,
            end: c.cell,
            facing: turn(c.facing, chart.end as i32),
        };
        for (i, &rel) in chart.steps.iter().enumerate() {
            let dir = turn(c.facing, rel as i32);
            let next = self.game.board.neighbour(r.end, dir);
            // Blocked as `compute` finds it: the barrier, a car of nobody's or any car.
            if next == NONE || self.game.occupancy[next as usize] != EMPTY {
                r.facing = dir;
                return Some(r);
            }
            r.path[i] = next;
            r.len += 1;
            r.end = next;
        }
        Some(r)
    }

    /// The move of `c`, a moving car of this game as the game has it, with a letter allowed at
    /// its speed (as [`Letter::range_at`] lists them): [`Moves::get`] without looking the car
    /// up or checking the letter again.
    #[inline(always)]
    pub fn of(&mut self, c: &Car, letter: Letter) -> Move {
        debug_assert!(c.speed > 0 && letter.allowed_at(c.speed));
        debug_assert_eq!(self.game.cars[c.id as usize].as_ref(), Some(c));
        if !self.planning {
            return PlanPreviews::compute(self.game, c, letter);
        }
        let path = PATH_OF[letter.index() as usize] as usize;
        let bit = 1u64 << (c.id as usize * 5 + path);
        let slot = &mut self.cache.entries[c.id as usize][path];
        if self.cache.filled & bit == 0 {
            *slot = PlanPreviews::compute(self.game, c, letter);
            self.cache.filled |= bit;
            return *slot;
        }
        // The same path: the same hexes and crash; an unblocked move ends with the letter's own
        // facing (as `Previews::get`).
        let mut m = *slot;
        if !m.crashed() {
            m.facing = turn(c.facing, letter.chart().end as i32);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Action, Setup, Variants};
    use engine::Game;

    /// Every variant in turn (the wild car with 5–7 players, per-car scoring with up to 4).
    fn variants(bits: u64, players: usize) -> Variants {
        let colour = bits & 4 != 0;
        Variants {
            wild_car: (bits & 1 != 0 && (5..=7).contains(&players))
                .then_some(crate::setup::WildCar::Lowest(true)),
            jolting: bits & 2 != 0,
            colour_scoring: colour,
            per_car_scoring: colour && bits & 8 != 0 && players <= 4,
        }
    }

    /// `PlanPreviews::get_move` is `preview` (by cell) for every car and letter at every
    /// decision of random games (one cache kept over each whole game, letters asked in a
    /// scrambled order), `draw_seat` draws what `next_seat` draws, and `owed_plot` is `owed`'s
    /// plot for every seat.
    #[test]
    fn plan_previews_equal_preview() {
        for seed in 0..24u64 {
            let players = 2 + (seed % 7) as usize;
            let setup =
                Setup::standard(players, false, variants(seed * 5 / 3, players)).expect("a setup");
            let mut g = Autoscooter::new(&setup, seed).expect("a game");
            let mut cache = PlanPreviews::new();
            let mut rng = Rng::seeded(seed);
            let mut events = Vec::new();
            let mut asked = 0;
            while let Some(d) = g.decision() {
                for k in 0..40u64 {
                    let car = ((k * 3 + seed) % 8) as u8;
                    let l = Letter::from_index(((k * 7 + seed) % 16) as u8).expect("A–P");
                    let got = cache.get_move(&g, car, l);
                    let want = g.preview(car, l);
                    assert_eq!(got.is_some(), want.is_some(), "car {car} {l:?}");
                    if let (Some(m), Some(p)) = (got, want) {
                        let hexes: Vec<_> = m.path().iter().map(|&c| g.board().hex(c)).collect();
                        assert_eq!(hexes, p.path.as_slice(), "car {car} {l:?}");
                        assert_eq!(g.board().hex(m.end), p.end);
                        assert_eq!(m.facing, p.facing);
                        assert_eq!(m.speed, p.speed);
                        assert_eq!(m.crashed(), p.crash.is_some());
                        assert_eq!(m.barrier(), matches!(p.crash, Some((CrashKind::Barrier, _))));
                        assert_eq!(m.chits(), p.chits);
                    }
                    let route = cache.on(&g).route(car, l);
                    let fresh = PlanPreviews::new().on(&g).route(car, l);
                    assert_eq!(route, fresh);
                    assert_eq!(
                        route,
                        got.map(|m| Route {
                            path: m.path,
                            len: m.len() as u8,
                            end: m.end,
                            facing: m.facing
                        })
                    );
                    asked += 1;
                }
                for s in 0..8 {
                    let want = match g.owed(Seat(s)) {
                        Some(crate::Owed::Plot(car)) => Some(car),
                        _ => None,
                    };
                    assert_eq!(g.owed_plot(Seat(s)), want, "seat {s}");
                }
                let mut twin = rng.clone();
                let seat = engine::harness::next_seat(&d, &mut rng).expect("a seat");
                assert_eq!(g.draw_seat(&mut twin), Some(seat));
                assert_eq!(twin, rng);
                let a = g.sample_action(seat, &mut rng).expect("an action");
                g.apply(seat, &a, &mut events).expect("legal");
            }
            assert_eq!(g.draw_seat(&mut rng.clone()), None);
            assert!(asked > 11 * 40, "{asked}");
        }
    }

    /// `crash_score` is `crash` counted for the mover's seat: the chits of the transfers it
    /// lists (as `compute` counted them before, issue 17 round 6) and the kind of its event
    /// (and, into the barrier or what stands ahead, the mover stops — `compute`'s speed 0 —
    /// exactly when its work stops it), for every car of somebody's or the wild car, every
    /// direction and speed 0–3, into the barrier, what stands ahead and every other car of
    /// somebody's, at every third decision of random games of every player count and variant
    /// (jolting, per-car scoring, the wild car).
    #[test]
    fn crash_score_is_crash() {
        use crate::event::Event;
        use crate::state::Effect;
        let mut compared = 0;
        let mut chits_seen = 0;
        for seed in 0..24u64 {
            let players = 2 + (seed % 7) as usize;
            let setup =
                Setup::standard(players, false, variants(seed * 7 / 2, players)).expect("a setup");
            let mut g = Autoscooter::new(&setup, seed).expect("a game");
            let mut rng = Rng::seeded(seed);
            let mut events = Vec::new();
            let mut n = 0;
            while let Some(d) = g.decision() {
                // A car of nobody's stands like a barrier (AS-1.4): it never rams.
                let movers = g.cars().filter(|c| !g.is_nobodys(c.id)).copied();
                for c in (n % 3 == 0).then_some(movers).into_iter().flatten() {
                    for dir in HexDir::ALL {
                        let mut targets = vec![Target::Barrier];
                        let ahead = g.blocker(g.board.neighbour(c.cell, dir));
                        targets.extend(ahead);
                        targets.extend(
                            g.cars()
                                .filter(|o| o.id != c.id && !g.is_nobodys(o.id))
                                .map(|o| Target::Car(o.id)),
                        );
                        for (target, speed) in
                            targets.iter().flat_map(|&t| (0..4).map(move |s| (t, s)))
                        {
                            let (work, event) = g.crash(c.id, dir, target, speed);
                            let Event::Crash { kind, .. } = event else { panic!("{event:?}") };
                            let me = c.owner;
                            let mut chits = 0;
                            for tr in work.transfers.iter().filter(|_| me.is_some()) {
                                if g.holder_seat(tr.to) == me {
                                    chits += tr.amount as i32;
                                }
                                if g.holder_seat(tr.from) == me {
                                    chits -= tr.amount as i32;
                                }
                            }
                            let stops = matches!(
                                work.effects
                                    .iter()
                                    .find(|e| matches!(e, Effect::Speed(x, _) if *x == c.id)),
                                Some(Effect::Speed(_, 0))
                            );
                            let what = format!(
                                "seed {seed}, car {}, {dir:?}, {target:?}, speed {speed}",
                                c.id
                            );
                            assert_eq!(
                                crash_score(&g, c.id, dir, target, speed),
                                (chits, kind),
                                "{what}"
                            );
                            // A struck line of cars never reaches back to a mover that
                            // stands right behind it: so for what stands ahead (not any car).
                            if target == Target::Barrier || Some(target) == ahead {
                                assert_eq!(
                                    stops,
                                    matches!(
                                        kind,
                                        CrashKind::Barrier
                                            | CrashKind::Stationary
                                            | CrashKind::Front
                                    ),
                                    "{what}"
                                );
                            }
                            compared += 1;
                            chits_seen += usize::from(chits != 0);
                        }
                    }
                }
                let seat = engine::harness::next_seat(&d, &mut rng).expect("a seat");
                let a = g.sample_action(seat, &mut rng).expect("an action");
                g.apply(seat, &a, &mut events).expect("legal");
                events.clear();
                n += 1;
            }
        }
        assert!(
            compared > 100_000 && chits_seen > 10_000,
            "{compared} crashes, {chits_seen} with chits"
        );
    }

    /// `start_to` is `apply` of the start to the hex in that direction: the same result, state
    /// and events, for every direction and facing (the legal ones and the refused: occupied,
    /// off the rink, a facing turned too far) and for the wrong seat and car, at every start of
    /// random games of every player count and variant.
    #[test]
    fn start_to_is_apply_of_the_start() {
        let (mut starts, mut accepted) = (0, 0);
        for seed in 0..40u64 {
            let players = 2 + (seed % 7) as usize;
            let setup =
                Setup::standard(players, false, variants(seed / 2, players)).expect("a setup");
            let mut g = Autoscooter::new(&setup, seed).expect("a game");
            let mut rng = Rng::seeded(seed);
            let mut events = Vec::new();
            while let Some(d) = g.decision() {
                let seat = engine::harness::next_seat(&d, &mut rng).expect("a seat");
                if let Stage::AwaitStart { car, .. } = g.stage {
                    let from = g.board.hex(g.car(car).cell);
                    for (s, c) in [(seat, car), (Seat(seat.0 ^ 1), car), (seat, car ^ 1), (seat, 9)]
                    {
                        for moved in HexDir::ALL {
                            for facing in HexDir::ALL {
                                let (mut x, mut y) = (g.clone(), g.clone());
                                let (mut theirs, mut ours) = (Vec::new(), Vec::new());
                                let a = crate::Action::Start {
                                    car: c,
                                    to: from.neighbour(moved),
                                    facing,
                                };
                                let want = x.apply(s, &a, &mut theirs);
                                let got = y.start_to(s, c, moved, facing, &mut ours);
                                assert_eq!(got, want, "seed {seed}, {a:?}");
                                assert_eq!(y, x, "seed {seed}, {a:?}");
                                assert_eq!(ours, theirs, "seed {seed}, {a:?}");
                                starts += 1;
                                accepted += usize::from(got.is_ok());
                            }
                        }
                    }
                }
                let a = g.sample_action(seat, &mut rng).expect("an action");
                g.apply(seat, &a, &mut events).expect("legal");
                events.clear();
            }
        }
        assert!(starts > 10_000 && accepted > 1_000, "{starts} starts, {accepted} accepted");
    }

    /// `below` is `Rng::below`: the same numbers and the same generator after, for powers of
    /// two and others.
    #[test]
    fn below_is_rng_below() {
        for n in [1, 2, 3, 4, 5, 7, 8, 16, 100, 128, 256, 1 << 20, 1 << 31, u32::MAX] {
            let (mut a, mut b) = (Rng::seeded(n as u64), Rng::seeded(n as u64));
            for _ in 0..2000 {
                assert_eq!(below(&mut a, n), b.below(n), "{n}");
            }
            assert_eq!(a, b);
        }
    }

    /// `plot_to` is `apply` of the plot action: the same state after, the same events, the
    /// same refusals (a wrong seat, car, number or time) leaving the state unchanged.
    #[test]
    fn plot_to_is_apply_of_the_plot() {
        for seed in 0..12u64 {
            let players = 2 + (seed % 7) as usize;
            let setup = Setup::standard(players, false, variants(seed, players)).expect("a setup");
            let mut g = Autoscooter::new(&setup, seed).expect("a game");
            let mut rng = Rng::seeded(seed);
            let mut events = Vec::new();
            while let Some(d) = g.decision() {
                let seat = engine::harness::next_seat(&d, &mut rng).expect("a seat");
                let a = g.sample_action(seat, &mut rng).expect("an action");
                // Wrong inputs first: every refusal matches `apply`'s and changes nothing. Also
                // every car with its first used and first unused number (a plotted car, another
                // seat's, a used number: refused; the seat's own unplotted: accepted).
                let mut tries = vec![(seat.0, 9, 1), (seat.0 ^ 1, 0, 1), (40, 0, 1)];
                for c in g.cars() {
                    for n in c.used_numbers().take(1).chain(c.unused_numbers().take(1)) {
                        tries.push((seat.0, c.id, n));
                    }
                }
                for (s, car, number) in tries {
                    for n in [number, 88, 5] {
                        let (mut x, mut y) = (g.clone(), g.clone());
                        let (mut theirs, mut ours) = (Vec::new(), Vec::new());
                        let want = x.apply(Seat(s), &Action::plot(car, n, None), &mut theirs);
                        let got = y.plot_to(Seat(s), car, n, None, &mut ours);
                        assert_eq!(got, want);
                        assert_eq!(y, x);
                        assert_eq!(ours, theirs);
                        if got.is_err() {
                            assert_eq!(y, g);
                        }
                    }
                }
                if let Action::Plot { car, number, letter } = &a {
                    let mut other = g.clone();
                    let mut theirs = Vec::new();
                    let letter = letter.as_ref().and_then(LetterInput::letter);
                    other
                        .plot_to(seat, *car, *number as u8, letter, &mut theirs)
                        .expect("a sampled plot");
                    g.apply(seat, &a, &mut events).expect("legal");
                    assert_eq!(other, g);
                    assert_eq!(theirs, events);
                } else {
                    g.apply(seat, &a, &mut events).expect("legal");
                }
                events.clear();
            }
        }
    }
}
