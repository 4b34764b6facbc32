//! A state rebuilt from one seat's view (`Autoscooter::from_view`, the reference client's
//! determinization): it shows the seat the very view it was built from, it reads nothing the
//! view does not give (two hidden truths behind one view give the same state for one seed),
//! and what the view hides (other seats' committed plots, AS-4.1) is drawn, not copied.

use autoscooter::{Autoscooter, Setup, Variants, WildCar};
use engine::harness::Conformance;
use engine::{Decision, Game, Observer, Rng, Seat};
use proptest::prelude::*;

fn variants(bits: u8, players: usize) -> Variants {
    let colour = bits & 4 != 0;
    Variants {
        wild_car: (bits & 1 != 0 && (5..=7).contains(&players)).then_some(WildCar::Lowest(true)),
        jolting: bits & 2 != 0,
        colour_scoring: colour,
        per_car_scoring: colour && bits & 8 != 0 && players <= 4,
    }
}

/// A random game stopped at a planning decision some seat still owes after `steps` actions.
fn position(setup: &Setup, seed: u64, steps: usize) -> Option<(Autoscooter, Seat)> {
    let mut g = Autoscooter::new(setup, seed).ok()?;
    let mut rng = Rng::seeded(seed ^ 0x5eed);
    let mut events = Vec::new();
    let mut seen = None;
    for _ in 0..steps {
        let Some(Decision::Simultaneous(seats)) = g.decision() else { break };
        let seat = seats.iter().nth(rng.below(seats.len() as u32) as usize)?;
        seen = Some((g.clone(), seat));
        let action = g.sample_action(seat, &mut rng)?;
        g.apply(seat, &action, &mut events).ok()?;
        if g.decision().is_none() {
            break;
        }
        // Past the action phase's questions, back to planning.
        while let Some(Decision::One(s)) = g.decision() {
            let a = g.sample_action(s, &mut rng)?;
            g.apply(s, &a, &mut events).ok()?;
        }
    }
    seen
}

fn json(g: &Autoscooter, seat: Seat) -> serde_json::Value {
    serde_json::to_value(g.view(Observer::Seat(seat))).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn a_rebuilt_state_shows_its_view_and_reads_nothing_else(
        seed in any::<u64>(), players in 2usize..=8, bits in 0u8..16, steps in 1usize..60, draw: u64,
    ) {
        let setup = Setup::standard(players, false, variants(bits, players)).unwrap();
        let Some((truth, seat)) = position(&setup, seed, steps) else { return Ok(()) };
        let view = json(&truth, seat);
        let rebuilt = Autoscooter::from_view(&setup, &view, seat, &mut Rng::seeded(draw))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(json(&rebuilt, seat), view.clone(), "the seat sees what it saw");
        prop_assert_eq!(rebuilt.decision(), truth.decision(), "the same seats owe a decision");

        // Another hidden truth behind the same view (other seats' plots changed, AS-4.1).
        let mut other = truth.clone();
        other.scramble_secrets(Observer::Seat(seat), &mut Rng::seeded(draw ^ 1));
        prop_assert_eq!(json(&other, seat), view.clone());
        let again = Autoscooter::from_view(&setup, &json(&other, seat), seat, &mut Rng::seeded(draw))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&again, &rebuilt, "one view, one seed: one state, whatever the truth");
    }
}

/// Other seats' plots are drawn: over a few seeds, some rebuilt plot differs from the truth.
#[test]
fn hidden_plots_are_drawn_not_copied() {
    let setup = Setup::standard(4, false, variants(0, 4)).unwrap();
    let mut g = Autoscooter::new(&setup, 7).unwrap();
    let mut rng = Rng::seeded(3);
    let mut events = Vec::new();
    // Seats 1..3 plot everything; seat 0 has not plotted yet.
    for s in 1..4u8 {
        while g.decision().is_some_and(|d| d.owes(Seat(s))) {
            let a = g.sample_action(Seat(s), &mut rng).unwrap();
            g.apply(Seat(s), &a, &mut events).unwrap();
        }
    }
    let view = json(&g, Seat(0));
    let differs = (0..8).any(|k| {
        let r = Autoscooter::from_view(&setup, &view, Seat(0), &mut Rng::seeded(k)).unwrap();
        g.cars().any(|c| c.owner != Some(Seat(0)) && r.plot(c.id) != g.plot(c.id))
    });
    assert!(differs, "a rebuilt state must not carry the other seats' real plots");
    let r = Autoscooter::from_view(&setup, &view, Seat(0), &mut Rng::seeded(0)).unwrap();
    for c in g.cars().filter(|c| c.owner.is_some_and(|o| o != Seat(0))) {
        assert!(r.plot(c.id).is_some(), "car {} of a seat that owes nothing has a plot", c.id);
    }
}

/// Case D (AS-5.4), where a stationary car starts — every car in the first round — is rebuilt
/// in the middle of the action phase too: the same view, the same owing seat and the same legal
/// actions; the other cars' letters, still secret (AS-4.1), are drawn, not copied.
#[test]
fn a_start_decision_is_rebuilt_with_the_later_letters_drawn() {
    let (mut checked, mut differs) = (0, false);
    for seed in 0..30u64 {
        let players = 2 + (seed % 7) as usize;
        let setup = Setup::standard(players, false, variants((seed % 16) as u8, players)).unwrap();
        let mut g = Autoscooter::new(&setup, seed).unwrap();
        let mut rng = Rng::seeded(seed);
        let mut events = Vec::new();
        for _ in 0..400 {
            let Some(d) = g.decision() else { break };
            let seat = d.seats().iter().next().unwrap();
            let view = json(&g, seat);
            if view["phase"] == "start" && checked < 60 {
                for k in 0..2 {
                    let r = Autoscooter::from_view(&setup, &view, seat, &mut Rng::seeded(k))
                        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                    assert_eq!(json(&r, seat), view, "seed {seed}");
                    assert_eq!(r.decision(), g.decision(), "seed {seed}");
                    assert_eq!(r.legal_actions(seat), g.legal_actions(seat), "seed {seed}");
                    differs |=
                        g.cars().any(|c| c.owner != Some(seat) && r.plot(c.id) != g.plot(c.id));
                }
                checked += 1;
            }
            let a = g.sample_action(seat, &mut rng).unwrap();
            g.apply(seat, &a, &mut events).unwrap();
        }
    }
    assert!(checked >= 20, "only {checked} start decisions came up");
    assert!(differs, "a rebuilt state must not carry the other cars' real letters");
}
