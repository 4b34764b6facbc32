//! Issue 17: resolving registers allocates nothing. A counting global allocator (`stats_alloc`,
//! this test binary only, with one test: it counts every thread) counts the heap allocations
//! made while seeded random 8-robot games on Dizzy Dash are played: every action once the game is warm (the piles, hands and the
//! caller's event vector have grown to their size) must allocate nothing but what its rules
//! step needs by nature (none today). A `Vec` put back into a step, an event or `apply` fails
//! it.

use engine::{Decision, Game, Rng};
use roborally::{BoardSpec, RoboRally, Setup, Variants};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// RR-3 / RR-5: every action of warm seeded random games (turn 3 on: the deck's piles, the
/// hands and the event vector have reached their size), register resolution included, makes
/// no heap allocation.
#[test]
fn a_warm_turn_allocates_nothing() {
    let setup = Setup::new_game(BoardSpec::Named("dizzy-dash".into()), 8, Variants::default());
    let mut registers = 0;
    let mut checked = 0;
    for seed in 0..40u64 {
        let mut g = RoboRally::new(&setup, seed).unwrap();
        let mut rng = Rng::seeded(seed ^ 0x5eed);
        let mut events = Vec::with_capacity(4096);
        while let Some(d) = g.decision() {
            let seat = match d {
                Decision::One(s) => s,
                Decision::Simultaneous(set) => set.first().unwrap(),
            };
            let Some(action) = g.sample_action(seat, &mut rng) else { break };
            events.clear();
            let region = Region::new(GLOBAL);
            g.apply(seat, &action, &mut events).unwrap();
            let change = region.change();
            let made = change.allocations + change.reallocations;
            registers += events
                .iter()
                .filter(|e| matches!(e, roborally::Event::RegisterRevealed { .. }))
                .count();
            if g.turn() >= 3 {
                checked += 1;
                assert_eq!(
                    made,
                    0,
                    "seed {seed}, turn {}: {action:?} allocated {made} times",
                    g.turn()
                );
            }
            if g.turn() > 40 {
                break;
            }
        }
    }
    // The test saw real resolution, not only programming.
    assert!(registers > 1000 && checked > 1000, "{registers} registers, {checked} actions");
}
