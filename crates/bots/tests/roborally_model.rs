//! The RoboRally search's model of one robot alone on the board
//! (`bots::roborally_model`) agrees with the engine: random programs on every shipped course,
//! turn after turn, end where the engine puts the robot (cell, facing, flags, damage, lives,
//! archive; destroyed or not), RR-5 to RR-8.

use bots::roborally_model::{DEAD, Model, Solo, solo};
use engine::{Game, Rng, Seat};
use roborally::{Action, BoardSpec, Phase, RoboRally, Setup, Variants};

/// Play the engine until the seat owes its next program (re-entering facing `reenter`) or the
/// game ends; false when the game ended.
fn to_next_program(g: &mut RoboRally, rng: &mut Rng) -> bool {
    for _ in 0..100 {
        let Some(d) = g.decision() else { return false };
        if matches!(g.phase(), Phase::Program { .. }) && g.pending().is_none() {
            return true;
        }
        let s = engine::harness::next_seat(&d, rng).expect("a seat");
        let a = match g.phase() {
            Phase::Reenter { .. } => g
                .legal_actions(s)
                .into_iter()
                .find(|a| matches!(a, Action::Reenter { powered_down: false, .. })),
            Phase::StayDown { .. } => Some(Action::StayDown { value: false }),
            _ => g.sample_action(s, rng),
        };
        g.apply(s, &a.expect("an action"), &mut Vec::new()).expect("legal");
    }
    panic!("no program owed within 100 decisions");
}

#[test]
fn the_model_agrees_with_the_engine_on_every_shipped_course() {
    let mut turns = 0;
    let mut deaths = 0;
    let mut flags = 0;
    let mut hurt = 0;
    for course in ["first-steps", "dizzy-dash", "laser-gauntlet", "grand-tour"] {
        let setup = Setup::new_game(BoardSpec::Named(course.into()), 1, Variants::default());
        for seed in 0..60u64 {
            let mut g = RoboRally::new(&setup, seed).expect("setup");
            let model = Model::new(g.board());
            let mut rng = Rng::seeded(seed);
            for _ in 0..25 {
                if !to_next_program(&mut g, &mut rng) {
                    break;
                }
                let r = g.robot(Seat(0)).expect("robot").clone();
                if !r.options.is_empty() {
                    break; // option cards are not modelled
                }
                let start = solo(&model, &r).expect("on the board");
                // A sampled action may place a card in the draft (RR-4.3) instead: sample again.
                let registers = loop {
                    match g.sample_action(Seat(0), &mut rng) {
                        Some(Action::Program { registers, .. }) => break registers,
                        Some(Action::Place { .. }) => {}
                        other => panic!("a program, not {other:?}"),
                    }
                };
                // Locked registers keep their cards (RR-7.2), whatever the action says of them.
                let kinds: [u8; 5] = std::array::from_fn(|k| {
                    let c = if r.locked(k) { r.registers[k] } else { registers[k] };
                    c.expect("five cards").card as u8
                });
                let mut want = start;
                for (k, &kind) in kinds.iter().enumerate() {
                    want = model.register(want, k as u8 + 1, kind);
                }
                let want = model.end_turn(want, kinds);
                g.apply(
                    Seat(0),
                    &Action::Program { registers, power_down_next: false },
                    &mut Vec::new(),
                )
                .expect("legal");
                turns += 1;
                let after = g.robot(Seat(0)).expect("robot");
                let context = format!(
                    "{course}, seed {seed}, turn {}: from {start:?} playing {kinds:?}",
                    g.turn()
                );
                if want.flags >= model.flags {
                    assert!(
                        g.winner() == Some(Seat(0)),
                        "{context}: the model finishes, the engine does not"
                    );
                    break;
                }
                assert_eq!(after.flags_touched, want.flags, "{context}: flags");
                assert_eq!(model.cell(after.archive), want.archive, "{context}: archive");
                assert_eq!(after.lives, want.lives, "{context}: lives");
                assert_eq!(after.out, want.out, "{context}: out");
                if want.state == DEAD {
                    deaths += 1;
                    assert!(
                        after.destroyed || after.out,
                        "{context}: the model destroys the robot, the engine does not"
                    );
                } else {
                    assert!(
                        !after.destroyed,
                        "{context}: the engine destroys the robot at {:?}",
                        after.at
                    );
                    let got = Solo { ..solo(&model, after).expect("on the board") };
                    assert_eq!(
                        got.state, want.state,
                        "{context}: cell and facing ({:?} {:?})",
                        after.at, after.facing
                    );
                    assert_eq!(got.damage, want.damage, "{context}: damage");
                    assert_eq!(got.locked, want.locked, "{context}: locked registers");
                    hurt += usize::from(want.damage > start.damage);
                }
                flags += usize::from(want.flags > start.flags);
                if after.out {
                    break;
                }
            }
        }
    }
    // The sample reaches what it must check.
    assert!(
        turns > 1000 && deaths > 50 && flags > 5 && hurt > 20,
        "turns {turns}, deaths {deaths}, flags {flags}, hurt {hurt}"
    );
}

