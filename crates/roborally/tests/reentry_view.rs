//! RR-8.3 in the view: the re-entering robot's choices are listed (cells and facings), so a
//! client offers exactly what the rules allow; the course is the static part, not in the view.
//! The position is the golden file `rr-8.3-reenter-line-of-sight.json`: seats 0 and 1 share the
//! archive [3,3] and fell into pits in register 1 (seat 0 first); seat 2 stands at [3,6].

use engine::Seat;
use serde_json::{Value, json};

/// The golden position after its first `actions` actions, with the view for `seat`.
fn position(actions: usize, seat: u8) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/rr-8.3-reenter-line-of-sight.json");
    let mut doc: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let acts = doc["actions"].as_array().unwrap()[..actions].to_vec();
    doc["actions"] = Value::Array(acts);
    doc.as_object_mut().unwrap().remove("expect");
    let out = scenario::run_with_view(doc.to_string().as_bytes(), Some(Seat(seat))).unwrap();
    assert_eq!(out.exit, 0);
    serde_json::from_str(&out.stdout).unwrap()
}

#[test]
fn the_view_lists_the_reentry_choices_of_rr_8_3() {
    // Seat 0 was destroyed first and its archive is free: there, any facing.
    let out = position(0, 0);
    assert_eq!(
        out["view"]["reentry"],
        json!({"seat": 0, "archive": [3, 3], "choices": [{"at": [3, 3], "facings": [0, 1, 2, 3]}]})
    );
    // Seat 0 took [3,3]: seat 1 chooses among the 8 free cells around it (row-major), each with
    // the facings whose line of sight holds no robot within 3 cells.
    let out = position(1, 1);
    let re = &out["view"]["reentry"];
    assert_eq!(re["seat"], 1);
    let cells: Vec<&Value> = re["choices"].as_array().unwrap().iter().map(|c| &c["at"]).collect();
    let want = json!([[2, 2], [3, 2], [4, 2], [2, 3], [4, 3], [2, 4], [3, 4], [4, 4]]);
    assert_eq!(cells, want.as_array().unwrap().iter().collect::<Vec<_>>());
    let facings = |at: Value| {
        re["choices"].as_array().unwrap().iter().find(|c| c["at"] == at).unwrap()["facings"].clone()
    };
    // From [3,4]: north sees seat 0 on [3,3], south sees seat 2 on [3,6]; east and west are clear.
    assert_eq!(facings(json!([3, 4])), json!([1, 3]));
    // From [3,2]: south sees seat 0 on [3,3].
    assert_eq!(facings(json!([3, 2])), json!([0, 1, 3]));
    // The view holds no course; the static part does.
    assert!(out["view"].get("board").is_none());
    assert_eq!(out["static"]["board"]["width"], 8);
}
