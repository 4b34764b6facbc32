//! BB-2.2 race order and BB-2.3 lap counting.

use crate::Event;
use crate::event::EventSink;
use crate::state::BumpingBots;
use crate::track::Cell;
use engine::Seat;
use grid::HexDir;

/// Most bots in a race (BB-1.1).
const MAX_BOTS: usize = 9;

impl BumpingBots {
    /// BB-2.2: finished bots by place; then more laps (not started = −1), higher progress,
    /// lower lane, then the previous order (first round: start grid, then seat). Without
    /// allocating: each bot's criteria packed into one integer key (at most 9 bots, BB-1.1),
    /// sorted by a network ([`sort9`]; the wide keys of a first round by insertion). Returns
    /// the seats and their number.
    pub(crate) fn sorted_order(&self) -> ([Seat; MAX_BOTS], usize) {
        if self.order.len() == self.bots.len()
            && let Some(sorted) = self.sorted_order_narrow()
        {
            return sorted;
        }
        self.sorted_order_wide()
    }

    /// BB-2.2 at the end of a round (`end_round`): `order` becomes the next round's race
    /// order, written over itself (no copy through a seats array, issue 17). The same order as
    /// [`Self::sorted_order`] (`tests::reorder_is_sorted_order`).
    #[inline(always)]
    pub(crate) fn reorder(&mut self) {
        if let Some(mut keys) = self.narrow_keys() {
            sort9(&mut keys);
            // The seat is the key's low byte; `order` holds `n` ≤ 9 seats.
            for (o, k) in self.order.iter_mut().zip(&keys) {
                *o = Seat(*k as u8);
            }
            return;
        }
        let (seats, n) = self.sorted_order();
        self.order.clear();
        self.order.extend_from_slice(&seats[..n]);
    }

    /// [`Self::sorted_order`] once a previous order exists (every round but the race's first).
    fn sorted_order_narrow(&self) -> Option<([Seat; MAX_BOTS], usize)> {
        let mut keys = self.narrow_keys()?;
        sort9(&mut keys);
        let mut seats = [Seat(0); MAX_BOTS];
        for (seat, key) in seats.iter_mut().zip(&keys) {
            *seat = Seat(*key as u8);
        }
        Some((seats, self.bots.len()))
    }

    /// The race order's keys once a previous order exists, one 64-bit key per bot (issue
    /// 17), in the previous order: the same criteria in the same precedence as the wide keys,
    /// each mapped onto a narrower field that keeps its order: the place (9 bits: 0–255, none =
    /// 256), the laps descending (14 bits: −1 (not started) to 16,381, off the track above
    /// every lap count, as `i32::MAX` in the wide key), the cell's rank by progress and lane
    /// ([`crate::track::Board::rank_at`], 21 bits), the previous order's index (4 bits) and
    /// the seat (8 bits). The slots past the bots hold `u64::MAX`, so they sort last. `None`
    /// without a previous order or when a lap count does not fit (a scenario may set any): the
    /// wide keys then decide. `tests::narrow_keys_sort_as_the_wide_ones` holds the two
    /// together.
    ///
    /// Each field is chosen without a branch on the bot (a race's bots are in every state in
    /// turn): only the lap count's fit is a test, and it always passes in a race.
    #[inline(always)]
    fn narrow_keys(&self) -> Option<[u64; MAX_BOTS]> {
        const LAPS_OFF: u32 = (1 << 14) - 1;
        let n = self.bots.len();
        // At most 9 bots (BB-1.1).
        if n > MAX_BOTS || self.order.len() != n {
            return None;
        }
        let mut keys = [u64::MAX; MAX_BOTS];
        for ((i, &s), key) in self.order.iter().enumerate().zip(&mut keys) {
            let b = &self.bots[s.index()];
            let placed = b.finished_place.map_or(256, u64::from);
            let on = b.at.is_some();
            // Laps −1 (not started) ..= 16,381 as 0 ..= 16,382: one unsigned test for both ends.
            let up = (if b.started { b.laps } else { -1 } as u32).wrapping_add(1);
            if on && up >= LAPS_OFF {
                return None;
            }
            // Off the track: ahead of every lap count; progress and lane 0 for all such. (A
            // bot off the track keeps `k` = 0, a cell of the board: its rank is read and
            // dropped.)
            let laps = if on { LAPS_OFF - up } else { 0 };
            let rank = if on { self.board.rank_at(b.k as usize) } else { 0 };
            *key = (placed << 55)
                | (u64::from(laps) << 41)
                | (u64::from(rank) << 20)
                | ((i as u64) << 8)
                | u64::from(s.0);
        }
        Some(keys)
    }

