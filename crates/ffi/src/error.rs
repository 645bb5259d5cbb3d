//! `v4a_error`, the error of a failed call, stored in the handle the call returned.

use crate::constants::{v4a_status, V4A_NO_OFFSET};
use crate::cstr::{nul_terminate, nul_terminate_opt};
use crate::views::{v4a_bytes, v4a_u32s};
use engine::error::Error;

/// The error of a failed call: a status, the message written for the model that produced
/// the patch, and the structured diagnostics. Owned by the handle it was read from.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_error {
    /// The status code (never `V4A_STATUS_OK`).
    pub status: v4a_status,
    /// 1-based line of the patch text (as the caller gave it) where the problem is; 0 when
    /// absent.
    pub patch_line: u32,
    /// 1-based number of the failing hunk within its file operation; 0 when absent.
    pub hunk: u32,
    /// For not-found errors: the first line (1-based) of the closest region of the file; 0
    /// when absent.
    pub closest_start: u32,
    /// For not-found errors: the last line (1-based, inclusive) of the closest region; 0 when
    /// absent.
    pub closest_end: u32,
    /// Always 0.
    pub reserved: u32,
    /// How similar the closest region is to the hunk's old side, from 0.0 to 1.0 (0.0 when
    /// absent).
    pub closest_similarity: f64,
    /// For `V4A_STATUS_INVALID_UTF8`: the offset of the first invalid byte in the input named
    /// by `input`. `V4A_NO_OFFSET` when absent.
    pub byte_offset: u64,
    /// The message, written for the model that produced the patch (always present).
    pub message: v4a_bytes,
    /// The file the failing operation works on, exactly as written in the patch; absent for a
    /// bare diff or an error that is not about one file operation.
    pub path: v4a_bytes,
    /// For `V4A_STATUS_INVALID_UTF8`: which input is at fault (`"source"`, `"patch"`, ...).
    pub input: v4a_bytes,
    /// For ambiguity: a concrete fix (an anchor line or context that makes the hunk unique).
    pub suggestion: v4a_bytes,
    /// For not-found errors: the hunk rewritten with the file's real lines, ready to resend.
    pub corrected_hunk: v4a_bytes,
    /// For ambiguity and overlap: the 1-based file lines of every candidate place.
    pub candidates: v4a_u32s,
}

/// An [`Error`] with its C view; the strings the view points to are owned here.
#[derive(Debug)]
pub(crate) struct ErrorStore {
    error: Error,
    view: v4a_error,
    _message: String,
    _path: Option<String>,
    _input: Option<String>,
    _suggestion: Option<String>,
    _corrected_hunk: Option<String>,
    _candidates: Vec<u32>,
}

/// A count or index as `uint32_t`, saturating (line numbers of the engine are `u32` already).
pub(crate) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl ErrorStore {
    pub(crate) fn new(error: Error) -> ErrorStore {
        let d = error.diagnostics();
        let mut message = error.message().to_string();
        let mut path = d.path.clone();
        let mut input = d.input.clone();
        let mut suggestion = d.suggestion.clone();
        let mut corrected_hunk = d.corrected_hunk.clone();
        let candidates = d.candidates.clone();
        let closest = d.closest.clone().unwrap_or_default();
        let view = v4a_error {
            status: v4a_status(error.status().code()),
            patch_line: d.patch_line.unwrap_or(0),
            hunk: d.hunk.unwrap_or(0),
            closest_start: closest.start_line,
            closest_end: closest.end_line,
            reserved: 0,
            closest_similarity: closest.similarity,
            byte_offset: d.byte_offset.unwrap_or(V4A_NO_OFFSET),
            message: nul_terminate(&mut message),
            path: nul_terminate_opt(&mut path),
            input: nul_terminate_opt(&mut input),
            suggestion: nul_terminate_opt(&mut suggestion),
            corrected_hunk: nul_terminate_opt(&mut corrected_hunk),
            candidates: v4a_u32s::of(&candidates),
        };
        ErrorStore {
            error,
            view,
            _message: message,
            _path: path,
            _input: input,
            _suggestion: suggestion,
            _corrected_hunk: corrected_hunk,
            _candidates: candidates,
        }
    }

    /// [`ErrorStore::new`] with another status code in the view (a workspace layer failure
    /// that has no engine status: `V4A_STATUS_IO_ERROR`).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn with_status(error: Error, status: u32) -> ErrorStore {
        let mut store = ErrorStore::new(error);
        store.view.status = v4a_status(status);
        store
    }

    /// The C view, valid as long as the store lives.
    pub(crate) fn view(&self) -> &v4a_error {
        &self.view
    }

    /// The Rust error.
    pub(crate) fn error(&self) -> &Error {
        &self.error
    }
}
