//! Property tests over random games (AS rules as invariants), using the engine's generic
//! harness: no panic, no two cars on a hex, chits conserved, replay identical, views hide
//! other seats' plots, rejected actions change nothing, listed actions are legal.

use autoscooter::{Action, Autoscooter, Letter, LetterInput, Setup, Variants, WildCar};
use engine::{Game, Observer, Rng, Seat, harness};
use grid::{Hex, HexDir};
use proptest::prelude::*;

fn variants(bits: u8, players: usize) -> Variants {
    let colour = bits & 4 != 0;
    Variants {
        // The standard rink has cars of nobody only when players × cars < 8.
        wild_car: (bits & 1 != 0 && (5..=7).contains(&players)).then_some(WildCar::Lowest(true)),
        jolting: bits & 2 != 0,
        colour_scoring: colour,
        per_car_scoring: colour && bits & 8 != 0 && players <= 4,
    }
}

fn total_chits(g: &Autoscooter) -> u32 {
    let players: u32 = (0..g.seats()).map(|s| g.chits(Seat(s as u8)).total()).sum();
    players + g.box_chits().total()
}

/// Actions that are often wrong: other seats' cars, wrong numbers, bad letters, stray starts.
fn garbage(rng: &mut Rng) -> Action {
    let letter = match rng.below(4) {
        0 => None,
        1 => Some(LetterInput::Invalid("Z".into())),
        _ => Some(LetterInput::Valid(Letter::from_index(rng.below(16) as u8).unwrap())),
    };
    match rng.below(5) {
        0 | 1 => Action::Plot { car: rng.below(10) as u8, number: rng.below(92), letter },
        2 => Action::PlotWild { letter },
        3 => Action::Start {
            car: rng.below(9) as u8,
            to: Hex::new(rng.below(10) as i32 - 3, rng.below(7) as i32 - 1),
            facing: HexDir::new(rng.below(6) as u8).unwrap(),
        },
        _ => Action::Take { colours: [(rng.below(9).to_string(), rng.below(3) as u16)].into() },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(seed in any::<u64>(), players in 2usize..=8, bits in 0u8..16, beginners: bool) {
        let setup = Setup::standard(players, beginners, variants(bits, players)).unwrap();
        let start = Autoscooter::new(&setup, seed).unwrap();
        let total = total_chits(&start);
        let mut rng = Rng::seeded(seed);
        let (end, log) = harness::random_playout::<Autoscooter>(&setup, seed, 2_000, bits & 1 != 0, |g, events| {
            // No two cars share a hex (AS-5).
            let mut hexes: Vec<Hex> = g.cars().map(|c| g.board().hex(c.cell)).collect();
            hexes.sort();
            hexes.dedup();
            assert_eq!(hexes.len(), g.cars().count(), "two cars on one hex");
            // Chits are conserved: players + box = the start total (AS-5.6).
            assert_eq!(total_chits(g), total, "chits not conserved after {events:?}");
            // Rejected actions change nothing.
            for s in 0..g.seats() {
                harness::assert_atomic(g, Seat(s as u8), &garbage(&mut rng));
            }
            // A seat's view never depends on other seats' unrevealed plots (AS-4.1).
            harness::assert_view_hides_secrets(g, &mut rng);
        });
        prop_assert!(end.outcome().is_some(), "a random game ends within 2,000 steps");
        prop_assert_eq!(end.round(), 11);
        harness::assert_replays(&setup, seed, &log, &end);
    }

    #[test]
    fn listed_actions_are_legal_and_sampled_ones_are_listed(seed in any::<u64>(), players in 2usize..=8, bits in 0u8..16) {
        let setup = Setup::standard(players, false, variants(bits, players)).unwrap();
        let mut rng = Rng::seeded(seed);
        harness::random_playout::<Autoscooter>(&setup, seed, 300, false, |g, _| {
            if rng.below(8) == 0 {
                harness::assert_listed_actions_legal(g, 12);
                if let Some(d) = g.decision() {
                    let seat = harness::next_seat(&d, &mut rng).unwrap();
                    let a = g.sample_action(seat, &mut rng).unwrap();
                    assert!(g.legal_actions(seat).contains(&a), "sampled {a:?} is not listed");
                }
            }
        });
    }
}

#[test]
fn spectators_and_other_seats_never_see_plots() {
    let setup = Setup::standard(4, false, Variants::default()).unwrap();
    let mut g = Autoscooter::new(&setup, 3).unwrap();
    let mut ev = Vec::new();
    g.apply(Seat(0), &Action::plot(0, 1, None), &mut ev).unwrap();
    let spectator = serde_json::to_value(g.view(Observer::Spectator)).unwrap();
    assert_eq!(spectator["plots"], serde_json::json!([]));
    let other = serde_json::to_value(g.view(Observer::Seat(Seat(1)))).unwrap();
    assert_eq!(other["plots"], serde_json::json!([]));
    let own = serde_json::to_value(g.view(Observer::Seat(Seat(0)))).unwrap();
    assert_eq!(own["plots"][0]["number"], 1);
    // The seat's own plot event is addressed to it alone.
    use engine::{Audience, GameEvent};
    assert!(ev.iter().any(|e| e.audience() == Audience::Seat(Seat(0))));
    assert!(ev.iter().all(|e| e.audience() != Audience::Seat(Seat(1))));
}

#[test]
fn timeouts_fill_missing_plots_with_the_highest_number() {
    // AS-4.2: a car with no plot uses its highest unused number and goes straight.
    let setup = Setup::standard(2, false, Variants::default()).unwrap();
    let mut g = Autoscooter::new(&setup, 1).unwrap();
    let mut ev = Vec::new();
    g.time_up(&mut ev).unwrap();
    assert!(
        ev.iter().any(|e| matches!(e, autoscooter::Event::AutoPlotted { car: 0, number: 87, .. })),
        "{ev:?}"
    );
}

#[test]
fn preview_matches_the_move_when_the_car_acts_first() {
    // AS-5.5 side crash of the golden file as-5.5-side-crash-rear-side-edge: car 0 plays J into
    // car 1's rear-side edge: +3 chits, ends on [1,1].
    use autoscooter::{BoardSpec, CarSetup, CrashKind, PlayerSetup};
    let cells = (0..5).flat_map(|r| (0..7).map(move |q| Hex::new(q, r))).collect();
    let setup = Setup {
        board: BoardSpec { name: None, about: None, cells, starts: vec![] },
        players: vec![
            PlayerSetup { seat: Seat(0), cars: vec![0], chits: 10, colours: None },
            PlayerSetup { seat: Seat(1), cars: vec![1], chits: 10, colours: None },
        ],
        cars: vec![
            CarSetup {
                car: 0,
                at: Hex::new(0, 1),
                facing: HexDir::E,
                speed: 1,
                used_numbers: vec![],
            },
            CarSetup {
                car: 1,
                at: Hex::new(2, 1),
                facing: HexDir::SE,
                speed: 1,
                used_numbers: vec![],
            },
        ],
        round: 1,
        box_chits: None,
        variants: Variants::default(),
    };
    let g = Autoscooter::new(&setup, 1).unwrap();
    let p = g.preview(0, Letter::J).unwrap();
    assert_eq!(p.end, Hex::new(1, 1));
    assert_eq!(p.crash, Some((CrashKind::Side, Some(1))));
    assert_eq!(p.chits, 3);
    assert_eq!(p.speed, 2);
    // Illegal for speed 1: P becomes C (AS-4.2), which is blocked at once? No: [1,1] is free.
    let c = g.preview(0, Letter::P).unwrap();
    assert_eq!((c.letter, c.end, c.crash), (Letter::C, Hex::new(1, 1), None));
    // And the real move agrees.
    let mut real = g.clone();
    let mut ev = Vec::new();
    real.apply(Seat(0), &Action::plot(0, 1, Some(Letter::J)), &mut ev).unwrap();
    real.apply(Seat(1), &Action::plot(1, 2, Some(Letter::C)), &mut ev).unwrap();
    assert_eq!(real.chits(Seat(0)).total(), 13);
}
