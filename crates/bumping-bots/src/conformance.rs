//! This game's hooks for the engine's conformance suite ([`engine::harness::check_game`]).

use crate::cards::{Card, When};
use crate::speed::SpeedChoice;
use crate::state::QuickRot;
use crate::{Action, BumpingBots};
use engine::harness::Conformance;
use engine::{Observer, Rng, Seat};

impl Conformance for BumpingBots {
    /// From the rules (not from `determinize`): the unused tuning cards of the other players
    /// are secret (BB-3, BB-9: how many is public, and so is every card once played), the
    /// order of the deck too, and the RNG.
    fn scramble_secrets(&mut self, observer: Observer, rng: &mut Rng) {
        let me = match observer {
            Observer::Seat(s) => Some(s),
            Observer::Spectator => None,
            Observer::Omniscient => {
                self.rng = Rng::seeded(rng.below(u32::MAX) as u64);
                return;
            }
        };
        for b in self.bots.iter_mut().filter(|b| Some(b.seat) != me) {
            for c in &mut b.cards {
                *c = Card::ALL[rng.index(Card::ALL.len())];
            }
            b.hand_changed();
        }
        rng.shuffle(&mut self.deck);
        self.rng = Rng::seeded(rng.below(u32::MAX) as u64);
    }

    /// Actions of every kind with values in and out of range, from the seat that owes a
    /// decision and from another one.
    fn garbage(&self, rng: &mut Rng) -> Vec<(Seat, Action)> {
        let n = self.bots.len() as u32;
        let t = |rng: &mut Rng| rng.below(5) as i8 - 2;
        let card = |rng: &mut Rng| {
            let k = rng.index(Card::ALL.len() + 1);
            Card::ALL.get(k).copied()
        };
        let mut out = Vec::new();
        for _ in 0..2 {
            let seat = Seat(rng.below(n + 1) as u8);
            let a = match rng.below(5) {
                0 => Action::Speed {
                    choice: SpeedChoice::ALL[rng.index(5)],
                    new_speed: [None, Some(1), Some(2), Some(3)][rng.index(4)],
                },
                1 => Action::Move { rotate_before_last: t(rng), rotate_after: t(rng) },
                2 => Action::ShockChoice {
                    turn_passive: (0..rng.below(4)).map(|_| t(rng)).collect(),
                    turn_first: t(rng),
                },
                3 => Action::Orient { turn: t(rng) },
                _ => Action::Card {
                    card: card(rng),
                    target: Some(Seat(rng.below(7) as u8)),
                    when: [None, Some(When::Start), Some(When::End)][rng.index(3)],
                    at_cell: Some(rng.below(8) as u8),
                    rotations: (0..rng.below(4))
                        .map(|_| QuickRot { at_cell: rng.below(4) as u8, turn: t(rng) })
                        .collect(),
                },
            };
            out.push((seat, a));
        }
        out
    }
}
