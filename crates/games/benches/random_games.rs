//! Random full RoboRally games (4 robots, every shipped course, ≤ 200 turns):
//! `cargo bench -p games --bench random_games`. Figures go to docs/benchmarks.md.
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use roborally::board::shipped_courses;
use std::hint::black_box;

fn full_games(c: &mut Criterion<bench_cpu::CpuTime>) {
    let mut g = c.benchmark_group("roborally_random_game_4_robots");
    g.throughput(Throughput::Elements(1));
    for course in shipped_courses() {
        let mut seed = 0;
        g.bench_function(roborally::board::course::slug(&course.name), |b| {
            b.iter(|| {
                seed += 1;
                black_box(games::random::random_game(&course, 4, seed).unwrap())
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    // CPU time of the benchmark thread: the shared machine's other work does not count.
    config = bench_cpu::criterion();
    targets = full_games
}
criterion_main!(benches);
