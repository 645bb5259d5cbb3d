//! The fixed-width structs that cross the C boundary, and their array views.
//!
//! Every field is a `uint32_t`, `uint64_t`, `double`, `size_t` or a pointer; structs have no
//! implicit padding on 32- and 64-bit targets (`reserved` fields fill the gaps and are 0).

use std::ptr;

/// A status code: `V4A_STATUS_OK` (0) or one of the `V4A_STATUS_*` error codes. Codes are
/// stable and never renumbered.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct v4a_status(pub u32);

/// A view of bytes owned by a v4a handle (or static, for the tool-kit strings).
///
/// `ptr[len]` is always a NUL byte that `len` does not count, so `ptr` can be used as a C
/// string when the text holds no NUL of its own. The view stays valid until the handle that
/// owns it is freed. An absent value (no path, no suggestion, ...) is `{NULL, 0}`; a present
/// value always has a non-NULL `ptr`, even when it is empty.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_bytes {
    /// The first byte (NULL only for an absent value).
    pub ptr: *const u8,
    /// The number of bytes, not counting the terminating NUL.
    pub len: usize,
}

/// A view of `uint32_t` values owned by a v4a handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_u32s {
    /// The first value (NULL when `len` is 0).
    pub ptr: *const u32,
    /// The number of values.
    pub len: usize,
}

/// The file text of one operation for `v4a_patch_apply` and `v4a_patch_reverse`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_source {
    /// The file's bytes; `(NULL, 0)` is an empty file.
    pub ptr: *const u8,
    /// The number of bytes.
    pub len: usize,
    /// 1: the file exists with these bytes. 0: there is no such file (an operation that reads
    /// it fails with `V4A_STATUS_MISSING_SOURCE`). Any other value is
    /// `V4A_STATUS_INVALID_ARGUMENT`.
    pub present: u32,
    /// Must be 0.
    pub reserved: u32,
}

/// Options for applying patches. Initialise with `v4a_options_init`, then change fields;
/// passing NULL instead of a struct means the defaults.
///
/// Versioned: `struct_size` is `sizeof(v4a_options)` as the caller was compiled, set by
/// `v4a_options_init`. Fields are only ever added at the end; a library accepts the sizes of
/// its own and older headers, and any other `struct_size` is `V4A_STATUS_INVALID_ARGUMENT`,
/// as is a value out of range for its field.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_options {
    /// `sizeof(v4a_options)`; set by `v4a_options_init`.
    pub struct_size: u32,
    /// The loosest match level tried: `V4A_LEVEL_EXACT` (strict mode) … `V4A_LEVEL_FOLD`
    /// (the default).
    pub max_level: u32,
    /// The largest total fuzz accepted for one file (`V4A_STATUS_FUZZ_LIMIT` above it);
    /// `V4A_NO_FUZZ_LIMIT` (the default) for no limit.
    pub max_fuzz: u32,
    /// 1: take the first candidate instead of failing with `V4A_STATUS_AMBIGUOUS` (older
    /// engines' behaviour). Default 0.
    pub first_match: u32,
    /// 1: a hunk whose change is already present is `V4A_STATUS_ALREADY_APPLIED` instead of
    /// a no-op. Default 0.
    pub already_applied_is_error: u32,
    /// 1: the new text always ends with a line terminator. Default 0 (the file's final-newline
    /// state is kept).
    pub ensure_final_newline: u32,
    /// The terminator `*** Add File` (and mode create) writes: `V4A_LINE_ENDING_LF` (default)
    /// or `V4A_LINE_ENDING_CRLF`.
    pub add_file_line_ending: u32,
    /// Which structured line diff to compute: `V4A_DIFF_STYLE_NONE` (default),
    /// `V4A_DIFF_STYLE_FULL` (every line) or `V4A_DIFF_STYLE_CHANGES` (changed lines with
    /// `diff_context` lines of context).
    pub diff_style: u32,
    /// Context lines around each change for `V4A_DIFF_STYLE_CHANGES`. Default 3.
    pub diff_context: u32,
    /// 1: add character-level segments to the changed lines of the structured diff.
    /// Default 0.
    pub refine: u32,
    /// Upper bound on search work per file, in line comparisons (`V4A_STATUS_SEARCH_BUDGET`
    /// above it). Must be greater than 0. Default 200,000,000.
    pub search_budget: u64,
}

