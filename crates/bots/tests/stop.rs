//! Bot work can be bounded and cancelled ([`bots::Stop`]): a search with an absurd budget
//! (`search:4294967295`, `search:4294967295ms`) given a deadline returns a legal action soon
//! after it, and one whose flag is raised returns at once. This is what lets the server put a
//! ceiling on a decision and stop a game's bots when the game ends or the server stops.

use bots::{BotSpec, HasBots, Stop};
use engine::{Rng, Seat};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A starting position and a seat that owes a decision there with several candidates.
fn owing<G: HasBots>(setup: &G::Setup) -> (G, Seat) {
    let g = G::new(setup, 11).unwrap();
    let seat = g.decision().unwrap().seats().first().unwrap();
    assert!(g.legal_actions(seat).len() > 1);
    (g, seat)
}

fn legal<G: HasBots>(g: &G, seat: Seat, a: &G::Action) -> bool {
    g.clone().apply(seat, a, &mut Vec::new()).is_ok()
}

/// Absurd budgets end at the deadline (give or take one simulation) with a legal action.
fn deadline_bounds<G: HasBots>(setup: &G::Setup) {
    let (g, seat) = owing::<G>(setup);
    for spec in ["search:4294967295", "search:4294967295ms"] {
        let spec: BotSpec = spec.parse().unwrap();
        let started = Instant::now();
        let stop = Stop::at(started + Duration::from_millis(150));
        let a = G::bot(&spec).act_until(&g, seat, &mut Rng::seeded(1), &stop);
        let took = started.elapsed();
        assert!(legal(&g, seat, &a), "{}: {spec} played an illegal action", G::NAME);
        // 150 ms asked; a simulation (a RoboRally rollout: two turns) is far below a second.
        assert!(took < Duration::from_millis(1500), "{}: {spec} took {took:?}", G::NAME);
    }
}

/// A raised flag: the search stops before its first simulation and plays its first candidate.
fn flag_stops<G: HasBots>(setup: &G::Setup) {
    let (g, seat) = owing::<G>(setup);
    let flag = Arc::new(AtomicBool::new(true));
    let stop = Stop::default().or_flag(flag.clone());
    assert!(stop.now() && stop.cancelled());
    let started = Instant::now();
    let a = G::bot(&"search:4294967295".parse().unwrap()).act_until(
        &g,
        seat,
        &mut Rng::seeded(2),
        &stop,
    );
    assert!(legal(&g, seat, &a));
    assert!(started.elapsed() < Duration::from_millis(1500), "{}", G::NAME);
    flag.store(false, Ordering::Relaxed);
    assert!(!stop.now(), "a lowered flag and no deadline: no stop");
}

#[test]
fn autoscooter_search_stops() {
    let setup = autoscooter::Setup::standard(4, false, autoscooter::Variants::default()).unwrap();
    deadline_bounds::<autoscooter::Autoscooter>(&setup);
    flag_stops::<autoscooter::Autoscooter>(&setup);
}

#[test]
fn roborally_search_stops() {
    let setup = roborally::Setup::new_game(
        roborally::BoardSpec::Named("dizzy-dash".into()),
        3,
        roborally::Variants::default(),
    );
    deadline_bounds::<roborally::RoboRally>(&setup);
    flag_stops::<roborally::RoboRally>(&setup);
}

#[test]
fn bumping_bots_search_stops() {
    let track = bumping_bots::tracks::shipped("oval").unwrap();
    let setup = bumping_bots::Setup::race(track, 3);
    deadline_bounds::<bumping_bots::BumpingBots>(&setup);
    flag_stops::<bumping_bots::BumpingBots>(&setup);
}

#[test]
fn no_stop_never_stops_and_a_past_deadline_does() {
    assert!(!Stop::default().now());
    assert!(Stop::at(Instant::now()).now());
    assert!(!Stop::at(Instant::now() + Duration::from_secs(60)).now());
}
