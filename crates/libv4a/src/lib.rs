//! libv4a, the C library: the exports of the `v4a-ffi` crate (see `include/v4a.h`), linked
//! into a shared and a static library.

pub use v4a_ffi::*;
