//! An observer's observation written straight from the state (the Python package's
//! observations, `docs/python.md` "Observations"): exactly the numbers
//! [`engine::features::write`] writes from [`View::without_choices`] — the same fields in the
//! same order, redacted the same way (another seat's hand, draft and unrevealed registers never
//! appear, nor its power-down announcement while programming: RR-4.2, RR-4.3, RR-4.4) — without
//! building the view: its per-robot lists (hand, options, locked registers, option marks) are
//! not copied, the leaves (a card, a register, an option's name) are written as the view's
//! fields serialise. The rare positions with a re-entry or a question about to be answered
//! (RR-8.3, RR-9) are written from the view itself. `tests/observation.rs` checks the two bit
//! for bit for every observer along random games.

use crate::card::Card;
use crate::view::{RegisterView, View};
use crate::{Phase, RoboRally};
use engine::features::Features;
use engine::{Observer, Seat};

fn register(c: Option<Card>, shown: bool) -> RegisterView {
    match c {
        None => RegisterView::Empty,
        Some(c) if shown => RegisterView::Card(c),
        Some(_) => RegisterView::Hidden,
    }
}

impl RoboRally {
    /// Write `observer`'s observation into `out` (zero-filled after the last number); returns
    /// how many numbers the view has up to `out.len()`. The same numbers as
    /// `engine::features::write(&View::without_choices(self, observer), out)`.
    pub fn write_observation(&self, observer: Observer, out: &mut [f32]) -> usize {
        let rare = matches!(self.phase, Phase::Reenter { .. }) || !self.pending.is_empty();
        if rare {
            return engine::features::write(&View::without_choices(self, observer), out);
        }
        let mut f = Features::new(out);
        self.observe(observer, &mut f);
        f.finish()
    }

    fn observe(&self, observer: Observer, f: &mut Features) {
        let sees = |s: Seat| match observer {
            Observer::Omniscient => true,
            Observer::Seat(o) => o == s,
            Observer::Spectator => false,
        };
        let programming = matches!(self.phase, Phase::Program { .. });
        f.num(self.turn as f32);
        f.str(self.phase_name());
        f.value(&self.register());
        for r in &self.robots {
            if f.full() {
                return;
            }
            let own = sees(r.seat);
            f.num(f32::from(r.seat.0));
            f.value(&r.cell());
            f.value(&r.facing);
            f.num(f32::from(r.damage));
            f.num(f32::from(r.lives));
            f.num(f32::from(r.flags_touched));
            f.value(&r.archive);
            f.flag(r.powered_down);
            f.flag(r.destroyed);
            f.flag(r.out);
            f.flag(r.finished);
            for k in (0..5).filter(|&k| r.locked(k)) {
                f.num((k + 1) as f32);
            }
            f.num(f32::from(r.hand_size));
            for k in 0..5 {
                f.value(&register(r.registers[k], own || r.revealed[k]));
            }
            f.value(&r.options);
            f.value(&r.opt);
            for k in 0..5 {
                f.value(&register(r.stash.side[k].map(|(_, c)| c), own || r.revealed[k]));
            }
            f.value(&register(r.stash.flywheel, own));
            f.value(&register(r.stash.conditional, own));
            f.value(&(own || !programming).then_some(r.power_down_next));
            f.value(&own.then_some(&r.hand));
            if own && programming {
                f.value(&r.draft);
            }
        }
        f.num(self.deck.draw.len() as f32);
        f.num(self.deck.discard.len() as f32);
        f.value(&self.winner);
        f.num(self.rules.timer_seconds as f32);
    }
}
