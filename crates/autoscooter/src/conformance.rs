//! This game's hooks for the engine's conformance suite ([`engine::harness::check_game`]).

use crate::chart::{Letter, LetterInput};
use crate::state::{Plot, Stage};
use crate::{Action, Autoscooter};
use engine::harness::Conformance;
use engine::{Observer, Rng, Seat};
use grid::{Hex, HexDir};

impl Conformance for Autoscooter {
    /// AS-4.1: while planning, the plots (turn number and letter) of the cars of other seats,
    /// and the wild car letters other seats plotted (AS-7.1), are secret; they are revealed
    /// when the action phase starts. Whether a car has plotted is public. Written from the
    /// rules, not from `determinize`.
    fn scramble_secrets(&mut self, observer: Observer, rng: &mut Rng) {
        self.rng = Rng::seeded(rng.below(u32::MAX) as u64);
        let me = match observer {
            Observer::Omniscient => return,
            Observer::Seat(s) => Some(s),
            Observer::Spectator => None,
        };
        if self.stage != Stage::Plan {
            return;
        }
        for id in 0..8 {
            let Some(car) = self.cars[id] else { continue };
            if car.owner.is_some() && car.owner == me {
                continue;
            }
            if let Some(p) = &mut self.plots[id] {
                // Any other number and letter: only views are taken of the result.
                *p = Plot {
                    number: (p.number % 91) + 1,
                    letter: Letter::from_index(rng.below(16) as u8),
                };
            }
        }
        for (s, w) in self.wild_plots.iter_mut().enumerate() {
            if Some(Seat(s as u8)) != me
                && let Some(letter) = w
            {
                *letter = match letter {
                    Some(_) => None,
                    None => Letter::from_index(rng.below(16) as u8),
                };
            }
        }
    }

    /// Actions that are often wrong: other seats' cars, wrong numbers, bad letters, stray
    /// starts, payments nobody asked for.
    fn garbage(&self, rng: &mut Rng) -> Vec<(Seat, Action)> {
        (0..self.seats)
            .map(|s| {
                let letter = match rng.below(4) {
                    0 => None,
                    1 => Some(LetterInput::Invalid("Z".into())),
                    _ => Letter::from_index(rng.below(16) as u8).map(LetterInput::Valid),
                };
                let action = match rng.below(5) {
                    0 | 1 => {
                        Action::Plot { car: rng.below(10) as u8, number: rng.below(92), letter }
                    }
                    2 => Action::PlotWild { letter },
                    3 => Action::Start {
                        car: rng.below(9) as u8,
                        to: Hex::new(rng.below(10) as i32 - 3, rng.below(7) as i32 - 1),
                        facing: HexDir::wrapping(rng.below(6) as i32),
                    },
                    _ => Action::Take {
                        colours: [(rng.below(9).to_string(), rng.below(3) as u16)].into(),
                    },
                };
                (Seat(s), action)
            })
            .collect()
    }
}
