//! The invariants of v4a's fuzz targets, shared by the libFuzzer targets (`fuzz/fuzz_targets/`)
//! and the corpus replay test (`crates/ffi/src/fuzz_corpus.rs`, a plain `cargo test`). One
//! module per target; `common` holds the input encoding and the checks they share.
//!
//! Each public function decodes one input and panics when an invariant does not hold (a panic
//! inside the engine is a finding too). Inputs are decoded without any crate beyond v4a's own
//! dependencies, so the replay test needs nothing more than the main crate:
//!
//! * a fixed **header** of a few bytes selects options (missing bytes read as 0);
//! * the rest is split into **parts** at the byte `0xFF`, which never occurs in UTF-8 text, so
//!   mutations inside one part never move the boundary to the next. Where a part may hold
//!   invalid UTF-8 (the patch of `apply`), it runs to the end of the input instead.
//!
//! `fuzz/seed.py` writes seeds in this encoding from `tests/vectors/`; FUZZING.md documents
//! each target.

mod apply;
mod common;
mod ffi;
mod make_patch;
mod merge;
mod multi;
mod parse;
mod refine;
mod reverse;

use std::panic::{self, AssertUnwindSafe};

pub use apply::apply;
pub use ffi::ffi;
pub use make_patch::make_patch_round_trip;
pub use merge::merge;
pub use multi::multi;
pub use parse::parse;
pub use refine::refine;
pub use reverse::reverse_round_trip;

/// Separates the parts of an input.
pub const SEP: u8 = 0xFF;

/// A check: decodes one input and panics on a broken invariant.
pub type Check = fn(&[u8]);

/// Every fuzz target, by name (the name of its `fuzz/corpus/` folder).
pub const TARGETS: &[(&str, Check)] = &[
    ("parse", parse),
    ("apply", apply),
    ("multi", multi),
    ("refine", refine),
    ("make_patch", make_patch_round_trip),
    ("reverse", reverse_round_trip),
    ("ffi", ffi),
    ("merge", merge),
];

thread_local! {
    /// Set while [`run`] runs a check on this thread: its panics are caught and reported, so
    /// the panic hook stays quiet.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `check` on `data`, turning a panic into an `Err` with its message (the default panic
/// hook stays quiet for it; other threads' panics print as usual).
pub fn run(check: Check, data: &[u8]) -> Result<(), String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                default(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let r = panic::catch_unwind(AssertUnwindSafe(|| check(data)));
    QUIET.with(|q| q.set(false));
    r.map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".to_string())
    })
}
