//! `v4a_unified_diff`: a unified diff rendered from the parts of a result a binding copied.

use crate::boundary::{ffi_boundary, out_ptr, reserved_in, slice_in, str_in};
use crate::constants::v4a_status;
use crate::result::{v4a_change, v4a_changes};
use crate::text::v4a_text;
use crate::views::v4a_bytes;
use engine::{Error, Status};

/// The parts of a result that `v4a_unified_diff` renders, as a binding copied them before
/// freeing the result. Each text is a `(pointer, length)` input like any other (`{NULL, 0}`
/// is empty; for `path` and `destination`, absent) and must be UTF-8.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_unified_diff_input {
    /// The original text (`v4a_result_source`).
    pub source: v4a_bytes,
    /// The new text (`v4a_result_text`).
    pub text: v4a_bytes,
    /// The path as written in the patch (`v4a_result_path`); `{NULL, 0}` when absent.
    pub path: v4a_bytes,
    /// The move destination (`v4a_result_destination`); `{NULL, 0}` when absent.
    pub destination: v4a_bytes,
    /// The edit script, as `v4a_result_changes` gave it.
    pub changes: v4a_changes,
    /// Lines of context around each change (3 is the usual).
    pub context: u32,
    /// Must be 0.
    pub reserved: u32,
}

/// Renders a unified diff from the parts of a result that a binding copied before freeing it
/// (see `v4a_unified_diff_input`): the same text as `v4a_result_unified_diff` on the live
/// result. Stores a new text in `*text_out` (free it with `v4a_text_free`) for every status
/// except `V4A_STATUS_INTERNAL`. A NULL `input` is `V4A_STATUS_NULL_ARGUMENT`. An edit script
/// the texts cannot have (changes out of order, overlapping, or past the end of a text) is
/// `V4A_STATUS_INVALID_ARGUMENT`, its message naming the change.
#[no_mangle]
pub unsafe extern "C" fn v4a_unified_diff(
    input: *const v4a_unified_diff_input,
    text_out: *mut *mut v4a_text,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(text_out)?;
        let rendered = (|| {
            let input = input.as_ref().ok_or_else(|| {
                Error::simple(Status::NullArgument, "the v4a_unified_diff_input is NULL")
            })?;
            let source = str_in("source", input.source.ptr, input.source.len)?;
            let text = str_in("text", input.text.ptr, input.text.len)?;
            let path = str_in("path", input.path.ptr, input.path.len)?;
            let destination =
                str_in("destination", input.destination.ptr, input.destination.len)?;
            reserved_in("v4a_unified_diff_input.reserved", input.reserved)?;
            // SAFETY: the caller promises `changes.len` readable elements at `changes.ptr`.
            let changes: &[v4a_change] =
                unsafe { slice_in("changes", input.changes.ptr, input.changes.len)? };
            let changes: Vec<engine::Change> = changes
                .iter()
                .map(|c| engine::Change {
                    old_start: c.old_start as usize,
                    old_len: c.old_len as usize,
                    new_start: c.new_start as usize,
                    new_len: c.new_len as usize,
                    hunk: c.hunk as usize,
                })
                .collect();
            let opt = |s: &str| (!s.is_empty()).then_some(s.to_string());
            engine::report::unified_diff(
                source,
                text,
                opt(path).as_deref(),
                opt(destination).as_deref(),
                &changes,
                input.context as usize,
            )
        })();
        Ok(v4a_text::publish(out, rendered))
    }
}
