//! BB-13 scenario files that do not fit: a clear error (exit 2), never a panic; and garbage
//! actions: a typed error (exit 3).

use serde_json::{Value, json};

fn board() -> Value {
    let cells: Vec<Value> =
        (0..6).map(|q| json!({"at": [q, 0], "progress": q, "lane": 0})).collect();
    json!({"cells": cells, "walls": [], "finish_line": [], "start_grid": [{"at": [1, 0], "facing": 0}], "obstacles": [], "laps": 2})
}

fn run(doc: Value) -> Result<i32, String> {
    scenario::run(doc.to_string().as_bytes()).map(|o| o.exit).map_err(|e| e.to_string())
}

fn scen(board: Value, setup: Value) -> Value {
    json!({"game": "bumping-bots", "seed": 1, "board": board, "setup": setup, "actions": []})
}

#[test]
fn bad_files_are_schema_errors() {
    let bot = |v: Value| json!({"bots": [v, {"seat": 1, "at": [5, 0], "cards": []}]});
    let mut no_lane = board();
    no_lane["cells"][2].as_object_mut().unwrap().remove("lane");
    let mut motor = board();
    motor["obstacles"] = json!([{"kind": "motorised", "at": [2, 0]}]);
    let cases = [
        ("missing lane", scen(no_lane, bot(json!({"seat": 0, "at": [0, 0]}))), "lane"),
        ("unknown track", scen(json!("nowhere"), json!({"players": 2})), "no shipped track"),
        ("off the track", scen(board(), bot(json!({"seat": 0, "at": [9, 9]}))), "off the track"),
        ("speed 0", scen(board(), bot(json!({"seat": 0, "at": [0, 0], "speed": 0}))), "speed"),
        (
            "speed 4 reverse",
            scen(board(), bot(json!({"seat": 0, "at": [0, 0], "speed": 4, "reverse": true}))),
            "speed",
        ),
        ("seat 20", scen(board(), json!({"bots": [{"seat": 20, "at": [0, 0]}]})), "1 to 9"),
        ("no bots", scen(board(), json!({})), "bots"),
        (
            "two on a cell",
            scen(board(), json!({"bots": [{"seat": 0, "at": [0, 0]}, {"seat": 1, "at": [0, 0]}]})),
            "already",
        ),
        ("grid too small", scen(board(), json!({"players": 3})), "start_grid"),
        ("motorised without arms", scen(motor, json!({"players": 1})), "arms"),
        (
            "bad to_act",
            scen(board(), json!({"bots": [{"seat": 0, "at": [0, 0]}], "to_act": 4})),
            "to_act",
        ),
        ("unknown setup field", scen(board(), json!({"players": 1, "colour": "red"})), "colour"),
        ("bad facing", scen(board(), bot(json!({"seat": 0, "at": [0, 0], "facing": 7}))), "0..5"),
    ];
    for (what, doc, needle) in cases {
        match run(doc) {
            Err(msg) => assert!(msg.contains(needle), "{what}: {msg}"),
            Ok(exit) => panic!("{what}: exit {exit}, wanted a schema error"),
        }
    }
}

#[test]
fn unknown_action_type_is_a_schema_error_and_bad_values_are_illegal() {
    let setup = json!({"bots": [{"seat": 0, "at": [0, 0], "cards": []}, {"seat": 1, "at": [5, 0], "cards": []}], "to_act": 0});
    let mut doc = scen(board(), setup.clone());
    doc["actions"] = json!([{"seat": 0, "type": "teleport"}]);
    assert!(run(doc).is_err());
    for bad in [
        json!({"seat": 0, "type": "speed", "choice": "keep", "new_speed": 2}),
        json!({"seat": 0, "type": "orient", "turn": 0}),
        json!({"seat": 0, "type": "card", "card": "nitro"}),
        json!({"seat": 1, "type": "speed", "choice": "keep"}),
        json!({"seat": 7, "type": "speed", "choice": "keep"}),
    ] {
        let mut doc = scen(board(), setup.clone());
        doc["actions"] = json!([bad]);
        assert_eq!(run(doc), Ok(3), "{bad}");
    }
}

#[test]
fn grid_order_may_forget_seats() {
    let doc = json!({"game": "bumping-bots", "seed": 2, "board": "oval", "setup": {"players": 3, "grid_order": [2, 2]}});
    let out = scenario::run(doc.to_string().as_bytes()).unwrap();
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["state"]["bots"][2]["at"], json!([10, 3]));
    assert!(v["state"]["bots"].as_array().unwrap().iter().all(|b| !b["at"].is_null()));
}

