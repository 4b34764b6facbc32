//! Golden scenario files (`tests/golden/*.json`): each is run through `scenario::run` and its
//! `expect` block checked like `shared/conformance/check.py` does: `exit`, then dotted paths
//! into the output; a list of objects is matched by `seat`, an object field by field.

use serde_json::Value;
use std::path::Path;

fn ident(v: &Value) -> Option<String> {
    ["seat", "car", "id"].iter().find_map(|k| v.get(*k).map(|x| x.to_string()))
}

fn matches(expected: &Value, actual: &Value, at: &str, errs: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Array(a)) => {
            for (k, v) in e {
                match a.iter().find(|x| ident(x).as_deref() == Some(k.as_str())) {
                    Some(x) => matches(v, x, &format!("{at}[{k}]"), errs),
                    None => errs.push(format!("{at}[{k}] missing")),
                }
            }
        }
        (Value::Object(e), Value::Object(a)) => {
            for (k, v) in e {
                match a.get(k) {
                    Some(x) => matches(v, x, &format!("{at}.{k}"), errs),
                    None => errs.push(format!("{at}.{k} missing")),
                }
            }
        }
        _ if expected == actual => {}
        _ => errs.push(format!("{at}: want {expected} got {actual}")),
    }
}

fn lookup<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(doc, |cur, part| cur.get(part))
}

fn check_file(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).expect("readable");
    let doc: Value = serde_json::from_slice(&bytes).expect("golden files are JSON");
    assert!(doc.get("why").and_then(Value::as_str).is_some_and(|w| w.contains("RR-")), "{}: `why` cites an RR rule", path.display());
    let expect = doc.get("expect").and_then(Value::as_object).cloned().unwrap_or_default();
    assert!(!expect.is_empty(), "{}: has an expect block", path.display());
    let (exit, out) = match scenario::run(&bytes) {
        Ok(o) => (o.exit, serde_json::from_str(&o.stdout).expect("stdout is JSON")),
        Err(_) => (2, Value::Null),
    };
    let mut errs = Vec::new();
    for (k, want) in &expect {
        if k == "exit" {
            if want.as_i64() != Some(exit as i64) {
                errs.push(format!("exit {exit}, want {want}; output error: {}", out.get("error").unwrap_or(&Value::Null)));
            }
            continue;
        }
        match lookup(&out, k) {
            Some(got) => matches(want, got, k, &mut errs),
            None => errs.push(format!("{k} missing")),
        }
    }
    errs
}

#[test]
fn golden_scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
    files.sort();
    let mut failures = Vec::new();
    for f in &files {
        let errs = check_file(f);
        if !errs.is_empty() {
            failures.push(format!("{}: {}", f.file_name().unwrap().to_string_lossy(), errs.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{} of {} golden files failed:\n{}", failures.len(), files.len(), failures.join("\n"));
    assert!(files.len() >= 40, "at least 40 golden files, found {}", files.len());
}

#[test]
fn shared_examples_when_present() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/rules/examples");
    let Ok(rd) = std::fs::read_dir(&dir) else { return };
    for f in rd.map(|e| e.unwrap().path()) {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("rr-") && name.ends_with(".json") {
            let errs = check_file(&f);
            assert!(errs.is_empty(), "{name}: {errs:?}");
        }
    }
}

/// Outside input never panics: every golden file with its numbers replaced by odd values
/// (negative, huge, off-board) runs to an exit status of 0, 2 or 3.
#[test]
fn mutated_scenarios_never_panic() {
    const ODD: [i64; 10] = [-1, 0, 1, 2, 5, 9, 12, 255, 2_147_483_647, -2_147_483_648];
    fn mutate(v: &mut Value, rng: &mut engine::Rng, rate: u32) {
        match v {
            Value::Number(_) if rng.below(rate) == 0 => *v = Value::from(ODD[rng.index(ODD.len())]),
            Value::Array(a) => a.iter_mut().for_each(|x| mutate(x, rng, rate)),
            Value::Object(o) => o.iter_mut().filter(|(k, _)| k.as_str() != "seed").for_each(|(_, x)| mutate(x, rng, rate)),
            _ => {}
        }
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut rng = engine::Rng::seeded(2024);
    for f in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
        let doc: Value = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
        for rate in [2, 6, 20] {
            let mut d = doc.clone();
            mutate(&mut d, &mut rng, rate);
            let bytes = serde_json::to_vec(&d).unwrap();
            if let Ok(out) = scenario::run(&bytes) {
                assert!(out.exit == 0 || out.exit == 3, "{}: exit {}", f.display(), out.exit);
            }
        }
    }
}
