//! The observation written from the state (`BumpingBots::write_observation`, docs/python.md
//! "Observations") is the generic encoding of the seat's view without choices
//! (`engine::features::write(&View::without_choices)`), bit for bit: for every seat, the
//! spectator and the omniscient observer, in every position of random races on the shipped
//! tracks with 2 to 9 bots, with drawn or chosen cards (BB-3), championship standings
//! (BB-11.2) and teams (BB-11.3); with the Python package's buffer (256) and one long enough
//! for the whole view.

use bumping_bots::settings::TeamsSpec;
use bumping_bots::tracks::{SHIPPED, shipped};
use bumping_bots::view::View;
use bumping_bots::{BumpingBots, Setup};
use engine::{Game, Observer, Rng, Seat};
use proptest::prelude::*;

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn check(g: &BumpingBots, o: Observer) -> Result<(), TestCaseError> {
    for len in [256, 4096, 5] {
        let (mut a, mut b) = (vec![9.0f32; len], vec![7.0f32; len]);
        let n = engine::features::write(&View::without_choices(g, o), &mut a);
        let m = g.write_observation(o, &mut b);
        prop_assert_eq!(m, n, "length, {:?}, buffer {}", o, len);
        prop_assert_eq!(bits(&b), bits(&a), "{:?}, buffer {}", o, len);
    }
    Ok(())
}

/// Play a random race, checking every observer in every position; returns the phases seen.
fn play(
    seed: u64,
    track: usize,
    bots: u8,
    v: [bool; 3],
) -> Result<Vec<&'static str>, TestCaseError> {
    let [choose, standings, teams] = v;
    let mut setup = Setup::race(shipped(SHIPPED[track].0).expect("shipped"), bots);
    setup.variants.choose_cards = choose;
    if standings {
        setup.standings = (0..i32::from(bots)).map(|s| 3 * s % 7).collect();
    }
    if teams && bots.is_multiple_of(2) {
        setup.variants.teams = Some(TeamsSpec::Auto(true));
    }
    let Ok(mut g) = BumpingBots::new(&setup, seed) else {
        prop_assume!(false);
        unreachable!()
    };
    let mut rng = Rng::seeded(seed);
    let mut phases = Vec::new();
    for _ in 0..3000 {
        let d = g.decision();
        phases.push(View::without_choices(&g, Observer::Spectator).phase);
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
    Ok(phases)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn the_observation_from_the_state_is_the_views(
        seed in any::<u64>(),
        track in 0usize..3,
        bots in 2u8..=9,
        v in any::<[bool; 3]>(),
    ) {
        play(seed, track, bots, v)?;
    }
}

/// The races checked reach every phase with fields of its own (a move's cells, a shock's
/// choice, picking cards) and the end.
#[test]
fn the_check_meets_every_phase() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let phases = play(seed, seed as usize % 3, 4, [seed.is_multiple_of(2), true, true])
            .expect("the observation is the view's");
        seen.extend(phases);
    }
    for phase in ["pick_cards", "speed", "move", "shock_choice", "over"] {
        assert!(seen.contains(phase), "{phase} not met: {seen:?}");
    }
}
