//! The random race without events (issue 17, `BumpingBots::play_random_race`) plays exactly the
//! race of the engine's ordinary loop — `decision` → `sample_action` → `apply` — from the same
//! random generator: the same state at the end (bots, obstacles, cards, the race's own
//! generator), the same number of actions, and the caller's generator at the same point. On
//! every shipped track (fixed, motorised and mobile obstacles, bumpers: `factory`), with 2 to 9
//! bots, whole races and races cut after a number of actions, and from positions in mid-race.

use bumping_bots::tracks::{SHIPPED, shipped};
use bumping_bots::{BumpingBots, Setup};
use engine::{Decision, Game, Rng};

/// The ordinary loop, as `games::sim` and `engine::play_random` play it.
fn ordinary(g: &mut BumpingBots, rng: &mut Rng, max_actions: usize) -> u64 {
    let mut events = Vec::new();
    let mut n = 0;
    while n < max_actions {
        let Some(Decision::One(seat)) = g.decision() else { break };
        let Some(a) = g.sample_action(seat, rng) else { break };
        if g.apply(seat, &a, &mut events).is_err() {
            break;
        }
        n += 1;
    }
    n as u64
}

fn check(setup: &Setup, seed: u64, warmup: usize, max_actions: usize) {
    let mut start = BumpingBots::new(setup, seed).expect("a shipped track starts");
    let mut rng = Rng::seeded(seed ^ 0x5eed);
    ordinary(&mut start, &mut rng, warmup);
    let (mut fast, mut slow) = (start.clone(), start);
    let (mut rf, mut rs) = (rng.clone(), rng);
    let nf = fast.play_random_race(&mut rf, max_actions as u64);
    let ns = ordinary(&mut slow, &mut rs, max_actions);
    assert_eq!(nf, ns, "seed {seed}, warm-up {warmup}: actions");
    assert!(fast == slow, "seed {seed}, warm-up {warmup}, {nf} actions: the states differ");
    assert_eq!(rf, rs, "seed {seed}: the caller's generator moved differently");
    assert_eq!(fast.outcome(), slow.outcome());
    // The first place read without the ranking is the ranking's first group.
    let first = slow.outcome().map(|o| o.winners().iter().copied().collect());
    assert_eq!(fast.winners(), first, "seed {seed}: winners");
}

#[test]
fn the_random_race_is_the_ordinary_race() {
    for (t, (name, _)) in SHIPPED.iter().enumerate() {
        let board = shipped(name).expect("shipped");
        for bots in [2u8, 5, 9] {
            let setup = Setup::race(board.clone(), bots);
            for seed in 0..6u64 {
                let seed = seed + 100 * t as u64 + 10 * u64::from(bots);
                check(&setup, seed, 0, usize::MAX);
                check(&setup, seed, 37 + seed as usize % 50, usize::MAX);
                check(&setup, seed, 0, 200 + seed as usize % 300);
            }
        }
    }
}
