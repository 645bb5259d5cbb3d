//! Single-file apply and the `v4a_result` handle with its accessors.

use super::boundary::{bytes_in, enum_in, ffi_boundary, free, handle, out_ptr, publish, str_in};
use super::cstr::{empty_view, nul_terminate, nul_terminate_opt, Arena};
use super::error::{to_u32, ErrorStore};
use super::options::options_in;
use super::text::v4a_text;
use super::types::{
    v4a_bytes, v4a_change, v4a_changes, v4a_diff_line, v4a_diff_lines, v4a_error, v4a_hunk_report,
    v4a_hunk_reports, v4a_options, v4a_segment, v4a_segments, v4a_status, v4a_u32s,
};
use super::{
    V4A_DIFF_ADD, V4A_DIFF_DELETE, V4A_DIFF_EQUAL, V4A_HUNK_ALREADY_APPLIED, V4A_HUNK_END_OF_FILE,
    V4A_HUNK_OUT_OF_ORDER, V4A_HUNK_REINDENTED, V4A_STATUS_OK,
};
use engine::{ApplyResult, DiffKind, Error, Mode, Status};

/// The outcome of a single-file apply (or of one file of a multi-file patch): the new text,
/// the original source and the reports on success, the error on failure.
#[derive(Debug)]
pub struct v4a_result {
    outcome: Result<Success, ErrorStore>,
}

/// The converted views of a successful [`ApplyResult`], pointing into buffers owned here.
#[derive(Debug)]
struct Success {
    /// Its strings NUL-terminated in place; kept for `unified_diff`.
    applied: ApplyResult,
    text: v4a_bytes,
    source: v4a_bytes,
    path: v4a_bytes,
    destination: v4a_bytes,
    hunks: Vec<v4a_hunk_report>,
    _line_levels: Vec<u32>,
    diff: Vec<v4a_diff_line>,
    _diff_text: Arena,
    segments: Vec<v4a_segment>,
    changes: Vec<v4a_change>,
}

pub(crate) fn diff_kind(kind: DiffKind) -> u32 {
    match kind {
        DiffKind::Equal => V4A_DIFF_EQUAL,
        DiffKind::Delete => V4A_DIFF_DELETE,
        DiffKind::Add => V4A_DIFF_ADD,
    }
}

/// A 0-based index as a 1-based number, 0 when absent.
fn number(index: Option<usize>) -> u32 {
    index.map_or(0, |i| to_u32(i.saturating_add(1)))
}

impl Success {
    fn new(mut a: ApplyResult) -> Success {
        let text = nul_terminate(&mut a.text);
        let source = nul_terminate(&mut a.source);
        let path = nul_terminate_opt(&mut a.path);
        let destination = nul_terminate_opt(&mut a.destination);

        let line_levels: Vec<u32> = a
            .hunks
            .iter()
            .flat_map(|h| h.line_levels.iter().map(|l| *l as u32))
            .collect();
        let mut at = 0;
        let hunks = a
            .hunks
            .iter()
            .map(|h| {
                let levels = &line_levels[at..at + h.line_levels.len()];
                at += h.line_levels.len();
                let flags = [
                    (h.reindented, V4A_HUNK_REINDENTED),
                    (h.already_applied, V4A_HUNK_ALREADY_APPLIED),
                    (h.end_of_file, V4A_HUNK_END_OF_FILE),
                    (h.out_of_order, V4A_HUNK_OUT_OF_ORDER),
                ]
                .iter()
                .filter(|(on, _)| *on)
                .fold(0, |acc, (_, bit)| acc | bit);
                v4a_hunk_report {
                    old_start: h.old_start,
                    old_len: h.old_len,
                    new_start: h.new_start,
                    new_len: h.new_len,
                    level: h.level as u32,
                    fuzz: h.fuzz,
                    candidates: h.candidates,
                    flags,
                    patch_line: h.patch_line,
                    reserved: 0,
                    line_levels: v4a_u32s::of(levels),
                }
            })
            .collect();

        let diff_lines = std::mem::take(&mut a.diff);
        let total = diff_lines.iter().map(|d| a.line_text(d).len()).sum();
        let mut diff_text = Arena::with_capacity(total, diff_lines.len());
        let offsets: Vec<usize> = diff_lines
            .iter()
            .map(|d| diff_text.push(a.line_text(d)))
            .collect();
        let diff = diff_lines
            .iter()
            .zip(offsets)
            .map(|(d, at)| v4a_diff_line {
                kind: diff_kind(d.kind),
                hunk: number(d.hunk),
                old_line: d.old_line.unwrap_or(0),
                new_line: d.new_line.unwrap_or(0),
                text: diff_text.view(at, a.line_text(d).len()),
                segment_start: d.segments.start,
                segment_count: d.segments.len(),
            })
            .collect();
        let segments = std::mem::take(&mut a.segments)
            .iter()
            .map(|s| v4a_segment {
                kind: diff_kind(s.kind),
                reserved: 0,
                start: s.start,
                end: s.end,
            })
            .collect();
        let changes = a
            .changes
            .iter()
            .map(|c| v4a_change {
                old_start: to_u32(c.old.start.saturating_add(1)),
                old_len: to_u32(c.old.len()),
                new_start: to_u32(c.new.start.saturating_add(1)),
                new_len: to_u32(c.new.len()),
                hunk: to_u32(c.hunk.saturating_add(1)),
            })
            .collect();
        Success {
            applied: a,
            text,
            source,
            path,
            destination,
            hunks,
            _line_levels: line_levels,
            diff,
            _diff_text: diff_text,
            segments,
            changes,
        }
    }
}

