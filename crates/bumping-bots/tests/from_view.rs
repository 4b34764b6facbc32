//! A state rebuilt from one seat's view (`BumpingBots::from_view`, the Bot API reference
//! client's determinization): at random points of random races — every step that waits for a
//! decision: picks (BB-3), speed (BB-5), move (BB-6), shock choices (BB-7.4, BB-7.6), orient
//! (BB-7.1), the end-of-turn Magnet (BB-9.2) — it shows the seat the very view it was built
//! from, lists the seat the same legal actions, plays on, and reads nothing the view does not
//! give (two hidden truths behind one view give one state for one seed); the other bots'
//! tuning cards (BB-9, secret) are drawn, not copied.

use bumping_bots::cards::full_deck;
use bumping_bots::tracks::{SHIPPED, shipped};
use bumping_bots::{BumpingBots, Card, Setup};
use engine::harness::Conformance;
use engine::{Game, Observer, Rng, Seat};
use proptest::prelude::*;

fn race(track: usize, bots: u8, choose: bool) -> Setup {
    let mut s = Setup::race(shipped(SHIPPED[track % SHIPPED.len()].0).expect("shipped"), bots);
    s.variants.choose_cards = choose;
    s
}

/// A random race stopped after `steps` actions at a decision, with the seat that owes it.
fn position(setup: &Setup, seed: u64, steps: usize) -> Option<(BumpingBots, Seat)> {
    let mut g = BumpingBots::new(setup, seed).ok()?;
    let mut rng = Rng::seeded(seed ^ 0x5eed);
    for _ in 0..steps {
        let seat = g.decision()?.seats().first()?;
        let a = g.sample_action(seat, &mut rng)?;
        g.apply(seat, &a, &mut Vec::new()).ok()?;
    }
    let seat = g.decision()?.seats().first()?;
    Some((g, seat))
}

fn json(g: &BumpingBots, seat: Seat) -> serde_json::Value {
    serde_json::to_value(g.view(Observer::Seat(seat))).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn a_rebuilt_state_shows_its_view_and_reads_nothing_else(
        seed in any::<u64>(), track in 0usize..3, bots in 2u8..=6, choose: bool,
        steps in 0usize..300, draw: u64,
    ) {
        let setup = race(track, bots, choose);
        let Some((truth, seat)) = position(&setup, seed, steps) else { return Ok(()) };
        let view = json(&truth, seat);
        let rebuilt = BumpingBots::from_view(&setup, &view, seat, &mut Rng::seeded(draw))
            .map_err(|e| TestCaseError::fail(format!("{e} ({})", truth.phase_name())))?;
        prop_assert_eq!(json(&rebuilt, seat), view.clone(), "the seat sees what it saw");
        prop_assert_eq!(rebuilt.decision(), truth.decision(), "the same seat owes a decision");
        prop_assert_eq!(rebuilt.legal_actions(seat), truth.legal_actions(seat), "the same choices");
        for (r, t) in rebuilt.bots().iter().zip(truth.bots()) {
            prop_assert_eq!(r.cards.len(), t.cards.len(), "BB-9: how many cards is public");
        }

        // Another hidden truth behind the same view: one state for one seed.
        let mut other = truth.clone();
        other.scramble_secrets(Observer::Seat(seat), &mut Rng::seeded(draw ^ 1));
        prop_assert_eq!(json(&other, seat), view.clone());
        let again = BumpingBots::from_view(&setup, &view, seat, &mut Rng::seeded(draw))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&again, &rebuilt, "one view, one seed: one state, whatever the truth");

        // The rebuilt state plays on by the rules.
        let mut g = rebuilt;
        let mut rng = Rng::seeded(draw ^ 2);
        for _ in 0..60 {
            let Some(s) = g.decision().and_then(|d| d.seats().first()) else { break };
            let a = g.sample_action(s, &mut rng).expect("an owing seat has an action");
            g.apply(s, &a, &mut Vec::new()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            g.check_occupancy().map_err(TestCaseError::fail)?;
        }
    }
}

