//! The action phase (AS-5): cars act in turn-number order; crashes are scored at once.

use crate::board::{Cell, NONE};
use crate::chart::{CHART, Letter};
use crate::error::ActionError;
use crate::event::{CrashKind, Event, Holder, Path, Sink};
use crate::purse::{Purse, box_takings, payments};
use crate::sheet;
use crate::state::{self, Autoscooter, Car, CrashWork, EMPTY, Effect, Stage, Transfer, Turn};
use arrayvec::ArrayVec;
use engine::{Rng, Seat};
use grid::{Hex, HexDir};
use std::collections::BTreeMap;

/// A chart move walked on the current position.
struct Trace {
    path: Path,
    cell: Cell,
    facing: HexDir,
    /// Did the car leave its hex (case A or C)?
    moved: bool,
    /// What stopped it, the direction it was going, and the crash speed.
    blocked: Option<(Target, HexDir, u8)>,
}

/// Who plays a case D start (AS-5.4) when the action phase reaches one: the seat, as a
/// decision ([`AwaitStarts`]: the stage becomes [`Stage::AwaitStart`]), or random play drawing
/// it at once ([`RandomStarts`]), without leaving [`Autoscooter::run`] (issue 17 round 7).
pub(crate) trait Starts {
    /// The start of a car whose free directions are the set `free` (not empty): its direction
    /// and the turn of its facing from it (−2..=2), or `None` to ask the seat.
    fn draw(&mut self, free: usize) -> Option<(HexDir, i32)>;
}

/// Every start is the seat's decision.
pub(crate) struct AwaitStarts;

impl Starts for AwaitStarts {
    #[inline]
    fn draw(&mut self, _free: usize) -> Option<(HexDir, i32)> {
        None
    }
}

/// Starts drawn as [`Game::sample_action`](engine::Game::sample_action) draws them (a free
/// direction, then a turn of −2..=2), at most `left` of them.
pub(crate) struct RandomStarts<'a> {
    pub rng: &'a mut Rng,
    pub left: u64,
}

impl Starts for RandomStarts<'_> {
    #[inline]
    fn draw(&mut self, free: usize) -> Option<(HexDir, i32)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        // `free_directions`' list read at the drawn place, without building it.
        let d = state::nth_dir(free, self.rng.below(state::dir_count(free)));
        Some((d, self.rng.below(5) as i32 - 2))
    }
}

/// A letter's move from one facing: the direction of each of its steps padded to three with
/// straight ahead, how many are its own, and the facing at its end.
#[derive(Clone, Copy)]
struct Walk {
    dirs: [HexDir; 3],
    len: usize,
    end: HexDir,
}

/// [`Walk`]s by letter and facing (the facings 6 and 7, which no direction has, E): a move walked
/// as three steps, of which the first blocked one among its own ends it, without a branch per
/// step on the position and without turning each step (issue 17 round 7).
const WALKS: [[Walk; 8]; 16] = {
    let mut t = [[Walk { dirs: [HexDir::E; 3], len: 0, end: HexDir::E }; 8]; 16];
    let mut l = 0;
    while l < 16 {
        let chart = &CHART[l];
        let mut f = 0;
        while f < 6 {
            let w = &mut t[l][f];
            let mut i = 0;
            while i < 3 {
                let rel = if i < chart.steps.len() { chart.steps[i] } else { 0 };
                w.dirs[i] = HexDir::ALL[(f as i32 + rel as i32).rem_euclid(6) as usize];
                i += 1;
            }
            w.len = chart.steps.len();
            w.end = HexDir::ALL[(f as i32 + chart.end as i32).rem_euclid(6) as usize];
            f += 1;
        }
        l += 1;
    }
    t
};

/// The outcome of a move if it were made now ([`Autoscooter::preview`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preview {
    /// The letter actually played (AS-4.2 turns an illegal one straight).
    pub letter: Letter,
    pub path: Path,
    pub end: Hex,
    pub facing: HexDir,
    pub speed: u8,
    /// The crash, if any: its kind and the car hit (none for the barrier).
    pub crash: Option<(CrashKind, Option<u8>)>,
    /// Chits the car's player would win (negative: lose), before limits of what anyone holds.
    pub chits: i32,
}

/// The previews of one car's letters ([`Autoscooter::previews`]).
pub struct Previews<'a> {
    game: &'a Autoscooter,
    car: Option<Car>,
    /// By path ([`path_of`]): the first preview computed of a letter with that path.
    done: [Option<Preview>; 5],
}

/// Which of the chart's five paths a letter follows (its steps, AS-3.2): letters with the same
/// path reach the same hexes and crash alike; they differ only in the facing at the end of an
/// unblocked move (`chart::tests::letters_of_a_path_share_their_steps`).
pub(crate) const fn path_of(letter: Letter) -> usize {
    // A–E: one hex; F–H: bend left; I, J, K, O: two straight; L–N: bend right; P: three.
    [0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 2, 4][letter.index() as usize]
}

