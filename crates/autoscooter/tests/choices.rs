//! The seat's choices (`autoscooter::choices`, issue 21 item 3) against the engine's listing,
//! and the letter previews (item 4) against the engine's resolution, on random positions of
//! seeded random games:
//! - the factored plots (every number with every letter), the wild car's letters, the start
//!   cells and facings and the payments expand to exactly `legal_actions`, each accepted;
//! - only the seat's own view carries them, and they do not change when the other seats'
//!   secrets (their plots, the RNG) are scrambled;
//! - a letter's preview is where the car ends when it acts first on this position: checked by
//!   playing the round with that plot as the lowest turn number.

use autoscooter::choices::Choices;
use autoscooter::{Action, Autoscooter, Setup, Variants};
use engine::harness::Conformance;
use engine::{Game, Observer, Rng, Seat};
use proptest::prelude::*;

fn expand(c: &Choices) -> Vec<Action> {
    let mut out = Vec::new();
    for p in &c.plots {
        for &n in &p.numbers {
            if p.letters.is_empty() {
                out.push(Action::plot(p.car, n, None));
            }
            for &l in &p.letters {
                out.push(Action::plot(p.car, n, Some(l)));
            }
        }
    }
    for &l in c.wild.iter().flatten() {
        out.push(Action::PlotWild { letter: Some(autoscooter::LetterInput::Valid(l)) });
    }
    if let Some(s) = &c.start {
        for cell in &s.cells {
            for &facing in &cell.facings {
                out.push(Action::Start { car: s.car, to: cell.to, facing });
            }
        }
    }
    out.extend(c.payments.iter().cloned());
    out
}

fn key(a: &Action) -> String {
    serde_json::to_string(a).expect("serialises")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn choices_are_exactly_the_engines_listing(seed in any::<u64>(), players in 2usize..=6) {
        let setup = Setup::standard(players, false, Variants::default()).unwrap();
        let mut g = Autoscooter::new(&setup, seed).unwrap();
        let mut rng = Rng::seeded(seed);
        for _ in 0..120 {
            let Some(d) = g.decision() else { break };
            prop_assert!(g.view(Observer::Spectator).choices.is_none());
            for s in 0..g.seats() {
                let seat = Seat(s as u8);
                let c = g.view(Observer::Seat(seat)).choices;
                let mut listed: Vec<String> = g.legal_actions(seat).iter().map(key).collect();
                listed.sort();
                let Some(c) = c else {
                    prop_assert!(listed.is_empty(), "seat {} may act but has no choices", s);
                    continue;
                };
                let mut got: Vec<String> = expand(&c).iter().map(key).collect();
                got.sort();
                prop_assert_eq!(&got, &listed, "the choices are the listing");
                for a in expand(&c).iter().take(40) {
                    prop_assert!(g.clone().apply(seat, a, &mut Vec::new()).is_ok(), "refused: {}", key(a));
                }
                let mut scrambled = g.clone();
                scrambled.scramble_secrets(Observer::Seat(seat), &mut rng);
                prop_assert_eq!(Some(c), scrambled.view(Observer::Seat(seat)).choices);
            }
            let seat = d.seats().first().unwrap();
            let a = g.sample_action(seat, &mut rng).unwrap();
            g.apply(seat, &a, &mut Vec::new()).unwrap();
        }
    }

    /// A letter's preview is where the car ends when it acts first: the seat plots it with its
    /// lowest unused number, every other car plots its highest (acting later, AS-4.3), and the
    /// car's first move of the round is compared with the preview.
    #[test]
    fn previews_are_where_the_car_ends_when_it_acts_first(seed in any::<u64>(), pick in 0usize..16) {
        preview_case(seed, pick)?;
    }
}

/// One case of the preview property: `Ok(false)` when the position does not fit (not the start
/// of a planning phase, the car standing still).
fn preview_case(seed: u64, pick: usize) -> Result<bool, TestCaseError> {
    let setup = Setup::standard(2, false, Variants::default()).unwrap();
    let mut g = Autoscooter::new(&setup, seed).unwrap();
    let mut rng = Rng::seeded(seed);
    // A few random rounds first, so that cars move and stand near each other.
    // Then on to the start of a planning phase (nobody has plotted yet).
    let fresh = |g: &Autoscooter| {
        g.view(Observer::Spectator).phase == "plan" && g.view(Observer::Omniscient).plots.is_empty()
    };
    let mut n = 0;
    while n < seed % 24 || !fresh(&g) {
        let Some(d) = g.decision() else { return Ok(false) };
        let seat = d.seats().first().unwrap();
        let a = g.sample_action(seat, &mut rng).unwrap();
        g.apply(seat, &a, &mut Vec::new()).unwrap();
        n += 1;
    }
    if g.view(Observer::Spectator).phase != "plan" {
        return Ok(false);
    }
    // Nobody has plotted yet this round (a plot already made could act first).
    if !g.view(Observer::Omniscient).plots.is_empty() {
        return Ok(false);
    }
    let Some(c) = g.view(Observer::Seat(Seat(0))).choices else { return Ok(false) };
    let Some(p) = c.plots.first() else { return Ok(false) };
    if p.previews.is_empty() {
        return Ok(false);
    }
    let pv = &p.previews[pick % p.previews.len()];
    let low = *p.numbers.iter().min().unwrap();
    // The other seat's cars and seat 0's other cars: their highest numbers.
    let mut plots = vec![(Seat(0), Action::plot(p.car, low, Some(pv.letter)))];
    for s in 0..2u8 {
        if let Some(c) = g.view(Observer::Seat(Seat(s))).choices {
            for q in c.plots.iter().filter(|q| q.car != p.car) {
                let hi = *q.numbers.iter().max().unwrap();
                plots.push((Seat(s), Action::plot(q.car, hi, q.letters.first().copied())));
            }
        }
    }
    if plots
        .iter()
        .skip(1)
        .any(|(_, a)| matches!(a, Action::Plot { number, .. } if *number as u8 <= low))
    {
        return Ok(false);
    }
    let mut ev = Vec::new();
    for (s, a) in &plots {
        if g.apply(*s, a, &mut ev).is_err() {
            return Ok(false);
        }
    }
    let moved = ev.iter().find_map(|e| match e {
        autoscooter::Event::Moved { car, path, facing, .. } if *car == p.car => {
            Some((*path, *facing))
        }
        _ => None,
    });
    let Some((path, facing)) = moved else { return Ok(false) };
    prop_assert_eq!((pv.path, pv.facing), (path, facing), "letter {:?}", pv.letter);
    Ok(true)
}

/// The preview property compares on many positions (it is not skipped everywhere).
#[test]
fn the_preview_property_compares_moves() {
    let compared = (0..200u64).filter(|&s| preview_case(s, s as usize).expect("holds")).count();
    assert!(compared >= 20, "compared only {compared} of 200");
}