impl v4a_result {
    pub(crate) fn new(outcome: Result<ApplyResult, Error>) -> v4a_result {
        v4a_result {
            outcome: outcome.map(Success::new).map_err(ErrorStore::new),
        }
    }

    fn success(&self) -> Option<&Success> {
        self.outcome.as_ref().ok()
    }

    pub(crate) fn status(&self) -> v4a_status {
        match &self.outcome {
            Ok(_) => v4a_status(V4A_STATUS_OK),
            Err(e) => v4a_status(e.view().status),
        }
    }
}

/// Stores a new result in `out` and returns its status.
pub(crate) fn publish_result(
    out: &mut *mut v4a_result,
    outcome: Result<ApplyResult, Error>,
) -> v4a_status {
    let result = v4a_result::new(outcome);
    let status = result.status();
    publish(out, result);
    status
}

/// The C ABI order of the modes.
const MODE_NAMES: &str =
    "V4A_MODE_UPDATE (0), V4A_MODE_CREATE (1), V4A_MODE_DELETE (2) or V4A_MODE_MOVE (3)";

/// Applies a single-file diff to `source`.
///
/// `diff` is a bare diff (hunks only) or a `*** Begin Patch` envelope naming exactly one file
/// whose operation agrees with `mode`: `V4A_MODE_UPDATE` applies the hunks,
/// `V4A_MODE_CREATE` builds a new file from the `+` lines (the source is ignored),
/// `V4A_MODE_DELETE` returns empty text and lists every source line as removed (the diff must
/// be empty or a `*** Delete File:` header), `V4A_MODE_MOVE` applies edits like update and
/// reports the destination. Any other mode is `V4A_STATUS_UNSUPPORTED_MODE`.
///
/// `source` and `diff` are `(pointer, length)` inputs; `(NULL, 0)` is empty; both must be
/// UTF-8 (`V4A_STATUS_INVALID_UTF8` with the byte offset otherwise). `options` may be NULL for
/// the defaults. Neither input is kept after the call returns.
///
/// Returns the status, and stores in `*result_out` a new result that holds the new text and
/// reports on success, or the error on failure. `*result_out` is set for every status except
/// `V4A_STATUS_INTERNAL` (then it is NULL); free it with `v4a_result_free`. A NULL
/// `result_out` is `V4A_STATUS_NULL_ARGUMENT`, and nothing is stored.
#[no_mangle]
pub unsafe extern "C" fn v4a_apply(
    source: *const u8,
    source_len: usize,
    diff: *const u8,
    diff_len: usize,
    mode: u32,
    options: *const v4a_options,
    result_out: *mut *mut v4a_result,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(result_out)?;
        let outcome = (|| {
            let source = bytes_in("source", source, source_len)?;
            let diff = bytes_in("diff", diff, diff_len)?;
            let mode = enum_in("mode", mode, &Mode::ALL, MODE_NAMES)
                .map_err(|e| Error::simple(Status::UnsupportedMode, e.message()))?;
            let options = options_in(options)?;
            engine::apply_bytes(source, diff, mode, &options)
        })();
        Ok(publish_result(out, outcome))
    }
}

/// `v4a_apply` with the mode given by name: `"update"`, `"create"`, `"delete"` or `"move"`
/// (the `mode` field of the one-file-per-call tool). Any other name is
/// `V4A_STATUS_UNSUPPORTED_MODE`, with a message for the model that names the valid modes.
/// The name is a `(pointer, length)` UTF-8 input; everything else is as `v4a_apply`.
#[no_mangle]
pub unsafe extern "C" fn v4a_apply_mode_name(
    source: *const u8,
    source_len: usize,
    diff: *const u8,
    diff_len: usize,
    mode_name: *const u8,
    mode_name_len: usize,
    options: *const v4a_options,
    result_out: *mut *mut v4a_result,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(result_out)?;
        let outcome = (|| {
            let source = bytes_in("source", source, source_len)?;
            let diff = bytes_in("diff", diff, diff_len)?;
            let mode: Mode = str_in("mode name", mode_name, mode_name_len)?.parse()?;
            let options = options_in(options)?;
            engine::apply_bytes(source, diff, mode, &options)
        })();
        Ok(publish_result(out, outcome))
    }
}