impl Previews<'_> {
    /// The same as [`Autoscooter::preview`] of the car and `letter`.
    pub fn get(&mut self, letter: Letter) -> Option<Preview> {
        let c = self.car?;
        if c.speed == 0 {
            return None;
        }
        let letter = if letter.allowed_at(c.speed) { letter } else { Letter::straight(c.speed) };
        let slot = &mut self.done[path_of(letter)];
        let Some(mut p) = *slot else {
            let p = self.game.preview_allowed(&c, letter);
            *slot = Some(p);
            return Some(p);
        };
        p.letter = letter;
        if p.crash.is_none() {
            // Unblocked: the same path, the letter's own facing at the end.
            p.facing = c.facing.turn(letter.chart().end as i32);
        }
        Some(p)
    }
}

/// [`HexDir::turn`] by a table when the facing's index plus `steps` is in −6..=11 (every turn of
/// the chart and the crashes), without its `rem_euclid(6)` (a division on the hot path of every
/// move; issue 17); other turns by `HexDir::turn`.
#[inline]
pub(crate) fn turn(d: HexDir, steps: i32) -> HexDir {
    const ROUND: [HexDir; 18] = {
        let mut t = [HexDir::E; 18];
        let mut i = 0;
        while i < 18 {
            t[i] = HexDir::ALL[i % 6];
            i += 1;
        }
        t
    };
    // A negative index is a huge `usize`: out of the table, like one past its end.
    match ROUND.get((d.index() as i32 + steps + 6) as usize) {
        Some(&to) => to,
        None => d.turn(steps),
    }
}

/// What stopped a car's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// The barrier, or a car of nobody (AS-1.4).
    Barrier,
    Car(u8),
}

/// Which edge of the hit car the rammer crossed (AS-5.5), from the hit car's facing
/// and the direction the rammer travelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Edge {
    Front,
    Rear,
    /// A side edge, and the turn (±1) it gives the hit car.
    Side(i32),
}

pub(crate) fn impact_edge(hit_facing: HexDir, travel: HexDir) -> Edge {
    // The rammer enters through the hit car's side pointing back along `travel`.
    // −5..=5, into 0..6 without a division.
    let back = travel.index() as i32 + 3;
    let diff = back - 6 * (back >= 6) as i32 - hit_facing.index() as i32;
    let rel = diff + 6 * (diff < 0) as i32;
    debug_assert_eq!(
        rel,
        (travel.opposite().index() as i32 - hit_facing.index() as i32).rem_euclid(6)
    );
    match rel {
        0 => Edge::Front,
        3 => Edge::Rear,
        // Front-side edges: the nose turns away from the rammer.
        1 => Edge::Side(-1),
        5 => Edge::Side(1),
        // Rear-side edges: the tail swings away, the nose turns towards the rammer's side.
        2 => Edge::Side(1),
        _ => Edge::Side(-1),
    }
}

/// `turns` (at most 8) in acting order (AS-2.2: by turn number; equal numbers, which only a
/// rebuilt state's placeholders have, in the given order), pushed to `out`.
///
/// Each turn's place is the number of turns with a number at most its own, counted in the eight
/// bytes of one word at once (issue 17: an insertion's place, or the end of a walk over a set of
/// numbers, is random in random play, so each was a mispredicted branch; round 7: the places
/// are independent of each other, so they are counted side by side).
#[inline]
fn acting_order(turns: &[Turn], out: &mut ArrayVec<Turn, 9>) {
    const FILL: u64 = 0x7f;
    const LANES: u64 = 0x0101_0101_0101_0101;
    let turns = &turns[..turns.len().min(8)];
    // Byte `k`: the `k`-th turn's number; the bytes past the last turn hold `FILL`, above every
    // number ranked this way (the sheet's are 1..=88, AS-2.1).
    let mut packed = FILL * LANES;
    let mut small = true;
    for (k, t) in turns.iter().enumerate() {
        small &= (t.number as u64) < FILL;
        let lane = 8 * k;
        packed = (packed & !(0xff << lane)) | ((t.number as u64 & FILL) << lane);
    }
    let mut order = [0u8; 8];
    // The places taken (bit `p`: place `p`, counted from 1): all distinct, each once.
    let mut ranked = 0u32;
    if small {
        for k in 0..turns.len() {
            let x = (packed >> (8 * k)) & 0xff;
            // Byte `j`'s top bit: is `x` at least turn `j`'s number? (`x | 0x80` minus a number
            // below 0x80 borrows nothing from the next byte.)
            let at_most = (((x * LANES) | (0x80 * LANES)) - packed) & (0x80 * LANES);
            // How many bytes say so, its own included: its place counted from 1.
            let place = ((at_most >> 7).wrapping_mul(LANES) >> 56) as u32;
            order[(place.wrapping_sub(1) & 7) as usize] = k as u8;
            ranked |= 1 << place;
        }
    }
    if small && ranked == ((1 << turns.len()) - 1) << 1 {
        for &k in &order[..turns.len()] {
            out.push(turns[k as usize & 7]);
        }
    } else {
        for &turn in turns {
            let at = out.iter().rposition(|t| t.number <= turn.number).map_or(0, |i| i + 1);
            out.insert(at, turn);
        }
    }
}

