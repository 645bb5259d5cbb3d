//! The error of a failed call, stored in the handle the call returned.

use super::cstr::{nul_terminate, nul_terminate_opt};
use super::types::{v4a_error, v4a_u32s};
use super::V4A_NO_OFFSET;
use engine::error::Error;

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
            status: error.status().code(),
            patch_line: d.patch_line.unwrap_or(0),
            hunk: d.hunk.map_or(0, |h| to_u32(h.saturating_add(1))),
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

    /// The C view, valid as long as the store lives.
    pub(crate) fn view(&self) -> &v4a_error {
        &self.view
    }

    /// The Rust error.
    pub(crate) fn error(&self) -> &Error {
        &self.error
    }
}
