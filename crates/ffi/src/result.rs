//! The `v4a_result` handle (the outcome of one file: its new text and reports, or its error)
//! with the structs it hands out and their accessors.

use crate::boundary::{ffi_boundary, free, handle, out_ptr, publish};
use crate::constants::{
    v4a_diff_kind, v4a_hunk_flags, v4a_level, v4a_status, V4A_DIFF_ADD, V4A_DIFF_DELETE,
    V4A_DIFF_EQUAL, V4A_HUNK_ALREADY_APPLIED, V4A_HUNK_ANCHOR_IGNORED, V4A_HUNK_CONTEXT_RELAXED,
    V4A_HUNK_END_OF_FILE, V4A_HUNK_MERGED, V4A_HUNK_OUT_OF_ORDER, V4A_HUNK_REINDENTED,
    V4A_STATUS_OK,
};
use crate::cstr::{empty_text, nul_terminate, nul_terminate_opt, Arena};
use crate::error::{to_u32, v4a_error, ErrorStore};
use crate::text::v4a_text;
use crate::views::{array_view, v4a_bytes, v4a_u32s};
use std::borrow::Cow;

use engine::{ApplyResult, Change, DiffKind, DiffLine, Error, HunkReport, Segment, Status};

/// Character-level change of part of a line (see `v4a_options.refine`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_segment {
    /// `V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE` or `V4A_DIFF_ADD`.
    pub kind: v4a_diff_kind,
    /// Always 0.
    pub reserved: u32,
    /// Start offset in the line's text (at a grapheme-cluster boundary): in bytes, or in
    /// UTF-16 code units where a call's `units` asked for `V4A_UNITS_UTF16`.
    pub start: usize,
    /// End offset (exclusive) in the line's text, in the same unit.
    pub end: usize,
}

/// A view of segments owned by a result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_segments {
    /// The first segment (NULL when `len` is 0).
    pub ptr: *const v4a_segment,
    /// The number of segments.
    pub len: usize,
}

/// One entry of the structured line diff.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_diff_line {
    /// `V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE` or `V4A_DIFF_ADD`.
    pub kind: v4a_diff_kind,
    /// 1-based number of the hunk the line belongs to (changed lines and the context lines of
    /// a hunk); 0 for none.
    pub hunk: u32,
    /// 1-based line in the original text; 0 for an added line.
    pub old_line: u32,
    /// 1-based line in the new text; 0 for a deleted line.
    pub new_line: u32,
    /// The line's text, terminator excluded.
    pub text: v4a_bytes,
    /// Index of the line's first segment in `v4a_result_segments()`.
    pub segment_start: usize,
    /// Number of the line's segments; 0 when the line is unchanged, unpaired, or refinement
    /// was not requested or exceeded its limits.
    pub segment_count: usize,
}

/// A view of diff lines owned by a result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_diff_lines {
    /// The first entry (NULL when `len` is 0).
    pub ptr: *const v4a_diff_line,
    /// The number of entries.
    pub len: usize,
}

/// Where one hunk landed and how well it matched.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_hunk_report {
    /// First line of the original text the hunk covers (1-based). For a pure insertion
    /// (`old_len` 0), the line before which the new lines were inserted.
    pub old_start: u32,
    /// Number of original lines the hunk covers (context and removed).
    pub old_len: u32,
    /// First line of the hunk in the new text (1-based).
    pub new_start: u32,
    /// Number of lines the hunk occupies in the new text (context and added).
    pub new_len: u32,
    /// The level its old side matched at (`V4A_LEVEL_*`).
    pub level: v4a_level,
    /// The hunk's fuzz: its level's, its anchors', 1000 for an end-of-file hunk found
    /// elsewhere, 200 for anchors set aside, 300 per relaxed context line.
    pub fuzz: u32,
    /// Candidate places considered at the deciding level.
    pub candidates: u32,
    /// `V4A_HUNK_*` bits: re-indented, already applied, end of file, out of order, merged,
    /// anchor ignored, context relaxed.
    pub flags: v4a_hunk_flags,
    /// 1-based patch line where the hunk starts.
    pub patch_line: u32,
    /// Always 0.
    pub reserved: u32,
    /// For each old-side line (context and removed, in order), the strictest level
    /// (`V4A_LEVEL_*`) it matches at. For an already-applied hunk, the levels of its new side.
    pub line_levels: v4a_u32s,
}

