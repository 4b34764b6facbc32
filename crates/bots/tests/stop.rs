//! Bot work can be bounded and cancelled ([`bots::Stop`]): a search with an absurd budget
//! (`search:4294967295`, `search:4294967295ms`) given a deadline returns a legal action soon
//! after it, and one whose flag is raised returns at once. This is what lets the server put a
//! ceiling on a decision and stop a game's bots when the game ends or the server stops.
//! Deadlines are read on a [`bots::Clock`] that moves 1 ms each time it is read, so that what
//! is checked is how the search keeps to its deadline, not how fast this machine is.

use bots::{BotSpec, Clock, HasBots, Stop};
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

/// Absurd budgets end at the deadline (give or take one simulation) with a legal action: the
/// search reads its clock at least once per simulation, so on a clock that moves 1 ms a read,
/// a deadline 150 ms on is reached after about 150 reads (a `search:Nms` budget's own checks,
/// every 16th simulation, add about a tenth) — and an ignored deadline would never end.
fn deadline_bounds<G: HasBots>(setup: &G::Setup) {
    let (g, seat) = owing::<G>(setup);
    for spec in ["search:4294967295", "search:4294967295ms"] {
        let spec: BotSpec = spec.parse().unwrap();
        let clock = Clock::stepping(Duration::from_millis(1));
        let stop = Stop::at(clock.now() + Duration::from_millis(150)).on(clock.clone());
        let a = G::bot(&spec).act_until(&g, seat, &mut Rng::seeded(1), &stop);
        assert!(legal(&g, seat, &a), "{}: {spec} played an illegal action", G::NAME);
        let reads = clock.reads();
        assert!((150..=180).contains(&reads), "{}: {spec}: {reads} reads", G::NAME);
    }
}

/// A raised flag: the search stops before its first simulation and plays its first candidate.
fn flag_stops<G: HasBots>(setup: &G::Setup) {
    let (g, seat) = owing::<G>(setup);
    let flag = Arc::new(AtomicBool::new(true));
    let stop = Stop::default().or_flag(flag.clone());
    assert!(stop.now() && stop.cancelled());
    let a = G::bot(&"search:4294967295".parse().unwrap()).act_until(
        &g,
        seat,
        &mut Rng::seeded(2),
        &stop,
    );
    // An absurd budget returned at all: the flag stopped it (before its first simulation).
    assert!(legal(&g, seat, &a));
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
    // On a stepping clock: the deadline is 3 steps on; reads 1 and 2 are before it, 3 is at it.
    let clock = Clock::stepping(Duration::from_millis(1));
    let stop = Stop::at(clock.now() + Duration::from_millis(3)).on(clock.clone());
    assert_eq!([stop.now(), stop.now(), stop.now(), stop.now()], [false, false, true, true]);
    assert_eq!(clock.reads(), 5);
    assert_eq!(Clock::default().reads(), 0, "the system's clock counts no reads");
}
