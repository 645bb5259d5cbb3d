//! Fuzz target `reverse`: see `v4a_fuzz::checks::reverse_round_trip` for the input encoding and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| v4a_fuzz::checks::reverse_round_trip(data));
