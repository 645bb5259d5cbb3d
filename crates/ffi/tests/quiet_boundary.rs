//! The C ABI never prints to the host's streams (SPEC §7). Each check runs in a child process
//! (this test binary again, with `V4A_QUIET_CHILD` naming the scenario) whose stderr is
//! captured: a panic inside an export, or a length no array can have, must leave it empty.
//! A control scenario (a panic outside any export) proves the capture sees what Rust's panic
//! hook prints, so the checks can fail.

use std::process::Command;

use v4a_ffi::*;

const CHILD: &str = "V4A_QUIET_CHILD";

/// Runs the scenario `name` in a child process; returns (stdout, stderr).
fn run_child(name: &str) -> (String, String) {
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env(CHILD, name)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("the child test process runs");
    assert!(out.status.success(), "child {name} failed: {out:?}");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The child side: does what `V4A_QUIET_CHILD` says and prints its result to stdout.
#[test]
fn child() {
    let Ok(name) = std::env::var(CHILD) else {
        return; // Run directly by the test harness: nothing to do.
    };
    let result = match name.as_str() {
        "control" => {
            let caught = std::panic::catch_unwind(|| panic!("control panic outside v4a"));
            format!("caught={}", caught.is_err())
        }
        "huge_changes" => huge_changes(),
        #[cfg(feature = "test-panic")]
        "test_panic" => {
            let a = v4a_test_panic().0;
            // A panic outside the boundary after one inside still reaches the previous hook.
            let caught = std::panic::catch_unwind(|| panic!("a host panic after the export"));
            format!("status={a} caught={}", caught.is_err())
        }
        other => format!("unknown scenario {other}"),
    };
    println!("V4A_CHILD_RESULT {result}");
}

/// `v4a_unified_diff` with an edit script of `SIZE_MAX` changes (a dangling, non-NULL pointer:
/// the length must be refused before anything is read).
fn huge_changes() -> String {
    let empty = v4a_bytes {
        ptr: std::ptr::null(),
        len: 0,
    };
    let input = v4a_unified_diff_input {
        source: empty,
        text: empty,
        path: empty,
        destination: empty,
        changes: v4a_changes {
            ptr: std::ptr::NonNull::<v4a_change>::dangling().as_ptr(),
            len: usize::MAX,
        },
        context: 3,
        reserved: 0,
    };
    let mut text: *mut v4a_text = std::ptr::null_mut();
    // SAFETY: `input` and `text` are valid; the length is what is under test.
    unsafe {
        let status = v4a_unified_diff(&input, &mut text).0;
        let error = v4a_text_error(text);
        let message = if error.is_null() {
            String::new()
        } else {
            let m = (*error).message;
            String::from_utf8_lossy(std::slice::from_raw_parts(m.ptr, m.len)).into_owned()
        };
        v4a_text_free(text);
        format!("status={status} message={message}")
    }
}

#[test]
fn the_control_panic_is_printed() {
    let (stdout, stderr) = run_child("control");
    assert!(stdout.contains("V4A_CHILD_RESULT caught=true"), "{stdout}");
    assert!(stderr.contains("control panic outside v4a"), "{stderr:?}");
}

#[test]
fn a_huge_length_is_refused_silently() {
    let (stdout, stderr) = run_child("huge_changes");
    let expected =
        format!("V4A_CHILD_RESULT status={V4A_STATUS_INVALID_ARGUMENT} message=changes:");
    assert!(stdout.contains(&expected), "{stdout}");
    assert!(stdout.contains(&usize::MAX.to_string()), "{stdout}");
    assert_eq!(stderr, "", "the C ABI printed to stderr");
}

#[cfg(feature = "test-panic")]
#[test]
fn a_panic_inside_an_export_is_silent() {
    let (stdout, stderr) = run_child("test_panic");
    let expected = format!("V4A_CHILD_RESULT status={V4A_STATUS_INTERNAL} caught=true");
    assert!(stdout.contains(&expected), "{stdout}");
    assert!(
        !stderr.contains("deliberate"),
        "the panic was printed: {stderr:?}"
    );
    // The hook delegates outside the boundary: the host's panics stay visible, and they are
    // the only thing printed (one panic, one backtrace).
    assert!(
        stderr.contains("a host panic after the export"),
        "{stderr:?}"
    );
    assert_eq!(stderr.matches("panicked at").count(), 1, "{stderr:?}");
    assert_eq!(stderr.matches("stack backtrace").count(), 1, "{stderr:?}");
}
