//! Property tests (BB-1..BB-13 as a whole): random races never panic and always end, no two
//! pieces share a cell, a race replays identically from its log, and a rejected action changes
//! nothing.

use bumping_bots::tracks::{SHIPPED, shipped};
use bumping_bots::view::View;
use bumping_bots::{Action, BumpingBots, Setup};
use engine::{Decision, Game, LogEntry, Observer, Rng, Seat, replay};
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

fn owing(g: &BumpingBots) -> Option<Seat> {
    match g.decision()? {
        Decision::One(s) => Some(s),
        Decision::Simultaneous(s) => s.first(),
    }
}

/// Plays a random race (with a time-up now and then), checking the cells after every step.
fn play(g: &mut BumpingBots, rng: &mut Rng, max: usize) -> Result<Vec<LogEntry<Action>>, String> {
    let mut log = Vec::new();
    let mut events = Vec::new();
    while let Some(seat) = owing(g) {
        if log.len() >= max {
            break;
        }
        if rng.below(20) == 0 {
            g.time_up(&mut events).map_err(|e| format!("time_up refused: {e}"))?;
            log.push(LogEntry::TimeUp);
        } else {
            let a = g.sample_action(seat, rng).ok_or("no sampled action")?;
            g.apply(seat, &a, &mut events).map_err(|e| format!("sampled {a:?} refused: {e}"))?;
            log.push(LogEntry::Act { seat, action: a });
        }
        check_cells(&g.view(Observer::Omniscient))?;
        g.check_occupancy()?;
    }
    Ok(log)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_races_end_and_replay(seed in any::<u64>(), track in 0usize..3, bots in 2u8..=9) {
        let setup = race(track, bots);
        let mut g = BumpingBots::new(&setup, seed).expect("starts");
        let mut rng = Rng::seeded(seed);
        let log = play(&mut g, &mut rng, 200_000).map_err(TestCaseError::fail)?;
        prop_assert!(g.outcome().is_some(), "the race did not end");
        prop_assert!(g.round() <= bumping_bots::settings::DEFAULT_ROUND_LIMIT);
        let placed: usize = g.outcome().unwrap().ranking.iter().map(Vec::len).sum();
        prop_assert_eq!(placed, bots as usize);
        let again = replay::<BumpingBots>(&setup, seed, &log, &mut Vec::new()).expect("replays");
        prop_assert!(again == g, "replay differs");
    }

    #[test]
    fn rejected_actions_change_nothing(seed in any::<u64>(), track in 0usize..3, steps in 0usize..400, pick in any::<u64>()) {
        let setup = race(track, 5);
        let mut g = BumpingBots::new(&setup, seed).expect("starts");
        let mut rng = Rng::seeded(seed);
        play(&mut g, &mut rng, steps).map_err(TestCaseError::fail)?;
        let Some(seat) = owing(&g) else { return Ok(()) };
        let mut probe = Rng::seeded(pick);
        let others = [Seat(((seat.0 as u64 + 1 + pick % 4) % 5) as u8), seat];
        for who in others {
            for a in garbage(&mut probe) {
                let mut h = g.clone();
                let mut events = vec![];
                if h.apply(who, &a, &mut events).is_err() {
                    prop_assert!(h == g, "a rejected {a:?} changed the state");
                    prop_assert!(events.is_empty());
                }
            }
        }
        // Every listed legal action is accepted.
        for a in g.legal_actions(seat) {
            let mut h = g.clone();
            prop_assert!(h.apply(seat, &a, &mut vec![]).is_ok(), "listed {a:?} refused");
        }
    }
}

/// Actions of every kind with values in and out of range.
fn garbage(rng: &mut Rng) -> Vec<Action> {
    let t = |rng: &mut Rng| rng.below(5) as i8 - 2;
    let cards = [
        None,
        Some(bumping_bots::Card::Jumper),
        Some(bumping_bots::Card::Magnet),
        Some(bumping_bots::Card::Nitro),
        Some(bumping_bots::Card::Engine),
        Some(bumping_bots::Card::Rotation),
    ];
    let mut out = Vec::new();
    for _ in 0..4 {
        out.push(Action::Speed {
            choice: bumping_bots::SpeedChoice::ALL[rng.index(5)],
            new_speed: [None, Some(1), Some(2), Some(3)][rng.index(4)],
        });
        out.push(Action::Move { rotate_before_last: t(rng), rotate_after: t(rng) });
        out.push(Action::ShockChoice {
            turn_passive: (0..rng.below(4)).map(|_| t(rng)).collect(),
            turn_first: t(rng),
        });
        out.push(Action::Orient { turn: t(rng) });
        out.push(Action::Card {
            card: cards[rng.index(cards.len())],
            target: Some(Seat(rng.below(7) as u8)),
            when: None,
            at_cell: Some(rng.below(8) as u8),
            rotations: (0..rng.below(4))
                .map(|_| bumping_bots::QuickRot { at_cell: rng.below(4) as u8, turn: t(rng) })
                .collect(),
        });
    }
    out
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
