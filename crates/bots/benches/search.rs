//! Search-bot throughput: simulations per second per core from a mid-game position.
//! Run: `cargo bench -p bots --bench search`. Figures go to docs/benchmarks.md.
//!
//! Measured in the thread's CPU time ([bench_cpu]), not wall-clock time: the project's machine is
//! shared, and time spent waiting for a core is not the search's.

use autoscooter::{Autoscooter, Setup, Variants};
use bots::{Bot, SearchBot};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::{harness::next_seat, Game, Rng, Seat};

fn midgame() -> Autoscooter {
    let mut g = Autoscooter::new(&Setup::standard(2, false, Variants::default()).unwrap(), 5).unwrap();
    let mut rng = Rng::seeded(5);
    let mut ev = Vec::new();
    while g.round() < 4 || g.owed(Seat(0)).is_none() {
        let d = g.decision().unwrap();
        let s = next_seat(&d, &mut rng).unwrap();
        let a = g.sample_action(s, &mut rng).unwrap();
        g.apply(s, &a, &mut ev).unwrap();
    }
    g
}

/// Play random actions until `seat` owes a decision after `skip` actions, one that `wanted`
/// accepts (RoboRally: a program, not a re-entry or a power-down question).
fn position<G: Game>(mut g: G, skip: usize, seat: Seat, wanted: impl Fn(&G) -> bool) -> G {
    let mut rng = Rng::seeded(3);
    let mut ev = Vec::new();
    let mut n = 0;
    while let Some(d) = g.decision() {
        if n >= skip && d.owes(seat) && wanted(&g) {
            break;
        }
        let s = next_seat(&d, &mut rng).unwrap();
        let a = g.sample_action(s, &mut rng).unwrap();
        g.apply(s, &a, &mut ev).unwrap();
        n += 1;
    }
    g
}

fn bench(c: &mut Criterion<bench_cpu::CpuTime>) {
    let rr_setup = roborally::Setup::new_game(roborally::BoardSpec::Named("dizzy-dash".into()), 4, roborally::Variants::default());
    let rr = position(roborally::RoboRally::new(&rr_setup, 1).unwrap(), 10, Seat(0), |g| matches!(g.phase(), roborally::Phase::Program { .. }));
    let mut track = bumping_bots::tracks::shipped("factory").unwrap();
    track.laps = 2;
    let bb_setup = bumping_bots::Setup::race(track, 9);
    let bb = position(bumping_bots::BumpingBots::new(&bb_setup, 1).unwrap(), 40, Seat(0), |_| true);
    let g = midgame();
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
