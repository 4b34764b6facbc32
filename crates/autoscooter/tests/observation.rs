//! The observation written from the state (`Autoscooter::write_observation`, docs/python.md
//! "Observations") is the generic encoding of the seat's view without choices
//! (`engine::features::write(&view_without_choices)`), bit for bit: for every seat, the
//! spectator and the omniscient observer, in every position of random games of 2 to 8 players,
//! with and without the wild car (AS-7.1), jolting (AS-7.2), colour scoring and its payments
//! (AS-7.3) and per-car scoring (AS-7.4); with the Python package's buffer (256) and one long
//! enough for the whole view.

use autoscooter::{Autoscooter, Setup, Variants, WildCar};
use engine::{Game, Observer, Rng, Seat};
use proptest::prelude::*;

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn check(g: &Autoscooter, o: Observer) -> Result<(), TestCaseError> {
    for len in [256, 4096, 7] {
        let (mut a, mut b) = (vec![9.0f32; len], vec![7.0f32; len]);
        let n = engine::features::write(&g.view_without_choices(o), &mut a);
        let m = g.write_observation(o, &mut b);
        prop_assert_eq!(m, n, "length, {:?}, buffer {}", o, len);
        prop_assert_eq!(bits(&b), bits(&a), "{:?}, buffer {}", o, len);
    }
    Ok(())
}

/// Play a random game, checking every observer in every position; returns how many positions
/// were payments (AS-7.3), starts (AS-5.4) and the end.
fn play(seed: u64, players: usize, v: [bool; 4]) -> Result<[usize; 3], TestCaseError> {
    let [wild, jolting, colour, per_car] = v;
    let variants = Variants {
        wild_car: wild.then_some(WildCar::Lowest(true)),
        jolting,
        colour_scoring: colour || per_car,
        per_car_scoring: per_car,
    };
    let g = Setup::standard(players, false, variants)
        .ok()
        .and_then(|s| Autoscooter::new(&s, seed).ok());
    prop_assume!(g.is_some());
    let mut g = g.unwrap();
    let mut rng = Rng::seeded(seed);
    let mut seen = [0; 3];
    for _ in 0..400 {
        let d = g.decision();
        let phase = g.view_without_choices(Observer::Spectator).phase;
        seen[0] += usize::from(phase == "payment");
        seen[1] += usize::from(phase == "start");
        seen[2] += usize::from(d.is_none());
        for s in 0..g.seats() {
            check(&g, Observer::Seat(Seat(s as u8)))?;
        }
        check(&g, Observer::Spectator)?;
        check(&g, Observer::Omniscient)?;
        let Some(d) = d else { break };
        let seat = d.seats().first().unwrap();
        let a = g.sample_action(seat, &mut rng).unwrap();
        g.apply(seat, &a, &mut Vec::new()).unwrap();
    }
    Ok(seen)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn the_observation_from_the_state_is_the_views(
        seed in any::<u64>(),
        players in 2usize..=8,
        v in any::<[bool; 4]>(),
    ) {
        play(seed, players, v)?;
    }
}

/// The games checked reach payments, starts and the end (so their fields are compared).
#[test]
fn the_check_meets_payments_starts_and_ends() {
    let mut seen = [0; 3];
    for seed in 0..6 {
        for (i, n) in play(seed, 3, [true, true, true, seed.is_multiple_of(2)])
            .expect("the observation is the view's")
            .into_iter()
            .enumerate()
        {
            seen[i] += n;
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "payments, starts, ends: {seen:?}");
}
