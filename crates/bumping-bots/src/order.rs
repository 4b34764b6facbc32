//! BB-2.2 race order and BB-2.3 lap counting.

use crate::Event;
use crate::state::BumpingBots;
use engine::Seat;
use grid::HexDir;

impl BumpingBots {
    /// BB-2.2: finished bots by place; then more laps (not started = −1), higher progress,
    /// lower lane, then the previous order (first round: start grid, then seat).
    pub(crate) fn compute_order(&self) -> Vec<Seat> {
        let first = self.round == self.first_round;
        let mut keyed: Vec<_> = self
            .bots
            .iter()
            .map(|b| {
                let s = b.seat;
                let placed = b.finished_place.map(u32::from).unwrap_or(u32::MAX);
                let (laps, progress, lane) = match b.at {
                    Some(h) => {
                        let c = self.board.cell(h);
                        (if b.started { b.laps } else { -1 }, c.progress, c.lane)
                    }
                    None => (i32::MAX, 0, 0),
                };
                let prev = if first {
                    self.grid_rank[s.index()]
                } else {
                    self.order
                        .iter()
                        .position(|&o| o == s)
                        .unwrap_or(usize::MAX) as u32
                };
                (
                    (
                        placed,
                        std::cmp::Reverse(laps),
                        std::cmp::Reverse(progress),
                        lane,
                        prev,
                        s,
                    ),
                    s,
                )
            })
            .collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, s)| s).collect()
    }

    /// BB-2.3: count a crossing of the start/finish line by a one-cell step.
    pub(crate) fn count_crossing(
        &mut self,
        bot: usize,
        from: grid::Hex,
        d: HexDir,
        ev: &mut Vec<Event>,
    ) {
        let c = self.board.cell(from);
        let bit = 1u8 << d.index();
        if c.line_fwd & bit != 0 {
            self.cross_forward(bot, ev);
        } else if c.line_back & bit != 0 {
            self.cross_backward(bot, ev);
        } else {
            self.note_past_line(bot);
        }
    }

    fn cross_forward(&mut self, bot: usize, ev: &mut Vec<Event>) {
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
            self.finishing
                .push(crate::state::FinishMark { bot, past: 1 });
        }
    }

    fn cross_backward(&mut self, bot: usize, ev: &mut Vec<Event>) {
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

    /// Move a bot one cell through side `d` (the caller checked the cell is free).
    pub(crate) fn step_bot(&mut self, bot: usize, d: HexDir, ev: &mut Vec<Event>) -> grid::Hex {
        let from = self.pos(bot);
        let to = crate::state::next(from, d);
        self.place_bot(bot, Some(to));
        self.count_crossing(bot, from, d, ev);
        to
    }
}
