//! Random full races (9 bots, 2 laps, the `factory` track: motorised, mobile, bumpers).
//! `cargo bench -p bumping-bots --bench races`
use bumping_bots::tracks::{random_race, shipped};
use criterion::{criterion_group, criterion_main, Criterion};

fn races(c: &mut Criterion) {
    let track = shipped("factory").expect("shipped");
    let mut seed = 0u64;
    c.bench_function("random race 9 bots 2 laps factory", |b| {
        b.iter(|| {
            seed += 1;
            random_race(&track, 9, 2, seed)
        })
    });
}

criterion_group!(benches, races);
criterion_main!(benches);
