//! The `v4a_result_set` handle (the results of every file of a multi-file patch, or the one
//! error that stopped it) and its `v4a_file_result`s.

use crate::boundary::{ffi_boundary, free, handle, publish};
use crate::constants::{
    v4a_op_kind, v4a_status, V4A_OP_ADD, V4A_OP_DELETE, V4A_OP_UPDATE, V4A_STATUS_OK,
};
use crate::cstr::{empty_text, nul_terminate, nul_terminate_opt, CText};
use crate::error::{v4a_error, ErrorStore};
use crate::result::v4a_result;
use crate::views::{array_view, v4a_bytes};
use engine::{Error, OpKind, PatchResult};

pub(crate) fn op_kind(kind: OpKind) -> v4a_op_kind {
    match kind {
        OpKind::Add => V4A_OP_ADD,
        OpKind::Delete => V4A_OP_DELETE,
        OpKind::Update => V4A_OP_UPDATE,
    }
}

/// The result of one file operation of a multi-file patch.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_file_result {
    /// `V4A_OP_ADD`, `V4A_OP_DELETE` or `V4A_OP_UPDATE`.
    pub kind: v4a_op_kind,
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

array_view!(v4a_file_results, v4a_file_result);

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
    /// Stores a new result set in `out` and returns its status.
    pub(crate) fn publish(
        out: &mut *mut v4a_result_set,
        outcome: Result<PatchResult, Error>,
    ) -> v4a_status {
        let set = v4a_result_set {
            outcome: outcome.map(Files::new).map_err(ErrorStore::new),
        };
        let status = set.status();
        publish(out, set);
        status
    }

    fn status(&self) -> v4a_status {
        match &self.outcome {
            Ok(_) => v4a_status(V4A_STATUS_OK),
            Err(e) => e.view().status,
        }
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
/// `M destination`). The empty text `{"", 0}` on failure; absent (`{NULL, 0}`) for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_result_set_summary(result_set: *const v4a_result_set) -> v4a_bytes {
    ffi_boundary! {
        Ok(match &handle(result_set)?.outcome {
            Ok(f) => f.summary.view(),
            Err(_) => empty_text(),
        })
    }
}
