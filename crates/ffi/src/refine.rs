//! `v4a_refine_lines` and the `v4a_refinement` handle: character-level refinement of any
//! block of deleted and added lines (an editor's own diff, not only a patch's).

use crate::boundary::{enum_in, ffi_boundary, free, handle, out_ptr, publish, slice_in, str_in};
use crate::constants::{v4a_status, v4a_units, V4A_STATUS_INTERNAL, V4A_STATUS_OK};
use crate::error::{to_u32, v4a_error, ErrorStore};
use crate::options::{options_in, v4a_options};
use crate::result::{segment_out, v4a_segment, v4a_segments};
use crate::views::{array_view, v4a_bytes};
use engine::{refine_lines, Error, Status};

/// A deleted line paired with an added line by `v4a_refine_lines`, and where the
/// segments of both are in `v4a_refinement_segments()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_line_pair {
    /// 0-based index of the deleted line in the `deleted` array.
    pub deleted: u32,
    /// 0-based index of the added line in the `added` array.
    pub added: u32,
    /// Index of the deleted line's first segment (kinds equal and delete).
    pub deleted_segment_start: u32,
    /// Number of the deleted line's segments (0 for an empty line).
    pub deleted_segment_count: u32,
    /// Index of the added line's first segment (kinds equal and add).
    pub added_segment_start: u32,
    /// Number of the added line's segments (0 for an empty line).
    pub added_segment_count: u32,
}

/// A view of line pairs owned by a refinement.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_line_pairs {
    /// The first pair (NULL when `len` is 0).
    pub ptr: *const v4a_line_pair,
    /// The number of pairs.
    pub len: usize,
}

array_view!(v4a_line_pairs, v4a_line_pair);

/// The refinement of one block of lines (from `v4a_refine_lines`): the refined pairs and
/// their segments, or the error that prevented it.
#[derive(Debug)]
pub struct v4a_refinement {
    outcome: Result<Stored, ErrorStore>,
}

#[derive(Debug)]
struct Stored {
    pairs: Vec<v4a_line_pair>,
    segments: Vec<v4a_segment>,
}

/// Reads the lines of one side: each a `(ptr, len)` UTF-8 input.
///
/// # Safety
/// `ptr` is NULL (with `count` 0) or points to `count` readable `v4a_bytes`, each valid.
unsafe fn lines_in<'a>(
    side: &str,
    ptr: *const v4a_bytes,
    count: usize,
) -> Result<Vec<&'a str>, Error> {
    let views: &[v4a_bytes] = slice_in(side, ptr, count)?;
    views
        .iter()
        .enumerate()
        .map(|(i, v)| str_in(&format!("{side}[{i}]"), v.ptr, v.len))
        .collect()
}

