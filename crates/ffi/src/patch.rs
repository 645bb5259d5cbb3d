//! The parsed multi-file patch `v4a_patch` and what it is given and does: its operations
//! (`v4a_op`), the sources it applies to (`v4a_source`), applying it into a `v4a_result_set`,
//! its reverse patch, and path classes.

use std::collections::HashMap;

use crate::boundary::{
    bytes_in, ffi_boundary, flag_in, free, handle, out_ptr, out_value, publish, reserved_in,
    slice_in, str_in, Fail,
};
use crate::constants::{v4a_op_kind, v4a_path_class, v4a_status, V4A_STATUS_OK};
use crate::cstr::{nul_terminate, nul_terminate_opt};
use crate::error::{to_u32, v4a_error, ErrorStore};
use crate::options::{options_in, v4a_options};
use crate::result_set::{op_kind, v4a_result_set};
use crate::text::v4a_text;
use crate::views::{array_view, v4a_bytes};
use engine::{classify_path, Error, Patch, PathClass, Status};

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

/// One file operation of a parsed patch.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_op {
    /// `V4A_OP_ADD`, `V4A_OP_DELETE` or `V4A_OP_UPDATE` (a move is an update with a
    /// `move_to`).
    pub kind: v4a_op_kind,
    /// The class of `path` (`V4A_PATH_*`): refuse to write anything but `V4A_PATH_RELATIVE`
    /// outside a sandbox.
    pub path_class: v4a_path_class,
    /// The class of `move_to`; `V4A_PATH_EMPTY` when there is no `move_to`.
    pub move_to_class: v4a_path_class,
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

array_view!(v4a_ops, v4a_op);

/// A parsed patch (its file operations), or the error that made it unparsable. Immutable:
/// it can be applied from several threads at once.
#[derive(Debug)]
pub struct v4a_patch {
    outcome: Result<Parsed, ErrorStore>,
}

#[derive(Debug)]
struct Parsed {
    /// Its paths NUL-terminated in place.
    patch: Patch,
    ops: Vec<v4a_op>,
}

impl Parsed {
    fn new(mut patch: Patch) -> Parsed {
        let ops = patch
            .ops
            .iter_mut()
            .map(|op| v4a_op {
                kind: op_kind(op.kind),
                path_class: classify_path(&op.path) as u32,
                move_to_class: op
                    .move_to
                    .as_deref()
                    .map_or(PathClass::Empty, classify_path) as u32,
                patch_line: op.patch_line,
                hunk_count: to_u32(op.hunks.len()),
                reserved: 0,
                path: nul_terminate(&mut op.path),
                move_to: nul_terminate_opt(&mut op.move_to),
            })
            .collect();
        Parsed { patch, ops }
    }
}

impl v4a_patch {
    fn status(&self) -> v4a_status {
        match &self.outcome {
            Ok(_) => v4a_status(V4A_STATUS_OK),
            Err(e) => e.view().status,
        }
    }

    /// The parsed patch, or a copy of the error that made it unparsable.
    pub(crate) fn parsed(&self) -> Result<&Patch, Error> {
        match &self.outcome {
            Ok(p) => Ok(&p.patch),
            Err(e) => Err(e.error().clone()),
        }
    }
}

unsafe fn parse(
    text: *const u8,
    len: usize,
    out: *mut *mut v4a_patch,
    parser: fn(&str) -> Result<Patch, Error>,
) -> Result<v4a_status, Fail> {
    let out = out_ptr(out)?;
    let outcome = str_in("patch", text, len).and_then(parser);
    let patch = v4a_patch {
        outcome: outcome.map(Parsed::new).map_err(ErrorStore::new),
    };
    let status = patch.status();
    publish(out, patch);
    Ok(status)
}

/// Parses a patch (`*** Begin Patch` ... `*** End Patch`, or a bare diff) into its file
/// operations, accepting what models really send (CRLF, heredoc and Markdown wrappers, git
/// headers where a file header may stand). The text is a `(pointer, length)` UTF-8 input and
/// is not kept.
///
/// Stores in `*patch_out` a new patch for every status except `V4A_STATUS_INTERNAL` (then it
/// is NULL): on `V4A_STATUS_OK` it holds the operations, on failure the error
/// (`V4A_STATUS_PATCH_SYNTAX` or `V4A_STATUS_TRUNCATED_PATCH` with the patch line, ...).
/// Free it with `v4a_patch_free`.
#[no_mangle]
pub unsafe extern "C" fn v4a_patch_parse(
    patch: *const u8,
    patch_len: usize,
    patch_out: *mut *mut v4a_patch,
) -> v4a_status {
    ffi_boundary! {
        parse(patch, patch_len, patch_out, engine::Patch::parse)
    }
}

/// `v4a_patch_parse` accepting only the canonical form: the envelope, LF line endings,
/// markers written exactly, no wrappers (what the tool-kit grammar describes).
#[no_mangle]
pub unsafe extern "C" fn v4a_patch_parse_strict(
    patch: *const u8,
    patch_len: usize,
    patch_out: *mut *mut v4a_patch,
) -> v4a_status {
    ffi_boundary! {
        parse(patch, patch_len, patch_out, engine::Patch::parse_strict)
    }
}