impl Autoscooter {
    /// Play on by itself to the next decision or the end.
    pub(crate) fn run(&mut self, events: &mut impl Sink) {
        self.run_with(&mut AwaitStarts, events);
    }

    /// [`Self::run`], where random play draws up to `left` case D starts itself (the draws of
    /// [`Game::sample_action`](engine::Game::sample_action), in the order the loop of
    /// `play_random` makes them) instead of stopping at them. Returns the starts played.
    #[inline]
    pub(crate) fn run_random(&mut self, rng: &mut Rng, left: u64, events: &mut impl Sink) -> u64 {
        let mut starts = RandomStarts { rng, left };
        self.run_with(&mut starts, events);
        left - starts.left
    }

    #[inline]
    fn run_with(&mut self, starts: &mut impl Starts, events: &mut impl Sink) {
        loop {
            match self.stage {
                Stage::Plan => {
                    if !self.owing().is_empty() {
                        return;
                    }
                    self.begin_action(events);
                }
                Stage::Act => {
                    if self.work.is_some() {
                        if !self.continue_work(events) {
                            return;
                        }
                        self.step += 1;
                        continue;
                    }
                    if self.step >= self.turns.len() {
                        self.end_round(events);
                        continue;
                    }
                    let turn = self.turns[self.step];
                    if self.act(turn, starts, events) {
                        return;
                    }
                }
                Stage::AwaitStart { .. } | Stage::AwaitPayment { .. } | Stage::Over => return,
            }
        }
    }

    /// All plots are in: reveal the numbers and set the acting order (AS-4.1, AS-2.2, AS-7.1).
    fn begin_action<S: Sink>(&mut self, events: &mut S) {
        self.turns.clear();
        // The turns in id order.
        let mut by_id = [Turn { car: 0, number: 0, mover: Seat(0), letter: None }; 8];
        let mut count = 0;
        for id in 0..8u8 {
            let (Some(car), Some(plot)) = (self.cars[id as usize], self.plots[id as usize]) else {
                continue;
            };
            let Some(owner) = car.owner else { continue };
            if let Some(row) = sheet::row_of(id, plot.number as u32) {
                self.car_mut(id).used |= 1 << row;
            }
            // At most one turn per id: `count` stays below 8.
            by_id[count & 7] =
                Turn { car: id, number: plot.number, mover: owner, letter: plot.letter };
            count += 1;
        }
        acting_order(&by_id[..count], &mut self.turns);
        if S::SUMMARIES {
            events.push(Event::NumbersRevealed {
                order: self.turns.iter().map(|t| (t.car, t.number)).collect(),
            });
        }
        // AS-7.1: the wild car moves last, by the player whose number was highest.
        if let (Some(w), Some(last)) = (self.wild, self.turns.last().copied()) {
            let letter =
                if self.wild_moving { self.wild_plots[last.mover.index()].flatten() } else { None };
            self.turns.push(Turn { car: w, number: 0, mover: last.mover, letter });
        }
        self.step = 0;
        self.stage = Stage::Act;
    }

    fn end_round<S: Sink>(&mut self, events: &mut S) {
        if self.round >= sheet::ROUNDS {
            self.stage = Stage::Over;
            if S::SUMMARIES {
                let outcome = self.compute_outcome();
                events.push(Event::GameOver {
                    winners: outcome.ranking.first().into_iter().flatten().copied().collect(),
                    scores: outcome.scores.unwrap_or_default().into_boxed_slice(),
                });
            }
        } else {
            self.round += 1;
            self.begin_planning();
            events.push(Event::RoundStarted { round: self.round });
        }
    }

