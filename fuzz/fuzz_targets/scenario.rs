#![no_main]
//! `scenario`: the body is `fuzzing::parsers::scenario` (crates/fuzzing, docs/fuzzing.md).

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::parsers::scenario(data));
