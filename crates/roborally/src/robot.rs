//! A robot and its player's cards (RR-1.2, RR-4, RR-7, RR-8).

use crate::card::Card;
use crate::option::{OptionCard, OptionState, Stash};
use engine::Seat;
use grid::{Sq, SqDir};
use serde::Serialize;

/// RR-7.2: whether register `r` (0-based) is locked at `damage`.
pub const fn locked_at(damage: u8, r: usize) -> bool {
    damage >= 5 && (r as i32 + 1) >= 10 - damage as i32
}

/// One robot. Index in the game's robot list = its seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Robot {
    pub seat: Seat,
    /// Start dock number (RR-3); breaks ties between robots destroyed at the same moment (RR-8.3).
    pub dock: u8,
    /// `None` while destroyed, out or finished.
    pub at: Option<Sq>,
    pub facing: SqDir,
    pub damage: u8,
    pub lives: u8,
    pub flags_touched: u8,
    pub archive: Sq,
    /// Powered down this turn (RR-4.4).
    pub powered_down: bool,
    /// Announced (secretly) to power down next turn (RR-4.4).
    pub power_down_next: bool,
    pub destroyed: bool,
    /// Out of the game (RR-8.2).
    pub out: bool,
    /// Touched every flag (variant `full_ranking`, RR-10): off the board, done.
    pub finished: bool,
    pub registers: [Option<Card>; 5],
    /// Which registers are face up (revealed this turn, or locked and seen before, or RR-7.3).
    pub revealed: [bool; 5],
    pub hand: Vec<Card>,
    /// Cards dealt this turn (public, RR-11).
    pub hand_size: u8,
    /// Option cards held (RR-9 hooks read this list).
    pub options: Vec<OptionCard>,
    /// When it was last destroyed (a step counter), for the re-entry order (RR-8.3).
    pub destroyed_at: u32,
    /// RR-9: the marks its option cards keep.
    pub opt: OptionState,
    /// RR-9: program cards kept on option cards (secret).
    pub stash: Stash,
    /// RR-4.3: the program being placed, a secret draft (cards of `hand`, unlocked registers
    /// only) kept when time runs out; empty outside the programming phase.
    #[serde(skip_serializing_if = "no_draft")]
    pub draft: [Option<Card>; 5],
    /// `place` actions this turn (at most [`crate::programming::MAX_PLACES`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub places: u16,
}

fn no_draft(d: &[Option<Card>; 5]) -> bool {
    d.iter().all(Option::is_none)
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

impl Robot {
    /// RR-7.2: register `r` (0-based) is locked at this damage (5 locks register 5, ... 9 locks 1–5).
    #[inline]
    pub const fn locked(&self, r: usize) -> bool {
        locked_at(self.damage, r) || self.opt.jammed[r] > 0
    }

    /// Which registers are locked now (RR-7.2, RR-9 Fire Control).
    pub fn lock_mask(&self) -> [bool; 5] {
        std::array::from_fn(|k| self.locked(k))
    }

    /// Holds option card `o` (RR-9).
    #[inline]
    pub fn has(&self, o: OptionCard) -> bool {
        !self.options.is_empty() && self.options.contains(&o)
    }

    /// Locked register numbers (1-based, ascending).
    pub fn locked_registers(&self) -> Vec<u8> {
        (0..5).filter(|&r| self.locked(r)).map(|r| r as u8 + 1).collect()
    }

    /// Still taking part (not out, not finished).
    pub const fn active(&self) -> bool {
        !self.out && !self.finished
    }

    /// The cell it stands on, if it is on the board. (Invariant: `at` is `None` whenever the
    /// robot is destroyed, out or finished; `destroy` and `finish` clear it.)
    #[inline]
    pub fn cell(&self) -> Option<Sq> {
        debug_assert!(!self.destroyed || self.at.is_none());
        self.at
    }

    /// RR-7.1: cards dealt = 9 − damage, never below 0 (RR-9 Extra Memory: one more).
    pub fn cards_to_deal(&self) -> usize {
        9usize.saturating_sub(self.damage as usize) + usize::from(self.has(OptionCard::ExtraMemory))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rr_7_2_locking_table() {
        let mut r = Robot {
            seat: Seat(0),
            dock: 1,
            at: None,
            facing: SqDir::N,
            damage: 0,
            lives: 3,
            flags_touched: 0,
            archive: Sq::new(0, 0),
            powered_down: false,
            power_down_next: false,
            destroyed: false,
            out: false,
            finished: false,
            registers: [None; 5],
            revealed: [false; 5],
            hand: vec![],
            hand_size: 0,
            options: vec![],
            destroyed_at: 0,
            opt: OptionState::default(),
            stash: Stash::default(),
            draft: [None; 5],
            places: 0,
        };
        let want: [&[u8]; 10] =
            [&[], &[], &[], &[], &[], &[5], &[4, 5], &[3, 4, 5], &[2, 3, 4, 5], &[1, 2, 3, 4, 5]];
        for (d, w) in want.iter().enumerate() {
            r.damage = d as u8;
            assert_eq!(r.locked_registers(), w.to_vec(), "damage {d}");
        }
    }
}
