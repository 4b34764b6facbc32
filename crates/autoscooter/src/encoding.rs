//! Action encodings for machine players (the Python package, `docs/python.md` "Encodings"):
//! the *flat* index into [`Game::legal_actions`](engine::Game::legal_actions) computed without
//! listing the actions, and a *factored* form of a plot (car, sheet row, letter) with one mask
//! per factor.
//!
//! **Flat.** The engine lists a planning seat's actions in a fixed order (`legal_actions`): for
//! each of its cars still to plot, in car order, each unused turn number ascending (AS-2.1: the
//! car's column of the sheet, row by row), each with every letter allowed at the car's speed
//! (AS-3.3; no letter for a car standing still, AS-4.1); then the wild car's letters when the
//! seat plots it (AS-7.1). That order is a product of small ranges, so the number of actions
//! ([`Autoscooter::legal_count`]) and the `i`-th one ([`Autoscooter::nth_legal`]) are computed
//! with arithmetic on the cars' used rows (a bit set) — no list of up to several hundred actions
//! is built; a case D start (AS-5.4: each free hex beside the car, in direction order, with five
//! facings) likewise. A payment (AS-7.3) is a short list and is listed.
//! `tests/encoding.rs` checks both against `legal_actions` in random positions.
//!
//! **Factored.** A plot as three choices, each with its own mask ([`Autoscooter::factored_masks`]):
//! the car (`0 … 7` a car id, [`WILD`] = 8 the wild car), the row of the sheet
//! (`0 … 10`: the turn number is [`sheet::number`]`(car, row)`) and the letter (`0 … 15` = A … P,
//! [`NO_LETTER`] = 16 for a car standing still). Given the car, the rows and the letters are
//! independent (every unused number goes with every allowed letter), so the masks are the car's
//! mask and, per car, a row mask and a letter mask. [`Autoscooter::factored_action`] turns three
//! choices into the action; the rules judge it when it is applied (nothing is decided here).
//! The masks mark exactly the listed plots: the letters of AS-3.3 for the car's speed, although
//! the rules also accept another letter (AS-4.2 gives it a meaning).

use crate::chart::Letter;
use crate::sheet;
use crate::state::Stage;
use crate::{Action, Autoscooter, LetterInput};
use engine::{Game, Seat};
use grid::HexDir;

/// The factored heads' sizes: car (8 ids and the wild car), sheet row, letter (16 and none).
pub const HEADS: [usize; 3] = [9, 11, 17];
/// The car head's value for the wild car (AS-7.1).
pub const WILD: usize = 8;
/// The letter head's value for "no letter" (a car standing still, AS-4.1).
pub const NO_LETTER: usize = 16;

/// The letters allowed at `speed` as a range of letter indices (AS-3.3), as `legal_actions`
/// lists them; `None` for a car standing still (one action, no letter).
fn letters(speed: u8) -> Option<(u8, u8)> {
    if speed == 0 {
        return None;
    }
    let (lo, hi) = Letter::range_at(speed);
    Some((lo, hi))
}

/// How many letter choices a car at `speed` has in the listing (1: no letter).
fn letter_count(speed: u8) -> usize {
    match letters(speed) {
        None => 1,
        Some((lo, hi)) => usize::from(hi + 1).saturating_sub(usize::from(lo)),
    }
}

/// The facings of a case D start in each free hex: the direction of the step turned by −2 … 2
/// (AS-5.4), in `legal_actions`' order.
const FACINGS: usize = 5;

const ROWS_MASK: u16 = (1 << sheet::ROUNDS) - 1;

impl Autoscooter {
    /// The wild car's number of letters when `seat` may plot it now (AS-7.1), else 0.
    fn wild_letters(&self, seat: Seat) -> Option<(u8, u8)> {
        if self.check_plot_wild(seat, &None).is_err() {
            return None;
        }
        let w = self.car(self.wild?);
        Some(Letter::range_at(w.speed))
    }

    /// A case D start's free hexes beside the car (AS-5.4), in `legal_actions`' order, when
    /// `seat` owes it: each goes with [`FACINGS`] facings.
    fn start_cells(&self, seat: Seat) -> Option<(u8, [HexDir; 6], usize)> {
        let Stage::AwaitStart { car, seat: s } = self.stage else { return None };
        if s != seat {
            return None;
        }
        let c = self.car(car);
        let (free, n) = self.free_directions(c.cell);
        Some((car, free, n))
    }

