//! Every scenario in `tests/golden/` runs through `scenario::run`, and its `expect` block is
//! checked the way `shared/conformance/check.py` does: `exit`, then dotted paths into the
//! output; an expected object against a list matches the list's items by `seat` (or `id`).

use serde_json::Value;
use std::path::Path;

fn ident(item: &Value) -> Option<String> {
    ["seat", "car", "id"]
        .iter()
        .find_map(|k| item.get(*k).map(|v| v.to_string()))
}

fn matches(expected: &Value, actual: &Value, at: &str, errs: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Array(a)) => {
            for (k, v) in e {
                match a.iter().find(|x| ident(x).as_deref() == Some(k.as_str())) {
                    Some(item) => matches(v, item, &format!("{at}[{k}]"), errs),
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

fn check(file: &Path) -> Vec<String> {
    let bytes = std::fs::read(file).expect("readable");
    let doc: Value = serde_json::from_slice(&bytes).expect("golden files are JSON");
    let mut errs = Vec::new();
    let why = doc.get("why").and_then(Value::as_str).unwrap_or("");
    if !why.contains("BB-") {
        errs.push("\"why\" must cite a BB rule".into());
    }
    let expect = doc
        .get("expect")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let (exit, out) = match scenario::run(&bytes) {
        Ok(o) => (
            o.exit,
            serde_json::from_str::<Value>(&o.stdout).expect("stdout is JSON"),
        ),
        Err(_) => (2, Value::Object(Default::default())),
    };
    for (path, want) in &expect {
        if path == "exit" {
            if want.as_i64() != Some(exit as i64) {
                errs.push(format!(
                    "exit {exit} want {want} (error: {})",
                    out.get("error").unwrap_or(&Value::Null)
                ));
            }
            continue;
        }
        match lookup(&out, path) {
            Some(got) => matches(want, got, path, &mut errs),
            None => errs.push(format!("{path} missing")),
        }
    }
    errs
}

#[test]
fn golden_scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("golden dir")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 40,
        "at least 40 golden files, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let errs = check(f);
        if !errs.is_empty() {
            failures.push(format!(
                "{}: {}",
                f.file_name().unwrap().to_string_lossy(),
                errs.join("; ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden files fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn shared_examples() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/rules/examples");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut failures = Vec::new();
    for e in entries {
        let p = e.expect("entry").path();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("bb-") && name.ends_with(".json") {
            let errs = check(&p);
            if !errs.is_empty() {
                failures.push(format!("{name}: {}", errs.join("; ")));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
