//! The bodies of Robodrome's fuzz targets (`docs/fuzzing.md`), kept in the workspace so that
//! fmt, clippy and the tests cover them. `fuzz/` wraps each in a libFuzzer target
//! (coverage-guided, on the stable toolchain); this crate's tests replay the committed corpus
//! and every past crash through the same functions, so the plain test suite runs them too.
//!
//! Each target takes arbitrary bytes and panics only when a promise is broken: a panic in a
//! game crate or a parser, a rejected action that changed something, a listed action refused,
//! an accepted action that was not listed.

pub mod games;
pub mod parsers;

/// A target's body: arbitrary bytes in, a panic only for a broken promise.
pub type Body = fn(&[u8]);

/// Every target by name: the name is its directory under `fuzz/corpus/` and its binary in
/// `fuzz/fuzz_targets/`.
pub const TARGETS: &[(&str, Body)] = &[
    ("autoscooter_apply", games::autoscooter),
    ("roborally_apply", games::roborally),
    ("bumping_bots_apply", games::bumping_bots),
    ("roborally_board", parsers::roborally_board),
    ("roborally_course", parsers::roborally_course),
    ("bumping_bots_track", parsers::bumping_bots_track),
    ("autoscooter_board", parsers::autoscooter_board),
    ("scenario", parsers::scenario),
    ("protocol_client", parsers::protocol_client),
];

/// The target of that name.
pub fn target(name: &str) -> Option<Body> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
}
