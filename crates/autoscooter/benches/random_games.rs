//! Random full games of Autoscooter (8 players, one car each, standard rink, 11 rounds).
//! Run: `cargo bench -p autoscooter --bench random_games`. Figures go to docs/benchmarks.md.

use autoscooter::{Autoscooter, Setup, Variants};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use engine::{Game, Rng, play_random};
use std::hint::black_box;

fn bench(c: &mut Criterion<bench_cpu::CpuTime>) {
    let mut group = c.benchmark_group("autoscooter");
    group.throughput(Throughput::Elements(1));
    for (name, variants) in [
        ("full_random_game_8_cars", Variants::default()),
        (
            "full_random_game_8_cars_jolting_colours",
            Variants { jolting: true, colour_scoring: true, ..Variants::default() },
        ),
    ] {
        let setup = Setup::standard(8, false, variants).unwrap();
        let start = Autoscooter::new(&setup, 1).unwrap();
        let mut rng = Rng::seeded(42);
        let mut events = Vec::with_capacity(256);
        group.bench_function(name, |b| {
            b.iter_batched_ref(
                || start.clone(),
                |g| {
                    events.clear();
                    let n = play_random(g, &mut rng, &mut events, 10_000);
                    debug_assert!(g.outcome().is_some());
                    black_box(n)
                },
                BatchSize::SmallInput,
            )
        });
    }
    // Setting a game up from scratch (board parsing included) as a reference.
    let setup = Setup::standard(8, false, Variants::default()).unwrap();
    group.bench_function("new_game_from_setup", |b| {
        b.iter(|| black_box(Autoscooter::new(&setup, 1).unwrap()))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    // CPU time of the benchmark thread: the shared machine's other work does not count.
    config = bench_cpu::criterion();
    targets = bench
}
criterion_main!(benches);
