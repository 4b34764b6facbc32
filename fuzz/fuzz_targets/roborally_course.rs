#![no_main]
//! `roborally_course`: the body is `fuzzing::parsers::roborally_course` (crates/fuzzing, docs/fuzzing.md).

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::parsers::roborally_course(data));
