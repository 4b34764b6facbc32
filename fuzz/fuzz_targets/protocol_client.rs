#![no_main]
//! `protocol_client`: the body is `fuzzing::parsers::protocol_client` (crates/fuzzing, docs/fuzzing.md).

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::parsers::protocol_client(data));
