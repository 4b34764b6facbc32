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

/// Sort cards by priority, as `sort_unstable_by_key(|c| c.priority)` does (issue 17: it was 6 % of
/// a random 8-robot game). The deck's priorities are distinct multiples of 10 up to 840
/// (RR-1.1), so each card goes straight to its slot; any other pile (a scenario's) is sorted as
/// before, untouched until then, so the order is always the sort's.
fn sort_by_priority(cards: &mut [Card]) {
    const SLOTS: usize = crate::card::DECK_SIZE + 1;
    let mut slots: [Option<Card>; SLOTS] = [None; SLOTS];
    for c in cards.iter() {
        let p = c.priority as usize;
        match slots.get_mut(p / 10) {
            Some(slot @ None) if p.is_multiple_of(10) => *slot = Some(*c),
            _ => {
                cards.sort_unstable_by_key(|c| c.priority);
                return;
            }
        }
    }
    for (to, c) in cards.iter_mut().zip(slots.into_iter().flatten()) {
        *to = c;
    }
}

impl Deck {
    /// RR-4.1: gather every card that is not in a register or a hand (both piles) and shuffle
    /// them into the draw pile. Called before every deal.
    pub fn gather_and_shuffle(&mut self, rng: &mut Rng) {
        self.draw.append(&mut self.discard);
        sort_by_priority(&mut self.draw);
        rng.shuffle(&mut self.draw);
    }

    /// Take `n` cards from the top (fewer if the pile runs out).
    pub fn deal(&mut self, n: usize) -> Vec<Card> {
        let mut hand = Vec::new();
        self.deal_into(n, &mut hand);
        hand
    }

    /// [`Deck::deal`] appending to `hand` (whose buffer is reused: issue 17).
    pub fn deal_into(&mut self, n: usize, hand: &mut Vec<Card>) {
        let keep = self.draw.len().saturating_sub(n);
        hand.extend(self.draw.drain(keep..).rev());
    }

    #[cfg(test)]
    fn deal_by_split(&mut self, n: usize) -> Vec<Card> {
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

#[cfg(test)]
mod sort_tests {
    use super::*;
    use crate::card::{CardKind, full_deck};

    /// The slot placement gives the sort's order for any part of the deck, in any order, and
    /// piles outside RR-1.1's priorities (a duplicate, 845, 850) fall back to the sort itself.
    #[test]
    fn placing_by_priority_is_sorting_by_priority() {
        let mut rng = Rng::seeded(17);
        for n in [0, 1, 2, 9, 40, 83, 84] {
            for _ in 0..20 {
                let mut pile = full_deck();
                rng.shuffle(&mut pile);
                pile.truncate(n);
                let mut want = pile.clone();
                want.sort_unstable_by_key(|c| c.priority);
                sort_by_priority(&mut pile);
                assert_eq!(pile, want);
            }
        }
        for odd in [845, 850, 10] {
            let mut pile = full_deck();
            rng.shuffle(&mut pile);
            pile.push(Card::new(CardKind::Move1, odd));
            let mut want = pile.clone();
            want.sort_unstable_by_key(|c| c.priority);
            sort_by_priority(&mut pile);
            assert_eq!(
                pile.iter().map(|c| c.priority).collect::<Vec<_>>(),
                want.iter().map(|c| c.priority).collect::<Vec<_>>()
            );
        }
    }

    /// Dealing into a reused hand (issue 17) takes the same cards in the same order as the
    /// split-off deal it replaced, down to a short pile (RR-4.1, RR-7.1).
    #[test]
    fn dealing_into_a_hand_deals_what_splitting_off_dealt() {
        let mut rng = Rng::seeded(5);
        for size in [0, 1, 4, 9, 84] {
            for n in [0, 1, 5, 9, 100] {
                let mut draw = full_deck();
                rng.shuffle(&mut draw);
                draw.truncate(size);
                let mut a = Deck { draw: draw.clone(), discard: Vec::new() };
                let mut b = a.clone();
                let mut hand = vec![Card::new(CardKind::Move1, 10)];
                hand.clear();
                a.deal_into(n, &mut hand);
                assert_eq!(hand, b.deal_by_split(n));
                assert_eq!(a, b);
            }
        }
    }
}