/// Options for `v4a_make_patch` and `v4a_make_move_patch`. Initialise with
/// `v4a_generate_options_init`; NULL means the defaults. Versioned like `v4a_options`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_generate_options {
    /// `sizeof(v4a_generate_options)`; set by `v4a_generate_options_init`.
    pub struct_size: u32,
    /// Unchanged lines shown before and after each change. Default 3.
    pub context: u32,
    /// The most context a hunk may grow to while it is made unique. Default 50.
    pub max_context: u32,
}

/// The error of a failed call: a status, the message written for the model that produced
/// the patch, and the structured diagnostics. Owned by the handle it was read from.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_error {
    /// The status code (never `V4A_STATUS_OK`).
    pub status: u32,
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

/// Character-level change of part of a line (see `v4a_options.refine`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_segment {
    /// `V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE` or `V4A_DIFF_ADD`.
    pub kind: u32,
    /// Always 0.
    pub reserved: u32,
    /// Start byte offset in the line's text (at a grapheme-cluster boundary).
    pub start: usize,
    /// End byte offset (exclusive) in the line's text.
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
    pub kind: u32,
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
    pub level: u32,
    /// The hunk's fuzz: its level's, its anchors', and 1000 for an end-of-file hunk found
    /// elsewhere.
    pub fuzz: u32,
    /// Candidate places considered at the deciding level.
    pub candidates: u32,
    /// `V4A_HUNK_*` bits: re-indented, already applied, end of file, out of order.
    pub flags: u32,
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

/// One file operation of a parsed patch.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_op {
    /// `V4A_OP_ADD`, `V4A_OP_DELETE` or `V4A_OP_UPDATE` (a move is an update with a
    /// `move_to`).
    pub kind: u32,
    /// The class of `path` (`V4A_PATH_*`): refuse to write anything but `V4A_PATH_RELATIVE`
    /// outside a sandbox.
    pub path_class: u32,
    /// The class of `move_to`; `V4A_PATH_EMPTY` when there is no `move_to`.
    pub move_to_class: u32,
    /// 1-based patch line of the operation's header.
    pub patch_line: u32,
    /// Number of hunks (1 for an Add File, 0 for a Delete File).
    pub hunk_count: u32,
    /// Always 0.
    pub reserved: u32,
    /// The path exactly as written (empty for a bare diff).
    pub path: v4a_bytes,
    /// The `*** Move to:` destination exactly as written; absent (`{NULL, 0}`) without one.
    pub move_to: v4a_bytes,
}

/// A view of the operations owned by a patch.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_ops {
    /// The first operation (NULL when `len` is 0).
    pub ptr: *const v4a_op,
    /// The number of operations.
    pub len: usize,
}

/// The result of one file operation of a multi-file patch.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_file_result {
    /// `V4A_OP_ADD`, `V4A_OP_DELETE` or `V4A_OP_UPDATE`.
    pub kind: u32,
    /// Always 0.
    pub reserved: u32,
    /// The path as written in the patch.
    pub path: v4a_bytes,
    /// The destination when the file moves to another path; absent (`{NULL, 0}`) otherwise.
    /// Write the new text there and remove `path`.
    pub move_to: v4a_bytes,
    /// The file's result (new text, original source, reports), owned by the result set:
    /// never pass it to `v4a_result_free`.
    pub result: *const v4a_result,
}

/// A view of the file results owned by a result set.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_file_results {
    /// The first file result (NULL when `len` is 0).
    pub ptr: *const v4a_file_result,
    /// The number of file results.
    pub len: usize,
}

use super::result::v4a_result;

impl v4a_bytes {
    /// The absent value, `{NULL, 0}`.
    pub(crate) const EMPTY: v4a_bytes = v4a_bytes {
        ptr: ptr::null(),
        len: 0,
    };
}

/// Array views: `{NULL, 0}` when empty, else a pointer into a vector the handle owns.
macro_rules! array_view {
    ($view:ident, $item:ty) => {
        impl $view {
            pub(crate) const EMPTY: $view = $view {
                ptr: ptr::null(),
                len: 0,
            };
            pub(crate) fn of(items: &[$item]) -> $view {
                if items.is_empty() {
                    $view::EMPTY
                } else {
                    $view {
                        ptr: items.as_ptr(),
                        len: items.len(),
                    }
                }
            }
        }
    };
}
array_view!(v4a_u32s, u32);
array_view!(v4a_segments, v4a_segment);
array_view!(v4a_diff_lines, v4a_diff_line);
array_view!(v4a_hunk_reports, v4a_hunk_report);
array_view!(v4a_changes, v4a_change);
array_view!(v4a_ops, v4a_op);
array_view!(v4a_file_results, v4a_file_result);
