//! `v4a_result_line_diff` and the `v4a_line_diff` handle: the structured line diff of a
//! result as a few arrays (columns) instead of one struct and one copied string per line.

use crate::boundary::{ffi_boundary, free, handle, out_ptr, publish};
use crate::constants::{v4a_status, v4a_units, V4A_STATUS_INTERNAL, V4A_STATUS_OK};
use crate::error::{v4a_error, ErrorStore};
use crate::options::{options_in, v4a_options};
use crate::refine::units_in;
use crate::result::{diff_kind, segment_out, v4a_result, v4a_segment, v4a_segments};
use engine::{Error, LineDiff, Status};

/// The columns of a line diff, owned by its `v4a_line_diff`: entry `i` of the diff is
/// `kinds[i]`, `old_lines[i]`, `new_lines[i]`, `hunks[i]`, its text `starts[i]..ends[i]` and
/// its `segment_counts[i]` segments from `segments.ptr[segment_starts[i]]`. Every pointer is
/// NULL when `len` is 0.
///
/// An entry's text is a range of the result's source (`V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE`)
/// or of its new text (`V4A_DIFF_ADD`), terminator excluded: nothing is copied, so slice the
/// texts you already hold (`v4a_result_source`, `v4a_result_text`, or your copies of them).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_diff_columns {
    /// The number of entries.
    pub len: usize,
    /// `V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE` or `V4A_DIFF_ADD`, one byte each.
    pub kinds: *const u8,
    /// 1-based line in the original text; 0 for an added line.
    pub old_lines: *const u32,
    /// 1-based line in the new text; 0 for a deleted line.
    pub new_lines: *const u32,
    /// 1-based number of the hunk the line belongs to (changed lines and a hunk's context
    /// lines); 0 for none.
    pub hunks: *const u32,
    /// Start of the line's text in the source or new text, in the `units` asked for (bytes,
    /// or UTF-16 code units).
    pub starts: *const usize,
    /// End (exclusive) of the line's text, in the same unit.
    pub ends: *const usize,
    /// Index of the line's first segment in `segments`.
    pub segment_starts: *const u32,
    /// Number of the line's segments; 0 when the line is unchanged, unpaired, or refinement
    /// was not asked for or exceeded its limits.
    pub segment_counts: *const u32,
    /// The character-level segments, offsets relative to their line's start, in the same
    /// unit.
    pub segments: v4a_segments,
    /// The number of lines of each entry: 1, except for an equal entry of a
    /// `V4A_DIFF_STYLE_RUNS` diff, which stands for `counts[i]` equal lines (original lines
    /// `old_lines[i]` on, new lines `new_lines[i]` on) and whose text runs from the first
    /// line's start to the last line's end: the terminators between them included (LF, CRLF
    /// or lone CR, as in the texts), the last one's excluded.
    pub counts: *const u32,
}

/// The structured line diff of a result as columns (from `v4a_result_line_diff`), or the
/// error that prevented it.
#[derive(Debug)]
pub struct v4a_line_diff {
    outcome: Result<Stored, ErrorStore>,
}

#[derive(Debug)]
struct Stored {
    diff: LineDiff,
    kinds: Vec<u8>,
    segments: Vec<v4a_segment>,
}

/// The first element, NULL for an empty column.
fn ptr_of<T>(column: &[T]) -> *const T {
    if column.is_empty() {
        std::ptr::null()
    } else {
        column.as_ptr()
    }
}

impl Stored {
    fn columns(&self) -> v4a_diff_columns {
        let d = &self.diff;
        v4a_diff_columns {
            len: d.len(),
            kinds: ptr_of(&self.kinds),
            old_lines: ptr_of(&d.old_lines),
            new_lines: ptr_of(&d.new_lines),
            hunks: ptr_of(&d.hunks),
            starts: ptr_of(&d.starts),
            ends: ptr_of(&d.ends),
            segment_starts: ptr_of(&d.segment_starts),
            segment_counts: ptr_of(&d.segment_counts),
            segments: v4a_segments::of(&self.segments),
            counts: ptr_of(&d.counts),
        }
    }
}

