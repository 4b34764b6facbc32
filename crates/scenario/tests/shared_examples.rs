//! The shared conformance examples (`../shared/rules/examples`), when they are beside the
//! project. A user's clone has no `../shared`: the test then says so and passes.

use std::path::PathBuf;

fn examples_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/rules/examples");
    dir.is_dir().then_some(dir)
}

#[test]
fn shared_examples_of_implemented_games_pass() {
    let Some(dir) = examples_dir() else {
        eprintln!("../shared/rules/examples not found: skipping the shared examples");
        return;
    };
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    for f in files.iter().filter(|p| p.extension().is_some_and(|x| x == "json")) {
        let bytes = std::fs::read(f).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let game = doc["game"].as_str().unwrap_or_default();
        if !scenario::games().contains(&game) {
            eprintln!("skipping {} ({game} is not implemented in this checkout)", f.display());
            continue;
        }
        ran += 1;
        if let Err(errs) = scenario::expect::check_file(&bytes) {
            failures.push(format!("{}: {}", f.display(), errs.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{ran} shared examples passed");
}
