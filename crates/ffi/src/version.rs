//! The library's versions and the static names of statuses and levels.

use std::ffi::c_char;

use crate::boundary::ffi_boundary;
#[cfg(feature = "test-panic")]
use crate::constants::V4A_STATUS_OK;
use crate::constants::{v4a_level, v4a_status, V4A_ABI_VERSION};
use crate::names;
use engine::{Level, Status};

/// The version of the loaded library (`"0.1.0"`), a static NUL-terminated string.
#[no_mangle]
pub extern "C" fn v4a_version() -> *const c_char {
    ffi_boundary! {
        Ok(concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast::<c_char>())
    }
}

/// The ABI version of the loaded library; equal to `V4A_ABI_VERSION` when the header and the
/// library agree.
#[no_mangle]
pub extern "C" fn v4a_abi_version() -> u32 {
    ffi_boundary! {
        Ok(V4A_ABI_VERSION)
    }
}

/// The stable name of a status (`"AMBIGUOUS"` for `V4A_STATUS_AMBIGUOUS`), a static
/// NUL-terminated string; `"UNKNOWN"` for a code this library does not know.
#[no_mangle]
pub extern "C" fn v4a_status_str(status: v4a_status) -> *const c_char {
    ffi_boundary! {
        // The workspace layer's I/O status has no engine status.
        if status.0 == crate::constants::V4A_STATUS_IO_ERROR {
            return Ok(c"IO_ERROR".as_ptr());
        }
        Ok(Status::from_code(status.0).map_or(c"UNKNOWN", names::status_name).as_ptr())
    }
}

/// A one-line description of a status's category (`"ambiguous match"`), a static
/// NUL-terminated string; `"unknown status"` for a code this library does not know.
#[no_mangle]
pub extern "C" fn v4a_status_category(status: v4a_status) -> *const c_char {
    ffi_boundary! {
        if status.0 == crate::constants::V4A_STATUS_IO_ERROR {
            return Ok(c"I/O error".as_ptr());
        }
        Ok(Status::from_code(status.0).map_or(c"unknown status", names::status_category).as_ptr())
    }
}

/// The stable name of a match level (`"exact"`, `"trim_end"`, `"trim"`, `"collapse"`,
/// `"fold"`), a static NUL-terminated string; `"unknown"` for any other value.
#[no_mangle]
pub extern "C" fn v4a_level_str(level: v4a_level) -> *const c_char {
    ffi_boundary! {
        Ok(Level::from_index(level).map_or(c"unknown", names::level_name).as_ptr())
    }
}

/// Test-only (cargo feature `test-panic`, define `V4A_TEST_PANIC` before including the
/// header): panics inside the boundary, which must return `V4A_STATUS_INTERNAL`.
#[cfg(feature = "test-panic")]
#[no_mangle]
pub extern "C" fn v4a_test_panic() -> v4a_status {
    ffi_boundary! {
        if V4A_ABI_VERSION > 0 {
            panic!("v4a_test_panic: a deliberate panic to test the C boundary");
        }
        Ok(v4a_status(V4A_STATUS_OK))
    }
}
