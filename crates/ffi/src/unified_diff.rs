//! `v4a_unified_diff`: a unified diff rendered from the parts of a result a binding copied.

use crate::boundary::{ffi_boundary, out_ptr, str_in};
use crate::constants::v4a_status;
use crate::result::v4a_change;
use crate::text::v4a_text;
use engine::{Error, Status};

/// Renders a unified diff from the parts of a result that a binding copied before freeing it:
/// the original `source` and new `text`, the `path` and move `destination` as written
/// (`(NULL, 0)` when absent) and the edit script (`changes`, as `v4a_result_changes` gave it).
/// The same text as `v4a_result_unified_diff` on the live result. Stores a new text in
/// `*text_out` (free it with `v4a_text_free`) for every status except `V4A_STATUS_INTERNAL`.
/// An edit script the texts cannot have (changes out of order, overlapping, or past the end
/// of a text) is `V4A_STATUS_INVALID_ARGUMENT`, its message naming the change.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn v4a_unified_diff(
    source: *const u8,
    source_len: usize,
    text: *const u8,
    text_len: usize,
    path: *const u8,
    path_len: usize,
    destination: *const u8,
    destination_len: usize,
    changes: *const v4a_change,
    changes_len: usize,
    context: u32,
    text_out: *mut *mut v4a_text,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(text_out)?;
        let rendered = (|| {
            let source = str_in("source", source, source_len)?;
            let text = str_in("text", text, text_len)?;
            let path = str_in("path", path, path_len)?;
            let destination = str_in("destination", destination, destination_len)?;
            if changes_len > 0 && changes.is_null() {
                return Err(Error::simple(
                    Status::NullArgument,
                    format!("changes is NULL but its length is {changes_len}"),
                ));
            }
            let changes: &[v4a_change] = if changes_len == 0 {
                &[]
            } else {
                // SAFETY: non-NULL, and the caller promises `changes_len` readable elements.
                unsafe { std::slice::from_raw_parts(changes, changes_len) }
            };
            let changes: Vec<engine::Change> = changes
                .iter()
                .map(|c| {
                    let old = c.old_start.saturating_sub(1) as usize;
                    let new = c.new_start.saturating_sub(1) as usize;
                    engine::Change {
                        old: old..old.saturating_add(c.old_len as usize),
                        new: new..new.saturating_add(c.new_len as usize),
                        hunk: c.hunk.saturating_sub(1) as usize,
                    }
                })
                .collect();
            let opt = |s: &str| (!s.is_empty()).then_some(s.to_string());
            engine::report::unified_diff(
                source,
                text,
                opt(path).as_deref(),
                opt(destination).as_deref(),
                &changes,
                context as usize,
            )
        })();
        Ok(v4a_text::publish(out, rendered))
    }
}
