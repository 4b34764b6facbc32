//! Every fuzz target over its committed corpus (`fuzz/corpus/TARGET/`) and its past crashes
//! (`fuzz/regressions/TARGET/`), through the same functions libFuzzer calls: the part of the
//! fuzzing that runs in the plain test suite, with no fuzzing toolchain (docs/fuzzing.md).

use std::path::{Path, PathBuf};

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

#[test]
fn every_target_has_a_corpus_and_a_wrapper() {
    for (name, _) in fuzzing::TARGETS {
        assert!(!inputs(&root().join("corpus").join(name)).is_empty(), "{name}: no corpus");
        let wrapper = root().join("fuzz_targets").join(format!("{name}.rs"));
        assert!(wrapper.is_file(), "{name}: no {}", wrapper.display());
    }
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("fuzz/Cargo.toml");
    let bins = manifest.matches("[[bin]]").count();
    assert_eq!(bins, fuzzing::TARGETS.len(), "fuzz/Cargo.toml has one [[bin]] per target");
}

#[test]
fn corpus_and_regressions_replay_without_a_broken_promise() {
    for (name, run) in fuzzing::TARGETS {
        for dir in ["corpus", "regressions"] {
            for file in inputs(&root().join(dir).join(name)) {
                let data = std::fs::read(&file).expect("readable");
                let result = std::panic::catch_unwind(|| run(&data));
                assert!(result.is_ok(), "{name}: {} broke a promise", file.display());
            }
        }
    }
}
