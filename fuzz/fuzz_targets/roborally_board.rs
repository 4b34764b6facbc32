#![no_main]
//! `roborally_board`: the body is `fuzzing::parsers::roborally_board` (crates/fuzzing, docs/fuzzing.md).

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::parsers::roborally_board(data));