    /// [`Self::sorted_order`] with keys wide enough for any progress, lane, lap count and start
    /// grid index.
    fn sorted_order_wide(&self) -> ([Seat; MAX_BOTS], usize) {
        // Order-preserving map of an i32 onto a u32.
        fn ord(x: i32) -> u32 {
            (x as u32) ^ 0x8000_0000
        }
        let n = self.bots.len();
        // BB-2.2: ties fall to the previous round's order. Only before the first round of a race
        // (or of a scenario) is there none: then the start grid, then the seat. (The next order
        // is computed at the end of a round, before the round number moves on, so the round
        // number cannot tell: the order itself does.) Bots are taken in the previous order (its
        // index is the tie-break), so that the keys come nearly sorted.
        let by_prev = self.order.len() == n;
        // Keys (main criteria; previous order and seat) and seats, sorted together.
        let mut his = [0u128; MAX_BOTS];
        let mut los = [0u64; MAX_BOTS];
        let mut seats = [Seat(0); MAX_BOTS];
        for i in 0..n {
            let (s, prev) = if by_prev {
                (self.order[i], i as u32)
            } else {
                (Seat(i as u8), self.grid_rank[i])
            };
            let b = &self.bots[s.index()];
            // None sorts after every place (a place is a u8).
            let placed = b.finished_place.map_or(256, u128::from);
            let (laps, progress, lane) = match b.at {
                Some(h) => {
                    let c = self.board.cell(h);
                    (if b.started { b.laps } else { -1 }, c.progress, c.lane)
                }
                None => (i32::MAX, 0, 0),
            };
            let hi = (placed << 96)
                | (u128::from(!ord(laps)) << 64)
                | (u128::from(!ord(progress)) << 32)
                | u128::from(ord(lane));
            let lo = (u64::from(prev) << 8) | u64::from(s.0);
            // Insertion: shift the larger keys up.
            let mut j = i;
            while j > 0 && (his[j - 1], los[j - 1]) > (hi, lo) {
                his[j] = his[j - 1];
                los[j] = los[j - 1];
                seats[j] = seats[j - 1];
                j -= 1;
            }
            his[j] = hi;
            los[j] = lo;
            seats[j] = s;
        }
        (seats, n)
    }

    /// BB-2.3: count a crossing of the start/finish line by a one-cell step.
    pub(crate) fn count_crossing(
        &mut self,
        bot: usize,
        from: grid::Hex,
        d: HexDir,
        ev: &mut impl EventSink,
    ) {
        let c = self.board.cell(from);
        self.count_crossing_of(bot, c, d, ev);
    }

    /// [`Self::count_crossing`] from cell data already read.
    #[inline(always)]
    fn count_crossing_of(&mut self, bot: usize, c: Cell, d: HexDir, ev: &mut impl EventSink) {
        let bit = 1u8 << d.index();
        // Most steps cross no line: one test for them.
        if (c.line_fwd | c.line_back) & bit == 0 {
            self.note_past_line(bot);
        } else if c.line_fwd & bit != 0 {
            self.cross_forward(bot, ev);
        } else {
            self.cross_backward(bot, ev);
        }
    }

    fn cross_forward(&mut self, bot: usize, ev: &mut impl EventSink) {
        let laps_to_run = self.board.laps() as i32;
        let b = &mut self.bots[bot];
        if b.finished {
            return;
        }
        if !b.started {
            b.started = true;
        } else {
            b.laps += 1;
        }
        ev.push(Event::LineCrossed {
            seat: b.seat,
            forward: true,
            laps: b.laps,
            started: b.started,
        });
        if b.started && b.laps >= laps_to_run {
            b.finished = true;
            ev.push(Event::Finished { seat: b.seat });
            self.finishing.push(crate::state::FinishMark { bot, past: 1 });
        }
    }

