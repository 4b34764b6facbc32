//! Checking a scenario's `expect` block, for golden-file tests.
//!
//! The same rules as the shared conformance checker: `exit` is the exit status; any other key
//! is a dotted path into the output (`state.winner`); a list of objects in the output is
//! matched by its id field (`seat`, `car` or `id`) when the expected value is an object keyed
//! by id; expected objects are compared field by field (extra output fields are fine).

use serde_json::Value;

/// Run a scenario file and compare it with its own `expect` block. Returns every mismatch.
pub fn check_file(bytes: &[u8]) -> Result<(), Vec<String>> {
    let doc: Value = serde_json::from_slice(bytes).map_err(|e| vec![format!("not JSON: {e}")])?;
    let expect = doc.get("expect").cloned().unwrap_or(Value::Null);
    let mut errs = Vec::new();
    let (exit, out) = match crate::run(bytes) {
        Ok(o) => {
            (o.exit, serde_json::from_str::<Value>(&o.stdout).map_err(|e| vec![e.to_string()])?)
        }
        Err(e) => {
            // Exit 2 may be what the file expects; say why in case it is not.
            if expect.get("exit").and_then(Value::as_i64) != Some(2) {
                errs.push(format!("schema error: {e}"));
            }
            (2, Value::Object(Default::default()))
        }
    };
    let Value::Object(expect) = expect else {
        return Err(vec!["the file has no expect block".into()]);
    };
    for (path, want) in &expect {
        if path == "exit" {
            if want.as_i64() != Some(exit as i64) {
                errs.push(format!("exit {exit}, want {want}"));
            }
            continue;
        }
        match lookup(&out, path) {
            Some(got) => matches(want, got, path, &mut errs),
            None => errs.push(format!("{path} missing")),
        }
    }
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

fn lookup<'a>(doc: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(doc, |cur, part| cur.as_object()?.get(part))
}

fn ident(v: &Value) -> Option<String> {
    let o = v.as_object()?;
    ["seat", "car", "id"].iter().find_map(|k| o.get(*k)).map(|v| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

fn matches(want: &Value, got: &Value, at: &str, errs: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(w), Value::Array(items)) => {
            for (k, v) in w {
                match items.iter().find(|i| ident(i).as_deref() == Some(k.as_str())) {
                    Some(item) => matches(v, item, &format!("{at}[{k}]"), errs),
                    None => errs.push(format!("{at}[{k}] missing")),
                }
            }
        }
        (Value::Object(w), Value::Object(g)) => {
            for (k, v) in w {
                match g.get(k) {
                    Some(item) => matches(v, item, &format!("{at}.{k}"), errs),
                    None => errs.push(format!("{at}.{k} missing")),
                }
            }
        }
        _ if want == got => {}
        // Lists of objects: each expected element matches the element at the same place.
        (Value::Array(w), Value::Array(g))
            if w.len() == g.len() && w.iter().all(Value::is_object) =>
        {
            for (i, (a, b)) in w.iter().zip(g).enumerate() {
                matches(a, b, &format!("{at}[{i}]"), errs);
            }
        }
        _ => errs.push(format!("{at}: want {want} got {got}")),
    }
}

/// Run every `*.json` file of a folder as a golden file; each must have a `why` citing a rule
/// (it contains `rule`, e.g. `"AS-"`) and an `expect` block. Panics listing every failure.
/// Returns the number of files checked.
pub fn check_dir(dir: &std::path::Path, rule: &str) -> usize {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).expect("readable golden file");
        let doc: Value = serde_json::from_slice(&bytes).expect("golden files are JSON");
        let why = doc.get("why").and_then(Value::as_str).unwrap_or("");
        if !why.contains(rule) {
            failures.push(format!("{}: its \"why\" cites no {rule} rule", f.display()));
        }
        if doc.get("expect").and_then(Value::as_object).is_none_or(|e| e.is_empty()) {
            failures.push(format!("{}: no \"expect\" block", f.display()));
        }
        if let Err(errs) = check_file(&bytes) {
            failures.push(format!(
                "{}:\n    {}",
                f.file_name().unwrap().to_string_lossy(),
                errs.join("\n    ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    files.len()
}
