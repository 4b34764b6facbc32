//! Plays a fixed number of random 8-car games, for profilers (`valgrind --tool=callgrind`
//! counts instructions, repeatable whatever else the machine is doing).
//! Run: `cargo run --release -p autoscooter --example profile -- 2000`.

use autoscooter::{Autoscooter, Setup, Variants};
use engine::{Game, Rng, play_random};

fn main() {
    let games: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let setup = Setup::standard(8, false, Variants::default()).unwrap();
    let start = Autoscooter::new(&setup, 1).unwrap();
    let mut rng = Rng::seeded(7);
    let mut events = Vec::with_capacity(512);
    let mut actions = 0;
    for _ in 0..games {
        let mut g = start.clone();
        events.clear();
        actions += play_random(&mut g, &mut rng, &mut events, 10_000);
        assert!(g.outcome().is_some());
    }
    println!("{games} games, {actions} actions");
}
