//! Fuzz target `parse`: see `v4a_fuzz::checks::parse` for the input encoding and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| v4a_fuzz::checks::parse(data));
