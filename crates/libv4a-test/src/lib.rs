//! libv4a_test, the library the C tests link: every export of libv4a (`v4a-ffi`) and the
//! test-only `v4a_test_panic`, which must return `V4A_STATUS_INTERNAL`.

pub use v4a_ffi::*;
