//! Golden scenario files (`tests/golden/*.json`), each citing its TOY rule in `why`; the
//! expectations come from the rules in the crate's documentation.

#[test]
fn golden_scenarios() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let n = scenario::expect::check_dir(&dir, "TOY-");
    assert!(n >= 6, "expected at least 6 golden files, found {n}");
}
