//! Fuzz target `merge`: see `v4a_fuzz::checks::merge` for the input encoding and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| v4a_fuzz::checks::merge(data));