/// The oracle's count is the turns of its own line: replayed through the engine, the line
/// touches the last flag in the turn its last program is given (a bug once gave every oracle
/// line a free turn between two of its programs).
#[test]
fn the_oracle_line_replays_in_its_count_of_turns() {
    for course in ["first-steps", "dizzy-dash"] {
        let setup = Setup::new_game(BoardSpec::Named(course.into()), 1, Variants::default());
        for seed in 1..=3u64 {
            let g = RoboRally::new(&setup, seed).expect("setup");
            let line = bots::roborally_oracle::oracle_line(&g, Seat(0), 4, 30)
                .expect("the oracle finishes");
            let count = bots::roborally_oracle::oracle_turns(&g, Seat(0), 4, 30)
                .expect("the oracle finishes");
            let mut h = g.clone();
            let mut programs = 0;
            for a in &line {
                assert_ne!(
                    h.winner(),
                    Some(Seat(0)),
                    "{course} seed {seed}: finished before the line's end"
                );
                // Nothing but the seat's own decisions between the line's actions.
                assert!(
                    h.decision().is_some_and(|d| d.owes(Seat(0))),
                    "{course} seed {seed}: {a:?} not owed"
                );
                if matches!(a, Action::Program { .. }) {
                    programs += 1;
                    assert_eq!(
                        h.turn(),
                        g.turn() + programs - 1,
                        "{course} seed {seed}: one program per turn"
                    );
                }
                h.apply(Seat(0), a, &mut Vec::new()).expect("the line is legal");
            }
            assert_eq!(
                h.winner(),
                Some(Seat(0)),
                "{course} seed {seed}: the line touches the last flag"
            );
            assert_eq!(programs, count, "{course} seed {seed}");
        }
    }
}

/// One robot on an empty `width`×`height` board at `at` facing `facing`, the only flag at
/// `flag`, with `damage`, locked registers `registers` and `hand` (cards as `[kind, priority]`).
fn alone(
    at: [i32; 2],
    facing: u8,
    flag: [i32; 2],
    damage: u8,
    registers: serde_json::Value,
    hand: &[(&str, u16)],
) -> RoboRally {
    let board = serde_json::json!({"width": 12, "height": 12, "cells": [], "walls": [], "lasers": [], "flags": [flag], "docks": []});
    let hand: Vec<_> =
        hand.iter().map(|(k, p)| serde_json::json!({"card": k, "priority": p})).collect();
    let robot = serde_json::json!({"seat": 0, "at": at, "facing": facing, "damage": damage, "registers": registers, "hand": hand});
    let setup = serde_json::json!({"phase": "program", "robots": [robot]});
    let setup = Setup::from_scenario(
        BoardSpec::Inline(serde_json::from_value(board).unwrap()),
        serde_json::from_value(setup).unwrap(),
        Variants::default(),
    );
    RoboRally::new(&setup, 1).expect("a valid setup")
}

