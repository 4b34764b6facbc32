//! Benches: register resolution with 8 robots on a busy course, with the events written to a
//! list and with none built. `cargo bench -p roborally`.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use engine::{Rng, Seat};
use grid::{Sq, SqDir};
use roborally::board::{Cell, course_by_name};
use roborally::card::full_deck;
use roborally::event::NoEvents;
use roborally::{BoardSpec, RoboRally, RobotSetup, Setup, StartPhase, Variants};
use std::hint::black_box;

/// 8 robots on the Crossroads factory board of Dizzy Dash (express lanes, belts, pushers),
/// random facings and programs, ready to execute register 1.
fn busy_state(seed: u64) -> RoboRally {
    let course = course_by_name("dizzy-dash").unwrap();
    let mut rng = Rng::seeded(seed);
    let mut cells: Vec<Sq> = course
        .board
        .cells()
        .filter(|(at, c)| at.y < 12 && !matches!(c, Cell::Pit | Cell::Void))
        .map(|(at, _)| at)
        .collect();
    rng.shuffle(&mut cells);
    let mut deck = full_deck();
    rng.shuffle(&mut deck);
    let robots = (0..8u8)
        .map(|s| RobotSetup {
            seat: Seat(s),
            at: Some(cells[s as usize]),
            facing: Some(SqDir::wrapping(rng.below(4) as i32)),
            registers: Some(std::array::from_fn(|_| deck.pop())),
            ..RobotSetup::default()
        })
        .collect();
    let setup = Setup {
        board: BoardSpec::Named("dizzy-dash".into()),
        robots,
        phase: StartPhase::Execute,
        variants: Variants::default(),
        timer_seconds: 30,
        deck: Vec::new(),
        turn: 1,
    };
    RoboRally::from_setup(&setup, seed).unwrap()
}

/// One iteration: register 1 resolved on a clone of one of 32 busy states, in place
/// (`iter_batched_ref`, issue 17 round 7): the clone is made before the timing and dropped
/// after it, as with `iter_batched`, but the state is neither moved into the routine nor out
/// into criterion's output vector (two copies of the whole state and that vector's fresh pages
/// were about a quarter of the time measured, and no part of a register).
fn register_resolution(c: &mut Criterion<bench_cpu::CpuTime>) {
    let bases: Vec<RoboRally> = (0..32).map(busy_state).collect();
    let mut k = 0;
    let mut events = Vec::with_capacity(256);
    let mut g = c.benchmark_group("roborally");
    g.throughput(Throughput::Elements(1));
    g.bench_function("register_resolution_8_robots_dizzy_dash", |b| {
        b.iter_batched_ref(
            || {
                k = (k + 1) % bases.len();
                bases[k].clone()
            },
            |s| {
                events.clear();
                while s.register() == Some(1) && s.play_step(&mut events) {}
                black_box(&*s);
            },
            BatchSize::SmallInput,
        )
    });
    // The same registers with no event built (`NoEvents`: the path of `robodrome sim`'s random
    // games, issue 17), on the same states.
    let mut k = 0;
    g.bench_function("register_resolution_8_robots_dizzy_dash_unobserved", |b| {
        b.iter_batched_ref(
            || {
                k = (k + 1) % bases.len();
                bases[k].clone()
            },
            |s| {
                while s.register() == Some(1) && s.play_step(&mut NoEvents) {}
                black_box(&*s);
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

criterion_group! {
    name = benches;
    // CPU time of the benchmark thread: the shared machine's other work does not count.
    config = bench_cpu::criterion();
    targets = register_resolution
}
criterion_main!(benches);
