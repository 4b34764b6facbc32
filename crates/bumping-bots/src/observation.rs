//! An observer's observation written straight from the state (the Python package's
//! observations, `docs/python.md` "Observations"): exactly the numbers
//! [`engine::features::write`] writes from [`View::without_choices`](crate::view::View) — the
//! same fields in the same order, redacted the same way (a bot's unused tuning cards only for
//! its own seat, BB-9; the others see how many) — without building the view and its lists.
//! `tests/observation.rs` checks the two bit for bit for every observer along random games.

use crate::cards::Card;
use crate::championship::{points_for, team_points};
use crate::state::{BumpingBots, Phase, TurnStep};
use crate::track::{ObstacleKind, Spin};
use engine::features::Features;
use engine::{Game, Observer};
use grid::Hex;

fn card_name(c: Card) -> &'static str {
    match c {
        Card::Jumper => "jumper",
        Card::Magnet => "magnet",
        Card::Nitro => "nitro",
        Card::Engine => "engine",
        Card::Rotation => "rotation",
    }
}

fn hex(f: &mut Features, h: Hex) {
    f.num(h.q as f32);
    f.num(h.r as f32);
}

impl BumpingBots {
    /// Write `observer`'s observation into `out` (zero-filled after the last number); returns
    /// how many numbers the view has up to `out.len()`. The same numbers as
    /// `engine::features::write(&View::without_choices(self, observer), out)`.
    pub fn write_observation(&self, observer: Observer, out: &mut [f32]) -> usize {
        let mut f = Features::new(out);
        self.observe(observer, &mut f);
        f.finish()
    }

    fn observe(&self, observer: Observer, f: &mut Features) {
        let n = self.bots.len();
        let points =
            |i: usize| self.bots[i].finished_place.map_or(0, |p| points_for(p as usize, n));
        // bots
        for (i, b) in self.bots.iter().enumerate() {
            if f.full() {
                return;
            }
            let sees = match observer {
                Observer::Omniscient => true,
                Observer::Seat(s) => s == b.seat,
                Observer::Spectator => false,
            };
            f.num(f32::from(b.seat.0));
            match b.at {
                Some(h) => hex(f, h),
                None => f.num(0.0),
            }
            f.num(f32::from(u8::from(b.facing)));
            f.num(f32::from(b.speed));
            f.flag(b.reverse);
            f.num(b.laps as f32);
            f.flag(b.started);
            f.num(b.finished_place.map_or(0.0, f32::from));
            if sees {
                // The view lists them sorted (by kind, in `Card::ALL` order).
                for kind in Card::ALL {
                    for _ in b.cards.iter().filter(|&&c| c == kind) {
                        f.str(card_name(kind));
                    }
                }
            } else {
                f.num(0.0);
            }
            f.num(b.cards.len() as f32);
            for &c in &b.used_cards {
                f.str(card_name(c));
            }
            f.num(f32::from(b.engine_turns));
            f.flag(b.changed_direction);
            f.num(points(i) as f32);
            if let Some(s) = self.standings.get(i) {
                f.num((s + points(i)) as f32);
            }
        }
        // obstacles: kind, at, arms and turn (motorised only).
        for o in &self.obstacles {
            if f.full() {
                return;
            }
            f.str(match o.kind {
                ObstacleKind::Fixed => "fixed",
                ObstacleKind::Motorised => "motorised",
                ObstacleKind::Mobile => "mobile",
                ObstacleKind::Bumper => "bumper",
            });
            hex(f, o.at);
            if o.kind == ObstacleKind::Motorised {
                f.num(f32::from(u8::from(o.arm)));
                f.num(f32::from(u8::from(o.arm.opposite())));
                f.str(match o.spin {
                    Spin::Cw => "cw",
                    Spin::Ccw => "ccw",
                });
            }
        }
        for s in &self.order {
            f.num(f32::from(s.0));
        }
        f.num(self.round as f32);
        match self.decision() {
            Some(d) => f.num(f32::from(d.seats().first().expect("one seat").0)),
            None => f.num(0.0),
        }
        f.str(self.phase.name());
        f.num(f32::from(self.board.laps()));
        // ranking: the placed bots by place, then seat.
        // (On the stack: at most `setup::PLAYERS` bots; nothing allocated per observation.)
        let mut placed = [(0u8, 0u8); 16];
        let mut k = 0;
        for b in &self.bots {
            if let (Some(p), Some(slot)) = (b.finished_place, placed.get_mut(k)) {
                *slot = (p, b.seat.0);
                k += 1;
            }
        }
        placed[..k].sort_unstable();
        for &(place, seat) in &placed[..k] {
            f.num(f32::from(seat));
            f.num(f32::from(place));
        }
        if let Some(teams) = self.variants.team_list(n) {
            let all: Vec<i32> = (0..n).map(points).collect();
            let tp = team_points(&teams, &all);
            for (id, (seats, p)) in teams.iter().zip(tp).enumerate() {
                f.num(id as f32);
                for &s in seats {
                    f.num(f32::from(s));
                }
                f.num(p as f32);
            }
        }
        if let Phase::Turn(t) = &self.phase {
            match &t.step {
                TurnStep::Move => f.num(f32::from(self.move_cells(t, t.bot))),
                TurnStep::Shock(p) => {
                    f.num(f32::from(self.bots[*p.chain.last().expect("a chain")].seat.0));
                    f.num(f32::from(p.turn_cells() as u8));
                    if p.first_choice {
                        f.num(f32::from(self.bots[p.chain[0]].seat.0));
                    } else {
                        f.num(0.0);
                    }
                }
                _ => {}
            }
        }
    }
}
