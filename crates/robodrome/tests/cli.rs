//! The `robodrome` command as users run it: exit codes, standard input, stable output.

use std::io::Write;
use std::process::{Command, Stdio};

fn robodrome() -> Command {
    Command::new(env!("CARGO_BIN_EXE_robodrome"))
}

fn golden(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../autoscooter/tests/golden").join(name)
}

#[test]
fn scenario_output_is_byte_identical_and_exit_0() {
    let f = golden("as-5.5-side-crash-rear-side-edge.json");
    let a = robodrome().arg("scenario").arg(&f).output().unwrap();
    let b = robodrome().arg("scenario").arg(&f).output().unwrap();
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    let out: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(out["game"], "autoscooter");
    assert_eq!(out["error"], serde_json::Value::Null);
}

#[test]
fn illegal_action_exits_3_with_the_error() {
    let out = robodrome()
        .arg("scenario")
        .arg(golden("as-2.1-number-already-used.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["error"]["code"], "number_already_used");
    assert_eq!(doc["error"]["action_index"], 0);
}

fn run_stdin(input: &str) -> std::process::Output {
    let mut child = robodrome()
        .args(["scenario", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn schema_errors_exit_2_naming_the_field_and_print_nothing() {
    let base = std::fs::read_to_string(golden("as-5.1-case-a-free-path.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&base).unwrap();
    doc["actions"][1]["car"] = serde_json::json!("one");
    let out = run_stdin(&doc.to_string());
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("actions[1]"), "{err}");

    doc["actions"][1]["car"] = serde_json::json!(1);
    doc["actions"][1]["type"] = serde_json::json!("teleport");
    let out = run_stdin(&doc.to_string());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("teleport"));

    let out = run_stdin("{ not json");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn stdin_gives_the_same_output_as_the_file() {
    let f = golden("as-7.2-jolt-chain-indirect-rear.json");
    let from_file = robodrome().arg("scenario").arg(&f).output().unwrap();
    let from_stdin = run_stdin(&std::fs::read_to_string(&f).unwrap());
    assert_eq!(from_file.stdout, from_stdin.stdout);
}

#[test]
fn sim_prints_a_summary_as_json() {
    let out = robodrome()
        .args([
            "sim",
            "autoscooter",
            "--games",
            "50",
            "--players",
            "4",
            "--json",
            "--variants",
            "jolting",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["games"], 50);
    assert_eq!(s["wins_by_seat"].as_array().unwrap().len(), 4);
    let crashes: u64 =
        s["details"]["crashes"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert!(crashes > 0);
}

#[test]
fn bad_arguments_are_explained() {
    let out = robodrome().args(["sim", "autoscooter", "--variants", "turbo"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown Autoscooter variant"));
    let out = robodrome().args(["sim", "autoscooter", "--players", "9"]).output().unwrap();
    assert!(!out.status.success());
}

#[test]
fn sims_of_every_game_report_json() {
    for args in [
        vec![
            "sim",
            "roborally",
            "--course",
            "dizzy-dash",
            "--robots",
            "3",
            "--games",
            "3",
            "--max-turns",
            "20",
            "--json",
        ],
        vec!["sim", "bumping-bots", "--track", "chicane", "--bots", "4", "--races", "3", "--json"],
    ] {
        let out = robodrome().args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(s["games"], 3, "{args:?}");
    }
    let out = robodrome().args(["sim", "roborally", "--course", "atlantis"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no shipped course"));
}

#[test]
fn board_render_draws_every_shipped_board() {
    let list = robodrome().args(["board", "list"]).output().unwrap();
    let list = String::from_utf8_lossy(&list.stdout).to_string();
    for (game, name) in [
        ("autoscooter", "standard"),
        ("autoscooter", "chart"),
        ("roborally", "grand-tour"),
        ("bumping-bots", "factory"),
    ] {
        if game != "autoscooter" || name != "chart" {
            assert!(list.contains(name), "{name} not listed: {list}");
        }
        let out = robodrome().args(["board", "render", game, name]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{game} {name}");
        assert!(out.stdout.starts_with(b"<svg"), "{game} {name}");
    }
    let f = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../roborally/courses/dizzy-dash.txt");
    let out = robodrome().args(["board", "render", "roborally"]).arg(&f).output().unwrap();
    assert!(out.stdout.starts_with(b"<svg"));
}

/// docs/security.md "Faults": `serve` refuses an existing empty database file with a clear
/// message (exit 2, the file untouched) and a file that is not SQLite even with `--init`.
#[test]
fn serve_refuses_an_empty_or_foreign_database_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let empty = dir.join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, b"not a database").unwrap();
    for (db, init, want) in [
        (&empty, false, "exists but is empty; start with --init"),
        (&notes, false, "is not an SQLite database"),
        (&notes, true, "is not an SQLite database"),
    ] {
        let mut cmd = robodrome();
        cmd.args(["serve", "--addr", "127.0.0.1:0", "--db"]).arg(db);
        if init {
            cmd.arg("--init");
        }
        let out = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(want), "{err}");
    }
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
    assert_eq!(std::fs::read(&notes).unwrap(), b"not a database");
}

#[test]
fn the_toy_game_plays_in_scenario_sim_and_tournament() {
    let f = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../toy/tests/golden/toy-3-first-to-three-wins.json");
    let out = robodrome().arg("scenario").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((s["game"].as_str(), s["phase"].as_str()), (Some("rps"), Some("over")));

    let out = robodrome()
        .args(["sim", "rps", "--games", "40", "--bots", "random,heuristic", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["games"], 40);
    assert_eq!(s["unfinished"], 0);
    let wins: u64 = s["wins_by_seat"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).sum();
    assert_eq!(wins, 40, "one winner a game (TOY-3)");

    let out = robodrome()
        .args([
            "tournament",
            "--game",
            "rps",
            "--bots",
            "random,heuristic",
            "--games",
            "20",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let t: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(t["pairings"][0]["games"], 20);

    let out = robodrome().args(["sim", "rps", "--players", "3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 to 2 players"));
}

/// BB-11: `sim bumping-bots --championship N [--teams]` plays championships and reports their
/// standings; a game without championships says so.
#[test]
fn sim_plays_bumping_bots_championships() {
    let args = [
        "sim",
        "bumping-bots",
        "--championship",
        "2",
        "--teams",
        "--players",
        "4",
        "--laps",
        "1",
        "--games",
        "2",
        "--bots",
        "heuristic",
        "--json",
    ];
    let out = robodrome().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["game"], "bumping-bots-championship");
    let d = &s["details"];
    assert_eq!(d["championships"], 2, "{s}");
    assert_eq!(d["average_points"].as_array().map(Vec::len), Some(4), "{s}");
    // Two races of 4 bots hand out 2 x (5 + 3 + 2 + 1) points per championship (BB-11.1),
    // unless bots tie; teams of 2 (BB-11.3).
    let total: f64 =
        d["average_points"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).sum();
    assert!(total <= 22.0 + 1e-9 && total > 0.0, "{s}");
    assert_eq!(d["average_team_points"].as_array().map(Vec::len), Some(2), "{s}");
    // Heuristic bots choose the best free place: the front places 0, 1, 2, 3 once a championship.
    assert_eq!(d["grid_places_chosen"], serde_json::json!([2, 2, 2, 2]), "{s}");
    let text = robodrome()
        .args(["sim", "bumping-bots", "--championship", "2", "--laps", "1", "--games", "1"])
        .output()
        .unwrap();
    assert_eq!(text.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&text.stdout).contains("championship standings"));
    let none = robodrome().args(["sim", "autoscooter", "--championship", "2"]).output().unwrap();
    assert_eq!(none.status.code(), Some(2), "{}", String::from_utf8_lossy(&none.stderr));
    assert!(String::from_utf8_lossy(&none.stderr).contains("has no championships"));
}