fn search(spec: &str, g: &RoboRally) -> Action {
    use bots::HasBots;
    RoboRally::bot(&spec.parse().unwrap()).act(g, Seat(0), &mut Rng::seeded(3))
}

/// RR-5.5, RR-10: alone, the search touches the flag in this turn when a program of its hand
/// does (a left turn and six cells north).
#[test]
fn alone_the_search_finishes_when_it_can() {
    let hand = [
        ("move3", 790),
        ("move2", 670),
        ("move1", 490),
        ("left", 70),
        ("right", 80),
        ("uturn", 10),
        ("backup", 430),
        ("right", 100),
        ("right", 120),
    ];
    let g = alone([3, 8], 1, [3, 2], 0, serde_json::Value::Null, &hand);
    for spec in ["search:24", "search:300", "search:1000", "search:100ms"] {
        let mut h = g.clone();
        h.apply(Seat(0), &search(spec, &g), &mut Vec::new()).expect("legal");
        assert_eq!(h.winner(), Some(Seat(0)), "{spec}");
    }
}

/// RR-4.4, RR-7.2: alone with 8 damage (registers 2–5 locked on U-turns, one card in hand), the
/// search announces a power-down; with no damage it does not.
#[test]
fn alone_a_wrecked_robot_powers_down() {
    let locked = serde_json::json!([null, {"card": "uturn", "priority": 10}, {"card": "uturn", "priority": 20}, {"card": "uturn", "priority": 30}, {"card": "uturn", "priority": 40}]);
    let g = alone([1, 10], 0, [10, 1], 8, locked, &[("move2", 670)]);
    for spec in ["search:24", "search:300", "search:1000"] {
        assert!(
            matches!(search(spec, &g), Action::Program { power_down_next: true, .. }),
            "{spec}"
        );
    }
    let hand = [
        ("move3", 790),
        ("move2", 670),
        ("move1", 490),
        ("left", 70),
        ("right", 80),
        ("uturn", 50),
        ("backup", 430),
        ("right", 100),
        ("right", 120),
    ];
    let g = alone([1, 10], 0, [10, 1], 0, serde_json::Value::Null, &hand);
    assert!(matches!(search("search:300", &g), Action::Program { power_down_next: false, .. }));
}

/// `search:Nms` keeps to its time, measured on its clock ([`bots::Clock`]) rather than by this
/// machine's speed: on a clock that moves 1 ms each time it is read, the search's last read is
/// at most one round past its budget (a round of rollouts reads it three times; alone on the
/// board, ends are judged until 80 % of the budget is used or all are judged: 2 + 80 reads for
/// 100 ms), and it did not stop long before (more than 50 reads). Alone on the largest shipped
/// course, and in a four-robot race.
#[test]
fn search_with_a_time_budget_keeps_to_its_clock() {
    use bots::HasBots;
    for players in [1, 4] {
        let setup =
            Setup::new_game(BoardSpec::Named("grand-tour".into()), players, Variants::default());
        let g = RoboRally::new(&setup, 5).expect("setup");
        for budget in [100u32, 200] {
            let mut bot = RoboRally::bot(&format!("search:{budget}ms").parse().unwrap());
            let clock = bots::Clock::stepping(std::time::Duration::from_millis(1));
            let stop = bots::Stop::default().on(clock.clone());
            let a = bot.act_until(&g, Seat(0), &mut Rng::seeded(1), &stop);
            let reads = clock.reads();
            eprintln!("{players} robots, {budget} ms: {reads} reads");
            assert!(reads <= budget + 4, "{players} robots, {budget} ms: {reads} reads");
            assert!(reads > 50, "{players} robots, {budget} ms: {reads} reads");
            if players == 1 && budget == 100 {
                assert_eq!(reads, 2 + 80, "alone: ends judged until 80 % of the budget");
            }
            let mut h = g.clone();
            assert!(h.apply(Seat(0), &a, &mut Vec::new()).is_ok(), "{a:?} is legal");
        }
    }
}