    /// One car's turn. Returns `true` when a seat must decide before play goes on.
    fn act(&mut self, turn: Turn, starts: &mut impl Starts, events: &mut impl Sink) -> bool {
        let car = *self.car(turn.car);
        if car.speed == 0 {
            // Case D (AS-5.4): the plot is ignored; the player chooses where to start.
            // Any free hex beside it, read as a set: stopping at the first free one was a
            // branch on the position (issue 17 round 6).
            let free = self.free_mask(car.cell);
            if free != 0 {
                if let Some((d, t)) = starts.draw(free) {
                    // Random play's start, from the set just found (issue 17 round 7).
                    let to = self.board.neighbour(car.cell, d);
                    self.do_start(turn.mover, turn.car, to, self::turn(d, t), events);
                    return false;
                }
                self.stage = Stage::AwaitStart { car: turn.car, seat: turn.mover };
                return true;
            }
            events.push(Event::CannotStart { car: turn.car });
            self.step += 1;
            return false;
        }
        let letter = match turn.letter {
            Some(l) if l.allowed_at(car.speed) => l,
            Some(l) => {
                let used = Letter::straight(car.speed);
                events.push(Event::LetterConverted { car: turn.car, plotted: l, used });
                used
            }
            None => Letter::straight(car.speed),
        };
        let chart = letter.chart();
        let t = self.trace(&car, letter);
        match t.blocked {
            Some((target, dir, speed)) => {
                if t.moved {
                    // Case C (AS-5.3): to the last free hex, facing the block, plotted speed.
                    self.place(turn.car, t.cell);
                    let c = self.car_mut(turn.car);
                    c.facing = dir;
                    c.speed = chart.speed();
                    events.push(Event::Moved {
                        car: turn.car,
                        letter,
                        path: t.path,
                        facing: dir,
                        speed: chart.speed(),
                    });
                }
                // Case B (AS-5.2) crashes without moving, at the round's starting speed.
                let (work, crash) = self.crash(turn.car, dir, target, speed);
                events.push(crash);
                // Scored at once (what `run` does next), unless a seat chooses colours. The work
                // goes to the state only then: written field by field and read back whole at
                // once, it stalled the load (issue 17 round 6).
                if !self.settle(work, events) {
                    return true;
                }
                self.step += 1;
            }
            None => {
                // Case A (AS-5.1).
                self.place(turn.car, t.cell);
                let c = self.car_mut(turn.car);
                c.facing = t.facing;
                c.speed = chart.speed();
                events.push(Event::Moved {
                    car: turn.car,
                    letter,
                    path: t.path,
                    facing: t.facing,
                    speed: chart.speed(),
                });
                self.step += 1;
            }
        }
        false
    }

    /// Walk a chart move from the car's position (AS-5.1–5.3) without changing anything.
    ///
    /// The three steps of the letter's path padded to three are all taken, and the first
    /// blocked one among the letter's own ends the move: which one is a random outcome in random
    /// play, so it is found by arithmetic rather than by a branch per step (issue 17 round 7).
    // Always inlined: returned through memory, the trace's fields were stored and read back.
    #[inline(always)]
    fn trace(&self, car: &Car, letter: Letter) -> Trace {
        let chart = letter.chart();
        let walk = WALKS[(letter.index() & 15) as usize][(car.facing.index() & 7) as usize];
        let (dirs, len) = (walk.dirs, walk.len);
        // `at[i]`: the cell after `i` steps (the neighbour table maps NONE to NONE).
        let mut at = [car.cell; 4];
        let mut stops = 0u32;
        for i in 0..3 {
            let next = self.board.neighbour(at[i], dirs[i]);
            at[i + 1] = next;
            // The barrier (NONE) or a car; the occupancy's NONE slot is always EMPTY.
            stops |= (((next == NONE) | (self.occupancy[next as usize] != EMPTY)) as u32) << i;
        }
        // The first blocked step of the letter's own, or `len` when none is.
        let first = ((stops | (1 << len)).trailing_zeros() as usize).min(3);
        let hex = |i: usize| {
            if i < first { self.board.hex_of(at[i + 1]) } else { grid::Hex::default() }
        };
        let mut t = Trace {
            path: Path::from_hexes(first as u8, [hex(0), hex(1), hex(2)]),
            cell: at[first],
            facing: walk.end,
            moved: first > 0,
            blocked: None,
        };
        if first < len {
            let dir = dirs[first.min(2)];
            let target = self.blocker(at[(first + 1).min(3)]).unwrap_or(Target::Barrier);
            // Case B crashes at the round's starting speed, case C at the plotted speed.
            let speed = if first == 0 { car.speed } else { chart.speed() };
            t.facing = dir;
            t.blocked = Some((target, dir, speed));
        }
        t
    }

    /// What moving `car` now with `letter` would do, if it acted on the current position:
    /// where it ends, and the crash with its chits for the car's player (positive: won).
    /// For bots and the move preview of user interfaces; it changes nothing.
    pub fn preview(&self, car: u8, letter: Letter) -> Option<Preview> {
        let c = *self.cars.get(car as usize)?.as_ref()?;
        if c.speed == 0 {
            return None;
        }
        let letter = if letter.allowed_at(c.speed) { letter } else { Letter::straight(c.speed) };
        Some(self.preview_allowed(&c, letter))
    }

