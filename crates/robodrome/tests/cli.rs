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

/// A board file of a test, in the system's temporary directory.
fn board_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("robodrome-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A 9×9 Bumping Bots track (rows shifted as hexes are) with pieces drawn at `[q, r]`: row r is
/// line 3 + r, cell q at column 2q + r + 1.
fn track(pieces: &[(i32, i32, char)]) -> String {
    let mut text = String::from("name: test\nmap: 0\n");
    for r in 0..9 {
        text += &" ".repeat(r as usize);
        for q in 0..9 {
            text.push(pieces.iter().find(|p| (p.0, p.1) == (q, r)).map_or('.', |p| p.2));
            text.push(' ');
        }
        text += "\n";
    }
    text + "end\n"
}

fn check(path: &std::path::Path) -> (Option<i32>, String, String) {
    let out = robodrome().args(["board", "check"]).arg(path).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn board_check_finds_bb_12_errors_by_line_and_column_and_render_refuses_them() {
    // A fixed obstacle in the middle ([4,4]: line 7, column 13) touches no wall (BB-8.1); a
    // bumper at [1,2] (line 5, column 5) is one cell from the border (BB-8.4, BB-12).
    let path = board_file("bad.track", &track(&[(4, 4, '#'), (1, 2, 'B')]));
    let (code, out, _) = check(&path);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("bad.track:7:13: error: fixed obstacle at"), "{out}");
    assert!(out.contains("(BB-8.1)"), "{out}");
    assert!(out.contains("bad.track:5:5: error: bumper obstacle at"), "{out}");
    assert!(out.contains("(BB-8.4, BB-12)"), "{out}");
    // Loading it for play (a picture of it) is refused, naming the place.
    let r = robodrome().args(["board", "render", "bumping-bots"]).arg(&path).output().unwrap();
    assert_eq!(r.status.code(), Some(2));
    assert!(r.stdout.is_empty());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("line 7, column 13: error"), "{err}");
}

#[test]
fn board_check_warnings_exit_0_and_render_prints_them() {
    // Ten fixed obstacles along the border: the box holds 9 (BB-1.3), a warning only.
    let pieces: Vec<(i32, i32, char)> = (0..9).map(|q| (q, 0, '#')).chain([(0, 8, '#')]).collect();
    let path = board_file("many.track", &track(&pieces));
    let (code, out, _) = check(&path);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("many.track:2:1: warning: 10 fixed obstacles: the box holds 9 (BB-1.3)"),
        "{out}"
    );
    assert!(!out.contains("error"), "{out}");
    let r = robodrome().args(["board", "render", "bumping-bots"]).arg(&path).output().unwrap();
    assert_eq!(r.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&r.stdout).starts_with("<svg"));
    assert!(String::from_utf8_lossy(&r.stderr).contains("warning: 10 fixed obstacles"));
}

#[test]
fn board_check_reads_roborally_courses_and_autoscooter_rinks() {
    // Pit Maze has a pit at [3,0] (its first grid row): a flag there is an error at its line
    // (RR-2); a flag off the course too (RR-1.3).
    let path = board_file(
        "pits.txt",
        "course Pits\nplace pit-maze 0 0 0\nplace bay 0 12 0\nflag 3 0\nflag 99 99\n",
    );
    let (code, out, _) = check(&path);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("pits.txt:4:6: error: flag 1 at"), "{out}");
    assert!(out.contains("on a pit (RR-2)"), "{out}");
    assert!(out.contains("pits.txt:5:6: error: flag 2 at"), "{out}");
    // An Autoscooter rink of two cells: too few start spaces (AS-1.2), the second start off
    // the rink at its line and column, the size a warning (AS-1.1).
    let path = board_file(
        "tiny.json",
        "{\"cells\": [[0,0], [1,0]],\n \"starts\": [{\"at\": [0,0], \"facing\": 0},\n  {\"at\": [5,5], \"facing\": 0}]}\n",
    );
    let (code, out, _) = check(&path);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("tiny.json:3:3: error: start space 1 at"), "{out}");
    assert!(out.contains("error: 2 start spaces: each of the 8 cars needs one"), "{out}");
    assert!(out.contains("warning: the rink has 2 cells, the booklet's has 38 (AS-1.1)"), "{out}");
    // A file of no game's format.
    let path = board_file("what.txt", "hello\n");
    let (code, _, err) = check(&path);
    assert_eq!(code, Some(2));
    assert!(err.contains("--game"), "{err}");
    // Every shipped board file checks clean.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for f in [
        "crates/roborally/courses/grand-tour.txt",
        "crates/bumping-bots/tracks/factory.track",
        "crates/autoscooter/boards/standard.json",
    ] {
        let (code, out, _) = check(&root.join(f));
        assert_eq!((code, out.as_str()), (Some(0), ""), "{f}");
    }
}

#[test]
fn action_schema_errors_name_the_field_and_view_seats_must_exist() {
    let base = std::fs::read_to_string(golden("as-5.1-case-a-free-path.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&base).unwrap();
    // A value of the wrong type: the field, not only the action (conventions.md).
    let mut d = doc.clone();
    d["actions"][0]["car"] = serde_json::json!("one");
    let out = run_stdin(&d.to_string());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("actions[0].car: invalid type"), "{err}");
    // A field the action does not have is refused, by name (AS-8).
    let mut d = doc.clone();
    d["actions"][0]["rotate"] = serde_json::json!(1);
    let out = run_stdin(&d.to_string());
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("actions[0].rotate: unknown field `rotate`"), "{err}");
    // `--view 7` on a two-seat game: no such seat.
    let out = robodrome()
        .args(["scenario", "--view", "7"])
        .arg(golden("as-5.1-case-a-free-path.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--view: seat 7 does not exist: this game has 2 seats"), "{err}");
}

#[test]
fn beginners_with_more_than_two_players_is_refused() {
    let out = robodrome()
        .args(["sim", "autoscooter", "--players", "3", "--beginners", "--games", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("beginners' game (3 cars each, AS-1.3) is for 2 players, not 3"), "{err}");
}

/// Issue 17: `--jobs` is checked (1 to 256) and does not change the summary.
#[test]
fn sim_jobs_are_checked_and_change_nothing_but_the_speed() {
    for bad in ["0", "257", "many"] {
        let out = robodrome().args(["sim", "rps", "--games", "5", "--jobs", bad]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "--jobs {bad}");
    }
    let run = |jobs: &str| {
        let out = robodrome()
            .args(["sim", "roborally", "--robots", "8", "--games", "130", "--jobs", jobs, "--json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let mut s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(s["jobs"], jobs.parse::<u64>().unwrap());
        assert!(s["registers"].as_u64().unwrap() > 0, "{s}");
        for k in ["seconds", "games_per_second", "jobs"] {
            s[k] = serde_json::Value::Null;
        }
        s
    };
    assert_eq!(run("2"), run("1"));
}
