//! Property tests (BB-1..BB-13 as a whole), through the engine's conformance suite
//! (`engine::harness::check_game`): random races never panic and always end, no two pieces
//! share a cell, a race replays identically from its log, a rejected action changes nothing,
//! listed actions are accepted, and views hide other players' cards.

use bumping_bots::tracks::{SHIPPED, shipped};
use bumping_bots::view::View;
use bumping_bots::{BumpingBots, Setup};
use engine::harness::{CheckOptions, check_game_with};
use engine::{Game, Observer};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn race(track: usize, bots: u8) -> Setup {
    Setup::race(shipped(SHIPPED[track].0).expect("shipped"), bots)
}

/// No two pieces on one cell: bots, mobile obstacles, and the cells of the other obstacles.
fn check_cells(v: &View) -> Result<(), String> {
    let mut taken = BTreeSet::new();
    for o in &v.obstacles {
        let mut cells = vec![o.at];
        if let Some(arms) = o.arms {
            cells.extend(arms.iter().map(|&d| o.at.neighbour(d)));
        }
        for c in cells {
            if !taken.insert(c) {
                return Err(format!("two pieces on {c} (obstacles)"));
            }
        }
    }
    for b in &v.bots {
        if let Some(at) = b.at
            && !taken.insert(at)
        {
            return Err(format!("two pieces on {at} (seat {})", b.seat.0));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// The engine's conformance suite (refusals change nothing, listed actions accepted,
    /// sampled ones listed, views unchanged when other players' cards change (BB-3, BB-9),
    /// replay identical), with this game's invariants: no two pieces on a cell (BB-7.1) and the
    /// occupancy index in step; races end within the round limit (BB-10) and rank every bot.
    #[test]
    fn random_races_conform(seed in any::<u64>(), track in 0usize..3, bots in 2u8..=9) {
        let setup = race(track, bots);
        let options = CheckOptions { max_steps: 200_000, timeouts: true, deep_every: 10, listed_limit: 12 };
        let report = check_game_with::<BumpingBots>(&setup, seed, &options, |g| {
            check_cells(&g.view(Observer::Omniscient))?;
            g.check_occupancy()
        })
        .map_err(|v| TestCaseError::fail(v.to_string()))?;
        let g = &report.game;
        prop_assert!(report.finished, "the race did not end");
        prop_assert!(g.round() <= bumping_bots::settings::DEFAULT_ROUND_LIMIT);
        let placed: usize = g.outcome().unwrap().ranking.iter().map(Vec::len).sum();
        prop_assert_eq!(placed, bots as usize);
        prop_assert!(report.scrambles > 0, "some card was secret at some deep check");
        prop_assert!(report.refused > 0);
    }
}

#[test]
fn every_shipped_track_validates() {
    for (name, _) in SHIPPED {
        let t = shipped(name).expect("loads");
        let v = bumping_bots::tracks::validate(&t);
        assert!(v.errors.is_empty(), "{name}: {:?}", v.errors);
        assert!(t.start_grid.len() >= 9, "{name}: a grid for 9 bots");
    }
}
