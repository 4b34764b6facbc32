//! RoboRally actions through the scenario path (`robodrome scenario`): an unknown field is a
//! schema error (exit 2) naming the field (conventions.md), not an action played without it.

fn golden(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../roborally/tests/golden")
        .join(name);
    std::fs::read(p).expect("golden file")
}

fn with_action_field(file: &str, index: usize, field: &str) -> Vec<u8> {
    let mut doc: serde_json::Value = serde_json::from_slice(&golden(file)).unwrap();
    doc["actions"][index][field] = serde_json::json!(1);
    serde_json::to_vec(&doc).unwrap()
}

#[test]
fn rr_11_unknown_field_in_a_program_names_the_field() {
    let err = scenario::run(&golden("rr-11-action-unknown-field.json")).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("rotate_before"), "{text}");
    assert!(text.contains("actions[0]"), "{text}");
    // Without the field the same file plays (exit 0): the field alone made it fail.
    let mut doc: serde_json::Value =
        serde_json::from_slice(&golden("rr-11-action-unknown-field.json")).unwrap();
    doc["actions"][0].as_object_mut().unwrap().remove("rotate_before");
    let out = scenario::run(&serde_json::to_vec(&doc).unwrap()).unwrap();
    assert_eq!(out.exit, 0, "{}", out.stdout);
}

#[test]
fn rr_9_unknown_field_in_use_option_and_other_actions_names_the_field() {
    for (file, index, field) in [
        ("rr-9-brakes-move-1-as-zero.json", 0, "cells"),
        ("rr-7.4-discard-option-prevents-damage.json", 0, "points"),
        ("rr-8.3-reenter-occupied.json", 0, "powerd_down"),
    ] {
        let err = scenario::run(&with_action_field(file, index, field)).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(field), "{file}: {text}");
        assert!(text.contains(&format!("actions[{index}]")), "{file}: {text}");
    }
}
