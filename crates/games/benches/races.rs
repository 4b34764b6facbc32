//! Random full races (9 bots, 2 laps, the `factory` track: motorised, mobile, bumpers).
//! `cargo bench -p games --bench races`
use bumping_bots::tracks::shipped;
use criterion::{Criterion, criterion_group, criterion_main};
use games::random::RandomRacer;

fn races(c: &mut Criterion<bench_cpu::CpuTime>) {
    let racer = RandomRacer::new(&shipped("factory").expect("shipped"), 9, 2);
    let mut seed = 0u64;
    c.bench_function("random race 9 bots 2 laps factory", |b| {
        b.iter(|| {
            seed += 1;
            racer.race(seed)
        })
    });
}

criterion_group! {
    name = benches;
    // CPU time of the benchmark thread: the shared machine's other work does not count.
    config = bench_cpu::criterion();
    targets = races
}
criterion_main!(benches);