    /// The previews of one car's letters on the current position, each computed as
    /// [`Self::preview`] computes it, but the path, the crash and the chits only once for all
    /// the letters that pass the same hexes (five paths among the sixteen letters, AS-3.2): for
    /// bots that score many letters of a car (issue 17).
    pub fn previews(&self, car: u8) -> Previews<'_> {
        Previews {
            game: self,
            car: self.cars.get(car as usize).copied().flatten(),
            done: [None; 5],
        }
    }

    /// [`Self::preview`] of a moving car and a letter allowed at its speed.
    fn preview_allowed(&self, c: &Car, letter: Letter) -> Preview {
        let car = c.id;
        let t = self.trace(c, letter);
        let mut p = Preview {
            letter,
            path: t.path,
            end: self.board.hex(t.cell),
            facing: t.facing,
            speed: letter.speed(),
            crash: None,
            chits: 0,
        };
        if let Some((target, dir, speed)) = t.blocked {
            let (work, crash) = self.crash(car, dir, target, speed);
            if let Event::Crash { kind, with, .. } = crash {
                p.crash = Some((kind, with));
            }
            let me = c.owner;
            for tr in &work.transfers {
                if me.is_some() && self.holder_seat(tr.to) == me {
                    p.chits += tr.amount as i32;
                }
                if me.is_some() && self.holder_seat(tr.from) == me {
                    p.chits -= tr.amount as i32;
                }
            }
            if let Some(Effect::Speed(_, 0)) =
                work.effects.iter().find(|e| matches!(e, Effect::Speed(x, _) if *x == car))
            {
                p.speed = 0;
            } else if t.moved {
                p.speed = letter.speed();
            } else {
                p.speed = c.speed;
            }
        }
        p
    }

    #[inline]
    pub(crate) fn is_nobodys(&self, car: u8) -> bool {
        let c = self.car(car);
        c.owner.is_none() && self.wild != Some(car)
    }

    /// What a car stepping onto `next` (a neighbour, [`NONE`] off the rink) runs into: the
    /// barrier, an unowned car (standing like a barrier), another car, or nothing (AS-5).
    #[inline]
    pub(crate) fn blocker(&self, next: Cell) -> Option<Target> {
        if next == NONE {
            return Some(Target::Barrier);
        }
        match self.occupancy[next as usize] {
            EMPTY => None,
            other if self.is_nobodys(other) => Some(Target::Barrier),
            other => Some(Target::Car(other)),
        }
    }

    #[inline]
    fn place(&mut self, car: u8, cell: Cell) {
        let old = self.car(car).cell;
        self.occupancy[old as usize] = EMPTY;
        self.occupancy[cell as usize] = car;
        self.car_mut(car).cell = cell;
    }

    /// Who pays and receives for a car (AS-5.6, AS-7.1, AS-7.4).
    #[inline]
    fn holder(&self, car: u8) -> Holder {
        if self.wild == Some(car) {
            Holder::Box
        } else if self.variants.per_car_scoring {
            Holder::Car(car)
        } else {
            Holder::Player(self.car(car).owner.expect("a scoring car has an owner"))
        }
    }

    #[inline]
    pub(crate) fn holder_seat(&self, h: Holder) -> Option<Seat> {
        match h {
            Holder::Player(s) => Some(s),
            Holder::Car(c) => self.car(c).owner,
            Holder::Box => None,
        }
    }

    /// A transfer between two cars' holders; bumping one's own car pays the box (AS-5.6).
    #[inline]
    fn transfer(&self, from_car: u8, to_car: u8, amount: u32) -> Transfer {
        let (from, mut to) = (self.holder(from_car), self.holder(to_car));
        if from != Holder::Box && self.holder_seat(from) == self.holder_seat(to) {
            to = Holder::Box;
        }
        Transfer { from, to, amount }
    }

    /// Score a crash of `car` travelling `dir` at `speed` into `target` (AS-5.5, AS-7.2): the
    /// work to do and the [`Event::Crash`] that announces it (no event list, so that a preview
    /// allocates nothing).
    // Always inlined: called apart, its work and event went through memory (issue 17 round 7).
    #[inline(always)]
    pub(crate) fn crash(
        &self,
        car: u8,
        dir: HexDir,
        target: Target,
        speed: u8,
    ) -> (CrashWork, Event) {
        let mut w = CrashWork::default();
        let at = self.board.hex_of(self.car(car).cell);
        let hit = match target {
            Target::Barrier => {
                let event = Event::Crash {
                    car,
                    kind: CrashKind::Barrier,
                    with: None,
                    speed,
                    at,
                    indirect: false,
                };
                if self.wild != Some(car) {
                    w.transfers.push(Transfer {
                        from: self.holder(car),
                        to: Holder::Box,
                        amount: speed as u32,
                    });
                }
                w.effects.push(Effect::Speed(car, 0));
                return (w, event);
            }
            Target::Car(x) => x,
        };
        let (last, travel) = self.struck(hit, dir);
        let indirect = last != hit;
        let l = *self.car(last);
        let kind = if l.speed == 0 {
            CrashKind::Stationary
        } else {
            match impact_edge(l.facing, travel) {
                Edge::Front => CrashKind::Front,
                Edge::Rear => CrashKind::Rear,
                Edge::Side(_) => CrashKind::Side,
            }
        };
        let event = Event::Crash { car, kind, with: Some(last), speed, at, indirect };
        match kind {
            CrashKind::Stationary => {
                w.transfers.push(self.transfer(last, car, speed as u32));
                w.effects.push(Effect::Speed(car, 0));
            }
            CrashKind::Front => {
                if speed > l.speed {
                    w.transfers.push(self.transfer(last, car, (speed - l.speed) as u32));
                } else if l.speed > speed {
                    w.transfers.push(self.transfer(car, last, (l.speed - speed) as u32));
                }
                w.effects.push(Effect::Speed(car, 0));
                w.effects.push(Effect::Speed(last, 0));
            }
            CrashKind::Side => {
                w.transfers.push(self.transfer(last, car, (speed + l.speed) as u32));
                if let Edge::Side(t) = impact_edge(l.facing, travel) {
                    w.effects.push(Effect::Turn(last, t));
                }
            }
            CrashKind::Rear => {
                w.transfers.push(self.transfer(last, car, speed as u32));
                if self.variants.jolting {
                    let ahead = self.board.neighbour(l.cell, l.facing);
                    if ahead != NONE && self.occupancy[ahead as usize] == EMPTY {
                        w.effects.push(Effect::Jolt(last, ahead));
                    } else {
                        // Jolted into a barrier: it stops and pays its own speed to the box.
                        if self.wild != Some(last) {
                            w.transfers.push(Transfer {
                                from: self.holder(last),
                                to: Holder::Box,
                                amount: l.speed as u32,
                            });
                        }
                        w.effects.push(Effect::Speed(last, 0));
                    }
                }
            }
            CrashKind::Barrier => unreachable!("handled above"),
        }
        (w, event)
    }

    /// Pay the crash's transfers, then apply its effects. Returns `false` when a seat must
    /// choose colours first (AS-7.3).
    fn continue_work(&mut self, events: &mut impl Sink) -> bool {
        let w = self.work.take().expect("work in progress");
        self.settle(w, events)
    }

    /// [`Self::continue_work`] of the work `w`, held by the caller: it is stored in the state
    /// only when a seat must choose colours (returns `false`).
    // Always inlined: called apart, the work went through memory again (issue 17 round 6).
    #[inline(always)]
    fn settle(&mut self, mut w: CrashWork, events: &mut impl Sink) -> bool {
        if !self.variants.colour_scoring {
            // Plain chits (all of colour 0, `purse`'s module): each transfer is the amount or
            // what the payer holds, as `single_colour_payment` and `pay` compute it.
            for &t in &w.transfers[w.next..] {
                if t.from == t.to {
                    continue;
                }
                let amount = t.amount.min(self.purse(t.from).0[0] as u32);
                if amount > 0 {
                    self.purse_mut(t.from).0[0] -= amount as u16;
                    self.purse_mut(t.to).0[0] += amount as u16;
                    events.push(Event::Chits { from: t.from, to: t.to, amount, colours: None });
                }
            }
            w.next = w.transfers.len();
        }
        while w.next < w.transfers.len() {
            let t = w.transfers[w.next];
            if let Some(paid) = self.single_colour_payment(t) {
                self.pay(t, &paid, events);
                w.next += 1;
                continue;
            }
            let (options, chooser, take) = self.payment_options(t);
            if options.len() > 1 {
                let seat = chooser.expect("a choice has a chooser");
                self.stage = Stage::AwaitPayment { seat, take, options };
                self.work = Some(w);
                return false;
            }
            let paid = options.into_iter().next().unwrap_or_default();
            self.pay(t, &paid, events);
            w.next += 1;
        }
        for e in w.effects {
            match e {
                Effect::Speed(c, s) => {
                    if self.car(c).speed != s {
                        self.car_mut(c).speed = s;
                        events.push(Event::SpeedSet { car: c, speed: s });
                    }
                }
                Effect::Turn(c, t) => {
                    let f = turn(self.car(c).facing, t);
                    self.car_mut(c).facing = f;
                    events.push(Event::Turned { car: c, facing: f });
                }
                Effect::Jolt(c, to) => {
                    self.place(c, to);
                    events.push(Event::Jolted { car: c, to: self.board.hex_of(to) });
                }
            }
        }
        true
    }

    #[inline]
    fn purse(&self, h: Holder) -> &Purse {
        match h {
            Holder::Player(s) => &self.players[s.index()],
            Holder::Car(c) => &self.car_purses[c as usize],
            Holder::Box => &self.box_purse,
        }
    }
    #[inline]
    fn purse_mut(&mut self, h: Holder) -> &mut Purse {
        match h {
            Holder::Player(s) => &mut self.players[s.index()],
            Holder::Car(c) => &mut self.car_purses[c as usize],
            Holder::Box => &mut self.box_purse,
        }
    }

    /// The payment when the payer holds a single colour (always so without colour scoring):
    /// nothing to choose, nothing to list.
    fn single_colour_payment(&self, t: Transfer) -> Option<Purse> {
        if t.from == t.to {
            return Some(Purse::default());
        }
        let payer = self.purse(t.from);
        if !self.variants.colour_scoring {
            // Every chit is of colour 0 (`purse`'s module): no colour to look for.
            debug_assert!(payer.0[1..].iter().all(|&n| n == 0), "plain chits are colour 0");
            return Some(Purse::plain(t.amount.min(payer.0[0] as u32)));
        }
        let mut colours = payer.0.iter().enumerate().filter(|(_, n)| **n > 0);
        let first = colours.next();
        if colours.next().is_some() {
            return None;
        }
        let mut paid = Purse::default();
        if let Some((c, &n)) = first {
            paid.0[c] = (t.amount.min(n as u32)) as u16;
        }
        Some(paid)
    }

    /// The legal mixes of a transfer, who chooses among them, and whether it is a `take`.
    fn payment_options(&self, t: Transfer) -> (Vec<Purse>, Option<Seat>, bool) {
        if t.from == t.to {
            return (vec![Purse::default()], None, false);
        }
        let payer = self.purse(t.from);
        if t.from == Holder::Box {
            (box_takings(payer, t.amount), self.holder_seat(t.to), true)
        } else if t.to == Holder::Box {
            (payments(payer, t.amount), self.holder_seat(t.from), false)
        } else {
            (payments(payer, t.amount), self.holder_seat(t.to), true)
        }
    }

    fn pay(&mut self, t: Transfer, paid: &Purse, events: &mut impl Sink) {
        let amount = paid.total();
        if amount == 0 || t.from == t.to {
            return;
        }
        self.purse_mut(t.from).sub(paid);
        self.purse_mut(t.to).add(paid);
        let colours = self.variants.colour_scoring.then_some(*paid);
        events.push(Event::Chits { from: t.from, to: t.to, amount, colours });
    }

    // ----- mid-resolution decisions -----

    pub(crate) fn check_start(
        &self,
        seat: Seat,
        car: u8,
        to: Hex,
        facing: HexDir,
    ) -> Result<Cell, ActionError> {
        let Stage::AwaitStart { car: expected, seat: chooser } = self.stage else {
            return Err(self.wrong_time(seat));
        };
        if seat != chooser {
            return Err(ActionError::NotYourDecision { seat });
        }
        if car != expected {
            return Err(ActionError::WrongCar { expected, car });
        }
        let from = self.board.hex(self.car(car).cell);
        let dir = from.direction_to(to).ok_or(ActionError::NotAdjacent { to })?;
        let cell = self.board.cell(to).ok_or(ActionError::OffRink { to })?;
        if self.occupancy[cell as usize] != EMPTY {
            return Err(ActionError::HexOccupied { to });
        }
        if dir.turn_to(facing).abs() > 2 {
            return Err(ActionError::FacingNotAllowed { facing: facing.index() });
        }
        Ok(cell)
    }

    #[inline]
    pub(crate) fn do_start(
        &mut self,
        seat: Seat,
        car: u8,
        cell: Cell,
        facing: HexDir,
        events: &mut impl Sink,
    ) {
        self.place(car, cell);
        let c = self.car_mut(car);
        c.facing = facing;
        c.speed = 1;
        events.push(Event::Started { car, seat, to: self.board.hex_of(cell), facing });
        self.stage = Stage::Act;
        self.step += 1;
    }

    /// The start chosen when time is up (a decision of the project): straight ahead if free,
    /// else the first free hex turning right, left, right… from the facing; facing as moved.
    pub(crate) fn default_start(&self, car: u8) -> Option<(Cell, HexDir)> {
        let c = self.car(car);
        [0, 1, -1, 2, -2, 3].into_iter().map(|t| c.facing.turn(t)).find_map(|d| {
            let n = self.board.neighbour(c.cell, d);
            self.is_free(n).then_some((n, d))
        })
    }

    pub(crate) fn check_payment(
        &self,
        seat: Seat,
        take: bool,
        colours: &BTreeMap<String, u16>,
    ) -> Result<Purse, ActionError> {
        let Stage::AwaitPayment { seat: chooser, take: wants_take, options } = &self.stage else {
            return Err(self.wrong_time(seat));
        };
        if seat != *chooser {
            return Err(ActionError::NotYourDecision { seat });
        }
        if take != *wants_take {
            return Err(ActionError::WrongPaymentKind);
        }
        let mut p = Purse::default();
        for (c, &n) in colours {
            match c.parse::<u8>() {
                Ok(c) if c < 8 => p.0[c as usize] = n,
                _ => return Err(ActionError::IllegalPayment),
            }
        }
        if options.contains(&p) { Ok(p) } else { Err(ActionError::IllegalPayment) }
    }

    pub(crate) fn do_payment(&mut self, paid: Purse, events: &mut impl Sink) {
        let mut w = self.work.take().expect("a payment belongs to a crash");
        let t = w.transfers[w.next];
        self.pay(t, &paid, events);
        w.next += 1;
        self.work = Some(w);
        self.stage = Stage::Act;
    }

    pub(crate) fn default_payment(&self) -> Option<Purse> {
        match &self.stage {
            Stage::AwaitPayment { options, .. } => options.first().copied(),
            _ => None,
        }
    }
}

