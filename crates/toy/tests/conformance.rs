//! The engine's conformance suite (`engine::harness::check_game`) over random games of the toy
//! game, as every registered game runs it: refused actions change nothing, listed actions are
//! accepted, sampled ones are listed, a game replays from its log, and no view shows the other
//! seat's throw before TOY-2 shows it.

use engine::harness::{CheckOptions, check_game};
use toy::{Rps, Setup, Variants};

#[test]
fn random_games_conform() {
    let options = CheckOptions { max_steps: 400, deep_every: 1, ..CheckOptions::default() };
    let (mut finished, mut scrambles) = (0, 0);
    for seed in 0..200u64 {
        let variants = Variants { first_to_five: seed % 2 == 1 };
        let mut setup = Setup::new(2, variants);
        setup.scores = [(seed % 3) as u8, (seed / 3 % 3) as u8];
        let report = check_game::<Rps>(&setup, seed, &options)
            .unwrap_or_else(|v| panic!("seed {seed}: {v:?}"));
        finished += usize::from(report.finished);
        scrambles += report.scrambles;
    }
    // Random throws end every game (a point at least every few rounds), and the secrecy check
    // had secrets to change: a hook that changed nothing would leave this at zero.
    assert_eq!(finished, 200);
    assert!(scrambles > 0);
}
