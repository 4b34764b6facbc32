//! The flat action index for machine players (the Python package, `docs/python.md`
//! "Encodings") computed without listing the programs: [`RoboRally::legal_count`] is
//! `legal_actions(seat).len()` and [`RoboRally::nth_legal`] its `i`-th action.
//!
//! A programming seat's actions are listed (`legal_actions`) as every program of its hand
//! (RR-4.2: the unlocked registers in order, each with a card of the hand not used by an
//! earlier one, the hand's cards tried in hand order: a lexicographic enumeration of the
//! arrangements of `k` of the `n` cards, `k` = the unlocked registers, at most `n`), first
//! without, then — for a damaged robot — with the power-down announcement (RR-4.4); then the
//! option uses and the draft's `place` actions (short lists). So the `i`-th program is decoded
//! by arithmetic over the hand — the mixed-radix digits of `i` in the bases `n`, `n − 1`, … —
//! and the up to 30,240 programs are never listed. Every other decision is a short list and is
//! listed. `tests/encoding.rs` checks both against `legal_actions` for every index.

use crate::card::Card;
use crate::game::Owed;
use crate::{Action, RoboRally};
use engine::{Game, Seat};

/// The number of arrangements of `k` of `n` cards (`n! / (n − k)!`; 1 for `k = 0`).
fn arrangements(n: usize, k: usize) -> usize {
    (0..k).map(|t| n - t).product()
}

impl RoboRally {
    /// The unlocked registers (in order) and how many of them a program fills (at most the
    /// hand's size), for robot `i`.
    fn program_shape(&self, i: usize) -> ([usize; 5], usize, usize) {
        let r = &self.robots[i];
        let mut slots = [0; 5];
        let mut free = 0;
        for k in (0..5).filter(|&k| !r.locked(k)) {
            slots[free] = k;
            free += 1;
        }
        let k = free.min(r.hand.len());
        (slots, k, arrangements(r.hand.len(), k))
    }

    /// The power-down choices listed with each program (RR-4.4: only a damaged robot may
    /// announce it).
    fn downs(&self, i: usize) -> usize {
        if self.robots[i].damage > 0 { 2 } else { 1 }
    }

    /// `legal_actions(seat).len()`, without listing the programs.
    pub fn legal_count(&self, seat: Seat) -> usize {
        let i = seat.index();
        match self.owed(seat) {
            None => 0,
            Some(Owed::Program) => {
                let (_, _, p) = self.program_shape(i);
                self.downs(i) * p + self.program_use_actions(i).len() + self.place_actions(i).len()
            }
            Some(_) => self.legal_actions(seat).len(),
        }
    }

    /// `legal_actions(seat)[index]`, without listing the programs; `None` past the end.
    pub fn nth_legal(&self, seat: Seat, index: usize) -> Option<Action> {
        let i = seat.index();
        match self.owed(seat) {
            None => None,
            Some(Owed::Program) => {
                let (slots, k, p) = self.program_shape(i);
                let programs = self.downs(i) * p;
                if index >= programs {
                    let rest = index - programs;
                    let uses = self.program_use_actions(i);
                    return match rest.checked_sub(uses.len()) {
                        None => uses.into_iter().nth(rest),
                        Some(j) => self.place_actions(i).into_iter().nth(j),
                    };
                }
                let hand = &self.robots[i].hand;
                let (down, mut j) = (index / p, index % p);
                let mut used = 0u64; // bit h: hand card h is in an earlier register
                let mut registers: [Option<Card>; 5] = [None; 5];
                for (t, &slot) in slots[..k].iter().enumerate() {
                    // Each choice at depth t is followed by this many arrangements of the rest.
                    let each = arrangements(hand.len() - t - 1, k - t - 1);
                    let c = j / each;
                    j %= each;
                    let h = (0..hand.len().min(64)).filter(|&h| used & (1 << h) == 0).nth(c)?;
                    used |= 1 << h;
                    registers[slot] = Some(hand[h]);
                }
                Some(Action::Program { registers, power_down_next: down == 1 })
            }
            Some(_) => self.legal_actions(seat).into_iter().nth(index),
        }
    }
}
