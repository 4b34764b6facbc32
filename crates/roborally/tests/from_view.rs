//! A state rebuilt from one seat's view (`RoboRally::from_view`, the Bot API reference
//! client's determinization): at random points of random games — option cards dealt out so
//! that RR-9's questions come up, RR-7.4 and RR-8.3 too — it shows the seat the very view it
//! was built from, owes the same decisions, lists the seat the same legal actions, keeps the
//! 84 cards (RR-1.1) and the 26 option cards (RR-9), plays on, and reads nothing the view does
//! not give (two hidden truths behind one view give one state for one seed); what the view
//! hides (other hands and programs, RR-4.1/RR-4.2) is drawn, not copied.

use engine::harness::Conformance;
use engine::{Decision, Game, Observer, Rng, Seat};
use proptest::prelude::*;
use roborally::board::shipped_courses;
use roborally::card::full_deck;
use roborally::{BoardSpec, OptionCard, RoboRally, Setup, Variants};

fn setup(course: usize, robots: u8, seed: u64, options: bool) -> Setup {
    let name = shipped_courses()[course % shipped_courses().len()].name.clone();
    let mut setup = Setup::new_game(BoardSpec::Named(name), robots, Variants::default());
    if options {
        let mut all = OptionCard::ALL.to_vec();
        Rng::seeded(seed ^ 26).shuffle(&mut all);
        for (k, o) in all.into_iter().take(20).enumerate() {
            setup.robots[k % robots as usize].options.push(o);
        }
    }
    setup
}

fn waiting(g: &RoboRally) -> Vec<Seat> {
    g.decision().map(|d| d.seats().iter().collect()).unwrap_or_default()
}

/// A random game stopped after `steps` actions at a decision, with one seat that owes it.
fn position(setup: &Setup, seed: u64, steps: usize) -> Option<(RoboRally, Seat)> {
    let mut g = RoboRally::new(setup, seed).ok()?;
    let mut rng = Rng::seeded(seed ^ 0x5eed);
    let mut events = Vec::new();
    for _ in 0..steps {
        let seats = waiting(&g);
        let seat = *rng.pick(&seats)?;
        let a = g.sample_action(seat, &mut rng)?;
        g.apply(seat, &a, &mut events).ok()?;
        events.clear();
    }
    let seats = waiting(&g);
    let seat = *rng.pick(&seats)?;
    Some((g, seat))
}

fn json(g: &RoboRally, seat: Seat) -> serde_json::Value {
    serde_json::to_value(g.view(Observer::Seat(seat))).unwrap()
}

fn conserved(g: &RoboRally) -> Result<(), TestCaseError> {
    let mut cards = g.all_cards();
    cards.sort_by_key(|c| c.priority);
    prop_assert_eq!(cards, full_deck(), "the 84 cards (RR-1.1)");
    let mut options = g.all_options();
    options.sort();
    prop_assert_eq!(options, OptionCard::ALL.to_vec(), "the 26 option cards (RR-9)");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_rebuilt_state_shows_its_view_and_reads_nothing_else(
        seed in any::<u64>(), course in 0usize..16, robots in 2u8..=6, options: bool,
        steps in 0usize..120, draw: u64,
    ) {
        let setup = setup(course, robots, seed, options);
        let Some((truth, seat)) = position(&setup, seed, steps) else { return Ok(()) };
        let view = json(&truth, seat);
        let rebuilt = RoboRally::from_view(&setup, &view, &waiting(&truth), seat, &mut Rng::seeded(draw))
            .map_err(|e| TestCaseError::fail(format!("{e} (phase {}, {:?})", truth.phase_name(), truth.pending())))?;
        prop_assert_eq!(json(&rebuilt, seat), view.clone(), "the seat sees what it saw");
        prop_assert_eq!(rebuilt.decision(), truth.decision(), "the same seats owe a decision");
        prop_assert_eq!(rebuilt.legal_actions(seat), truth.legal_actions(seat), "the same choices");
        conserved(&rebuilt)?;

        // Another hidden truth behind the same view: one state for one seed.
        let mut other = truth.clone();
        other.scramble_secrets(Observer::Seat(seat), &mut Rng::seeded(draw ^ 1));
        prop_assert_eq!(json(&other, seat), view.clone());
        let again = RoboRally::from_view(&setup, &view, &waiting(&other), seat, &mut Rng::seeded(draw))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&again, &rebuilt, "one view, one seed: one state, whatever the truth");

        // The rebuilt state plays on by the rules.
        let mut g = rebuilt;
        let mut rng = Rng::seeded(draw ^ 2);
        for _ in 0..40 {
            let seats = waiting(&g);
            let Some(&s) = rng.pick(&seats) else { break };
            let a = g.sample_action(s, &mut rng).expect("an owing seat has an action");
            g.apply(s, &a, &mut Vec::new()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            conserved(&g)?;
        }
    }
}

