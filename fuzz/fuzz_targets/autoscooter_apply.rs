#![no_main]
//! `autoscooter_apply`: the body is `fuzzing::games::autoscooter` (crates/fuzzing, docs/fuzzing.md).

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::games::autoscooter(data));
