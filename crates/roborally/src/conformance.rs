//! This game's hooks for the engine's conformance suite ([`engine::harness::check_game`]).

use crate::card::{Card, CardKind, full_deck};
use crate::{Action, OptionCard, Phase, RoboRally};
use engine::harness::Conformance;
use engine::{Observer, Rng, Seat};

impl Conformance for RoboRally {
    /// What an observer may not see of the other robots, from the rules (not from
    /// `determinize`): the cards in their hands (RR-4.1: how many is public), the cards in
    /// their unrevealed registers (RR-4.2, RR-5.1), the cards kept on option cards (RR-9:
    /// Crab Legs and Dual Processor with their register, Flywheel, Conditional Program), the
    /// power-down announcement while programming (RR-4.4: revealed with the programs), the
    /// stay-down answers already sent (RR-6.4), the draft being placed and how often it
    /// changed (RR-4.3: which cards and how many are placed); and for everybody the order of the draw pile
    /// and the option deck, and the RNG.
    fn scramble_secrets(&mut self, observer: Observer, rng: &mut Rng) {
        let deck = full_deck();
        let any_card = |rng: &mut Rng| deck[rng.index(deck.len())];
        let me = match observer {
            Observer::Seat(s) => Some(s),
            Observer::Spectator => None,
            Observer::Omniscient => {
                self.rng = Rng::seeded(rng.below(u32::MAX) as u64);
                return;
            }
        };
        let programming = matches!(self.phase, Phase::Program { .. });
        for r in self.robots.iter_mut().filter(|r| Some(r.seat) != me) {
            for c in &mut r.hand {
                *c = any_card(rng);
            }
            for k in 0..5 {
                if !r.revealed[k] {
                    if let Some(c) = &mut r.registers[k] {
                        *c = any_card(rng);
                    }
                    if let Some((_, c)) = &mut r.stash.side[k] {
                        *c = any_card(rng);
                    }
                }
            }
            for c in [&mut r.stash.flywheel, &mut r.stash.conditional].into_iter().flatten() {
                *c = any_card(rng);
            }
            if programming {
                r.power_down_next = !r.power_down_next;
            }
            for d in &mut r.draft {
                *d = (rng.below(2) == 0).then(|| any_card(rng));
            }
            r.places = rng.below(crate::programming::MAX_PLACES as u32) as u16;
        }
        if let Phase::StayDown { owes, stay } = &mut self.phase {
            for (i, r) in self.robots.iter().enumerate() {
                if Some(r.seat) != me && !owes[i] {
                    stay[i] = !stay[i];
                }
            }
        }
        rng.shuffle(&mut self.deck.draw);
        rng.shuffle(&mut self.option_deck);
        self.rng = Rng::seeded(rng.below(u32::MAX) as u64);
    }

    /// Actions that are always refused: a card nobody holds, a re-entry off the board, an
    /// option nobody holds to use or to discard.
    fn garbage(&self, rng: &mut Rng) -> Vec<(Seat, Action)> {
        let seat = Seat(rng.below(self.robots.len() as u32) as u8);
        let bogus = Card { card: CardKind::Move3, priority: 841 };
        let held = |o: &OptionCard| self.robots.iter().any(|r| r.options.contains(o));
        let unheld = OptionCard::ALL.into_iter().find(|o| !held(o));
        let a = match (rng.below(4), unheld) {
            (3, Some(o)) => Action::use_option(Some(o)),
            (2, Some(o)) => Action::DiscardOption { option: Some(o) },
            (1, _) => Action::Reenter {
                at: grid::Sq::new(-5, -5),
                facing: grid::SqDir::N,
                powered_down: false,
            },
            _ => Action::Program { registers: [Some(bogus); 5], power_down_next: false },
        };
        vec![(seat, a)]
    }
}
