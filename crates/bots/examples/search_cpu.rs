//! CPU profile helper: one search decision of `SIMS` simulations from the Autoscooter mid-game
//! position of the `search` bench, repeated. Run under `perf stat` or callgrind:
//! `cargo build --release -p bots --example search_cpu && valgrind --tool=callgrind target/release/examples/search_cpu 2000`.

use autoscooter::{Autoscooter, Setup, Variants};
use bots::{Bot, SearchBot};
use engine::{harness::next_seat, Game, Rng, Seat};

fn main() {
    let sims: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let mut g = Autoscooter::new(&Setup::standard(2, false, Variants::default()).unwrap(), 5).unwrap();
    let mut rng = Rng::seeded(5);
    let mut ev = Vec::new();
    while g.round() < 4 || g.owed(Seat(0)).is_none() {
        let d = g.decision().unwrap();
        let s = next_seat(&d, &mut rng).unwrap();
        let a = g.sample_action(s, &mut rng).unwrap();
        g.apply(s, &a, &mut ev).unwrap();
    }
    let mut rng = Rng::seeded(1);
    let a = SearchBot::new(sims).act(&g, Seat(0), &mut rng);
    println!("{sims} simulations: {a:?}");
}
