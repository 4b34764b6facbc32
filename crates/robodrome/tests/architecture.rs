//! Architecture invariants (ARCHITECTURE.md), checked on the source:
//! the grid, the engine and the game crates do no I/O, read no clock, use no async and no
//! thread-local randomness, iterate no hash map, and depend only on the allowed crates.

use std::path::{Path, PathBuf};

const PURE: &[&str] = &["grid", "engine", "autoscooter", "roborally", "bumping-bots"];
const FORBIDDEN: &[&str] = &[
    "std::fs",
    "std::net",
    "std::io",
    "std::time",
    "std::env",
    "std::thread",
    "std::process",
    "Instant::now",
    "SystemTime",
    "tokio",
    "async fn",
    "thread_rng",
    "rand::rng",
    "HashMap",
    "HashSet",
    "println!",
    "eprintln!",
    "print!(",
    "File::",
];
const ALLOWED_DEPS: &[&str] =
    &["grid", "engine", "serde", "serde_json", "rand_core", "rand_chacha", "arrayvec"];

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn pure_crates_do_no_io_and_read_no_clock() {
    let mut checked = 0;
    let mut problems = Vec::new();
    for name in PURE {
        let src = crates_dir().join(name).join("src");
        if !src.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            // Test modules may print and use std freely.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (i, line) in code.lines().enumerate() {
                let l = line.trim_start();
                if l.starts_with("//") {
                    continue;
                }
                for bad in FORBIDDEN {
                    if l.contains(bad) {
                        problems.push(format!(
                            "{}:{}: `{bad}` in a pure crate: {l}",
                            f.display(),
                            i + 1
                        ));
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 10, "found only {checked} source files");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn pure_crates_depend_only_on_allowed_crates() {
    for name in PURE {
        let manifest = crates_dir().join(name).join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else { continue };
        let deps = text.split("[dependencies]").nth(1).unwrap_or_default();
        let deps = deps.split("\n[").next().unwrap_or_default();
        for line in deps.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let dep = line.split(['=', '.', ' ']).next().unwrap_or_default();
            assert!(
                ALLOWED_DEPS.contains(&dep),
                "{name} depends on {dep}, which a pure crate may not"
            );
        }
    }
}
