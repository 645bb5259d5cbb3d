//! Fuzz target `multi`: see `v4a_fuzz::checks::multi` for the input encoding and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| v4a_fuzz::checks::multi(data));
