//! The text and JSON readers that take outside input: each must answer with a value or a typed
//! error, never panic, whatever the bytes. Where the command line or the server goes on with a
//! parsed value (validating, rendering, re-sending), the target does the same.

use std::sync::OnceLock;

/// Bytes as text, the way a file reader would take them: invalid UTF-8 is refused before any
/// parser sees it.
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// RoboRally board pieces (`docs/roborally-boards.md`): parse, validate, draw.
pub fn roborally_board(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(b) = roborally::board::parse_board(t) {
        let _ = roborally::board::validate::validate(&b);
        let _ = games::render::roborally::render_board(&b, "fuzz");
    }
}

/// RoboRally course files or single pieces, as `robodrome board render FILE` reads them:
/// assembled over the shipped pieces and validated, then drawn.
pub fn roborally_course(data: &[u8]) {
    static PIECES: OnceLock<Vec<roborally::board::parse::NamedBoard>> = OnceLock::new();
    let Some(t) = text(data) else { return };
    let pieces = PIECES.get_or_init(roborally::board::course::shipped_pieces);
    // A `course` text, assembled over the shipped pieces...
    if let Ok(c) = roborally::board::course::parse_course(t, pieces) {
        let _ = games::render::roborally::render_svg(&c);
    }
    // ...and the command line's reader, which also takes a single piece.
    if let Ok(c) = roborally::board::course::load_text(t) {
        let _ = games::render::roborally::render_svg(&c);
    }
    // ...and the checker the editor asks (pieces and docks of the file's own, findings' cells).
    let _ = roborally::board::course::inspect_text(t);
}

/// Bumping Bots ASCII tracks (`docs/bumping-bots-tracks.md`): load, validate (BB-12), build the
/// board a race runs on, draw (the command line draws a loaded track without validating it).
pub fn bumping_bots_track(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(spec) = bumping_bots::tracks::load(t) {
        let _ = bumping_bots::tracks::validate(&spec);
        let _ = bumping_bots::Board::build(&spec);
        let _ = games::render::bumping_bots::render_svg(&spec);
    }
}

/// Autoscooter board JSON: checked, read, the rink built, drawn when it is a board.
pub fn autoscooter_board(data: &[u8]) {
    // The checker of `board check` and the rink editor reads any text.
    if let Some(t) = text(data) {
        let _ = autoscooter::board::inspect(t);
    }
    if let Ok(spec) = serde_json::from_slice::<autoscooter::BoardSpec>(data)
        && autoscooter::Board::new(&spec).is_ok()
    {
        let _ = games::render::autoscooter::rink(&spec);
    }
}

/// Scenario files (`docs/scenarios.md`): read and run, as `robodrome scenario` does.
pub fn scenario(data: &[u8]) {
    let _ = scenario::run(data);
}

/// The protocol's client frames: parsed as the server parses them. A frame that parses is
/// re-sent (`to_frame`) and must parse again to the same message.
pub fn protocol_client(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(m) = protocol::ClientMsg::parse(t) {
        let again = protocol::ClientMsg::parse(&m.to_frame());
        assert!(again.is_ok(), "{m:?} was accepted but its own frame is refused: {again:?}");
    }
}
