//! A race reset in place (`BumpingBots::reset`, `robodrome sim`'s reuse through
//! `games::Registered::sim_reset`; issue 17) is the race `Game::new` starts: the same state
//! (bots, grid, cards, obstacles, the race's generator) and then the same random race to the
//! same outcome. On every shipped track, from races played to the end, cut mid-race or just
//! started, with the same number of bots or another, and with `choose_cards`.

use bumping_bots::tracks::{SHIPPED, shipped};
use bumping_bots::{BumpingBots, Setup};
use engine::{Game, Rng};

/// `used` (a race in any state on `setup`'s board) reset to `setup` and `seed`, against a
/// new race: equal now, and after the same random race.
fn check(mut used: BumpingBots, setup: &Setup, seed: u64) {
    let mut new = BumpingBots::new(setup, seed).expect("a shipped track starts");
    used.reset(setup, seed).expect("the reset starts as new does");
    assert!(used == new, "seed {seed}: the reset race differs from the new one");
    let (mut ru, mut rn) = (Rng::seeded(seed ^ 0x5eed), Rng::seeded(seed ^ 0x5eed));
    let nu = used.play_random_race(&mut ru, u64::MAX);
    let nn = new.play_random_race(&mut rn, u64::MAX);
    assert_eq!(nu, nn, "seed {seed}: actions");
    assert!(used == new, "seed {seed}: the races went apart");
    assert_eq!(used.outcome(), new.outcome(), "seed {seed}: outcome");
    assert!(used.outcome().is_some(), "seed {seed}: the race ended");
}

/// A race of `setup` after `actions` random actions (all of them: to its end).
fn played(setup: &Setup, seed: u64, actions: u64) -> BumpingBots {
    let mut g = BumpingBots::new(setup, seed).expect("a shipped track starts");
    g.play_random_race(&mut Rng::seeded(seed.wrapping_mul(7)), actions);
    g
}

#[test]
fn a_reset_race_is_a_new_race() {
    for (t, (name, _)) in SHIPPED.iter().enumerate() {
        let board = shipped(name).expect("shipped");
        for bots in [2u8, 5, 9] {
            let setup = Setup::race(board.clone(), bots);
            for i in 0..8u64 {
                let seed = 1000 * t as u64 + 100 * u64::from(bots) + i;
                // As the sim does: the last race, finished, on the same setup.
                check(played(&setup, seed + 50, u64::MAX), &setup, seed);
                // Cut mid-race (a turn in progress, cards played) and just started.
                check(played(&setup, seed + 60, 40 + i * 13), &setup, seed);
                check(played(&setup, seed + 70, 0), &setup, seed);
            }
            // From a race with another number of bots on the same board.
            let other = Setup::race(board.clone(), 11 - bots);
            check(played(&other, 7, u64::MAX), &setup, 3 + u64::from(bots));
        }
    }
}

#[test]
fn a_reset_race_with_picked_cards_is_a_new_race() {
    let board = shipped("factory").expect("shipped");
    let mut setup = Setup::race(board, 4);
    setup.variants.choose_cards = true;
    for seed in 0..20u64 {
        check(played(&setup, seed + 500, 1 + seed * 7), &setup, seed);
    }
}
