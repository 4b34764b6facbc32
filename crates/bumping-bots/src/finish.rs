//! BB-10 end of the race: places settled at the end of each round, ties shared.

use crate::Event;
use crate::championship::points_for;
use crate::event::EventSink;
use crate::state::BumpingBots;
use engine::Seat;

impl BumpingBots {
    /// BB-10: a finishing bot leaves the track at the end of the move that finished it.
    /// Only bots that finished this round can still stand on the track: a bot finishes only
    /// by crossing the line (`cross_forward`, which marks it in `finishing`), and `finishing`
    /// is emptied at the end of the round, after this has run.
    #[inline]
    pub(crate) fn remove_finished(&mut self) {
        if self.finishing.is_empty() {
            return;
        }
        self.remove_finishers();
    }

    fn remove_finishers(&mut self) {
        for j in 0..self.finishing.len() {
            let i = self.finishing[j].bot;
            if self.bots[i].finished && self.bots[i].at.is_some() {
                self.place_bot(i, None);
            }
        }
    }

    fn next_place(&self) -> u8 {
        self.bots.iter().filter(|b| b.finished_place.is_some()).count() as u8 + 1
    }

    /// BB-10: the bots that finished this round, furthest past the line first, then higher
    /// speed; equal on both: they share the place and the next place is skipped.
    pub(crate) fn settle_places(&mut self, ev: &mut impl EventSink) {
        // Most rounds nobody finished: nothing to settle, and `finishing` keeps its buffer.
        if self.finishing.is_empty() {
            return;
        }
        let mut marks = std::mem::take(&mut self.finishing);
        marks.sort_by_key(|m| {
            (std::cmp::Reverse(m.past), std::cmp::Reverse(self.bots[m.bot].speed), m.bot)
        });
        let base = self.next_place();
        let mut place = base;
        for (i, m) in marks.iter().enumerate() {
            if i > 0 {
                let p = &marks[i - 1];
                if (p.past, self.bots[p.bot].speed) != (m.past, self.bots[m.bot].speed) {
                    place = base + i as u8;
                }
            }
            self.bots[m.bot].finished_place = Some(place);
            ev.push(Event::Placed { seat: self.bots[m.bot].seat, place });
        }
        // The buffer back, empty, for the next finishers (no allocation per finishing round).
        marks.clear();
        self.finishing = marks;
    }

    /// BB-10: when one bot (or none) is left racing, or the round limit is reached, the bots
    /// still racing take the last places in race order. Returns whether the race is over.
    pub(crate) fn check_race_over(&mut self, ev: &mut impl EventSink) -> bool {
        let still_racing = |s: &Seat| !self.bots[s.index()].finished;
        if self.round < self.variants.round_limit()
            && self.order.iter().filter(|s| still_racing(s)).nth(1).is_some()
        {
            return false;
        }
        // In race order, without collecting them first (no allocation, issue 17): placing one
        // changes no other's `finished`.
        let mut place = self.next_place();
        for i in 0..self.order.len() {
            let s = self.order[i];
            if !self.bots[s.index()].finished {
                self.bots[s.index()].finished_place = Some(place);
                ev.push(Event::Placed { seat: s, place });
                place += 1;
            }
        }
        // A summary (the places are in the state): built only for a sink that reads it.
        if crate::play::sink_reads_summaries(ev) {
            let ranking =
                crate::event::Ranking::new(&self.ranking()).expect("at most 9 bots (BB-1.1)");
            ev.push(Event::RaceOver { ranking });
        }
        true
    }

    /// Places from first to last; tied seats share a group.
    pub fn ranking(&self) -> Vec<Vec<Seat>> {
        let mut placed: Vec<(u8, Seat)> =
            self.bots.iter().filter_map(|b| b.finished_place.map(|p| (p, b.seat))).collect();
        placed.sort();
        let mut out: Vec<Vec<Seat>> = Vec::new();
        let mut last = 0;
        for (p, s) in placed {
            match out.last_mut() {
                Some(g) if p == last => g.push(s),
                _ => out.push(vec![s]),
            }
            last = p;
        }
        out
    }

    /// The first group of a finished race's ranking (`Game::outcome`): the seats with the best
    /// place (tied bots share it, BB-10), without building the ranking (`robodrome sim` reads
    /// it for every race, issue 17). `None` while the race is not over.
    pub fn winners(&self) -> Option<engine::SeatSet> {
        if self.phase != crate::state::Phase::Over {
            return None;
        }
        let best = self.bots.iter().filter_map(|b| b.finished_place).min();
        Some(
            self.bots
                .iter()
                .filter(|b| best.is_some() && b.finished_place == best)
                .map(|b| b.seat)
                .collect(),
        )
    }

    /// BB-11.1: the points each seat earned in this race (0 until placed).
    pub fn race_points(&self) -> Vec<i32> {
        let n = self.bots.len();
        self.bots
            .iter()
            .map(|b| b.finished_place.map_or(0, |p| points_for(p as usize, n)))
            .collect()
    }
}
