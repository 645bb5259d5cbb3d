//! Fuzz target `refine`: see `v4a_fuzz::checks::refine` for the input encoding and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| v4a_fuzz::checks::refine(data));
