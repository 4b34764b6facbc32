//! The replay-steps cache's byte accounting against the heap it really holds (issue 14's soak:
//! docs/benchmarks.md "Soak"). Its own test binary, with one test, because the counting
//! allocator counts every thread of the process.

use bots::{BotSpec, Stop};
use engine::{Decision, LogEntry, Rng};
use server::games::{Registry, SetupRequest};
use server::steps::{Cache, replay};
use server::store::{GameRow, SeatOwner, Status};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;
use std::sync::Arc;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// A game of `name` for `players`, played by random bots for at most `most` actions (or to its
/// end), as the row and log the store would give.
fn played(
    name: &str,
    players: usize,
    seed: u64,
    most: usize,
) -> (GameRow, Vec<server::store::Entry>) {
    let kind = Registry::standard().get(name).unwrap();
    let req = SetupRequest { players, board: None, variants: None, options: None };
    let setup = kind.make_setup(&req).unwrap();
    let mut g = kind.start(&setup, seed).unwrap();
    let mut rng = Rng::seeded(seed);
    let mut log = Vec::new();
    while log.len() < most {
        let seat = match g.decision() {
            None => break,
            Some(Decision::One(s)) => s,
            Some(Decision::Simultaneous(set)) => set.first().unwrap(),
        };
        let a = g.bot_action(&BotSpec::Random, seat, &mut rng, &Stop::default()).unwrap();
        g.apply_json(seat, &a).unwrap();
        log.push(LogEntry::Act { seat, action: a });
    }
    let row = GameRow {
        id: format!("{name}-{players}-{seed:016x}"),
        game: name.into(),
        setup,
        seed,
        seats: (0..players)
            .map(|i| SeatOwner::Human { identity: format!("p{i}"), name: format!("Player {i}") })
            .collect(),
        status: Status::Finished,
        timer_secs: None,
        creator: "p0".into(),
        outcome: g.outcome_json(),
        practice: false,
        rules_version: kind.info.rules_version,
    };
    (row, log)
}

#[test]
fn the_steps_cache_counts_what_it_holds_on_the_heap() {
    let mut games = Vec::new();
    for (i, name) in ["autoscooter", "roborally", "bumping-bots"].iter().enumerate() {
        for players in [2, 4] {
            for seed in 0..4u64 {
                games.push(played(name, players, 100 * i as u64 + seed, 40 + 60 * seed as usize));
            }
        }
    }
    let registry = Registry::standard();
    let cache = Cache::new(usize::MAX);
    let region = Region::new(GLOBAL);
    let mut text = 0;
    for (row, log) in &games {
        let doc = replay(registry.get(&row.game).unwrap(), row, log, &|_| {}).unwrap();
        text += doc.heap_bytes();
        assert!(cache.cell(&row.id).set(Arc::new(doc)).is_ok());
        cache.computed(&row.id);
    }
    let s = region.change();
    // What the cache holds now, the replays' temporaries freed: the documents, the entries and
    // the map (requested sizes; the allocator's block headers come on top and are estimated in
    // the accounting).
    let real = s.bytes_allocated as i64 - s.bytes_deallocated as i64;
    let counted = cache.bytes() as i64;
    eprintln!(
        "{} games: heap held {real} B, counted {counted} B ({:.3}), documents' text and offsets {text} B",
        games.len(),
        counted as f64 / real as f64
    );
    assert!(real > 0 && text > 100_000, "{real} {text}");
    // The bound is the real cost: never below what is held, and not much above it.
    assert!(counted >= real, "counted {counted} < held {real}");
    assert!(counted <= real + real / 20, "counted {counted} > 1.05 × held {real}");
    drop(cache);
    let s = region.change();
    let left = s.bytes_allocated as i64 - s.bytes_deallocated as i64;
    assert!(left.abs() < 4096, "{left} bytes left after dropping the cache");
}
