//! The "last player" clock (a setting, docs/autoscooter.md): once every player but one has
//! plotted everything they owe this round, the last one has `last_player_seconds`; then
//! `time_up` plots for them (AS-3.5). Off (0) by default.

use autoscooter::{Autoscooter, Setup, Variants};
use engine::harness::{CheckOptions, check_game};
use engine::{Clock, Decision, Game, Rng, Seat, SeatSet};

fn setup(players: usize, seconds: u32) -> Setup {
    let mut s = Setup::standard(players, false, Variants::default()).expect("a standard game");
    s.last_player_seconds = seconds;
    s
}

/// Plays `seat`'s sampled actions until it owes nothing more this planning.
fn plot_all(g: &mut Autoscooter, seat: Seat, rng: &mut Rng) {
    while g.decision().is_some_and(|d| matches!(d, Decision::Simultaneous(_)) && d.owes(seat)) {
        let a = g.sample_action(seat, rng).expect("an action");
        g.apply(seat, &a, &mut Vec::new()).expect("legal");
    }
}

#[test]
fn the_last_player_to_plot_has_the_clock() {
    for seed in 0..10 {
        let mut g = Autoscooter::new(&setup(3, 30), seed).expect("starts");
        let mut rng = Rng::seeded(seed);
        assert_eq!(g.clock(), None, "three players plotting");
        plot_all(&mut g, Seat(2), &mut rng);
        assert_eq!(g.clock(), None, "two players plotting");
        plot_all(&mut g, Seat(0), &mut rng);
        assert_eq!(g.clock(), Some(Clock { seats: SeatSet::single(Seat(1)), seconds: 30 }));
        // Time is up: the rules plot for the last player and the round goes on.
        let round = g.round();
        g.time_up(&mut Vec::new()).expect("time_up");
        assert!(
            g.round() > round
                || !matches!(g.decision(), Some(Decision::Simultaneous(s)) if s.contains(Seat(1)))
        );
    }
    let mut g = Autoscooter::new(&setup(2, 0), 1).expect("starts");
    plot_all(&mut g, Seat(0), &mut Rng::seeded(1));
    assert_eq!(g.clock(), None, "the setting at 0: no clock");
}

#[test]
fn the_conformance_suite_holds_with_the_clock_on() {
    for seed in 0..5 {
        let options = CheckOptions { max_steps: 300, deep_every: 5, ..CheckOptions::default() };
        check_game::<Autoscooter>(&setup(4, 30), seed, &options).expect("conforms");
    }
}
