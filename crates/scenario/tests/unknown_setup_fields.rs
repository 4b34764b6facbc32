//! Every setup object of the three games (and of championships) refuses a key it does not know
//! with a schema error (exit 2) that names the key and where it stands (conventions.md; issue
//! 22: a championship's `variants` silently ignored unknown keys, and so did Bumping Bots'
//! race variants, boards and bots, and RoboRally's robots and setup). Each case adds one
//! unknown key to a golden file that plays as it is.

use serde_json::{Value, json};

fn golden(game: &str, name: &str) -> Value {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(game)
        .join("tests/golden")
        .join(name);
    serde_json::from_slice(&std::fs::read(p).expect("golden file")).expect("JSON")
}

fn run(doc: &Value) -> Result<i32, String> {
    scenario::run(doc.to_string().as_bytes()).map(|o| o.exit).map_err(|e| e.to_string())
}

/// `doc` with `"colour": 1` added to the object at `pointer` (made an empty object if absent).
fn with_colour(doc: &Value, pointer: &str) -> Value {
    let mut d = doc.clone();
    if d.pointer(pointer).is_none_or(Value::is_null) {
        let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
        d.pointer_mut(parent).expect("parent")[key] = json!({});
    }
    d.pointer_mut(pointer).expect("object")["colour"] = json!(1);
    d
}

fn check(doc: Value, cases: &[(&str, &str)]) {
    assert!(run(&doc).is_ok(), "the file plays as it is");
    for (pointer, path) in cases {
        match run(&with_colour(&doc, pointer)) {
            Err(msg) => {
                assert!(msg.contains("unknown field `colour`"), "{pointer}: {msg}");
                assert!(msg.contains(path), "{pointer}: {msg} (wanted {path})");
            }
            Ok(exit) => panic!("{pointer}: exit {exit}, wanted a schema error naming `colour`"),
        }
    }
}

#[test]
fn bumping_bots_setup_objects_refuse_unknown_keys() {
    let mut doc = golden("bumping-bots", "bb-8.3-mobile-hits-bot-lateral-choice.json");
    doc["board"]["walls"] = json!([{"at": [0, 0], "side": 3}]);
    doc["board"]["start_grid"] = json!([{"at": [11, 4], "facing": 0}]);
    check(
        doc,
        &[
            ("/variants", "variants"),
            ("/setup", "setup"),
            ("/setup/bots/1", "bots[1]"),
            ("/board", "board"),
            ("/board/cells/3", "cells[3]"),
            ("/board/walls/0", "walls[0]"),
            ("/board/start_grid/0", "start_grid[0]"),
            ("/board/obstacles/0", "obstacles[0]"),
        ],
    );
}

#[test]
fn championship_setup_objects_refuse_unknown_keys() {
    let doc = golden("bumping-bots", "bb-11-championship-3-races-reverse-grid-teams.json");
    check(doc, &[("/variants", "variants"), ("/setup", "setup")]);
}

#[test]
fn roborally_setup_objects_refuse_unknown_keys() {
    let mut doc = golden("roborally", "rr-11-action-unknown-field.json");
    doc["actions"][0].as_object_mut().expect("action").remove("rotate_before");
    check(doc, &[("/variants", "variants"), ("/setup", "setup"), ("/setup/robots/0", "robots[0]")]);
}

#[test]
fn autoscooter_setup_objects_refuse_unknown_keys() {
    let doc = golden("autoscooter", "as-1.3-deal-fixed-by-the-scenario.json");
    check(
        doc,
        &[("/variants", "variants"), ("/setup", "setup"), ("/setup/players/0", "players[0]")],
    );
}
