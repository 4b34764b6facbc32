#![no_main]
//! `bumping_bots_track`: the body is `fuzzing::parsers::bumping_bots_track` (crates/fuzzing, docs/fuzzing.md).

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::parsers::bumping_bots_track(data));
