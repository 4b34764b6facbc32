#![no_main]
//! `bumping_bots_apply`: the body is `fuzzing::games::bumping_bots` (crates/fuzzing, docs/fuzzing.md).

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzzing::games::bumping_bots(data));
