//! Issue 17: boards, courses and tracks are parsed once per process and shared by every game.
//! A game on the shared board must be the game on a board parsed afresh: the same starting state
//! (boards compared by content), hence the same game for every seed and action.

use engine::{Game, Rng, play_random};
use roborally::board::course::{COURSES, parse_course, shipped_pieces};
use roborally::{BoardSpec, RoboRally, Setup, Variants};
use std::sync::Arc;

#[test]
fn roborally_on_a_cached_course_starts_as_on_a_freshly_parsed_one() {
    let pieces = shipped_pieces();
    for text in COURSES {
        let fresh = parse_course(text, &pieces).unwrap();
        let setup = Setup::new_game(BoardSpec::Named(fresh.name.clone()), 8, Variants::default());
        for seed in 0..5 {
            let cached = RoboRally::from_setup(&setup, seed).unwrap();
            let parsed =
                RoboRally::from_setup_with_board(&setup, fresh.board.clone(), seed).unwrap();
            assert!(cached == parsed, "{} seed {seed}", fresh.name);
        }
        // Two games on the cached course share one board.
        let (a, b) = (RoboRally::new(&setup, 1).unwrap(), RoboRally::new(&setup, 2).unwrap());
        assert!(std::ptr::eq(a.board(), b.board()), "{}", fresh.name);
    }
}

#[test]
fn autoscooter_on_the_shared_rink_plays_as_on_a_fresh_one() {
    let setup = autoscooter::Setup::standard(8, false, Default::default()).unwrap();
    let mut other = setup.clone();
    // Another name: not the shipped spec, so built afresh (the name plays no part in a game).
    other.board.name = Some("a copy".into());
    for seed in 0..5 {
        let mut a = autoscooter::Autoscooter::new(&setup, seed).unwrap();
        let mut b = autoscooter::Autoscooter::new(&other, seed).unwrap();
        assert!(a == b, "seed {seed}");
        let (mut ra, mut rb) = (Rng::seeded(seed), Rng::seeded(seed));
        let (mut ea, mut eb) = (Vec::new(), Vec::new());
        assert_eq!(
            play_random(&mut a, &mut ra, &mut ea, 10_000),
            play_random(&mut b, &mut rb, &mut eb, 10_000)
        );
        assert!(a == b && ea == eb, "seed {seed}");
        assert!(a.outcome().is_some());
    }
}

#[test]
fn bumping_bots_on_the_kept_track_plays_as_on_a_fresh_one() {
    for name in ["oval", "factory"] {
        let spec = bumping_bots::tracks::shipped(name).unwrap();
        let setup = bumping_bots::Setup::race(spec.clone(), 6);
        for seed in 0..3 {
            let mut a = bumping_bots::BumpingBots::new(&setup, seed).unwrap();
            let fresh = Arc::new(bumping_bots::Board::build(&spec).unwrap());
            let mut b = bumping_bots::BumpingBots::on_board(fresh, &setup, seed).unwrap();
            assert!(a == b, "{name} seed {seed}");
            let (mut ra, mut rb) = (Rng::seeded(seed), Rng::seeded(seed));
            let (mut ea, mut eb) = (Vec::new(), Vec::new());
            play_random(&mut a, &mut ra, &mut ea, 100_000);
            play_random(&mut b, &mut rb, &mut eb, 100_000);
            assert!(a == b && ea == eb, "{name} seed {seed}");
        }
    }
}
