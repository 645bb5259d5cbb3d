//! The C ABI: a thin shell that converts arguments, calls the Rust API and stores results in
//! opaque handles. `include/v4a.h` is generated from this module by cbindgen (see
//! `cbindgen.toml`); the conventions it documents (ownership, lifetimes, NULL, threads) are
//! implemented by the `boundary` module, which every export goes through.

#![allow(non_camel_case_types)]
// The safety contract of every export is the C header's documentation, generated from these
// doc comments: ownership, lifetimes and the (pointer, length) rules.
#![allow(clippy::missing_safety_doc)]

// Declared in the order of the header: options, single-file apply and its result, texts,
// multi-file patches, generation, the tool-calling kit.
mod boundary;
mod cstr;
mod error;
mod names;
mod types;

mod generate;
mod options;
mod patch;
mod result;
mod text;
mod tools;
#[cfg(target_arch = "wasm32")]
mod wasm;

use std::ffi::c_char;

use boundary::ffi_boundary;
pub use generate::*;
pub use options::{v4a_generate_options_init, v4a_options_init};
pub use patch::*;
pub use result::*;
pub use text::*;
pub use tools::{v4a_file_grammar, v4a_grammar, v4a_instructions, v4a_tool_schema};
pub use types::*;

use engine::{Level, Status};

/// Major version of the library (`Cargo.toml`).
pub const V4A_VERSION_MAJOR: u32 = 0;
/// Minor version of the library.
pub const V4A_VERSION_MINOR: u32 = 1;
/// Patch version of the library.
pub const V4A_VERSION_PATCH: u32 = 0;
/// The ABI version of this header: incremented on every incompatible change of a function,
/// struct or constant. Compare with `v4a_abi_version()` at startup.
pub const V4A_ABI_VERSION: u32 = 1;

/// Success.
pub const V4A_STATUS_OK: u32 = 0;
/// An argument is out of range or inconsistent: a `uint32_t` value that names no constant, a
/// `struct_size` this library does not know, a multi-file patch given to `v4a_apply`, a
/// source count that does not match the operations.
pub const V4A_STATUS_INVALID_ARGUMENT: u32 = 1;
/// A required pointer was NULL (or NULL with a non-zero length).
pub const V4A_STATUS_NULL_ARGUMENT: u32 = 2;
/// An input is not valid UTF-8; `v4a_error.byte_offset` is the first invalid byte and
/// `v4a_error.input` names the input.
pub const V4A_STATUS_INVALID_UTF8: u32 = 3;
/// The patch does not follow the V4A grammar; `v4a_error.patch_line` is the line.
pub const V4A_STATUS_PATCH_SYNTAX: u32 = 4;
/// The patch starts with `*** Begin Patch` but has no `*** End Patch`.
pub const V4A_STATUS_TRUNCATED_PATCH: u32 = 5;
/// The mode is not update, create, delete or move.
pub const V4A_STATUS_UNSUPPORTED_MODE: u32 = 6;
/// A hunk's old side was not found; the error has the closest region and a corrected hunk.
pub const V4A_STATUS_CONTEXT_NOT_FOUND: u32 = 7;
/// An `@@` anchor line was not found.
pub const V4A_STATUS_ANCHOR_NOT_FOUND: u32 = 8;
/// A hunk or anchor matches several places; the error lists every candidate and a fix.
pub const V4A_STATUS_AMBIGUOUS: u32 = 9;
/// Two hunks change the same lines.
pub const V4A_STATUS_OVERLAPPING_HUNKS: u32 = 10;
/// The change is already there (an error only with `already_applied_is_error`).
pub const V4A_STATUS_ALREADY_APPLIED: u32 = 11;
/// The total fuzz exceeds `max_fuzz`.
pub const V4A_STATUS_FUZZ_LIMIT: u32 = 12;
/// Locating a hunk exceeded `search_budget`.
pub const V4A_STATUS_SEARCH_BUDGET: u32 = 13;
/// An operation reads a file whose source was not supplied (`present = 0`).
pub const V4A_STATUS_MISSING_SOURCE: u32 = 14;
/// Two operations of one patch touch the same path.
pub const V4A_STATUS_DUPLICATE_PATH: u32 = 15;
/// A bug in v4a: a panic was caught at the boundary. Please report it.
pub const V4A_STATUS_INTERNAL: u32 = 16;
/// An `*** Add File` or `*** Move to` names a file that already exists (overwriting it would lose it), unless the caller allows overwriting.
pub const V4A_STATUS_FILE_EXISTS: u32 = 17;
/// Base-aware apply: a hunk changes lines that the current text also changed since the base.
pub const V4A_STATUS_CONFLICT: u32 = 18;
/// Workspace layer: a file changed on disk after it was read; nothing was written.
pub const V4A_STATUS_CHANGED_ON_DISK: u32 = 19;
/// Workspace layer: a path leaves the root, goes through a link out of it, or names version-control metadata.
pub const V4A_STATUS_UNSAFE_PATH: u32 = 20;
/// Workspace layer: another apply holds the root's lock.
pub const V4A_STATUS_LOCKED: u32 = 21;
/// The matched lines admit no consistent map from the patch's indentation to the file's, so added lines cannot be indented safely.
pub const V4A_STATUS_INCONSISTENT_INDENTATION: u32 = 22;

/// Mode of `v4a_apply`: apply the diff's hunks to the source.
pub const V4A_MODE_UPDATE: u32 = 0;
/// Mode of `v4a_apply`: build a new file from the diff's `+` lines; the source is ignored.
pub const V4A_MODE_CREATE: u32 = 1;
/// Mode of `v4a_apply`: return empty text and list every source line as removed.
pub const V4A_MODE_DELETE: u32 = 2;
/// Mode of `v4a_apply`: apply edits like update and report the destination.
pub const V4A_MODE_MOVE: u32 = 3;

