//! The pictures moved out of the rules crates unchanged: every shipped board and the car chart
//! drawn through the registry equal, byte for byte, the copies in docs/ (drawn by the rules
//! crates' renderers before the move; also checked with `robodrome board render` before and
//! after, see the commit). Redrawn once since, on purpose: the Bumping Bots tracks gained the
//! bumpers' arrow cells (BB-8.4) and the motorised obstacles' sense of rotation (BB-8.2), issue
//! 22 finding 11 (`docs/pictures/bumping-bots-factory.svg`, the only track with either).

use games::Registry;
use std::path::Path;

/// Where docs keep each picture (drawn by the rules crates' renderers before they moved).
fn doc_file(game: &str, name: &str) -> String {
    match (game, name) {
        ("autoscooter", "standard") => "autoscooter-rink.svg".into(),
        ("autoscooter", "chart") => "autoscooter-chart.svg".into(),
        // Championships are run on Bumping Bots' own tracks, drawn the same way.
        ("bumping-bots-championship", track) => format!("pictures/bumping-bots-{track}.svg"),
        _ => format!("pictures/{game}-{name}.svg"),
    }
}

#[test]
fn every_shipped_picture_is_byte_identical_to_the_docs_copy() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    let mut compared = 0;
    for kind in Registry::public().kinds() {
        let boards = kind.info.boards.iter().map(|b| b.id.as_str());
        for name in boards.chain(kind.extra_pictures().iter().copied()) {
            let file = dir.join(doc_file(kind.name(), name));
            let want = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let got = kind.render(name, None).unwrap();
            assert!(got == want, "{} {name} differs from {}", kind.name(), file.display());
            compared += 1;
        }
    }
    // 1 rink + the chart, 4 courses, 3 tracks (twice: races and championships).
    assert_eq!(compared, 12);
}

#[test]
fn a_board_file_is_drawn_like_the_shipped_board_it_copies() {
    let r = Registry::everything();
    let rr = r.get("roborally").unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../roborally/courses/dizzy-dash.txt"),
    )
    .unwrap();
    assert_eq!(
        rr.render("dizzy-dash.txt", Some(&text)).unwrap(),
        rr.render("dizzy-dash", None).unwrap()
    );
    assert!(rr.render("atlantis", None).unwrap_err().contains("no shipped RoboRally course"));
    assert!(r.get("rps").unwrap().render("anything", None).is_err());
}

#[test]
fn a_track_svg_draws_bumper_arrows_and_the_motors_sense_of_rotation() {
    // Factory (its track file): two bumpers, motorised obstacles at [8,3] cw, [11,13] ccw,
    // [20,13] cw.
    let t = bumping_bots::tracks::shipped("factory").unwrap();
    let svg = games::render::bumping_bots::render_svg(&t);
    assert_eq!(svg.matches("class=\"bumper-arrow\"").count(), 2 * 6, "six arrows a bumper");
    assert_eq!(svg.matches("class=\"turn cw\"").count(), 2);
    assert_eq!(svg.matches("class=\"turn ccw\"").count(), 1);
    // Clockwise on screen is the SVG arc's sweep flag 1, anticlockwise 0.
    for (class, flag) in [("turn cw", " 0 1 1 "), ("turn ccw", " 0 1 0 ")] {
        let g = svg.split(&format!("class=\"{class}\"")).nth(1).unwrap();
        let d = g.split("d=\"").nth(1).unwrap().split('"').next().unwrap();
        assert!(d.contains(flag), "{class}: {d}");
    }
    // The oval has neither.
    let oval =
        games::render::bumping_bots::render_svg(&bumping_bots::tracks::shipped("oval").unwrap());
    assert!(!oval.contains("bumper-arrow") && !oval.contains("class=\"turn"));
}

#[test]
fn a_track_svg_draws_every_cell() {
    let t = bumping_bots::tracks::shipped("factory").unwrap();
    let svg = games::render::bumping_bots::render_svg(&t);
    assert!(svg.starts_with("<svg"));
    // One polygon a cell, plus the bumpers' arrows and the motors' arrowheads.
    let extra = svg.matches("class=\"bumper-arrow\"").count() + svg.matches("class=\"turn").count();
    assert_eq!(svg.matches("<polygon").count(), t.cells.len() + extra);
}
