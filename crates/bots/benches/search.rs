//! Search-bot throughput: simulations per second per core from a mid-game position.
//! Run: `cargo bench -p bots --bench search`. Figures go to docs/benchmarks.md.
//!
//! Measured in the thread's CPU time ([bench_cpu]), not wall-clock time: the project's machine is
//! shared, and time spent waiting for a core is not the search's.

#[path = "common/positions.rs"]
mod positions;

use bots::{Bot, SearchBot};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::{Rng, Seat};

fn bench(c: &mut Criterion<bench_cpu::CpuTime>) {
    let rr = positions::roborally();
    let bb = positions::bumping_bots();
    let g = positions::autoscooter();
    let mut group = c.benchmark_group("search");
    let sims = 1000;
    group.throughput(Throughput::Elements(sims as u64));
    group.sample_size(20);
    group.bench_function("autoscooter_simulations", |b| {
        let mut rng = Rng::seeded(1);
        b.iter(|| SearchBot::new(sims).act(&g, Seat(0), &mut rng))
    });
    group.bench_function("roborally_simulations", |b| {
        let mut rng = Rng::seeded(1);
        b.iter(|| SearchBot::new(sims).act(&rr, Seat(0), &mut rng))
    });
    group.bench_function("bumping_bots_simulations", |b| {
        let mut rng = Rng::seeded(1);
        b.iter(|| SearchBot::new(sims).act(&bb, Seat(0), &mut rng))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = bench_cpu::criterion();
    targets = bench
}
criterion_main!(benches);