/// Match level: bytes equal (line terminator excluded). Fuzz 0.
pub const V4A_LEVEL_EXACT: u32 = 0;
/// Match level: equal after removing trailing whitespace. Fuzz 1.
pub const V4A_LEVEL_TRIM_END: u32 = 1;
/// Match level: equal after removing leading and trailing whitespace. Fuzz 10.
pub const V4A_LEVEL_TRIM: u32 = 2;
/// Match level: trimmed, every internal whitespace run one space. Fuzz 50.
pub const V4A_LEVEL_COLLAPSE: u32 = 3;
/// Match level: collapsed after Unicode folding (NFKC, quotes, dashes, spaces, zero-width
/// characters). Fuzz 100.
pub const V4A_LEVEL_FOLD: u32 = 4;

/// `v4a_options.max_fuzz`: no limit.
pub const V4A_NO_FUZZ_LIMIT: u32 = u32::MAX;
/// `v4a_error.byte_offset`: no offset.
pub const V4A_NO_OFFSET: u64 = 0xFFFF_FFFF_FFFF_FFFF;

/// `v4a_options.add_file_line_ending`: `\n`.
pub const V4A_LINE_ENDING_LF: u32 = 0;
/// `v4a_options.add_file_line_ending`: `\r\n`.
pub const V4A_LINE_ENDING_CRLF: u32 = 1;

/// `v4a_options.diff_style`: no structured diff (the cheapest).
pub const V4A_DIFF_STYLE_NONE: u32 = 0;
/// `v4a_options.diff_style`: every line of the file.
pub const V4A_DIFF_STYLE_FULL: u32 = 1;
/// `v4a_options.diff_style`: changed lines with `diff_context` lines of context.
pub const V4A_DIFF_STYLE_CHANGES: u32 = 2;

/// Kind of a diff line or segment: unchanged.
pub const V4A_DIFF_EQUAL: u32 = 0;
/// Kind of a diff line or segment: removed (old side only).
pub const V4A_DIFF_DELETE: u32 = 1;
/// Kind of a diff line or segment: added (new side only).
pub const V4A_DIFF_ADD: u32 = 2;

/// `v4a_hunk_report.flags`: added lines were re-indented to the file's indentation.
pub const V4A_HUNK_REINDENTED: u32 = 1;
/// `v4a_hunk_report.flags`: the change was already present; nothing was changed.
pub const V4A_HUNK_ALREADY_APPLIED: u32 = 2;
/// `v4a_hunk_report.flags`: placed at the end of the file.
pub const V4A_HUNK_END_OF_FILE: u32 = 4;
/// `v4a_hunk_report.flags`: found before the previous hunk (out of file order).
pub const V4A_HUNK_OUT_OF_ORDER: u32 = 8;

/// File operation: `*** Add File`.
pub const V4A_OP_ADD: u32 = 0;
/// File operation: `*** Delete File`.
pub const V4A_OP_DELETE: u32 = 1;
/// File operation: `*** Update File` (with an optional `*** Move to`).
pub const V4A_OP_UPDATE: u32 = 2;

/// Path class: relative, and stays inside the root (`src/a.rs`, `a/../b`).
pub const V4A_PATH_RELATIVE: u32 = 0;
/// Path class: absolute (`/etc/passwd`, `\\server\share`).
pub const V4A_PATH_ABSOLUTE: u32 = 1;
/// Path class: relative but climbs out of the root with `..`.
pub const V4A_PATH_PARENT_ESCAPE: u32 = 2;
/// Path class: empty or only whitespace.
pub const V4A_PATH_EMPTY: u32 = 3;
/// Path class: contains a NUL byte.
pub const V4A_PATH_NUL: u32 = 4;
/// Path class: starts with a Windows drive prefix (`C:`).
pub const V4A_PATH_DRIVE_PREFIX: u32 = 5;

/// Tool flavour: OpenAI function calling (strict JSON Schema).
pub const V4A_FLAVOR_OPENAI: u32 = 0;
/// Tool flavour: OpenAI custom (freeform) tool with a Lark grammar.
pub const V4A_FLAVOR_OPENAI_CUSTOM: u32 = 1;
/// Tool flavour: Anthropic tool use.
pub const V4A_FLAVOR_ANTHROPIC: u32 = 2;
/// Tool flavour: Model Context Protocol.
pub const V4A_FLAVOR_MCP: u32 = 3;

/// Tool shape: the whole patch in one call (`input`), tool `apply_patch`.
pub const V4A_SHAPE_INPUT: u32 = 0;
/// Tool shape: one file per call (`path`, `mode`, `diff`), tool `patch_file`.
pub const V4A_SHAPE_FILE: u32 = 1;

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
        Ok(Status::from_code(status.0).map_or(c"UNKNOWN", names::status_name).as_ptr())
    }
}

/// A one-line description of a status's category (`"ambiguous match"`), a static
/// NUL-terminated string; `"unknown status"` for a code this library does not know.
#[no_mangle]
pub extern "C" fn v4a_status_category(status: v4a_status) -> *const c_char {
    ffi_boundary! {
        Ok(Status::from_code(status.0).map_or(c"unknown status", names::status_category).as_ptr())
    }
}

/// The stable name of a match level (`"exact"`, `"trim_end"`, `"trim"`, `"collapse"`,
/// `"fold"`), a static NUL-terminated string; `"unknown"` for any other value.
#[no_mangle]
pub extern "C" fn v4a_level_str(level: u32) -> *const c_char {
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

#[cfg(test)]
mod tests;

// The fuzz targets' corpora replayed as unit tests.
#[cfg(test)]
extern crate self as v4a_ffi;
#[cfg(test)]
mod fuzz_corpus;
