//! Autoscooter bots: legal, reproducible, blind to hidden plots, and stronger than random.

use autoscooter::{Autoscooter, Setup, Variants};
use bots::{Bot, BotSpec, HasBots, HeuristicBot, SearchBot};
use engine::{Decision, Game, Rng, Seat, harness::next_seat};

fn two_player() -> Setup {
    Setup::standard(2, false, Variants::default()).unwrap()
}

/// Play a two-seat game, `a` in seat 0; returns seat 0's and seat 1's chits.
fn duel(a: &BotSpec, b: &BotSpec, seed: u64) -> (i64, i64) {
    let mut g = Autoscooter::new(&two_player(), seed).unwrap();
    let mut bots = [Autoscooter::bot(a), Autoscooter::bot(b)];
    let mut rng = Rng::seeded(seed);
    let mut ev = Vec::new();
    while let Some(d) = g.decision() {
        let s = next_seat(&d, &mut rng).unwrap();
        let a = bots[s.index()].act(&g, s, &mut rng);
        g.apply(s, &a, &mut ev).expect("bots only play legal actions");
    }
    (g.seat_score(Seat(0)), g.seat_score(Seat(1)))
}

#[test]
fn heuristic_beats_random_nearly_always() {
    let mut wins = 0;
    let mut lost = Vec::new();
    for seed in 0..100 {
        let (h, r) = if seed % 2 == 0 {
            duel(&BotSpec::Heuristic, &BotSpec::Random, seed)
        } else {
            let (r, h) = duel(&BotSpec::Random, &BotSpec::Heuristic, seed);
            (h, r)
        };
        if h > r {
            wins += 1;
        } else {
            lost.push((seed, h, r));
        }
    }
    assert!(wins >= 90, "heuristic won {wins}/100; lost or tied: {lost:?}");
}

#[test]
fn every_bot_plays_only_legal_actions_in_every_variant() {
    for (i, spec) in ["random", "heuristic", "search:30"].iter().enumerate() {
        let spec: BotSpec = spec.parse().unwrap();
        for players in [2, 5, 8] {
            let v = Variants {
                wild_car: (players == 5).then_some(autoscooter::WildCar::Lowest(true)),
                jolting: true,
                colour_scoring: players != 8,
                per_car_scoring: players == 2,
            };
            let setup = Setup::standard(players, false, v).unwrap();
            let mut g = Autoscooter::new(&setup, i as u64).unwrap();
            let mut bot = Autoscooter::bot(&spec);
            let mut rng = Rng::seeded(players as u64);
            let mut ev = Vec::new();
            while let Some(d) = g.decision() {
                let s = next_seat(&d, &mut rng).unwrap();
                let a = bot.act(&g, s, &mut rng);
                assert!(g.legal_actions(s).contains(&a), "{spec} chose an unlisted action {a:?}");
                g.apply(s, &a, &mut ev).unwrap();
            }
        }
    }
}

#[test]
fn same_seed_same_budget_same_decision() {
    let g = Autoscooter::new(&two_player(), 9).unwrap();
    let mut ev = Vec::new();
    let mut g2 = g.clone();
    // Round 1: make the cars move, so that letters matter.
    let mut rng = Rng::seeded(1);
    while g2.round() < 3 {
        let d = g2.decision().unwrap();
        let s = next_seat(&d, &mut rng).unwrap();
        let a = g2.sample_action(s, &mut rng).unwrap();
        g2.apply(s, &a, &mut ev).unwrap();
    }
    let Decision::Simultaneous(_) = g2.decision().unwrap() else { panic!("planning") };
    let pick = |seed| SearchBot::new(200).act(&g2, Seat(0), &mut Rng::seeded(seed));
    assert_eq!(pick(5), pick(5));
}

#[test]
fn bots_cannot_read_other_seats_hidden_plots() {
    // Two states that differ only in seat 1's secret plot give seat 0's bots the same decision.
    let mut rng = Rng::seeded(3);
    let mut g = Autoscooter::new(&two_player(), 4).unwrap();
    let mut ev = Vec::new();
    while g.round() < 2
        || g.decision() != Some(Decision::Simultaneous([Seat(0), Seat(1)].into_iter().collect()))
    {
        let d = g.decision().unwrap();
        let s = next_seat(&d, &mut rng).unwrap();
        let a = g.sample_action(s, &mut rng).unwrap();
        g.apply(s, &a, &mut ev).unwrap();
    }
    // Two different plots for the same car of seat 1 (which car is plotted is public).
    let legal = g.legal_actions(Seat(1));
    // Seat 1's cars are drawn by lots (AS-1.3): one of them.
    let car1 = g.cars().find(|c| c.owner == Some(Seat(1))).unwrap().id;
    let same_car: Vec<_> = legal
        .iter()
        .filter(|a| matches!(a, autoscooter::Action::Plot { car, .. } if *car == car1))
        .collect();
    let (mut a, mut b) = (g.clone(), g.clone());
    a.apply(Seat(1), same_car[0], &mut ev).unwrap();
    b.apply(Seat(1), same_car.last().unwrap(), &mut ev).unwrap();
    assert_ne!(a, b);
    for spec in ["heuristic", "search:100"] {
        let spec: BotSpec = spec.parse().unwrap();
        let da = Autoscooter::bot(&spec).act(&a, Seat(0), &mut Rng::seeded(11));
        let db = Autoscooter::bot(&spec).act(&b, Seat(0), &mut Rng::seeded(11));
        assert_eq!(da, db, "{spec} decided differently on a hidden plot");
    }
    let _ = HeuristicBot;
}

/// A time budget is measured on the search's clock ([`bots::Clock`]), not by how fast this
/// machine is: on a clock that moves 1 ms each time it is read, `search:50ms` reads it when it
/// starts and then every 16th simulation (docs/bots.md) until 50 ms have passed on it — 1 + 50
/// reads — and plays a legal action.
#[test]
fn search_with_a_time_budget_stops_when_its_clock_says() {
    let g = Autoscooter::new(&two_player(), 2).unwrap();
    let mut bot = Autoscooter::bot(&"search:50ms".parse().unwrap());
    let clock = bots::Clock::stepping(std::time::Duration::from_millis(1));
    let stop = bots::Stop::default().on(clock.clone());
    let a = bot.act_until(&g, Seat(0), &mut Rng::seeded(1), &stop);
    assert_eq!(clock.reads(), 1 + 50);
    assert!(g.legal_actions(Seat(0)).contains(&a));
    // A budget twice as long: twice as many checks, so the budget is what stopped it.
    let clock = bots::Clock::stepping(std::time::Duration::from_millis(1));
    let mut bot = Autoscooter::bot(&"search:100ms".parse().unwrap());
    bot.act_until(&g, Seat(0), &mut Rng::seeded(1), &bots::Stop::default().on(clock.clone()));
    assert_eq!(clock.reads(), 1 + 100);
}