/// Frees a patch and every view read from it. NULL is ignored. Callable from any thread, but
/// not while another thread still uses the patch. Result sets made from the patch stay valid.
#[no_mangle]
pub unsafe extern "C" fn v4a_patch_free(patch: *mut v4a_patch) {
    ffi_boundary! {
        free(patch);
        Ok(())
    }
}

/// The patch's status: `V4A_STATUS_OK` when it parsed, else its error's status.
/// `V4A_STATUS_NULL_ARGUMENT` for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_patch_status(patch: *const v4a_patch) -> v4a_status {
    ffi_boundary! {
        Ok(handle(patch)?.status())
    }
}

/// The parse error, owned by the patch; NULL when the patch parsed or for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_patch_error(patch: *const v4a_patch) -> *const v4a_error {
    ffi_boundary! {
        Ok(match &handle(patch)?.outcome {
            Ok(_) => std::ptr::null(),
            Err(e) => e.view() as *const v4a_error,
        })
    }
}

/// The file operations in patch order (empty when the patch did not parse). The sources
/// passed to `v4a_patch_apply` are aligned with this array.
#[no_mangle]
pub unsafe extern "C" fn v4a_patch_ops(patch: *const v4a_patch) -> v4a_ops {
    ffi_boundary! {
        Ok(match &handle(patch)?.outcome {
            Ok(p) => v4a_ops::of(&p.ops),
            Err(_) => v4a_ops::EMPTY,
        })
    }
}

/// The sources of a call, one per operation; `None` for a file that does not exist.
unsafe fn sources_in<'a>(
    patch: &Patch,
    sources: *const v4a_source,
    sources_len: usize,
) -> Result<Vec<Option<&'a [u8]>>, Error> {
    if sources_len != patch.ops.len() {
        return Err(Error::simple(
            Status::InvalidArgument,
            format!(
                "the patch has {} operations but {sources_len} sources were given: pass one \
                 v4a_source per operation, in the order of v4a_patch_ops (the entries of Add \
                 File operations are not read)",
                patch.ops.len()
            ),
        ));
    }
    entries_in("sources", sources, sources_len)
}

/// The bases of `v4a_patch_apply_with_bases`, one per operation; `None` where unknown.
pub(crate) unsafe fn bases_in<'a>(
    patch: &Patch,
    bases: *const v4a_source,
    bases_len: usize,
) -> Result<Vec<Option<&'a [u8]>>, Error> {
    if bases_len != patch.ops.len() {
        return Err(Error::simple(
            Status::InvalidArgument,
            format!(
                "the patch has {} operations but {bases_len} bases were given: pass one \
                 v4a_source per operation, in the order of v4a_patch_ops, with present = 0 \
                 where the base is unknown (only the entries of Update File operations are \
                 read)",
                patch.ops.len()
            ),
        ));
    }
    entries_in("bases", bases, bases_len)
}

/// The `v4a_source` array `name` of `len` entries (its length already checked).
unsafe fn entries_in<'a>(
    name: &str,
    entries: *const v4a_source,
    len: usize,
) -> Result<Vec<Option<&'a [u8]>>, Error> {
    if len == 0 {
        return Ok(Vec::new());
    }
    slice_in(name, entries, len)?
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let what = format!("{name}[{i}]");
            reserved_in(&format!("{what}.reserved"), s.reserved)?;
            let present = flag_in(&format!("{what}.present"), s.present)?;
            let bytes = bytes_in(&what, s.ptr, s.len)?;
            Ok(present.then_some(bytes))
        })
        .collect()
}

/// Applies every operation of a parsed patch, atomically: the engine computes every file's
/// result before returning any, so either all of them come back or one error does.
///
/// `sources` holds one entry per operation, aligned with `v4a_patch_ops` (`sources_len` must
/// equal its length): the current bytes of the file each Update and Delete reads, with
/// `present = 1`; `present = 0` for a file that does not exist (`V4A_STATUS_MISSING_SOURCE`
/// if an operation reads it). Add File entries are not read. `(NULL, 0)` is accepted when the
/// patch has no operations. Sources must be UTF-8 and are not kept. `options` may be NULL.
///
/// Stores in `*result_set_out` a new result set for every status except `V4A_STATUS_INTERNAL`
/// (then it is NULL); free it with `v4a_result_set_free`. A patch that did not parse gives
/// its parse error. The patch is only read: several threads may apply one patch at once.
#[no_mangle]
pub unsafe extern "C" fn v4a_patch_apply(
    patch: *const v4a_patch,
    sources: *const v4a_source,
    sources_len: usize,
    options: *const v4a_options,
    result_set_out: *mut *mut v4a_result_set,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(result_set_out)?;
        let outcome = (|| {
            let patch = patch
                .as_ref()
                .ok_or_else(|| Error::simple(Status::NullArgument, "patch is NULL"))?
                .parsed()?;
            let sources = sources_in(patch, sources, sources_len)?;
            let options = options_in(options)?;
            engine::apply_patch_indexed(patch, |i, _| sources[i], &options)
        })();
        Ok(v4a_result_set::publish(out, outcome))
    }
}

