//! Track files (`docs/bumping-bots-tracks.md`): loader errors, the racing-line computation
//! (BB-2.1), the BB-12 validator, the shipped tracks, SVG and random races.

use bumping_bots::track::Board;
use bumping_bots::tracks::{SHIPPED, load, shipped, validate};
use grid::Hex;

const SMALL: &str = "name: ring\nlaps: 3\nmap: 0\n  . . . .\n . .   . .\n  . . . .\nend\nfinish: 1 0 0\ngrid: 1 0 0\n";

#[test]
fn loads_a_small_ring() {
    let t = load(SMALL).expect("loads");
    assert_eq!(t.name.as_deref(), Some("ring"));
    assert_eq!(t.laps, 3);
    assert_eq!(t.cells.len(), 12);
    // Column x of row r holds q = (x - r) / 2: row 0 starts at column 2.
    assert!(t.cells.iter().any(|c| c.at == Hex::new(1, 0)));
    Board::build(&t).expect("builds");
}

#[test]
fn bb_2_1_progress_and_lane_are_computed() {
    let t = load(SMALL).unwrap();
    let get = |q, r| t.cells.iter().find(|c| c.at == Hex::new(q, r)).unwrap();
    // Just past the line: 0; just behind it: 1000 (the whole lap).
    assert_eq!(get(2, 0).progress, Some(0));
    assert_eq!(get(1, 0).progress, Some(1000));
    // Every cell touches the hole in the middle of this ring: lane 0.
    assert!(t.cells.iter().all(|c| c.lane == Some(0) || c.lane == Some(1)));
    let oval = shipped("oval").unwrap();
    let lanes: Vec<i32> = oval.cells.iter().map(|c| c.lane.unwrap()).collect();
    assert_eq!(lanes.iter().max(), Some(&3), "the oval has four lanes");
}

#[test]
fn loader_errors_say_where_and_what() {
    let cases = [
        ("name: x\nspeed: 3\n", 2, "unknown keyword"),
        ("map: 0\n. x\nend\n", 2, "expected . # o B M"),
        ("map: 0\n . .\nend\n", 2, "other parity"),
        ("map: 0\n. .\n", 2, "not closed"),
        ("wall: 1 2\n", 1, "q r side"),
        ("grid: 1 2 7\n", 1, "direction is 0..5"),
        ("laps: many\n", 1, "number of laps"),
    ];
    for (text, line, what) in cases {
        let e = load(text).expect_err(text);
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.to_string().contains(what), "{text:?}: {e}");
    }
    let e = load("map: 0\n. M .\nend\n").unwrap_err();
    assert!(e.message.contains("motorised"), "{e}");
}

#[test]
fn bb_12_validator() {
    // A fixed obstacle in the middle of a wide board touches no wall.
    let mut text = String::from("map: 0\n");
    for r in 0..9 {
        text += &" ".repeat(r);
        text += &(0..9)
            .map(|q| {
                if r == 4 && q == 2 {
                    "# "
                } else if r == 4 && q == 6 {
                    "B "
                } else {
                    ". "
                }
            })
            .collect::<String>();
        text += "\n";
    }
    text += "end\n";
    let v = validate(&load(&text).unwrap());
    assert!(v.errors.iter().any(|e| e.contains("fixed") && e.contains("BB-8.1")), "{:?}", v.errors);
    assert!(v.errors.iter().any(|e| e.contains("bumper") && e.contains("BB-12")), "{:?}", v.errors);
    // A one-cell passage is a warning only.
    let narrow = load("map: 0\n. . . . .\nend\n").unwrap();
    let v = validate(&narrow);
    assert!(v.errors.is_empty());
    assert!(!v.warnings.is_empty());
    // A motorised obstacle whose sweep holds another obstacle.
    let mut text = String::from("map: 0\n");
    for r in 0..9 {
        text += &" ".repeat(r);
        text += &(0..9)
            .map(|q| {
                if r == 4 && q == 4 {
                    "M "
                } else if r == 4 && q == 5 {
                    "o "
                } else {
                    ". "
                }
            })
            .collect::<String>();
        text += "\n";
    }
    text += "end\nmotorised: 4 4 1 cw\n";
    let v = validate(&load(&text).unwrap());
    assert!(v.errors.iter().any(|e| e.contains("sweep")), "{:?}", v.errors);
}

#[test]
fn shipped_tracks_have_what_they_promise() {
    assert_eq!(SHIPPED.len(), 3);
    let factory = shipped("factory").unwrap();
    for kind in ["motorised", "mobile", "bumper"] {
        assert!(
            factory.obstacles.iter().any(|o| serde_json::to_value(o.kind).unwrap() == kind),
            "{kind}"
        );
    }
    let chicane = shipped("chicane").unwrap();
    assert!(chicane.obstacles.iter().any(|o| serde_json::to_value(o.kind).unwrap() == "fixed"));
    assert!(shipped("nowhere").is_none());
}
