//! The sim's random 8-car games from the rules crate alone, split in parts for `perf stat`
//! (issue 17): `new` only sets games up (one a seed), `game` sets up and plays each to its end
//! as `robodrome sim autoscooter` does (the same seeds and draws, events to `NoEvents`), one
//! action at a time (`game`) or by `Autoscooter::play_random_game` (`fast`).
//! Run: `cargo build --release -p autoscooter --example random_cpu &&
//!   perf stat -e task-clock target/release/examples/random_cpu game 40000`.

use autoscooter::{Autoscooter, NoEvents, Setup, Variants};
use engine::{Decision, Game, Rng};

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "game".into());
    let games: u64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(40_000);
    let setup = Setup::standard(8, false, Variants::default()).expect("8 players");
    let (mut actions, mut over, mut sum) = (0u64, 0u64, 0i64);
    for i in 0..games {
        let seed = 1 + i;
        let mut g = Autoscooter::new(&setup, seed).expect("the standard setup starts");
        if mode == "new" {
            sum += g.cars().map(|c| c.id as i64 * c.owner.map_or(9, |s| s.0 as i64)).sum::<i64>();
            continue;
        }
        let mut rng = Rng::seeded(seed ^ 0x5eed);
        if mode == "fast" {
            actions += g.play_random_game(&mut rng, 100_000, &mut NoEvents);
        } else {
            while let Some(d) = g.decision() {
                let seat = match d {
                    Decision::One(s) => s,
                    Decision::Simultaneous(set) => match set.first() {
                        Some(s) => s,
                        None => break,
                    },
                };
                match g.play_random(seat, &mut rng, &mut NoEvents) {
                    Some(Ok(())) => actions += 1,
                    _ => break,
                }
            }
        }
        over += g.is_over() as u64;
        sum += (0..8).map(|s| g.seat_score(engine::Seat(s))).sum::<i64>();
    }
    println!("{mode}: {games} games, {actions} actions, {over} over, checksum {sum}");
}
