//! The positions the search throughput is measured from, shared by `benches/search.rs` and
//! `examples/search_cpu.rs`.

use autoscooter::{Autoscooter, Setup, Variants};
use engine::{Game, Rng, Seat, harness::next_seat};

/// Play random actions until `seat` owes a decision after `skip` actions, one that `wanted`
/// accepts (RoboRally: a program, not a re-entry or a power-down question).
pub fn position<G: Game>(mut g: G, skip: usize, seat: Seat, wanted: impl Fn(&G) -> bool) -> G {
    let mut rng = Rng::seeded(3);
    let mut ev = Vec::new();
    let mut n = 0;
    while let Some(d) = g.decision() {
        if n >= skip && d.owes(seat) && wanted(&g) {
            break;
        }
        let s = next_seat(&d, &mut rng).unwrap();
        let a = g.sample_action(s, &mut rng).unwrap();
        g.apply(s, &a, &mut ev).unwrap();
        n += 1;
    }
    g
}

/// Autoscooter: two seats of four cars, round 4, seat 0 to plot.
pub fn autoscooter() -> Autoscooter {
    let mut g =
        Autoscooter::new(&Setup::standard(2, false, Variants::default()).unwrap(), 5).unwrap();
    let mut rng = Rng::seeded(5);
    let mut ev = Vec::new();
    while g.round() < 4 || g.owed(Seat(0)).is_none() {
        let d = g.decision().unwrap();
        let s = next_seat(&d, &mut rng).unwrap();
        let a = g.sample_action(s, &mut rng).unwrap();
        g.apply(s, &a, &mut ev).unwrap();
    }
    g
}

/// RoboRally: dizzy-dash, four robots, seat 0 to program after ten actions.
pub fn roborally() -> roborally::RoboRally {
    let setup = roborally::Setup::new_game(
        roborally::BoardSpec::Named("dizzy-dash".into()),
        4,
        roborally::Variants::default(),
    );
    position(roborally::RoboRally::new(&setup, 1).unwrap(), 10, Seat(0), |g| {
        matches!(g.phase(), roborally::Phase::Program { .. })
    })
}

/// Bumping Bots: factory, nine bots, two laps, seat 0's decision after forty actions.
pub fn bumping_bots() -> bumping_bots::BumpingBots {
    let mut track = bumping_bots::tracks::shipped("factory").unwrap();
    track.laps = 2;
    let setup = bumping_bots::Setup::race(track, 9);
    position(bumping_bots::BumpingBots::new(&setup, 1).unwrap(), 40, Seat(0), |_| true)
}
