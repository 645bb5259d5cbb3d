//! Fuzz target `ffi`: see `v4a_fuzz::checks::ffi` for the input encoding and the invariants.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| v4a_fuzz::checks::ffi(data));
