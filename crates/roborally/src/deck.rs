//! RR-4.1 The program deck in play: draw pile and discard pile. Hands and registers live on the
//! robots; together the four hold the 84 cards at every step.

use crate::card::Card;
use engine::Rng;
use serde::Serialize;

/// Draw pile (top = last element) and discard pile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Default)]
pub struct Deck {
    pub draw: Vec<Card>,
    pub discard: Vec<Card>,
}

impl Deck {
    /// RR-4.1: gather every card that is not in a register or a hand (both piles) and shuffle
    /// them into the draw pile. Called before every deal.
    pub fn gather_and_shuffle(&mut self, rng: &mut Rng) {
        self.draw.append(&mut self.discard);
        self.draw.sort_unstable_by_key(|c| c.priority);
        rng.shuffle(&mut self.draw);
    }

    /// Take `n` cards from the top (fewer if the pile runs out).
    pub fn deal(&mut self, n: usize) -> Vec<Card> {
        let keep = self.draw.len().saturating_sub(n);
        let mut hand = self.draw.split_off(keep);
        hand.reverse();
        hand
    }

    /// RR-7.3: the top card of the draw pile; an empty pile is refilled from the discards first.
    pub fn top(&mut self, rng: &mut Rng) -> Option<Card> {
        if self.draw.is_empty() {
            self.gather_and_shuffle(rng);
        }
        self.draw.pop()
    }

    pub fn discard_all(&mut self, cards: impl IntoIterator<Item = Card>) {
        self.discard.extend(cards);
    }

    pub fn len(&self) -> usize {
        self.draw.len() + self.discard.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