    fn cross_backward(&mut self, bot: usize, ev: &mut impl EventSink) {
        let b = &mut self.bots[bot];
        if b.finished {
            return;
        }
        if b.laps > 0 {
            b.laps -= 1;
        } else if b.started {
            b.started = false;
        } else {
            return;
        }
        ev.push(Event::LineCrossed {
            seat: b.seat,
            forward: false,
            laps: b.laps,
            started: b.started,
        });
    }

    /// BB-10: cells taken after the finishing crossing.
    fn note_past_line(&mut self, bot: usize) {
        if self.bots[bot].finished
            && let Some(m) = self.finishing.iter_mut().find(|m| m.bot == bot)
        {
            m.past = m.past.saturating_add(1);
        }
    }

    /// Move a bot one cell through side `d` (the caller checked the cell is free), say so with
    /// an event of `kind`, then count a line crossing: the move's event comes before the
    /// `line_crossed` / `finished` it causes (one step, one order, for animations and replays).
    pub(crate) fn step_bot(
        &mut self,
        bot: usize,
        d: HexDir,
        kind: StepKind,
        ev: &mut impl EventSink,
    ) -> grid::Hex {
        self.step_bot_at(bot, d, kind, ev).0
    }

    /// [`Self::step_bot`], also returning the dense index of the cell reached.
    #[inline(always)]
    pub(crate) fn step_bot_at(
        &mut self,
        bot: usize,
        d: HexDir,
        kind: StepKind,
        ev: &mut impl EventSink,
    ) -> (grid::Hex, usize) {
        let from = self.pos(bot);
        let kf = self.cell_of(bot);
        let kt = self.board.step_idx(kf, d);
        let to = self.step_bot_from(bot, from, kf, d, kt, kind, ev);
        (to, kt)
    }

    /// [`Self::step_bot`] from `from` at dense index `kf` onto dense index `kt`, which the
    /// caller looked up.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn step_bot_from(
        &mut self,
        bot: usize,
        from: grid::Hex,
        kf: usize,
        d: HexDir,
        kt: usize,
        kind: StepKind,
        ev: &mut impl EventSink,
    ) -> grid::Hex {
        let to = from.neighbour(d);
        debug_assert_eq!(Some(kt), self.board.idx(to));
        self.place_bot_at(bot, kf, to, kt);
        let seat = self.bots[bot].seat;
        ev.push(match kind {
            StepKind::Moved => Event::Moved { seat, from, to },
            StepKind::Pushed => Event::Pushed { seat, from, to },
            StepKind::Thrown => Event::Thrown { seat, from, to },
        });
        let c = self.board.cell_at(kf);
        self.count_crossing_of(bot, c, d, ev);
        to
    }
}

/// A sorting network for 9 keys (25 compare-exchanges in 7 layers), written out so that every
/// index is a constant: no branch on the keys, which a random race makes unpredictable (an
/// insertion sort mispredicted about ten times a round), and no bounds check (issue 17).
/// `tests::the_network_sorts_every_input` checks it on every 0/1 input, which proves it sorts
/// any input (Knuth's 0-1 principle).
#[inline(always)]
fn sort9(k: &mut [u64; MAX_BOTS]) {
    macro_rules! exchange {
        ($(($i:literal, $j:literal)),* $(,)?) => {
            $(
                let (a, b) = (k[$i], k[$j]);
                k[$i] = a.min(b);
                k[$j] = a.max(b);
            )*
        };
    }
    exchange!((0, 3), (1, 7), (2, 5), (4, 8));
    exchange!((0, 7), (2, 4), (3, 8), (5, 6));
    exchange!((0, 2), (1, 3), (4, 5), (7, 8));
    exchange!((1, 4), (3, 6), (5, 7));
    exchange!((0, 1), (2, 4), (3, 5), (6, 8));
    exchange!((2, 3), (4, 5), (6, 7));
    exchange!((1, 2), (3, 4), (5, 6));
}

/// What moved a bot one cell: the event [`BumpingBots::step_bot`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StepKind {
    /// Its own move (BB-6).
    Moved,
    /// A shock or an arm (BB-7, BB-8.2).
    Pushed,
    /// A bumper (BB-8.4).
    Thrown,
}