/// Refines a block of deleted lines replaced by added lines: pairs the lines by similarity
/// and diffs each pair at grapheme-cluster boundaries, within the refinement limits of
/// `options` (`refine_max_graphemes`, `refine_max_cost`, `refine_max_pair_lines`; NULL: the
/// defaults; its other fields are checked but not used) — the segments apply's structured
/// diff shows for the same block. For editors that diff buffers of their own.
///
/// `deleted` and `added` are arrays of `deleted_count` and `added_count` lines, each a UTF-8
/// `(ptr, len)` input without its terminator (`{NULL, 0}` is an empty line; `(NULL, 0)` an
/// empty array). `units` is the unit of the segments' offsets: `V4A_UNITS_BYTES` or
/// `V4A_UNITS_UTF16`.
///
/// Stores a new refinement in `*refinement_out` (free it with `v4a_refinement_free`) for
/// every status except `V4A_STATUS_INTERNAL`; a line that is not UTF-8 is
/// `V4A_STATUS_INVALID_UTF8` naming it (`added[2]`), a bad `units` or option
/// `V4A_STATUS_INVALID_ARGUMENT`.
#[no_mangle]
pub unsafe extern "C" fn v4a_refine_lines(
    deleted: *const v4a_bytes,
    deleted_count: usize,
    added: *const v4a_bytes,
    added_count: usize,
    options: *const v4a_options,
    units: v4a_units,
    refinement_out: *mut *mut v4a_refinement,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(refinement_out)?;
        let outcome = (|| {
            let utf16 = units_in(units)?;
            let limits = options_in(options)?.refine_limits;
            let deleted = lines_in("deleted", deleted, deleted_count)?;
            let added = lines_in("added", added, added_count)?;
            let mut r = refine_lines(&deleted, &added, &limits);
            if utf16 {
                r = r.into_utf16(&deleted, &added);
            }
            let pairs = r
                .pairs
                .iter()
                .map(|p| v4a_line_pair {
                    deleted: to_u32(p.deleted),
                    added: to_u32(p.added),
                    deleted_segment_start: to_u32(p.deleted_segments.start),
                    deleted_segment_count: to_u32(p.deleted_segments.len()),
                    added_segment_start: to_u32(p.added_segments.start),
                    added_segment_count: to_u32(p.added_segments.len()),
                })
                .collect();
            let segments = r.segments.iter().map(segment_out).collect();
            Ok::<_, Error>(Stored { pairs, segments })
        })();
        if matches!(&outcome, Err(e) if e.status() == Status::Internal) {
            return Ok(v4a_status(V4A_STATUS_INTERNAL));
        }
        let r = v4a_refinement { outcome: outcome.map_err(ErrorStore::new) };
        let status = r.status();
        publish(out, r);
        Ok(status)
    }
}

/// `v4a_units` as "UTF-16?".
pub(crate) fn units_in(units: v4a_units) -> Result<bool, Error> {
    enum_in(
        "units",
        units,
        &[false, true],
        "V4A_UNITS_BYTES (0) or V4A_UNITS_UTF16 (1)",
    )
}

impl v4a_refinement {
    fn status(&self) -> v4a_status {
        match &self.outcome {
            Ok(_) => v4a_status(V4A_STATUS_OK),
            Err(e) => e.view().status,
        }
    }

    fn stored(&self) -> Option<&Stored> {
        self.outcome.as_ref().ok()
    }
}

/// Frees a refinement and every view read from it. NULL is ignored.
#[no_mangle]
pub unsafe extern "C" fn v4a_refinement_free(refinement: *mut v4a_refinement) {
    ffi_boundary! {
        free(refinement);
        Ok(())
    }
}

/// The refinement's status: `V4A_STATUS_OK`, else its error's. `V4A_STATUS_NULL_ARGUMENT`
/// for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_refinement_status(refinement: *const v4a_refinement) -> v4a_status {
    ffi_boundary! {
        Ok(handle(refinement)?.status())
    }
}

/// The error, owned by the refinement; NULL on success or for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_refinement_error(
    refinement: *const v4a_refinement,
) -> *const v4a_error {
    ffi_boundary! {
        Ok(match &handle(refinement)?.outcome {
            Ok(_) => std::ptr::null(),
            Err(e) => e.view() as *const v4a_error,
        })
    }
}

/// The refined pairs, strictly increasing in both indices (pairs never cross). A line in no
/// pair is a whole-line change (too different from the other side's lines, or its pair
/// exceeded the limits). Empty on error or for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_refinement_pairs(refinement: *const v4a_refinement) -> v4a_line_pairs {
    ffi_boundary! {
        Ok(handle(refinement)?.stored().map_or(v4a_line_pairs::EMPTY, |s| v4a_line_pairs::of(&s.pairs)))
    }
}

/// The segments the pairs refer to; offsets relative to their line, in the `units` asked
/// for. Empty on error or for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_refinement_segments(
    refinement: *const v4a_refinement,
) -> v4a_segments {
    ffi_boundary! {
        Ok(handle(refinement)?.stored().map_or(v4a_segments::EMPTY, |s| v4a_segments::of(&s.segments)))
    }
}