impl Autoscooter {
    /// The car a crash into `hit` travelling `dir` strikes, and the direction of the blow: a
    /// rear hit on a moving car passes along the line of cars in front of it (AS-7.2, jolting).
    /// Shared by the rules' crash and the playout's crash score.
    #[inline]
    pub(crate) fn struck(&self, hit: u8, dir: HexDir) -> (u8, HexDir) {
        let h = self.car(hit);
        if !(self.variants.jolting && h.speed > 0 && impact_edge(h.facing, dir) == Edge::Rear) {
            return (hit, dir);
        }
        let mut last = hit;
        loop {
            let next = self.board.neighbour(self.car(last).cell, h.facing);
            if next == NONE {
                break;
            }
            match self.occupancy[next as usize] {
                EMPTY => break,
                o if self.is_nobodys(o) => break,
                o => last = o,
            }
        }
        (last, h.facing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The acting order by places counted in bytes is a stable sort by number, for every count
    /// of turns, with small and large numbers and repeated ones (a rebuilt state's placeholders).
    #[test]
    fn acting_order_is_a_stable_sort_by_number() {
        let mut rng = Rng::seeded(17);
        for case in 0..20_000 {
            let len = rng.index(9);
            let top = [8, 89, 127, 128, 256][case % 5];
            let turns: Vec<Turn> = (0..len)
                .map(|k| Turn {
                    car: k as u8,
                    number: rng.below(top) as u8,
                    mover: Seat(0),
                    letter: None,
                })
                .collect();
            let mut expected = turns.clone();
            expected.sort_by_key(|t| t.number);
            let mut got = ArrayVec::new();
            acting_order(&turns, &mut got);
            assert_eq!(got.as_slice(), expected.as_slice(), "{turns:?}");
        }
    }

    /// Every letter's walk from every facing turns its steps and its end as the chart says.
    #[test]
    fn walks_are_the_chart_turned() {
        for (l, chart) in CHART.iter().enumerate() {
            for f in HexDir::ALL {
                let w = WALKS[l][f.index() as usize];
                assert_eq!(w.len, chart.steps.len(), "letter {l}");
                for (i, &rel) in chart.steps.iter().enumerate() {
                    assert_eq!(w.dirs[i], f.turn(rel as i32), "letter {l}, facing {f:?}, step {i}");
                }
                // The padding is straight ahead (walked, never used: blocked or not, it is past
                // the letter's own steps).
                assert!(w.dirs[chart.steps.len()..].iter().all(|&d| d == f));
                assert_eq!(w.end, f.turn(chart.end as i32), "letter {l}, facing {f:?}");
            }
        }
    }

    #[test]
    fn the_turn_table_is_hexdir_turn() {
        for d in HexDir::ALL {
            for steps in -40..40 {
                assert_eq!(turn(d, steps), d.turn(steps), "{d:?} by {steps}");
            }
        }
    }

    #[test]
    fn impact_edges() {
        // A car facing E hit by a car travelling E (from behind): rear.
        assert_eq!(impact_edge(HexDir::E, HexDir::E), Edge::Rear);
        // Travelling W into a car facing E: its front.
        assert_eq!(impact_edge(HexDir::E, HexDir::W), Edge::Front);
        // Travelling NW into a car facing E enters its SE edge (front-right): nose turns left.
        assert_eq!(impact_edge(HexDir::E, HexDir::NW), Edge::Side(-1));
        // Travelling SW into a car facing E enters its NE edge (front-left): nose turns right.
        assert_eq!(impact_edge(HexDir::E, HexDir::SW), Edge::Side(1));
        // Travelling NE enters its SW edge (rear-right): tail swings left, nose right.
        assert_eq!(impact_edge(HexDir::E, HexDir::NE), Edge::Side(1));
        // Travelling SE enters its NW edge (rear-left): nose left.
        assert_eq!(impact_edge(HexDir::E, HexDir::SE), Edge::Side(-1));
    }
}