/// A view of hunk reports owned by a result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_hunk_reports {
    /// The first report (NULL when `len` is 0).
    pub ptr: *const v4a_hunk_report,
    /// The number of reports.
    pub len: usize,
}

/// A run of changed lines of the edit script: `old_len` original lines from `old_start` were
/// replaced by `new_len` new lines from `new_start`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_change {
    /// First removed line of the original text (1-based, BOM excluded); for a pure insertion,
    /// the line before which lines were added.
    pub old_start: u32,
    /// Number of removed lines.
    pub old_len: u32,
    /// First added line of the new text (1-based); for a pure deletion, the line the removed
    /// lines would have preceded.
    pub new_start: u32,
    /// Number of added lines.
    pub new_len: u32,
    /// 1-based number of the hunk that made the change.
    pub hunk: u32,
}

/// A view of changes owned by a result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_changes {
    /// The first change (NULL when `len` is 0).
    pub ptr: *const v4a_change,
    /// The number of changes.
    pub len: usize,
}

array_view!(v4a_segments, v4a_segment);
array_view!(v4a_diff_lines, v4a_diff_line);
array_view!(v4a_hunk_reports, v4a_hunk_report);
array_view!(v4a_changes, v4a_change);

/// The outcome of a single-file apply (or of one file of a multi-file patch): the new text,
/// the original source and the reports on success, the error on failure.
#[derive(Debug)]
pub struct v4a_result {
    outcome: Result<Success, ErrorStore>,
}

