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
