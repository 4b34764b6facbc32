//! Every bot of every game: only legal actions, the same decision for the same seed and budget,
//! and blind to what its seat cannot see (a resampled copy of the hidden information gives the
//! same decision).

use bots::{BotSpec, HasBots};
use engine::{Rng, harness::next_seat};

fn check_game<G: HasBots>(setup: &G::Setup, seeds: std::ops::Range<u64>, steps: usize) {
    check_bots::<G>(&["random", "heuristic", "search:24"], setup, seeds, steps);
}

fn check_bots<G: HasBots>(
    specs: &[&str],
    setup: &G::Setup,
    seeds: std::ops::Range<u64>,
    steps: usize,
) {
    let specs: Vec<BotSpec> = specs.iter().map(|s| s.parse().unwrap()).collect();
    for seed in seeds {
        let mut g = G::new(setup, seed).unwrap();
        let mut rng = Rng::seeded(seed);
        let mut ev = Vec::new();
        for step in 0..steps {
            let Some(d) = g.decision() else { break };
            let seat = next_seat(&d, &mut rng).unwrap();
            if step % 7 == 0 {
                for spec in &specs {
                    let a = G::bot(spec).act(&g, seat, &mut Rng::seeded(step as u64));
                    let mut copy = g.clone();
                    assert!(
                        copy.apply(seat, &a, &mut Vec::new()).is_ok(),
                        "{spec} chose an illegal action {a:?}"
                    );
                    let again = G::bot(spec).act(&g, seat, &mut Rng::seeded(step as u64));
                    assert_eq!(a, again, "{spec} is not reproducible");
                    if *spec != BotSpec::Random {
                        let blind = g.determinize(seat, &mut Rng::seeded(999));
                        let b = G::bot(spec).act(&blind, seat, &mut Rng::seeded(step as u64));
                        assert_eq!(
                            a, b,
                            "{spec} decided differently when hidden information changed"
                        );
                    }
                }
            }
            let a = g.sample_action(seat, &mut rng).unwrap();
            g.apply(seat, &a, &mut ev).unwrap();
        }
    }
}

#[test]
fn roborally_bots() {
    let setup = roborally::Setup::new_game(
        roborally::BoardSpec::Named("dizzy-dash".into()),
        3,
        roborally::Variants::default(),
    );
    check_game::<roborally::RoboRally>(&setup, 0..3, 60);
}

/// A robot alone on the board: the search judges programs by its model of the board and the
/// next deals (at 1,000 simulations, two deals deep); the deck order is what it cannot see.
#[test]
fn roborally_bots_alone() {
    let setup = roborally::Setup::new_game(
        roborally::BoardSpec::Named("laser-gauntlet".into()),
        1,
        roborally::Variants::default(),
    );
    check_bots::<roborally::RoboRally>(&["search:24", "search:1000"], &setup, 0..2, 30);
}

#[test]
fn bumping_bots_bots() {
    let mut spec = bumping_bots::tracks::shipped("factory").unwrap();
    spec.laps = 2;
    let setup = bumping_bots::Setup::race(spec, 4);
    check_game::<bumping_bots::BumpingBots>(&setup, 0..3, 80);
}

#[test]
fn autoscooter_bots() {
    let setup = autoscooter::Setup::standard(3, false, autoscooter::Variants::default()).unwrap();
    check_game::<autoscooter::Autoscooter>(&setup, 0..3, 80);
}