    /// `legal_actions(seat).len()`, counted without listing (a payment, AS-7.3, is listed).
    pub fn legal_count(&self, seat: Seat) -> usize {
        if let Stage::AwaitStart { .. } = self.stage {
            return self.start_cells(seat).map_or(0, |(_, _, n)| n * FACINGS);
        }
        if self.stage != Stage::Plan {
            return self.legal_actions(seat).len();
        }
        let mut n = 0;
        for c in
            self.cars().filter(|c| c.owner == Some(seat) && self.plots[c.id as usize].is_none())
        {
            let free = (!c.used & ROWS_MASK).count_ones() as usize;
            n += free * letter_count(c.speed);
        }
        if let Some((lo, hi)) = self.wild_letters(seat) {
            n += usize::from(hi + 1).saturating_sub(usize::from(lo));
        }
        n
    }

    /// `legal_actions(seat)[index]` (`None` past the end), computed without listing in planning.
    pub fn nth_legal(&self, seat: Seat, index: usize) -> Option<Action> {
        if let Stage::AwaitStart { .. } = self.stage {
            let (car, free, n) = self.start_cells(seat)?;
            let d = *free[..n].get(index / FACINGS)?;
            let to = self.board.hex(self.board.neighbour(self.car(car).cell, d));
            let facing = d.turn((index % FACINGS) as i32 - 2);
            return Some(Action::Start { car, to, facing });
        }
        if self.stage != Stage::Plan {
            return self.legal_actions(seat).into_iter().nth(index);
        }
        let mut i = index;
        for c in
            self.cars().filter(|c| c.owner == Some(seat) && self.plots[c.id as usize].is_none())
        {
            let per = letter_count(c.speed);
            let free = !c.used & ROWS_MASK;
            let here = free.count_ones() as usize * per;
            if i >= here {
                i -= here;
                continue;
            }
            let number = c.nth_unused((i / per) as u32)?;
            let letter = match letters(c.speed) {
                None => None,
                Some((lo, _)) => Letter::from_index(lo + (i % per) as u8),
            };
            return Some(Action::plot(c.id, number, letter));
        }
        let (lo, hi) = self.wild_letters(seat)?;
        let l = u8::try_from(i).ok().and_then(|i| lo.checked_add(i)).filter(|&l| l <= hi)?;
        Some(Action::PlotWild { letter: Letter::from_index(l).map(LetterInput::Valid) })
    }

    /// The factored masks of `seat`'s plots now ([`HEADS`]): `car[c]` whether the seat may plot
    /// car `c` (or the wild car, [`WILD`]); `rows[c][r]` whether row `r` of car `c`'s column is
    /// unused; `letters[c][l]` whether letter `l` (or [`NO_LETTER`]) is allowed at car `c`'s
    /// speed. All false outside planning or for a seat that owes no plot. The wild car is
    /// plotted by its letter alone (AS-7.1: no turn number): its row mask is row 0 alone, a
    /// placeholder [`Autoscooter::factored_action`] ignores.
    pub fn factored_masks(
        &self,
        seat: Seat,
        car: &mut [bool; 9],
        rows: &mut [[bool; 11]; 9],
        letters_out: &mut [[bool; 17]; 9],
    ) {
        *car = [false; 9];
        *rows = [[false; 11]; 9];
        *letters_out = [[false; 17]; 9];
        if self.stage != Stage::Plan {
            return;
        }
        for c in
            self.cars().filter(|c| c.owner == Some(seat) && self.plots[c.id as usize].is_none())
        {
            let id = c.id as usize;
            let free = !c.used & ROWS_MASK;
            if free == 0 {
                continue;
            }
            car[id] = true;
            for (r, slot) in rows[id].iter_mut().enumerate() {
                *slot = free & (1 << r) != 0;
            }
            match letters(c.speed) {
                None => letters_out[id][NO_LETTER] = true,
                Some((lo, hi)) => {
                    (lo..=hi).for_each(|l| letters_out[id][usize::from(l)] = true);
                }
            }
        }
        if let Some((lo, hi)) = self.wild_letters(seat) {
            car[WILD] = lo <= hi;
            rows[WILD][0] = lo <= hi;
            (lo..=hi).for_each(|l| letters_out[WILD][usize::from(l)] = true);
        }
    }

    /// The action of three factored choices (car, row, letter: [`HEADS`]); `None` when a choice
    /// is out of its range. The action is not judged here: `apply` does. A car or row the masks
    /// exclude is refused (not the seat's car, already plotted, a number used); a letter they
    /// exclude is a plot the rules accept without listing it (AS-4.2: a letter illegal for the
    /// speed is played straight ahead, a stationary car's letter is ignored), as for a plot
    /// sent as JSON.
    pub fn factored_action(&self, car: usize, row: usize, letter: usize) -> Option<Action> {
        if car >= HEADS[0] || row >= HEADS[1] || letter >= HEADS[2] {
            return None;
        }
        let letter = (letter != NO_LETTER).then(|| Letter::from_index(letter as u8)).flatten();
        if car == WILD {
            return Some(Action::PlotWild { letter: letter.map(LetterInput::Valid) });
        }
        let number = sheet::number(car as u8, row as u8);
        Some(Action::plot(car as u8, number, letter))
    }
}
