//! RR-9: bots use the option cards played while programming (Recompile, Flywheel, …) where
//! that is clearly better, and every action they choose with option cards dealt is legal.

use bots::{BotSpec, HasBots};
use engine::{Game, Rng, Seat, harness::next_seat};
use roborally::{Action, BoardSpec, OptionCard, RoboRally, ScenarioSetup, Setup, Variants};

/// One robot at (3, 6) facing north on an empty 8×8 board, the only flag at (3, 0), holding
/// `options` and the given hand (cards as `[kind, priority]`).
fn position(options: &[&str], hand: &[(&str, u16)]) -> RoboRally {
    position_on(8, 8, options, hand)
}

/// The same on a `width`×`height` board: the robot at (3, height − 2), the flag at (3, 0).
fn position_on(width: i32, height: i32, options: &[&str], hand: &[(&str, u16)]) -> RoboRally {
    let board = serde_json::json!({"width": width, "height": height, "cells": [], "walls": [], "lasers": [], "flags": [[3, 0]], "docks": []});
    let hand: Vec<_> =
        hand.iter().map(|(k, p)| serde_json::json!({"card": k, "priority": p})).collect();
    let setup = serde_json::json!({"phase": "program", "robots": [{"seat": 0, "at": [3, height - 2], "facing": 0, "options": options, "hand": hand}]});
    let board = serde_json::from_value(board).expect("inline board");
    let setup: ScenarioSetup = serde_json::from_value(setup).expect("setup");
    RoboRally::new(&Setup::from_scenario(BoardSpec::Inline(board), setup, Variants::default()), 1)
        .expect("a valid setup")
}

fn act(spec: &str, g: &RoboRally, seed: u64) -> Action {
    RoboRally::bot(&spec.parse::<BotSpec>().unwrap()).act(g, Seat(0), &mut Rng::seeded(seed))
}

const TURNS_ONLY: [(&str, u16); 9] = [
    ("uturn", 10),
    ("uturn", 20),
    ("left", 70),
    ("left", 90),
    ("left", 110),
    ("right", 80),
    ("right", 100),
    ("right", 120),
    ("right", 140),
];

#[test]
fn recompile_a_hand_that_cannot_move() {
    let g = position(&["recompile"], &TURNS_ONLY);
    for spec in ["heuristic", "search:24"] {
        for seed in 0..3 {
            let a = act(spec, &g, seed);
            assert!(
                matches!(a, Action::UseOption { option: Some(OptionCard::Recompile), .. }),
                "{spec}, seed {seed}: {a:?}"
            );
        }
    }
}

#[test]
fn keep_a_hand_that_reaches_the_flag() {
    let hand = [
        ("move3", 790),
        ("move3", 800),
        ("left", 70),
        ("right", 80),
        ("uturn", 10),
        ("left", 90),
        ("right", 100),
        ("backup", 430),
        ("move1", 490),
    ];
    let g = position(&["recompile"], &hand);
    for spec in ["heuristic", "search:24"] {
        let a = act(spec, &g, 0);
        let Action::Program { registers, .. } = a else {
            panic!("{spec} gave up a winning hand: {a:?}")
        };
        let mut h = g.clone();
        h.apply(Seat(0), &Action::Program { registers, power_down_next: false }, &mut Vec::new())
            .unwrap();
        assert_eq!(h.winner(), Some(Seat(0)), "{spec}: {registers:?} does not reach the flag");
    }
}

/// Flywheel, the flag out of reach this turn: a spare card is kept for the next deal, and the
/// uses end in a program (a bot never goes round in circles taking cards on and off its
/// options).
#[test]
fn flywheel_keeps_a_spare_card_then_the_bot_programs() {
    let hand = [
        ("move2", 670),
        ("move1", 490),
        ("move1", 500),
        ("left", 70),
        ("right", 80),
        ("uturn", 10),
        ("backup", 430),
        ("move3", 790),
        ("right", 100),
    ];
    for spec in ["heuristic", "search:24"] {
        let mut g = position_on(8, 20, &["flywheel"], &hand);
        let first = act(spec, &g, 0);
        assert!(
            matches!(
                first,
                Action::UseOption { option: Some(OptionCard::Flywheel), card: Some(_), .. }
            ),
            "{spec}: {first:?}"
        );
        let mut uses = 0;
        loop {
            let a = act(spec, &g, uses);
            if let Action::Program { registers, .. } = a {
                let kept =
                    g.robot(Seat(0)).unwrap().stash.flywheel.expect("a card on the Flywheel");
                assert!(!registers.contains(&Some(kept)));
                g.apply(Seat(0), &a, &mut Vec::new())
                    .unwrap_or_else(|e| panic!("{spec}: illegal {a:?}: {e:?}"));
                assert!(
                    g.robot(Seat(0)).unwrap().hand.contains(&kept),
                    "{spec}: the kept card joins the next deal"
                );
                break;
            }
            g.apply(Seat(0), &a, &mut Vec::new())
                .unwrap_or_else(|e| panic!("{spec}: illegal {a:?}: {e:?}"));
            uses += 1;
            assert!(uses < 4, "{spec} keeps using options instead of programming");
        }
    }
}

/// Random games with option cards dealt to both robots: every action every bot chooses is
/// legal (tried on a copy), whatever the decision (programming with uses, option questions,
/// discards, re-entries).
#[test]
fn every_bot_action_is_legal_with_options_dealt() {
    let specs: Vec<BotSpec> =
        ["heuristic", "search:12"].iter().map(|s| s.parse().unwrap()).collect();
    for seed in 0..6u64 {
        let mut rng = Rng::seeded(seed);
        let mut deck = OptionCard::ALL.to_vec();
        rng.shuffle(&mut deck);
        let mut setup =
            Setup::new_game(BoardSpec::Named("dizzy-dash".into()), 2, Variants::default());
        for (i, r) in setup.robots.iter_mut().enumerate() {
            r.options = deck[i * 6..i * 6 + 6].to_vec();
        }
        let mut g = RoboRally::new(&setup, seed).unwrap();
        for step in 0..120 {
            let Some(d) = g.decision() else { break };
            let seat = next_seat(&d, &mut rng).unwrap();
            let mut chosen = None;
            if step % 3 == 0 {
                for spec in &specs {
                    let a = RoboRally::bot(spec).act(&g, seat, &mut Rng::seeded(step));
                    let mut copy = g.clone();
                    assert!(
                        copy.apply(seat, &a, &mut Vec::new()).is_ok(),
                        "seed {seed} step {step}: {spec} chose an illegal {a:?}"
                    );
                    chosen = Some(a);
                }
            }
            let a = chosen.unwrap_or_else(|| g.sample_action(seat, &mut rng).unwrap());
            g.apply(seat, &a, &mut Vec::new()).unwrap();
        }
    }
}
