//! Fuzz target `make_patch`: see `v4a_fuzz::checks::make_patch_round_trip` for the input encoding and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| v4a_fuzz::checks::make_patch_round_trip(data));
