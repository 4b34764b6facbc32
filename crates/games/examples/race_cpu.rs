//! Runs N random races (9 bots, 2 laps, `factory` or the track named second) for `perf stat`:
//! `cargo build --release -p games --example race_cpu && perf stat -e task-clock
//! target/release/examples/race_cpu 2000 [track]`; divide the task-clock (CPU time, robust on a
//! loaded machine) by N. The digest printed last fingerprints every race (rounds, actions,
//! ranking): an optimisation that keeps the same races keeps the same digest.
use bumping_bots::tracks::shipped;
use games::random::RandomRacer;
fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let track = std::env::args().nth(2).unwrap_or_else(|| "factory".into());
    let racer = RandomRacer::new(&shipped(&track).expect("a shipped track"), 9, 2);
    let (mut rounds, mut actions) = (0u64, 0u64);
    let mut hist = [0u32; 11];
    // FNV-1a over the summaries.
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |x: u64| {
        for byte in x.to_le_bytes() {
            digest = (digest ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
    };
    for seed in 0..n {
        let s = racer.race(seed);
        rounds += s.rounds as u64;
        actions += s.actions as u64;
        hist[(s.rounds as usize / 20).min(10)] += 1;
        mix(u64::from(s.rounds));
        mix(s.actions as u64);
        for (place, group) in s.ranking.iter().enumerate() {
            for seat in group {
                mix(((place as u64) << 8) | u64::from(seat.0));
            }
        }
    }
    println!("rounds by 20s: {hist:?}");
    println!("{n} races, {} rounds/race, {} actions/race", rounds / n, actions / n);
    println!("digest {digest:016x}");
}
