//! AS-1.3 (booklet: "Players agree on who drives which car (draw lots if necessary)"): a normal
//! game deals the cars by lots from its seed; a scenario fixes the deal by listing the cars.
//! And the setups the rules cannot play: a beginners' game of more than 2 players (AS-1.3), a
//! car without a turn number for every round left (AS-2.1).

use autoscooter::setup::StandardError;
use autoscooter::{Autoscooter, BoardSpec, CarSetup, PlayerSetup, Setup, Variants};
use engine::{Game, Seat};
use std::collections::BTreeSet;

/// Each seat's cars in a started game.
fn deal(g: &Autoscooter) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new(); g.seats()];
    for c in g.cars() {
        if let Some(o) = c.owner {
            out[o.index()].push(c.id);
        }
    }
    out
}

#[test]
fn the_cars_are_drawn_by_lots_from_the_seed_as_1_3() {
    for players in [2usize, 3, 4, 5, 8] {
        let setup = Setup::standard(players, false, Variants::default()).unwrap();
        let each = autoscooter::setup::table(players, false).unwrap().0;
        let mut deals = BTreeSet::new();
        for seed in 0..200 {
            let d = deal(&Autoscooter::new(&setup, seed).unwrap());
            // Every player draws `each` cars, no car twice.
            assert!(d.iter().all(|c| c.len() == each), "{players}: {d:?}");
            let all: BTreeSet<u8> = d.iter().flatten().copied().collect();
            assert_eq!(all.len(), each * players);
            // The same seed, the same deal (a game is its setup, seed and log).
            assert_eq!(d, deal(&Autoscooter::new(&setup, seed).unwrap()));
            deals.insert(d);
        }
        // Not one fixed deal: 2 players have C(8,4) = 70 possible deals, 8 players 8! .
        assert!(deals.len() > 20, "{players} players: {} deals in 200 seeds", deals.len());
    }
    // In a 2-player game seat 0 does not always drive the four cars on the left (AS-1.2's
    // cars 0, 2, 4, 6 start on the left half): over 200 seeds it gets car 1 about half the time.
    let setup = Setup::standard(2, false, Variants::default()).unwrap();
    let with_car_1 =
        (0..200).filter(|&s| deal(&Autoscooter::new(&setup, s).unwrap())[0].contains(&1)).count();
    assert!((60..=140).contains(&with_car_1), "{with_car_1}");
}

#[test]
fn a_deal_by_lots_lists_no_cars_and_fits_the_eight() {
    let mut setup = Setup::standard(2, false, Variants::default()).unwrap();
    setup.players[0].cars = vec![0];
    let e = Autoscooter::new(&setup, 1).unwrap_err();
    assert!(e.to_string().contains("lots"), "{e}");
    let mut setup = Setup::standard(3, false, Variants::default()).unwrap();
    setup.lots = Some(3);
    let e = Autoscooter::new(&setup, 1).unwrap_err();
    assert!(e.to_string().contains("cannot draw 3"), "{e}");
}

#[test]
fn beginners_is_a_two_player_game_as_1_3() {
    assert!(Setup::standard(2, true, Variants::default()).is_ok());
    assert_eq!(
        Setup::standard(3, true, Variants::default()).unwrap_err(),
        StandardError::BeginnersNeedTwo(3)
    );
    assert_eq!(
        Setup::standard(9, false, Variants::default()).unwrap_err(),
        StandardError::Players(9)
    );
}

fn two_cars(round: u8, used: Vec<u32>) -> Setup {
    Setup {
        board: BoardSpec::standard(),
        players: vec![
            PlayerSetup { seat: Seat(0), cars: vec![0], chits: 10, colours: None },
            PlayerSetup { seat: Seat(1), cars: vec![1], chits: 10, colours: None },
        ],
        cars: vec![CarSetup {
            car: 0,
            at: grid::Hex::new(1, 0),
            facing: grid::HexDir::SE,
            speed: 0,
            used_numbers: used,
        }],
        round,
        box_chits: None,
        variants: Variants::default(),
        lots: None,
        last_player_seconds: 0,
    }
}

#[test]
fn a_car_needs_a_turn_number_for_every_round_left_as_2_1() {
    // Car 0's column (AS-2.1): 8i + ((0 + 3i) mod 8) + 1 for i = 0..10.
    let column: Vec<u32> = (0..11).map(|i| 8 * i + (3 * i) % 8 + 1).collect();
    // Round 11 with every number used: none left for round 11.
    let e = Autoscooter::new(&two_cars(11, column.clone()), 1).unwrap_err();
    assert!(e.to_string().contains("car 0 has 0 turn numbers left for 1 rounds"), "{e}");
    // Round 5 with 8 used: 3 left for rounds 5..11 (7 rounds).
    let e = Autoscooter::new(&two_cars(5, column[..8].to_vec()), 1).unwrap_err();
    assert!(e.to_string().contains("3 turn numbers left for 7 rounds"), "{e}");
    // Round 11 with 10 used: the last number is the one left; round 5 with 4 used: fine.
    assert!(Autoscooter::new(&two_cars(11, column[..10].to_vec()), 1).is_ok());
    assert!(Autoscooter::new(&two_cars(5, column[..4].to_vec()), 1).is_ok());
}
