//! BB-3 variant `choose_cards`: a seat's picks are secret (`CardPicked` is for the picker only),
//! so whether a pick is accepted must not depend on what the other seats picked.

use bumping_bots::tracks::shipped;
use bumping_bots::{Action, BumpingBots, Card, Setup};
use engine::{Game, Observer, RuleError, Seat};

const KINDS: [Card; 5] = [Card::Jumper, Card::Magnet, Card::Nitro, Card::Engine, Card::Rotation];

fn pick(card: Card) -> Action {
    Action::Card { card: Some(card), target: None, when: None, at_cell: None, rotations: vec![] }
}

/// Two seats, each picking `per` cards (seat 0 first).
fn game(per: u8) -> BumpingBots {
    let mut setup = Setup::race(shipped("oval").expect("shipped"), 2);
    setup.variants.choose_cards = true;
    setup.variants.cards_per_player = Some(per);
    BumpingBots::new(&setup, 7).expect("setup")
}

/// What seat 1 is told when it tries `card` after seat 0 has picked `seat0`.
fn answer_after(seat0: &[Card], card: Card) -> Result<(), &'static str> {
    let mut g = game(seat0.len() as u8);
    for &c in seat0 {
        g.apply(Seat(0), &pick(c), &mut Vec::new()).expect("seat 0 picks");
    }
    g.apply(Seat(1), &pick(card), &mut Vec::new()).map(|_| ()).map_err(|e| e.code())
}

#[test]
fn a_refused_pick_does_not_tell_what_others_picked() {
    for &kind in &KINDS {
        // Seat 0 takes all nine cards of `kind`, or none of them: seat 1 cannot tell the two apart.
        let all = vec![kind; 9];
        let none: Vec<Card> =
            KINDS.iter().copied().filter(|&k| k != kind).cycle().take(9).collect();
        let a = answer_after(&all, kind);
        let b = answer_after(&none, kind);
        assert_eq!(a, b, "{kind:?}: seat 1's answer depends on seat 0's secret picks");
        assert_eq!(a, Ok(()), "{kind:?}: seat 1 may pick from its own set of the deck");
        // Seat 1's views are the same too (the picks are secret).
        let view = |seat0: &[Card]| {
            let mut g = game(9);
            for &c in seat0 {
                g.apply(Seat(0), &pick(c), &mut Vec::new()).expect("picks");
            }
            serde_json::to_value(g.view(Observer::Seat(Seat(1)))).expect("json")
        };
        assert_eq!(view(&all), view(&none));
    }
}

#[test]
fn a_seat_cannot_hold_more_of_a_kind_than_the_deck_has() {
    // BB-1.3: 9 cards of each kind; seat 1 picks nine engines, the tenth is refused whatever
    // seat 0 did, and the refusal changes nothing.
    let nine_and =
        |k: Card, other: Card| -> Vec<Card> { std::iter::repeat_n(k, 9).chain([other]).collect() };
    for seat0 in [nine_and(Card::Engine, Card::Nitro), nine_and(Card::Jumper, Card::Magnet)] {
        let mut g = game(10);
        for &c in &seat0 {
            g.apply(Seat(0), &pick(c), &mut Vec::new()).expect("seat 0 picks");
        }
        for _ in 0..9 {
            g.apply(Seat(1), &pick(Card::Engine), &mut Vec::new()).expect("seat 1 picks");
        }
        let before = serde_json::to_value(g.view(Observer::Omniscient)).expect("json");
        let e = g.apply(Seat(1), &pick(Card::Engine), &mut Vec::new()).expect_err("a tenth engine");
        assert_eq!(e.code(), "card_not_in_deck");
        assert_eq!(serde_json::to_value(g.view(Observer::Omniscient)).expect("json"), before);
        g.apply(Seat(1), &pick(Card::Nitro), &mut Vec::new()).expect("another kind is fine");
    }
}