/// Other bots' cards are drawn: over a few seeds, some rebuilt hand differs from the truth,
/// and the cards in play stay the 45 of BB-3.
#[test]
fn hidden_cards_are_drawn_not_copied() {
    let setup = race(0, 5, false);
    let g = BumpingBots::new(&setup, 11).unwrap();
    let seat = g.decision().unwrap().seats().first().unwrap();
    let view = json(&g, seat);
    let mut differs = false;
    for k in 0..12 {
        let r = BumpingBots::from_view(&setup, &view, seat, &mut Rng::seeded(k)).unwrap();
        assert_eq!(json(&r, seat), view);
        let sorted = |g: &BumpingBots| {
            let mut c = g.bots()[seat.index()].cards.clone();
            c.sort();
            c
        };
        assert_eq!(sorted(&r), sorted(&g), "the seat's own cards, exactly");
        let mut all: Vec<Card> = r.bots().iter().flat_map(|b| b.cards.clone()).collect();
        all.extend(r.bots().iter().flat_map(|b| b.used_cards.clone()));
        let mut deck = full_deck();
        for c in &all {
            let i = deck.iter().position(|d| d == c).expect("a card of the 45 (BB-3)");
            deck.remove(i);
        }
        differs |= r.bots().iter().zip(g.bots()).any(|(a, b)| a.cards != b.cards);
    }
    assert!(differs, "a rebuilt state must not carry the other seats' real cards");
}

/// A view that does not fit is refused with a reason, not a panic.
#[test]
fn a_view_that_does_not_fit_is_refused() {
    let setup = race(0, 3, false);
    let g = BumpingBots::new(&setup, 3).unwrap();
    let seat = g.decision().unwrap().seats().first().unwrap();
    let view = json(&g, seat);
    let other = Seat((seat.0 + 1) % 3);
    assert!(BumpingBots::from_view(&setup, &view, other, &mut Rng::seeded(0)).is_err());
    let junk = serde_json::json!({"robots": []});
    assert!(BumpingBots::from_view(&setup, &junk, seat, &mut Rng::seeded(0)).is_err());
    assert!(BumpingBots::from_view(&race(0, 4, false), &view, seat, &mut Rng::seeded(0)).is_err());
}

/// Every step that waits for a decision comes up in seeded races and is rebuilt with the
/// same legal actions: picks (BB-3), speed (BB-5), move (BB-6), shock choices (BB-7.4,
/// BB-7.6), orient (BB-7.1), the end-of-turn Magnet (BB-9.2). Each race is played to its end
/// and its decisions are checked until each kind was seen a few times.
#[test]
fn every_kind_of_decision_is_rebuilt() {
    let mut seen = std::collections::BTreeMap::<&str, u32>::new();
    for seed in 0..120u64 {
        let setup = race(seed as usize, 3 + (seed % 5) as u8, seed % 4 == 0);
        let mut g = BumpingBots::new(&setup, seed).unwrap();
        let mut rng = Rng::seeded(seed);
        while let Some(seat) = g.decision().and_then(|d| d.seats().first()) {
            let kind = g.phase_name();
            if seen.get(kind).copied().unwrap_or(0) < 30 {
                let view = json(&g, seat);
                let rebuilt = BumpingBots::from_view(&setup, &view, seat, &mut Rng::seeded(seed))
                    .unwrap_or_else(|e| panic!("seed {seed}, {kind}: {e}"));
                assert_eq!(
                    rebuilt.legal_actions(seat),
                    g.legal_actions(seat),
                    "seed {seed}, {kind}"
                );
                *seen.entry(kind).or_default() += 1;
            }
            let a = g.sample_action(seat, &mut rng).unwrap();
            g.apply(seat, &a, &mut Vec::new()).unwrap();
        }
    }
    eprintln!("{seen:?}");
    for kind in ["pick_cards", "speed", "move", "shock_choice", "orient", "magnet"] {
        assert!(seen.contains_key(kind), "{kind} never came up: {seen:?}");
    }
}
