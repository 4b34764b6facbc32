#![no_main]
//! `autoscooter_board`: the body is `fuzzing::parsers::autoscooter_board` (crates/fuzzing, docs/fuzzing.md).

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::parsers::autoscooter_board(data));