/// The structured line diff of a successful result, as columns: the same entries (and, with
/// `options->refine`, segments) that applying with these options gives `v4a_result_diff`,
/// without copying a line. `options` gives `diff_style` (`V4A_DIFF_STYLE_NONE` is an empty
/// diff; `V4A_DIFF_STYLE_RUNS` the compact full diff, one entry per run of equal lines),
/// `diff_context`, `refine` and the refinement limits; NULL is the defaults (no diff).
/// Apply with `V4A_DIFF_STYLE_NONE` and ask for the diff here: the cheap path for a binding
/// that converts the diff into its own objects.
///
/// `units` is the unit of the offsets: `V4A_UNITS_BYTES`, or `V4A_UNITS_UTF16` for
/// JavaScript, C# or Java strings (one pass over the changed lines; free for ASCII texts).
///
/// Stores a new line diff in `*diff_out` (free it with `v4a_line_diff_free`) for every status
/// except `V4A_STATUS_INTERNAL`: `V4A_STATUS_NULL_ARGUMENT` for a NULL result (no handle),
/// `V4A_STATUS_INVALID_ARGUMENT` for a result that holds an error, a bad option or `units`.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_line_diff(
    result: *const v4a_result,
    options: *const v4a_options,
    units: v4a_units,
    diff_out: *mut *mut v4a_line_diff,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(diff_out)?;
        let result = handle(result)?;
        let outcome = (|| {
            let utf16 = units_in(units)?;
            let opts = options_in(options)?;
            let a = result.applied().ok_or_else(|| {
                Error::simple(
                    Status::InvalidArgument,
                    "the v4a_result holds an error, not a text: it has no line diff",
                )
            })?;
            let mut diff = a.line_diff(opts.diff, opts.refine.then_some(&opts.refine_limits));
            if utf16 {
                diff = diff.into_utf16(&a.source, &a.text);
            }
            let kinds = diff.kinds.iter().map(|&k| diff_kind(k) as u8).collect();
            let segments = diff.segments.iter().map(segment_out).collect();
            Ok::<_, Error>(Stored { diff, kinds, segments })
        })();
        if matches!(&outcome, Err(e) if e.status() == Status::Internal) {
            return Ok(v4a_status(V4A_STATUS_INTERNAL));
        }
        let d = v4a_line_diff { outcome: outcome.map_err(ErrorStore::new) };
        let status = match &d.outcome {
            Ok(_) => v4a_status(V4A_STATUS_OK),
            Err(e) => e.view().status,
        };
        publish(out, d);
        Ok(status)
    }
}

/// Frees a line diff and every view read from it. NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn v4a_line_diff_free(diff: *mut v4a_line_diff) {
    ffi_boundary! {
        free(diff);
        Ok(())
    }
}

/// The error, owned by the line diff; NULL on success or for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_line_diff_error(diff: *const v4a_line_diff) -> *const v4a_error {
    ffi_boundary! {
        Ok(match &handle(diff)?.outcome {
            Ok(_) => std::ptr::null(),
            Err(e) => e.view() as *const v4a_error,
        })
    }
}

/// The columns of the line diff (every pointer NULL and `len` 0 on error or for NULL); valid
/// until the line diff is freed.
#[no_mangle]
pub unsafe extern "C" fn v4a_line_diff_columns(diff: *const v4a_line_diff) -> v4a_diff_columns {
    ffi_boundary! {
        Ok(handle(diff)?.outcome.as_ref().map_or(EMPTY_COLUMNS, Stored::columns))
    }
}

const EMPTY_COLUMNS: v4a_diff_columns = v4a_diff_columns {
    len: 0,
    kinds: std::ptr::null(),
    old_lines: std::ptr::null(),
    new_lines: std::ptr::null(),
    hunks: std::ptr::null(),
    starts: std::ptr::null(),
    ends: std::ptr::null(),
    segment_starts: std::ptr::null(),
    segment_counts: std::ptr::null(),
    segments: v4a_segments::EMPTY,
    counts: std::ptr::null(),
};

impl crate::boundary::Fallback for v4a_diff_columns {
    fn on_null() -> Self {
        EMPTY_COLUMNS
    }
    fn on_panic() -> Self {
        EMPTY_COLUMNS
    }
}
