#![no_main]
//! `roborally_apply`: the body is `fuzzing::games::roborally` (crates/fuzzing, docs/fuzzing.md).

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::games::roborally(data));