/// The converted views of a successful [`ApplyResult`], pointing into buffers owned here.
#[derive(Debug)]
struct Success {
    /// Its strings NUL-terminated in place; kept for `unified_diff`. It owns its source: the
    /// caller's buffers need not outlive the call that made the result.
    applied: ApplyResult<'static>,
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

pub(crate) fn diff_kind(kind: DiffKind) -> v4a_diff_kind {
    match kind {
        DiffKind::Equal => V4A_DIFF_EQUAL,
        DiffKind::Delete => V4A_DIFF_DELETE,
        DiffKind::Add => V4A_DIFF_ADD,
    }
}

/// A segment as the C ABI hands it out.
pub(crate) fn segment_out(s: &Segment) -> v4a_segment {
    v4a_segment {
        kind: diff_kind(s.kind),
        reserved: 0,
        start: s.start,
        end: s.end,
    }
}

/// The hunk reports as the C ABI hands them out, and the line levels they point into (one
/// buffer for every hunk's levels).
fn hunk_reports(hunks: &[HunkReport]) -> (Vec<v4a_hunk_report>, Vec<u32>) {
    let line_levels: Vec<u32> = hunks
        .iter()
        .flat_map(|h| h.line_levels.iter().map(|l| *l as u32))
        .collect();
    let mut at = 0;
    let reports = hunks
        .iter()
        .map(|h| {
            let levels = &line_levels[at..at + h.line_levels.len()];
            at += h.line_levels.len();
            let flags = [
                (h.reindented, V4A_HUNK_REINDENTED),
                (h.already_applied, V4A_HUNK_ALREADY_APPLIED),
                (h.end_of_file, V4A_HUNK_END_OF_FILE),
                (h.out_of_order, V4A_HUNK_OUT_OF_ORDER),
                (h.merged, V4A_HUNK_MERGED),
                (h.anchor_ignored, V4A_HUNK_ANCHOR_IGNORED),
                (h.context_relaxed, V4A_HUNK_CONTEXT_RELAXED),
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
    (reports, line_levels)
}

/// The rows of the structured diff as the C ABI hands them out, each line's text copied into
/// the arena they point into.
fn diff_rows(a: &ApplyResult, rows: &[DiffLine]) -> (Vec<v4a_diff_line>, Arena) {
    let total = rows.iter().map(|d| a.line_text(d).len()).sum();
    let mut diff_text = Arena::with_capacity(total, rows.len());
    let offsets: Vec<usize> = rows
        .iter()
        .map(|d| diff_text.push(a.line_text(d)))
        .collect();
    let diff = rows
        .iter()
        .zip(offsets)
        .map(|(d, at)| v4a_diff_line {
            kind: diff_kind(d.kind),
            hunk: d.hunk.unwrap_or(0),
            old_line: d.old_line.unwrap_or(0),
            new_line: d.new_line.unwrap_or(0),
            text: diff_text.view(at, a.line_text(d).len()),
            segment_start: d.segments.start,
            segment_count: d.segments.len(),
        })
        .collect();
    (diff, diff_text)
}

/// The edit script as the C ABI hands it out.
fn changes_out(changes: &[Change]) -> Vec<v4a_change> {
    changes
        .iter()
        .map(|c| v4a_change {
            old_start: to_u32(c.old_start),
            old_len: to_u32(c.old_len),
            new_start: to_u32(c.new_start),
            new_len: to_u32(c.new_len),
            hunk: to_u32(c.hunk),
        })
        .collect()
}

/// `a` owning its source, with room for the NUL after it: a borrowed source (the single-file
/// calls borrow the caller's buffer, which need not outlive the call) is copied once, an owned
/// one (a multi-file patch's) is kept as it is.
fn owning_source(mut a: ApplyResult<'_>) -> ApplyResult<'static> {
    if let Cow::Borrowed(s) = a.source {
        let mut copy = String::with_capacity(s.len() + 1);
        copy.push_str(s);
        a.source = Cow::Owned(copy);
    }
    a.into_owned()
}

impl Success {
    fn new(a: ApplyResult<'_>) -> Success {
        let mut a = owning_source(a);
        let text = nul_terminate(&mut a.text);
        let source = nul_terminate(a.source.to_mut());
        let path = nul_terminate_opt(&mut a.path);
        let destination = nul_terminate_opt(&mut a.destination);
        let (hunks, line_levels) = hunk_reports(&a.hunks);
        let rows = std::mem::take(&mut a.diff);
        let (diff, diff_text) = diff_rows(&a, &rows);
        let segments = std::mem::take(&mut a.segments)
            .iter()
            .map(segment_out)
            .collect();
        let changes = changes_out(&a.changes);
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

    /// The Rust result, when the apply succeeded.
    pub(crate) fn applied(&self) -> Option<&ApplyResult<'static>> {
        self.success().map(|s| &s.applied)
    }

    pub(crate) fn status(&self) -> v4a_status {
        match &self.outcome {
            Ok(_) => v4a_status(V4A_STATUS_OK),
            Err(e) => e.view().status,
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

/// The new text: the empty text `{"", 0}` for a deleted file or when the result holds an
/// error; absent (`{NULL, 0}`) for a NULL result.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_text(result: *const v4a_result) -> v4a_bytes {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or_else(empty_text, |s| s.text))
    }
}

/// The original source, unchanged: rolling back reads this one view. The result's own copy
/// (made by the apply), so the buffer passed to `v4a_apply` may be freed once it returns. The
/// empty text `{"", 0}` for an added file or when the result holds an error; absent
/// (`{NULL, 0}`) for a NULL result.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_source(result: *const v4a_result) -> v4a_bytes {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or_else(empty_text, |s| s.source))
    }
}

/// The file's path as written in the patch; absent (`{NULL, 0}`) for a bare diff or an error.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_path(result: *const v4a_result) -> v4a_bytes {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or(v4a_bytes::ABSENT, |s| s.path))
    }
}

/// The `*** Move to:` destination as written in the patch; absent (`{NULL, 0}`) without one.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_destination(result: *const v4a_result) -> v4a_bytes {
    ffi_boundary! {
        Ok(handle(result)?.success().map_or(v4a_bytes::ABSENT, |s| s.destination))
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
