//! An observer's observation written straight from the state (the Python package's
//! observations, `docs/python.md` "Observations"): exactly the numbers
//! [`engine::features::write`] writes from [`Autoscooter::view_without_choices`] — the same
//! fields in the same order, redacted the same way (AS-4.1: an observer sees only its own cars'
//! plots during planning; the turn numbers once revealed) — without building the view and its
//! lists. `tests/observation.rs` checks the two bit for bit for every observer along random
//! games of every size and variant.

use crate::purse::Purse;
use crate::sheet;
use crate::state::{Autoscooter, Stage};
use engine::features::Features;
use engine::{Observer, Seat};

/// A colour map (`view::colour_map`): the counts of the colours held, in colour order (the
/// map's keys `"0"` … `"7"` sort as the colours do).
fn colours(f: &mut Features, p: &Purse) {
    for &n in p.0.iter().filter(|&&n| n > 0) {
        f.num(f32::from(n));
    }
}

fn seat(f: &mut Features, s: Seat) {
    f.num(f32::from(s.0));
}

impl Autoscooter {
    /// Write `observer`'s observation into `out` (zero-filled after the last number); returns
    /// how many numbers the view has up to `out.len()`. The same numbers as
    /// `engine::features::write(&self.view_without_choices(observer), out)`.
    pub fn write_observation(&self, observer: Observer, out: &mut [f32]) -> usize {
        let mut f = Features::new(out);
        self.observe(observer, &mut f);
        f.finish()
    }

    fn observe(&self, observer: Observer, f: &mut Features) {
        let colour = self.variants.colour_scoring;
        // View::round, phase.
        f.num(f32::from(self.round));
        f.str(self.phase_name());
        // cars: car, owner, at, facing, speed, used_numbers, wild.
        for c in self.cars() {
            if f.full() {
                return;
            }
            f.num(f32::from(c.id));
            f.num(c.owner.map_or(0.0, |s| f32::from(s.0)));
            let at = self.board.hex(c.cell);
            f.num(at.q as f32);
            f.num(at.r as f32);
            f.num(f32::from(u8::from(c.facing)));
            f.num(f32::from(c.speed));
            // `Car::used_numbers` (rows ascending), one step per used row instead of one per row.
            let mut used = c.used & ((1 << sheet::ROUNDS) - 1);
            while used != 0 {
                let row = used.trailing_zeros() as u8;
                used &= used - 1;
                f.num(f32::from(sheet::number(c.id, row)));
            }
            f.flag(self.wild == Some(c.id));
        }
        // players: seat, chits, colours (with colour scoring), score.
        for s in 0..self.seats {
            if f.full() {
                return;
            }
            let p = self.chits(Seat(s));
            seat(f, Seat(s));
            f.num(p.total() as f32);
            if colour {
                colours(f, &p);
            }
            f.num(self.seat_score(Seat(s)) as f32);
        }
        // box, box_colours, wild_car.
        f.num(self.box_purse.total() as f32);
        if colour {
            colours(f, &self.box_purse);
        }
        if let Some(w) = self.wild {
            f.num(f32::from(w));
        }
        // order: revealed out of planning, without the wild car.
        if self.stage != Stage::Plan {
            for t in self.turns.iter().filter(|t| Some(t.car) != self.wild) {
                f.num(f32::from(t.car));
                f.num(f32::from(t.number));
            }
        }
        // plots the observer may see: car, number, letter.
        let sees = |owner: Option<Seat>| match observer {
            Observer::Omniscient => true,
            Observer::Seat(s) => owner == Some(s),
            Observer::Spectator => false,
        };
        for c in self.cars().filter(|c| sees(c.owner)) {
            if let Some(p) = self.plots[c.id as usize] {
                f.num(f32::from(c.id));
                f.num(f32::from(p.number));
                match p.letter {
                    Some(l) => f.char(l.char()),
                    None => f.num(0.0),
                }
            }
        }
        if f.full() {
            return;
        }
        // waiting: an internally tagged enum (its tag, then its fields), or null.
        match &self.stage {
            Stage::Plan => {
                f.str("plan");
                for s in self.owing().iter() {
                    seat(f, s);
                }
            }
            Stage::AwaitStart { car, seat: s } => {
                f.str("start");
                seat(f, *s);
                f.num(f32::from(*car));
            }
            Stage::AwaitPayment { seat: s, take, options } => {
                f.str("payment");
                seat(f, *s);
                f.flag(*take);
                for o in options {
                    colours(f, o);
                }
            }
            Stage::Act | Stage::Over => f.num(0.0),
        }
        // winner: the first place once over.
        if self.stage == Stage::Over
            && let Some(first) = self.compute_outcome().ranking.first()
        {
            for &s in first {
                seat(f, s);
            }
        }
        // car_scores (per-car scoring): car, chits, colours, score.
        if self.variants.per_car_scoring {
            for c in self.cars().filter(|c| c.owner.is_some()) {
                let p = self.car_purses[c.id as usize];
                f.num(f32::from(c.id));
                f.num(p.total() as f32);
                colours(f, &p);
                f.num(self.score_of(&p) as f32);
            }
        }
    }
}