/// Other robots' hands are drawn: over a few seeds, some rebuilt hand differs from the truth,
/// while the view stays the same.
#[test]
fn hidden_hands_are_drawn_not_copied() {
    let setup = setup(0, 4, 1, false);
    let g = RoboRally::new(&setup, 7).unwrap();
    assert!(matches!(g.decision(), Some(Decision::Simultaneous(_))));
    let view = json(&g, Seat(0));
    let w = waiting(&g);
    let mut differs = false;
    for k in 0..8 {
        let r = RoboRally::from_view(&setup, &view, &w, Seat(0), &mut Rng::seeded(k)).unwrap();
        assert_eq!(json(&r, Seat(0)), view);
        assert_eq!(r.robots()[0].hand, g.robots()[0].hand, "the seat's own hand, exactly");
        for s in 1..4 {
            assert_eq!(r.robots()[s].hand.len(), g.robots()[s].hand.len(), "RR-4.1: 9 cards");
            differs |= r.robots()[s].hand != g.robots()[s].hand;
        }
    }
    assert!(differs, "a rebuilt state must not carry the other seats' real hands");
}

/// A view that does not fit is refused with a reason, not a panic.
#[test]
fn a_view_that_does_not_fit_is_refused() {
    let setup = setup(0, 3, 1, false);
    let g = RoboRally::new(&setup, 3).unwrap();
    let view = json(&g, Seat(1));
    let w = waiting(&g);
    // Another seat's view (no hand of seat 0 in it), another game, a setup of other seats.
    assert!(RoboRally::from_view(&setup, &view, &w, Seat(0), &mut Rng::seeded(0)).is_err());
    let junk = serde_json::json!({"cars": []});
    assert!(RoboRally::from_view(&setup, &junk, &w, Seat(1), &mut Rng::seeded(0)).is_err());
    let four = self::setup(0, 4, 1, false);
    assert!(RoboRally::from_view(&four, &view, &w, Seat(1), &mut Rng::seeded(0)).is_err());
    // The server waiting for other seats than the view's state owes.
    assert!(RoboRally::from_view(&setup, &view, &[Seat(1)], Seat(1), &mut Rng::seeded(0)).is_err());
}

/// Every kind of decision comes up in a sample of seeded positions and is rebuilt: programs
/// (RR-4.2), stay down (RR-6.4), re-entry (RR-8.3) and the option questions (RR-7.4, RR-8.2,
/// RR-9) that a game with option cards dealt out asks.
#[test]
fn every_kind_of_decision_is_rebuilt() {
    let mut seen = std::collections::BTreeMap::<String, u32>::new();
    for seed in 0..300u64 {
        let setup = setup(seed as usize, 2 + (seed % 5) as u8, seed, seed % 3 != 0);
        let Some((truth, seat)) = position(&setup, seed, (seed as usize * 7) % 160) else {
            continue;
        };
        let view = json(&truth, seat);
        let kind = match view.get("question") {
            Some(q) if truth.robots()[q["seat"].as_u64().unwrap() as usize].seat == seat => {
                q["kind"].as_str().unwrap().to_string()
            }
            _ => truth.phase_name().to_string(),
        };
        let rebuilt =
            RoboRally::from_view(&setup, &view, &waiting(&truth), seat, &mut Rng::seeded(seed))
                .unwrap_or_else(|e| panic!("seed {seed}, {kind}: {e}"));
        assert_eq!(rebuilt.legal_actions(seat), truth.legal_actions(seat), "seed {seed}, {kind}");
        *seen.entry(kind).or_default() += 1;
    }
    eprintln!("{seen:?}");
    for kind in ["program", "stay_down", "reenter", "damage", "move_option", "reveal", "weapon"] {
        assert!(seen.contains_key(kind), "{kind} never came up: {seen:?}");
    }
}
