//! Multi-file patches: the parsed `v4a_patch`, applying it over caller-supplied sources into
//! a `v4a_result_set`, and reverse patches.

use std::collections::HashMap;

use super::boundary::{
    bytes_in, ffi_boundary, flag_in, free, handle, out_ptr, publish, reserved_in, str_in,
};
use super::cstr::{empty_view, nul_terminate, nul_terminate_opt, CText};
use super::error::{to_u32, ErrorStore};
use super::options::options_in;
use super::result::v4a_result;
use super::text::v4a_text;
use super::types::{
    v4a_bytes, v4a_error, v4a_file_result, v4a_file_results, v4a_op, v4a_ops, v4a_options,
    v4a_source, v4a_status,
};
use super::{V4A_OP_ADD, V4A_OP_DELETE, V4A_OP_UPDATE, V4A_STATUS_OK};
use engine::{classify_path, Error, OpKind, Patch, PatchResult, PathClass, Status};

pub(crate) fn op_kind(kind: OpKind) -> u32 {
    match kind {
        OpKind::Add => V4A_OP_ADD,
        OpKind::Delete => V4A_OP_DELETE,
        OpKind::Update => V4A_OP_UPDATE,
    }
}

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
            Err(e) => v4a_status(e.view().status),
        }
    }

    /// The parsed patch, or a copy of the error that made it unparsable.
    fn parsed(&self) -> Result<&Patch, Error> {
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
) -> Result<v4a_status, super::boundary::Fail> {
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
        parse(patch, patch_len, patch_out, engine::parse_patch)
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
        parse(patch, patch_len, patch_out, engine::parse_patch_strict)
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
    if sources_len == 0 {
        return Ok(Vec::new());
    }
    if sources.is_null() {
        return Err(Error::simple(
            Status::NullArgument,
            format!("sources is NULL but sources_len is {sources_len}"),
        ));
    }
    std::slice::from_raw_parts(sources, sources_len)
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let what = format!("sources[{i}]");
            reserved_in(&format!("{what}.reserved"), s.reserved)?;
            let present = flag_in(&format!("{what}.present"), s.present)?;
            let bytes = bytes_in(&what, s.ptr, s.len)?;
            Ok(present.then_some(bytes))
        })
        .collect()
}

/// The results of every file operation of a multi-file patch, or the one error that stopped
/// it: nothing is ever partially applied. Immutable.
#[derive(Debug)]
pub struct v4a_result_set {
    outcome: Result<Files, ErrorStore>,
}

#[derive(Debug)]
struct Files {
    /// The file results; `v4a_file_result.result` points into this vector, which is never
    /// modified after the views are taken.
    _results: Vec<v4a_result>,
    /// The NUL-terminated paths and destinations the views point to.
    _names: Vec<(String, Option<String>)>,
    files: Vec<v4a_file_result>,
    summary: CText,
}

impl Files {
    fn new(result: PatchResult) -> Files {
        let summary = CText::new(result.summary());
        let mut kinds = Vec::with_capacity(result.files.len());
        let mut results = Vec::with_capacity(result.files.len());
        let mut names = Vec::with_capacity(result.files.len());
        for f in result.files {
            kinds.push(op_kind(f.kind));
            results.push(v4a_result::new(Ok(f.applied)));
            names.push((f.path, f.move_to));
        }
        let files = kinds
            .into_iter()
            .zip(&results)
            .zip(&mut names)
            .map(|((kind, result), (path, move_to))| v4a_file_result {
                kind,
                reserved: 0,
                path: nul_terminate(path),
                move_to: nul_terminate_opt(move_to),
                result: result as *const v4a_result,
            })
            .collect();
        Files {
            _results: results,
            _names: names,
            files,
            summary,
        }
    }
}

impl v4a_result_set {
    fn status(&self) -> v4a_status {
        match &self.outcome {
            Ok(_) => v4a_status(V4A_STATUS_OK),
            Err(e) => v4a_status(e.view().status),
        }
    }
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
        let set = v4a_result_set {
            outcome: outcome.map(Files::new).map_err(ErrorStore::new),
        };
        let status = set.status();
        publish(out, set);
        Ok(status)
    }
}

/// Frees a result set, its file results and every view read from them. NULL is ignored.
/// Callable from any thread, but not while another thread still uses the set.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_set_free(result_set: *mut v4a_result_set) {
    ffi_boundary! {
        free(result_set);
        Ok(())
    }
}

/// `V4A_STATUS_OK` when every operation succeeded, else the error's status.
/// `V4A_STATUS_NULL_ARGUMENT` for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_set_status(result_set: *const v4a_result_set) -> v4a_status {
    ffi_boundary! {
        Ok(handle(result_set)?.status())
    }
}

/// The error that stopped the patch (its `path` names the file), owned by the set; NULL on
/// success or for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_set_error(
    result_set: *const v4a_result_set,
) -> *const v4a_error {
    ffi_boundary! {
        Ok(match &handle(result_set)?.outcome {
            Ok(_) => std::ptr::null(),
            Err(e) => e.view() as *const v4a_error,
        })
    }
}

/// One result per file operation, in patch order (empty on failure).
#[no_mangle]
pub unsafe extern "C" fn v4a_result_set_files(
    result_set: *const v4a_result_set,
) -> v4a_file_results {
    ffi_boundary! {
        Ok(match &handle(result_set)?.outcome {
            Ok(f) => v4a_file_results::of(&f.files),
            Err(_) => v4a_file_results::EMPTY,
        })
    }
}

/// The summary other engines print, which models know: `Success. Updated the following
/// files:` then one `A path`, `M path` or `D path` line per operation (a move is
/// `M destination`). Empty on failure.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_set_summary(result_set: *const v4a_result_set) -> v4a_bytes {
    ffi_boundary! {
        Ok(match &handle(result_set)?.outcome {
            Ok(f) => f.summary.view(),
            Err(_) => empty_view(),
        })
    }
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
            engine::reverse(patch, |path| by_path.get(path).and_then(|&i| sources[i]), &options)
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
    class_out: *mut u32,
) -> v4a_status {
    ffi_boundary! {
        let out = super::boundary::out_value(class_out)?;
        match str_in("path", path, path_len) {
            Ok(p) => {
                *out = classify_path(p) as u32;
                Ok(v4a_status(V4A_STATUS_OK))
            }
            Err(e) => Ok(v4a_status(e.status().code())),
        }
    }
}