/// `v4a_patch_apply` for a patch written against `bases`, the texts the model saw (what the
/// read tool returned), applied to `sources`, the texts as they are now; atomically.
///
/// `bases` is aligned with `v4a_patch_ops` like `sources` (`bases_len` must equal its length):
/// for each Update File operation, the content the model was shown with `present = 1`, or
/// `present = 0` when it is unknown (that file is applied as by `v4a_patch_apply`). Entries of
/// Add and Delete operations are not read. A file with a base has its hunks located in the
/// base and carried into its source by a three-way merge, as `v4a_apply_with_base` does
/// (`V4A_HUNK_MERGED` in the hunks' flags); a hunk whose lines were also changed since is
/// `V4A_STATUS_CONFLICT`, and nothing is applied. Bases must be UTF-8 and are not kept.
/// Everything else is as `v4a_patch_apply`.
#[no_mangle]
pub unsafe extern "C" fn v4a_patch_apply_with_bases(
    patch: *const v4a_patch,
    sources: *const v4a_source,
    sources_len: usize,
    bases: *const v4a_source,
    bases_len: usize,
    options: *const v4a_options,
    result_set_out: *mut *mut v4a_result_set,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(result_set_out)?;
        let outcome = (|| {
            let patch = patch
                .as_ref()
                .ok_or_else(|| Error::simple(Status::NullArgument, "patch is NULL"))?
                .parsed()?;
            let sources = sources_in(patch, sources, sources_len)?;
            let bases = bases_in(patch, bases, bases_len)?;
            let options = options_in(options)?;
            // The Rust API looks texts up by path; paths are unique within a patch.
            let by_path = op_indices(patch);
            let at = |path: &str| by_path.get(path).copied();
            patch.apply_with_bases(|path| at(path).and_then(|i| sources[i]),
                |path| at(path).and_then(|i| bases[i]),
                &options,
            )
        })();
        Ok(v4a_result_set::publish(out, outcome))
    }
}

/// Each operation's index by its path (paths are unique within a parsed patch).
fn op_indices(patch: &Patch) -> HashMap<&str, usize> {
    patch
        .ops
        .iter()
        .enumerate()
        .map(|(i, op)| (op.path.as_str(), i))
        .collect()
}

/// Writes the patch that undoes `patch`, given the sources it applies to (aligned with the
/// operations, as for `v4a_patch_apply`): Add and Delete swapped, moves back, each update's
/// change inverted; operations in reverse order. Applying the patch first, the reverse fails
/// with the same error the apply would. Stores a new text in `*text_out` for every status
/// except `V4A_STATUS_INTERNAL`; free it with `v4a_text_free`.
#[no_mangle]
pub unsafe extern "C" fn v4a_patch_reverse(
    patch: *const v4a_patch,
    sources: *const v4a_source,
    sources_len: usize,
    options: *const v4a_options,
    text_out: *mut *mut v4a_text,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(text_out)?;
        let outcome = (|| {
            let patch = patch
                .as_ref()
                .ok_or_else(|| Error::simple(Status::NullArgument, "patch is NULL"))?
                .parsed()?;
            let sources = sources_in(patch, sources, sources_len)?;
            let options = options_in(options)?;
            // The Rust API looks sources up by path; paths are unique within a patch.
            let by_path: HashMap<&str, usize> = patch
                .ops
                .iter()
                .enumerate()
                .map(|(i, op)| (op.path.as_str(), i))
                .collect();
            patch.reverse(|path| by_path.get(path).and_then(|&i| sources[i]), &options)
        })();
        Ok(v4a_text::publish(out, outcome))
    }
}

/// Classifies a path as written in a patch, storing a `V4A_PATH_*` class in `*class_out`:
/// relative and inside the root, absolute, escaping with `..`, empty, containing NUL, or with
/// a drive prefix. Only `V4A_PATH_RELATIVE` is safe to write under a root. The path is a
/// `(pointer, length)` UTF-8 input. Returns `V4A_STATUS_INVALID_UTF8` for a path that is not
/// UTF-8 and `V4A_STATUS_NULL_ARGUMENT` for NULL pointers.
#[no_mangle]
pub unsafe extern "C" fn v4a_classify_path(
    path: *const u8,
    path_len: usize,
    class_out: *mut v4a_path_class,
) -> v4a_status {
    ffi_boundary! {
        let out = out_value(class_out)?;
        match str_in("path", path, path_len) {
            Ok(p) => {
                *out = classify_path(p) as u32;
                Ok(v4a_status(V4A_STATUS_OK))
            }
            Err(e) => Ok(v4a_status(e.status().code())),
        }
    }
}
