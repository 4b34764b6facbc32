//! RR-1.1 The program deck: 84 cards, each with a unique priority.

use serde::{Deserialize, Serialize};

/// What a program card does (RR-5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    Uturn,
    Left,
    Right,
    Backup,
    Move1,
    Move2,
    Move3,
}

impl CardKind {
    /// Every kind, in declaration order (the discriminants index tables by kind).
    pub const ALL: [CardKind; 7] = [
        CardKind::Uturn,
        CardKind::Left,
        CardKind::Right,
        CardKind::Backup,
        CardKind::Move1,
        CardKind::Move2,
        CardKind::Move3,
    ];

    /// Forward steps (negative: back up), or 0 for a rotation (RR-5.2). Looked up by kind
    /// (issue 17: a random card's kind mispredicted the `match`'s branches).
    #[inline]
    pub const fn steps(self) -> i32 {
        // Uturn, Left, Right, Backup, Move1, Move2, Move3.
        const STEPS: [i8; 7] = [0, 0, 0, -1, 1, 2, 3];
        STEPS[self as usize] as i32
    }

    /// Quarter turns clockwise (RR-5.2: left −1, right +1, U-turn +2), looked up by kind.
    #[inline]
    pub const fn turn(self) -> i32 {
        // Uturn, Left, Right, Backup, Move1, Move2, Move3.
        const TURNS: [i8; 7] = [2, -1, 1, 0, 0, 0, 0];
        TURNS[self as usize] as i32
    }

    /// How many cards of this kind the deck holds (RR-1.1).
    pub const fn count(self) -> u8 {
        TABLE[self as usize].1 as u8
    }
}

/// A program card, written `{"card": "move1", "priority": 560}`. The priority identifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub card: CardKind,
    pub priority: u16,
}

/// RR-1.1 table: (kind, count, first priority, step).
const TABLE: [(CardKind, u16, u16, u16); 7] = [
    (CardKind::Uturn, 6, 10, 10),
    (CardKind::Left, 18, 70, 20),
    (CardKind::Right, 18, 80, 20),
    (CardKind::Backup, 6, 430, 10),
    (CardKind::Move1, 18, 490, 10),
    (CardKind::Move2, 12, 670, 10),
    (CardKind::Move3, 6, 790, 10),
];

/// Number of program cards (RR-1.1).
pub const DECK_SIZE: usize = 84;

impl Card {
    pub const fn new(card: CardKind, priority: u16) -> Card {
        Card { card, priority }
    }

    /// The card of the RR-1.1 deck with this priority, if any.
    pub fn from_priority(priority: u16) -> Option<Card> {
        TABLE.iter().find_map(|&(kind, count, first, step)| {
            let last = first + step * (count - 1);
            let on_step =
                priority >= first && priority <= last && (priority - first).is_multiple_of(step);
            on_step.then_some(Card::new(kind, priority))
        })
    }

    /// True when this card is one of the 84 cards of RR-1.1 (kind and priority agree).
    pub fn is_real(self) -> bool {
        Card::from_priority(self.priority) == Some(self)
    }

    /// Forward steps (negative: back up), or 0 for a rotation.
    pub const fn steps(self) -> i32 {
        self.card.steps()
    }

    /// Quarter turns clockwise (RR-5.2: left −1, right +1, U-turn +2).
    pub const fn turn(self) -> i32 {
        self.card.turn()
    }
}

/// The 84 cards of RR-1.1 in ascending priority.
pub fn full_deck() -> Vec<Card> {
    let mut v: Vec<Card> = TABLE
        .iter()
        .flat_map(|&(kind, count, first, step)| {
            (0..count).map(move |i| Card::new(kind, first + i * step))
        })
        .collect();
    v.sort_by_key(|c| c.priority);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_index_the_table_and_count_the_deck() {
        for (k, kind) in CardKind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, k);
            assert_eq!(TABLE[k].0, kind);
            let n = full_deck().iter().filter(|c| c.card == kind).count();
            assert_eq!(kind.count() as usize, n, "{kind:?}");
        }
    }

    /// RR-5.2: what each kind does, as the rules list it (the kinds' tables are indexed by
    /// declaration order).
    #[test]
    fn rr_5_2_steps_and_turns_by_kind() {
        use CardKind::*;
        let want = [(Uturn, 0, 2), (Left, 0, -1), (Right, 0, 1), (Backup, -1, 0)];
        let moves = [(Move1, 1, 0), (Move2, 2, 0), (Move3, 3, 0)];
        for (kind, steps, turn) in want.into_iter().chain(moves) {
            assert_eq!((kind.steps(), kind.turn()), (steps, turn), "{kind:?}");
        }
    }

    #[test]
    fn rr_1_1_deck_table() {
        let d = full_deck();
        assert_eq!(d.len(), DECK_SIZE);
        let mut p: Vec<u16> = d.iter().map(|c| c.priority).collect();
        p.dedup();
        assert_eq!(p.len(), 84, "priorities are unique");
        let count = |k| d.iter().filter(|c| c.card == k).count();
        assert_eq!(
            [
                count(CardKind::Uturn),
                count(CardKind::Left),
                count(CardKind::Right),
                count(CardKind::Backup)
            ],
            [6, 18, 18, 6]
        );
        assert_eq!(
            [count(CardKind::Move1), count(CardKind::Move2), count(CardKind::Move3)],
            [18, 12, 6]
        );
        assert_eq!(Card::from_priority(410), Some(Card::new(CardKind::Left, 410)));
        assert_eq!(Card::from_priority(420), Some(Card::new(CardKind::Right, 420)));
        assert_eq!(Card::from_priority(840), Some(Card::new(CardKind::Move3, 840)));
        assert_eq!(Card::from_priority(845), None);
        assert!(!Card::new(CardKind::Move1, 800).is_real());
    }
}
