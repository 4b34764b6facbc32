//! Rule checks that need more than the scenario output: hidden fields, views, defaults.

use engine::{Decision, Game, Observer, Seat};
use roborally::view::RegisterView;
use roborally::{Action, RoboRally, Setup};
use serde_json::json;

fn game(v: serde_json::Value) -> RoboRally {
    let setup: Setup = serde_json::from_value(v).expect("setup");
    RoboRally::new(&setup, 5).expect("starts")
}

fn board(extra: serde_json::Value) -> serde_json::Value {
    let mut b = json!({"width": 8, "height": 8, "flags": [[7, 7]]});
    b.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    b
}

#[test]
fn rr_7_3_powered_down_locked_register_filled_face_up() {
    // A board laser hits the powered-down robot in every register: at 5 damage register 5 locks
    // and takes the top card of the draw pile, face up.
    let g = game(json!({
        "board": board(json!({"lasers": [{"at": [0, 2], "dir": 1, "beams": 1}]})),
        "robots": [{"seat": 0, "at": [2, 2], "facing": 0, "powered_down": true},
                   {"seat": 1, "at": [6, 6], "facing": 3}],
        "phase": "execute"
    }));
    let r = g.robot(Seat(0)).unwrap();
    assert_eq!(r.damage, 5);
    assert!(r.registers[4].is_some() && r.revealed[4]);
    assert!(r.registers[..4].iter().all(Option::is_none));
    assert_eq!(
        g.decision(),
        Some(Decision::Simultaneous([Seat(0)].into_iter().collect())),
        "stay_down question"
    );
    let v = g.view(Observer::Seat(Seat(1)));
    assert!(matches!(v.robots[0].registers[4], RegisterView::Card(_)), "RR-7.3 cards are public");
}

#[test]
fn rr_6_1_double_repair_draws_an_option() {
    let g = game(json!({
        "board": board(json!({"cells": [{"at": [2, 2], "kind": "repair_option"}]})),
        "robots": [{"seat": 0, "at": [2, 2], "facing": 0, "damage": 2}],
        "phase": "execute"
    }));
    let r = g.robot(Seat(0)).unwrap();
    assert_eq!((r.damage, r.options.len()), (1, 1));
}

#[test]
fn programs_are_secret_until_revealed() {
    let mut g = game(json!({
        "board": board(json!({})),
        "robots": [{"seat": 0, "at": [1, 1], "facing": 2}, {"seat": 1, "at": [5, 5], "facing": 0}],
    }));
    let hand = g.robot(Seat(0)).unwrap().hand.clone();
    assert_eq!(hand.len(), 9);
    let regs = [Some(hand[0]), Some(hand[1]), Some(hand[2]), Some(hand[3]), Some(hand[4])];
    g.apply(Seat(0), &Action::Program { registers: regs, power_down_next: false }, &mut Vec::new())
        .unwrap();
    let other = g.view(Observer::Seat(Seat(1)));
    assert!(other.robots[0].hand.is_none());
    assert!(other.robots[0].registers.iter().all(|r| *r == RegisterView::Hidden));
    let own = g.view(Observer::Seat(Seat(0)));
    assert_eq!(own.robots[0].registers[0], RegisterView::Card(hand[0]));
    let spectator = g.view(Observer::Spectator);
    assert!(spectator.robots.iter().all(|r| r.hand.is_none()));
}

#[test]
fn time_up_defaults_reentry_and_is_atomic_on_game_over() {
    // The robot walks off the board; time runs out on its re-entry: archive, facing kept.
    let mut g = game(json!({
        "board": board(json!({})),
        "robots": [{"seat": 0, "at": [0, 3], "facing": 3, "registers": [{"card": "move1", "priority": 490}, null, null, null, null]}],
        "phase": "execute"
    }));
    assert_eq!(g.decision(), Some(Decision::One(Seat(0))));
    g.time_up(&mut Vec::new()).unwrap();
    let r = g.robot(Seat(0)).unwrap();
    assert_eq!((r.cell(), r.damage), (Some(grid::Sq::new(0, 3)), 2));
    assert_eq!(g.phase_name(), "program");
}

#[test]
fn illegal_action_codes_are_stable() {
    use engine::RuleError;
    let g = game(json!({"board": board(json!({})), "robots": [{"seat": 0, "at": [1, 1]}]}));
    let mut h = g.clone();
    let e = h.apply(Seat(0), &Action::StayDown { value: true }, &mut Vec::new()).unwrap_err();
    assert_eq!(e.code(), "wrong_action");
    let e = h.apply(Seat(3), &Action::StayDown { value: true }, &mut Vec::new()).unwrap_err();
    assert_eq!(e.code(), "unknown_seat");
    assert_eq!(h, g);
}