#[cfg(test)]
mod tests {
    use crate::tracks::{SHIPPED, shipped};
    use crate::{BumpingBots, Setup};
    use engine::{Decision, Game, Rng};

    #[test]
    fn the_network_sorts_every_input() {
        for bits in 0u32..1 << 9 {
            let mut keys = [0u64; 9];
            for (i, k) in keys.iter_mut().enumerate() {
                *k = u64::from(bits >> i & 1);
            }
            let mut sorted = keys;
            sorted.sort_unstable();
            super::sort9(&mut keys);
            assert_eq!(keys, sorted, "input {bits:09b}");
        }
    }

    /// `reorder` (the end of a round's order, written over the previous one) leaves the order
    /// `sorted_order` returns, on every position of random races on every shipped track and
    /// with 2, 5 and 9 bots.
    #[test]
    fn reorder_is_sorted_order() {
        let mut positions = 0;
        for (name, _) in SHIPPED {
            for bots in [2, 5, 9] {
                let setup = Setup::race(shipped(name).expect("shipped"), bots);
                let mut g = BumpingBots::new(&setup, 7).expect("a shipped track starts");
                let mut rng = Rng::seeded(bots as u64);
                let mut events = Vec::new();
                while let Some(Decision::One(seat)) = g.decision() {
                    let mut h = g.clone();
                    h.reorder();
                    let (seats, n) = g.sorted_order();
                    assert_eq!(h.order, seats[..n], "{name}, {bots} bots");
                    positions += 1;
                    let a = g.sample_action(seat, &mut rng).expect("the owing seat");
                    g.apply(seat, &a, &mut events).expect("a sampled action is legal");
                    events.clear();
                }
            }
        }
        assert!(positions > 1000, "{positions}");
    }

    /// Whenever the narrow keys apply they give the wide keys' order, and they stand aside
    /// exactly when a lap count does not fit: on every position of random races on every
    /// shipped track, and on those positions with places, lap counts (extremes included) and
    /// cells (off the track included) shuffled among the bots.
    #[test]
    fn narrow_keys_sort_as_the_wide_ones() {
        const LAPS: [i32; 11] = [i32::MIN, -7, -1, 0, 1, 2, 3, 16_381, 16_382, 20_000, i32::MAX];
        let mut narrow_used = 0;
        for (name, _) in SHIPPED {
            let setup = Setup::race(shipped(name).expect("shipped"), 9);
            let cells: Vec<grid::Hex> = shipped(name)
                .map(|spec| spec.cells.iter().map(|c| c.at).collect())
                .expect("shipped");
            for seed in 0..3u64 {
                let mut g = BumpingBots::new(&setup, seed).expect("a shipped track starts");
                let mut rng = Rng::seeded(seed ^ 0x0bde);
                let mut events = Vec::new();
                while let Some(Decision::One(seat)) = g.decision() {
                    assert_eq!(g.sorted_order_narrow(), Some(g.sorted_order_wide()));
                    narrow_used += 1;
                    // A scrambled copy: any place, lap count, start flag and cell.
                    let mut h = g.clone();
                    for b in &mut h.bots {
                        b.finished_place = match rng.below(4) {
                            0 => Some(rng.below(256) as u8),
                            _ => None,
                        };
                        b.laps = LAPS[rng.index(LAPS.len())];
                        b.started = rng.below(2) == 0;
                        b.at = match rng.below(8) {
                            0 => None,
                            _ => Some(cells[rng.index(cells.len())]),
                        };
                    }
                    // Each bot's dense index kept with its cell, as the rules keep it.
                    h.fill_occupancy();
                    let fits = h.bots.iter().all(|b| {
                        let laps = if b.started { b.laps } else { -1 };
                        b.at.is_none() || (-1..16_382).contains(&laps)
                    });
                    match h.sorted_order_narrow() {
                        Some(narrow) => {
                            assert!(fits);
                            assert_eq!(narrow, h.sorted_order_wide());
                        }
                        None => assert!(!fits),
                    }
                    let a = g.sample_action(seat, &mut rng).expect("the owing seat");
                    g.apply(seat, &a, &mut events).expect("a sampled action is legal");
                    events.clear();
                }
            }
        }
        assert!(narrow_used > 1000);
    }
}
