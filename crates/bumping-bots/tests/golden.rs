//! Golden scenario files (`tests/golden/*.json`): each sets up a position, plays actions and
//! states in `expect` what the rules say must come out; each cites its BB rule in `why`.

#[test]
fn golden_scenarios() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let n = scenario::expect::check_dir(&dir, "BB-");
    assert!(n >= 40, "expected at least 40 golden files, found {n}");
}
