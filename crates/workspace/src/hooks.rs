//! Test hooks, compiled into debug builds only (the tests run debug builds; release builds
//! have neither the code nor the variables):
//!
//! - `V4A_TEST_SLOW_MS=N` sleeps N milliseconds before each step of a write (creating a
//!   temporary file, replacing a file, removing one), so that tests can race a slow apply
//!   and kill it midway;
//! - `V4A_TEST_FAIL_WRITE=PATH` makes the replacement or removal of PATH (as written in the
//!   patch) fail, to check that a failure midway leaves every file as it was.

use std::io;

/// Sleeps before a step when `V4A_TEST_SLOW_MS` asks for it (debug builds only).
#[cfg(debug_assertions)]
pub(crate) fn pause() {
    if let Some(ms) = std::env::var("V4A_TEST_SLOW_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// Fails the step on `shown` when `V4A_TEST_FAIL_WRITE` names it (debug builds only).
#[cfg(debug_assertions)]
pub(crate) fn fail(shown: &str) -> io::Result<()> {
    match std::env::var("V4A_TEST_FAIL_WRITE") {
        Ok(p) if p == shown => Err(io::Error::other(
            "injected failure (V4A_TEST_FAIL_WRITE, debug builds only)",
        )),
        _ => Ok(()),
    }
}

#[cfg(not(debug_assertions))]
pub(crate) fn pause() {}

#[cfg(not(debug_assertions))]
pub(crate) fn fail(_shown: &str) -> io::Result<()> {
    Ok(())
}
