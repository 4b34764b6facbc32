//! Architecture invariants (ARCHITECTURE.md), checked on the source:
//! the grid, the engine and the game crates (every game of the registry) do no I/O, read no
//! clock, use no async and no thread-local randomness, iterate no hash map, and depend only on
//! the allowed crates; the browser client keeps no per-game list that the server serves.

use std::path::{Path, PathBuf};

/// The pure crates: `grid`, `engine` and every registered game's rules crate.
fn pure() -> Vec<&'static str> {
    let mut v = vec!["grid", "engine"];
    v.extend(games::Registry::everything().kinds().map(|k| k.info.rules_crate));
    v
}
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
    let pure = pure();
    assert!(pure.len() >= 6, "{pure:?}");
    for name in pure {
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
    for name in pure() {
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

/// `web/` holds no per-game list the server also knows (`GET /api/kinds` serves seat ranges,
/// boards, variants and options): no player limits, no board lists, no variant lists.
#[test]
fn the_web_client_keeps_no_per_game_lists() {
    let web = crates_dir().join("../web");
    let mut files = Vec::new();
    fn js(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                js(&p, out);
            } else if p.extension().is_some_and(|x| x == "js") {
                out.push(p);
            }
        }
    }
    js(&web, &mut files);
    assert!(files.len() > 5, "found only {} client files", files.len());
    let r = games::Registry::everything();
    let mut problems = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let l = line.trim_start();
            if l.starts_with("//") {
                continue;
            }
            let mut bad = Vec::new();
            for key in ["minPlayers:", "maxPlayers:", "boards:", "variants: [", "options: ["] {
                if l.contains(key) {
                    bad.push(key.to_string());
                }
            }
            for k in r.kinds() {
                // A shipped board's id or a variant's key written as a string: a list entry.
                for b in &k.info.boards {
                    if l.contains(&format!("id: '{}'", b.id)) {
                        bad.push(format!("board {}", b.id));
                    }
                }
                for v in k.info.variants.iter().chain(&k.info.options) {
                    if l.contains(&format!("key: '{}'", v.key)) {
                        bad.push(format!("variant or option {}", v.key));
                    }
                }
            }
            for b in bad {
                problems.push(format!("{}:{}: {b}: {l}", f.display(), i + 1));
            }
        }
    }
    assert!(problems.is_empty(), "per-game lists in web/:\n{}", problems.join("\n"));
}

/// Player-facing labels are words (issue 21): no string in `web/` carries a rule code in
/// brackets ("Jolting (AS-7.2)"); rule numbers appear only as links into the rules page
/// (`ruleLink`) or as the keys of the context help (`data-help`), from the game crates' rule
/// books.
#[test]
fn the_web_client_labels_are_words_not_rule_codes() {
    let web = crates_dir().join("../web");
    let mut problems = Vec::new();
    let mut stack = vec![web];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if !p.extension().is_some_and(|x| x == "js" || x == "html") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for (i, line) in text.lines().enumerate() {
                let l = line.trim_start();
                if l.starts_with("//") || l.starts_with('*') || l.starts_with("/*") {
                    continue;
                }
                for prefix in ["(AS-", "(RR-", "(BB-"] {
                    if let Some(at) = l.find(prefix)
                        && l[at + prefix.len()..].starts_with(|c: char| c.is_ascii_digit())
                    {
                        problems.push(format!("{}:{}: {l}", p.display(), i + 1));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "rule codes in labels:\n{}", problems.join("\n"));
}

/// Refusals read as sentences (issue 21): every RoboRally error code (the `code()` arms of
/// `crates/roborally/src/error.rs`) has its words in the client's table (`web/ui/refusal.js`
/// `WORDS`), so a new code cannot reach a player as the engine's phrase by oversight.
#[test]
fn every_roborally_error_code_has_words_in_the_client() {
    let errors = std::fs::read_to_string(crates_dir().join("roborally/src/error.rs")).unwrap();
    let table = std::fs::read_to_string(crates_dir().join("../web/ui/refusal.js")).unwrap();
    let body = errors.split("fn code(&self)").nth(1).expect("the code() function");
    let body = body.split("\n    }\n").next().unwrap_or_default();
    let codes: Vec<&str> = body
        .lines()
        .filter_map(|l| l.split("=> \"").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(codes.len() > 30, "read the codes: {codes:?}");
    let missing: Vec<&&str> =
        codes.iter().filter(|c| !table.contains(&format!("\n  {c}: "))).collect();
    assert!(missing.is_empty(), "RoboRally codes without words in web/ui/refusal.js: {missing:?}");
}