/// Frees a result made by `v4a_apply` or `v4a_apply_mode_name`, and every view read from it.
/// NULL is ignored. Callable from any thread, but not while another thread still uses the
/// result. Never pass a result borrowed from a result set (`v4a_file_result.result`).
#[no_mangle]
pub unsafe extern "C" fn v4a_result_free(result: *mut v4a_result) {
    ffi_boundary! {
        free(result);
        Ok(())
    }
}

/// The result's status: `V4A_STATUS_OK` on success, else its error's status.
/// `V4A_STATUS_NULL_ARGUMENT` for a NULL result.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_status(result: *const v4a_result) -> v4a_status {
    ffi_boundary! {
        Ok(handle(result)?.status())
    }
}

/// The error of a failed result, owned by the result; NULL on success or for a NULL result.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_error(result: *const v4a_result) -> *const v4a_error {
    ffi_boundary! {
        Ok(match &handle(result)?.outcome {
            Ok(_) => std::ptr::null(),
            Err(e) => e.view() as *const v4a_error,
        })
    }
}

/// The new text (empty for a deleted file, or when the result holds an error).
/// `{NULL, 0}` for a NULL result.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_text(result: *const v4a_result) -> v4a_bytes {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or_else(empty_view, |s| s.text))
    }
}

/// The original source, unchanged (empty for an added file, or when the result holds an
/// error): rolling back reads this one view. `{NULL, 0}` for a NULL result.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_source(result: *const v4a_result) -> v4a_bytes {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or_else(empty_view, |s| s.source))
    }
}

/// The file's path as written in the patch; absent (`{NULL, 0}`) for a bare diff or an error.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_path(result: *const v4a_result) -> v4a_bytes {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or(v4a_bytes::EMPTY, |s| s.path))
    }
}

/// The `*** Move to:` destination as written in the patch; absent (`{NULL, 0}`) without one.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_destination(result: *const v4a_result) -> v4a_bytes {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or(v4a_bytes::EMPTY, |s| s.destination))
    }
}

/// The total fuzz of the file (the sum of its hunks'); 0 for an error or a NULL result.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_fuzz(result: *const v4a_result) -> u32 {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or(0, |s| s.applied.fuzz))
    }
}

/// One report per hunk, in patch order (empty for an error, an added or a deleted file).
#[no_mangle]
pub unsafe extern "C" fn v4a_result_hunks(result: *const v4a_result) -> v4a_hunk_reports {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or(v4a_hunk_reports::EMPTY, |s| v4a_hunk_reports::of(&s.hunks)))
    }
}

/// The structured line diff, when `v4a_options.diff_style` asked for one (else empty).
#[no_mangle]
pub unsafe extern "C" fn v4a_result_diff(result: *const v4a_result) -> v4a_diff_lines {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or(v4a_diff_lines::EMPTY, |s| v4a_diff_lines::of(&s.diff)))
    }
}

/// The character-level segments that `v4a_diff_line.segment_start` and `segment_count`
/// index, when `v4a_options.refine` asked for them (else empty).
#[no_mangle]
pub unsafe extern "C" fn v4a_result_segments(result: *const v4a_result) -> v4a_segments {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or(v4a_segments::EMPTY, |s| v4a_segments::of(&s.segments)))
    }
}

/// The edit script: every run of changed lines, in file order (always computed).
#[no_mangle]
pub unsafe extern "C" fn v4a_result_changes(result: *const v4a_result) -> v4a_changes {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or(v4a_changes::EMPTY, |s| v4a_changes::of(&s.changes)))
    }
}

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

/// Renders the change as a unified diff (`---`/`+++`/`@@ -a,b +c,d @@`) with `context` lines
/// of context, for logs and review; empty when nothing changed. Stores a new text in
/// `*text_out` (free it with `v4a_text_free`) for every status except `V4A_STATUS_INTERNAL`;
/// a result that holds an error gives `V4A_STATUS_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_unified_diff(
    result: *const v4a_result,
    context: u32,
    text_out: *mut *mut v4a_text,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(text_out)?;
        let text = match result.as_ref() {
            None => Err(Error::simple(Status::NullArgument, "result is NULL")),
            Some(r) => match r.success() {
                Some(s) => Ok(s.applied.unified_diff(context as usize)),
                None => Err(Error::simple(
                    Status::InvalidArgument,
                    "the result holds an error: there is no change to render",
                )),
            },
        };
        Ok(v4a_text::publish(out, text))
    }
}