/// Issue 22: a mistyped or foreign field in an action is a schema error that names it (exit 2),
/// never an action played without it; and a setup's teams and standings that BB-11 does not
/// allow are refused with the offending field named.
#[test]
fn unknown_fields_and_championship_setups_are_named() {
    let setup = json!({"bots": [{"seat": 0, "at": [0, 0], "cards": ["rotation"]}, {"seat": 1, "at": [5, 0], "cards": []}], "to_act": 0});
    let speed = json!({"seat": 0, "type": "speed", "choice": "keep"});
    let cases = [
        (
            vec![speed.clone(), json!({"seat": 0, "type": "move", "rotate_before": 1})],
            "rotate_before",
        ),
        (vec![json!({"seat": 0, "type": "speed", "choice": "keep", "fast": true})], "fast"),
        (
            vec![
                json!({"seat": 0, "type": "card", "card": "rotation", "rotations": [{"at_cell": 0, "turn": 1, "twice": true}]}),
            ],
            "twice",
        ),
        (vec![speed, json!({"seat": 0, "type": "orient", "turn": 0, "again": 1})], "again"),
    ];
    for (actions, field) in cases {
        let mut doc = scen(board(), setup.clone());
        doc["actions"] = json!(actions);
        match run(doc) {
            Err(msg) => assert!(msg.contains(field), "{field}: {msg}"),
            Ok(exit) => panic!("{field}: exit {exit}, wanted a schema error naming it"),
        }
    }
    let four = |extra: Value| {
        let mut s = json!({"players": 4});
        for (k, v) in extra.as_object().unwrap() {
            s[k] = v.clone();
        }
        s
    };
    let mut wide = board();
    wide["start_grid"] = json!([{"at": [1, 0], "facing": 0}, {"at": [2, 0], "facing": 0}, {"at": [3, 0], "facing": 0}, {"at": [4, 0], "facing": 0}]);
    let with = |variants: Value, setup: Value| {
        let mut d = scen(wide.clone(), setup);
        d["variants"] = variants;
        d
    };
    let cases = [
        (
            with(json!({"teams": true}), json!({"players": 3})),
            "variants.teams: teams need 4, 6, 8 or 9 bots",
        ),
        (with(json!({"teams": [[0, 1], [1, 2]]}), four(json!({}))), "seat 1 is in two teams"),
        (with(json!({"teams": [[0, 1], [1, 2]]}), four(json!({}))), "seats 3 are in none"),
        (with(json!({"teams": [[0, 1, 2], [3]]}), four(json!({}))), "a team has 2 bots"),
        (with(json!({"teams": [[0, 1], [2, 7]]}), four(json!({}))), "no seat 7"),
        (
            with(json!({}), four(json!({"standings": [1, 2, 3]}))),
            "standings: one entry per bot (4), got 3",
        ),
        (
            with(json!({"reverse_standings": true}), four(json!({}))),
            "reverse_standings needs the standings",
        ),
    ];
    for (doc, needle) in cases {
        match run(doc) {
            Err(msg) => assert!(msg.contains(needle), "{needle}: {msg}"),
            Ok(exit) => panic!("{needle}: exit {exit}, wanted a setup error"),
        }
    }
    // Allowed: pairs with 4 bots, in any order of seats.
    assert_eq!(run(with(json!({"teams": [[3, 0], [1, 2]]}), four(json!({})))), Ok(0));
    assert_eq!(run(with(json!({"teams": true}), four(json!({"standings": [0, 0, 0, 0]})))), Ok(0));
}

/// Issue 22 / BB-13 "as the card needs": a card action with a field its card does not take, a
/// Magnet that does not say `when`, a declined Magnet naming a target, or a short
/// `turn_passive` is an illegal action (exit 3) whose message names the field.
#[test]
fn fields_a_card_does_not_take_are_refused_by_name() {
    let setup = json!({"bots": [
        {"seat": 0, "at": [0, 0], "speed": 1, "cards": ["engine", "magnet", "jumper"]},
        {"seat": 1, "at": [2, 0], "cards": []}
    ], "to_act": 0});
    let cases = [
        (json!({"seat": 0, "type": "card", "card": "engine", "target": 1}), "target"),
        (json!({"seat": 0, "type": "card", "card": "engine", "when": "start"}), "when"),
        (json!({"seat": 0, "type": "card", "card": "engine", "at_cell": 0}), "at_cell"),
        (
            json!({"seat": 0, "type": "card", "card": "engine", "rotations": [{"at_cell": 0, "turn": 1}]}),
            "rotations",
        ),
        (json!({"seat": 0, "type": "card", "card": "magnet", "target": 1}), "when"),
        (json!({"seat": 0, "type": "card", "card": "magnet", "target": 1, "when": "end"}), "when"),
        (json!({"seat": 0, "type": "card", "card": "jumper", "at_cell": 1}), "at_cell"),
    ];
    for (action, field) in cases {
        let mut doc = scen(board(), setup.clone());
        doc["actions"] = json!([action]);
        let out = scenario::run(doc.to_string().as_bytes()).unwrap();
        assert_eq!(out.exit, 3, "{action}");
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(field), "{action}: {message}");
    }
    // The same Magnet with `"when": "start"` is played: seat 0 pulled next to seat 1.
    let mut doc = scen(board(), setup);
    doc["actions"] =
        json!([{"seat": 0, "type": "card", "card": "magnet", "target": 1, "when": "start"}]);
    let out = scenario::run(doc.to_string().as_bytes()).unwrap();
    assert_eq!(out.exit, 0);
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["state"]["bots"][0]["at"], json!([1, 0]));
}
