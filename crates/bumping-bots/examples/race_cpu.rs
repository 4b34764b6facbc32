//! Runs N random races (9 bots, 2 laps, `factory` or the track named second) for `perf stat`:
//! `cargo build --release -p bumping-bots --example race_cpu && perf stat -e task-clock
//! target/release/examples/race_cpu 2000 [track]`; divide the task-clock (CPU time, robust on a
//! loaded machine) by N.
use bumping_bots::tracks::{RandomRacer, shipped};
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let track = std::env::args().nth(2).unwrap_or_else(|| "factory".into());
    let racer = RandomRacer::new(&shipped(&track).expect("a shipped track"), 9, 2);
    let (mut rounds, mut actions) = (0u64, 0u64);
    let mut hist = [0u32; 11];
    for seed in 0..n {
        let s = racer.race(seed);
        rounds += s.rounds as u64;
        actions += s.actions as u64;
        hist[(s.rounds as usize / 20).min(10)] += 1;
    }
    println!("rounds by 20s: {hist:?}");
    println!(
        "{n} races, {} rounds/race, {} actions/race",
        rounds / n,
        actions / n
    );
}
