//! The workspace layer through the C ABI (SPEC §5.2): `v4a_workspace_apply` applies a parsed
//! multi-file patch to a directory (confined, all or nothing across a crash, journaled,
//! locked), `v4a_workspace_recover` finishes or undoes an apply a crash interrupted; both make
//! a `v4a_workspace_result`. Every rule lives in the `v4a-workspace` crate: this file only
//! converts arguments and results. Not in the WebAssembly build.

use std::path::PathBuf;
use std::time::Duration;

use crate::boundary::{bytes_in, ffi_boundary, flag_in, free, handle, out_ptr, out_value, publish};
use crate::constants::{
    v4a_failure, v4a_file_change, v4a_op_kind, v4a_recovery, v4a_status, V4A_CHANGE_ADDED,
    V4A_CHANGE_DELETED, V4A_CHANGE_MODIFIED, V4A_CHANGE_MOVED, V4A_CHANGE_UNCHANGED,
    V4A_DEFAULT_LOCK_WAIT_MS, V4A_FAILURE_IO, V4A_FAILURE_NONE, V4A_FAILURE_PATCH,
    V4A_FAILURE_PATH_CONFLICT, V4A_FAILURE_READ_ONLY, V4A_RECOVERY_FINISHED, V4A_RECOVERY_NONE,
    V4A_RECOVERY_UNDONE, V4A_STATUS_IO_ERROR, V4A_STATUS_OK,
};
use crate::cstr::{empty_text, nul_terminate, nul_terminate_opt, CText};
use crate::error::{v4a_error, ErrorStore};
use crate::options::{options_in, v4a_options};
use crate::patch::{bases_in, v4a_patch, v4a_source};
use crate::result::v4a_result;
use crate::result_set::op_kind;
use crate::views::{array_view, v4a_bytes};
use engine::{Diagnostics, Error, Status};
use v4a_workspace::{FileChange, Outcome, Recovery, RecoveryAction, Workspace, WorkspaceOptions};

/// How `v4a_workspace_apply` treats the files it meets. Versioned: initialise it with
/// `V4A_WORKSPACE_OPTIONS_INIT` or `v4a_workspace_options_init()`, then change fields.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_workspace_options {
    /// `sizeof(v4a_workspace_options)`, set by the initializers.
    pub struct_size: u32,
    /// 1: compute everything and make every check an apply makes before writing (paths,
    /// `V4A_STATUS_FILE_EXISTS`, read-only files), then write nothing (a preview). Default 0.
    pub dry_run: u32,
    /// 1: `*** Add File` and `*** Move to` may replace an existing file. Default 0
    /// (`V4A_STATUS_FILE_EXISTS`).
    pub allow_overwrite: u32,
    /// 1: read-only files may be changed and removed. Default 0 (refused).
    pub allow_read_only: u32,
    /// 1: paths inside `.git/`, `.hg/`, `.svn/` may be written. Default 0
    /// (`V4A_STATUS_UNSAFE_PATH`).
    pub allow_vcs: u32,
    /// How long to wait, in milliseconds, for another apply on the same root to finish before
    /// failing with `V4A_STATUS_LOCKED`. Default `V4A_DEFAULT_LOCK_WAIT_MS`.
    pub lock_wait_ms: u32,
    /// The engine's options (levels, fuzz, line endings, the structured diff); NULL for the
    /// defaults. Read during the call only.
    pub engine: *const v4a_options,
}

impl Default for v4a_workspace_options {
    fn default() -> Self {
        v4a_workspace_options {
            struct_size: std::mem::size_of::<v4a_workspace_options>() as u32,
            dry_run: 0,
            allow_overwrite: 0,
            allow_read_only: 0,
            allow_vcs: 0,
            lock_wait_ms: V4A_DEFAULT_LOCK_WAIT_MS,
            engine: std::ptr::null(),
        }
    }
}

/// Fills `*options` with the defaults and sets its `struct_size`: an apply that writes, no
/// overwriting, read-only files and version-control metadata refused, a lock wait of
/// `V4A_DEFAULT_LOCK_WAIT_MS`, the engine's default options. `V4A_STATUS_NULL_ARGUMENT` for
/// NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_options_init(
    options: *mut v4a_workspace_options,
) -> v4a_status {
    ffi_boundary! {
        *out_value(options)? = v4a_workspace_options::default();
        Ok(v4a_status(V4A_STATUS_OK))
    }
}

/// One file operation of a workspace apply: what it did to its file and the engine's result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_workspace_file {
    /// `V4A_OP_ADD`, `V4A_OP_DELETE` or `V4A_OP_UPDATE`.
    pub kind: v4a_op_kind,
    /// What happened to the file (`V4A_CHANGE_*`); in a dry run, what would happen.
    pub change: v4a_file_change,
    /// 1 when the file is not UTF-8 text (deleted or moved as bytes; its `result` holds no
    /// text), else 0.
    pub binary: u32,
    /// Always 0.
    pub reserved: u32,
    /// The path exactly as written in the patch.
    pub path: v4a_bytes,
    /// The `*** Move to:` destination as written; absent (`{NULL, 0}`) without one.
    pub move_to: v4a_bytes,
    /// The file the operation names as a root-relative path with `.`, `..` and links resolved
    /// (one key per file, whatever the patch's spelling).
    pub source_key: v4a_bytes,
    /// Where the new text goes, in the same form (the destination of a move); absent for a
    /// deletion.
    pub target_key: v4a_bytes,
    /// The engine's result for the file (new text, original source, reports), owned by the
    /// workspace result: never pass it to `v4a_result_free`.
    pub result: *const v4a_result,
}

/// A view of the file outcomes owned by a workspace result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_workspace_files {
    /// The first file (NULL when `len` is 0).
    pub ptr: *const v4a_workspace_file,
    /// The number of files.
    pub len: usize,
}

array_view!(v4a_workspace_files, v4a_workspace_file);

/// A view of texts (paths) owned by a workspace result.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_bytes_list {
    /// The first text (NULL when `len` is 0).
    pub ptr: *const v4a_bytes,
    /// The number of texts.
    pub len: usize,
}

array_view!(v4a_bytes_list, v4a_bytes);

/// The outcome of `v4a_workspace_apply` or `v4a_workspace_recover`: the file outcomes, the
/// recovery of an earlier interrupted apply, notes; or the one error that stopped the call
/// (then nothing was changed on disk, unless `v4a_workspace_result_needs_recovery` says so).
/// Immutable.
#[derive(Debug)]
pub struct v4a_workspace_result {
    outcome: Result<Done, Failed>,
}

#[derive(Debug)]
struct Failed {
    /// Boxed: the error is large and travels through `Result`s.
    store: Box<ErrorStore>,
    failure: v4a_failure,
    needs_recovery: bool,
}

#[derive(Debug)]
struct Done {
    /// The engine's results; `v4a_workspace_file.result` points into this vector, which is
    /// never modified after the views are taken.
    _results: Vec<v4a_result>,
    /// The NUL-terminated strings the views point to.
    _names: Vec<[Option<String>; 4]>,
    _recovered_names: Vec<String>,
    files: Vec<v4a_workspace_file>,
    recovered: Vec<v4a_bytes>,
    recovery: v4a_recovery,
    written: bool,
    summary: CText,
    notes: CText,
}

fn change_code(c: FileChange) -> v4a_file_change {
    match c {
        FileChange::Added => V4A_CHANGE_ADDED,
        FileChange::Modified => V4A_CHANGE_MODIFIED,
        FileChange::Moved => V4A_CHANGE_MOVED,
        FileChange::Deleted => V4A_CHANGE_DELETED,
        _ => V4A_CHANGE_UNCHANGED,
    }
}

impl Done {
    fn new(outcome: Option<Outcome>, recovery: Option<Recovery>) -> Done {
        let (summary, notes, written) = match &outcome {
            Some(o) => (o.summary(), o.notes.join("\n"), o.written),
            None => (String::new(), String::new(), false),
        };
        let recovery = recovery.or_else(|| outcome.as_ref().and_then(|o| o.recovered.clone()));
        let mut results = Vec::new();
        let mut names = Vec::new();
        let mut meta = Vec::new();
        if let Some(o) = outcome {
            for (f, w) in o.result.files.into_iter().zip(o.files) {
                meta.push((op_kind(f.kind), change_code(w.change), u32::from(w.binary)));
                names.push([Some(f.path), f.move_to, Some(w.source_key), w.target_key]);
                results.push(v4a_result::new(Ok(f.applied)));
            }
        }
        let files = meta
            .into_iter()
            .zip(&results)
            .zip(&mut names)
            .map(
                |(((kind, change, binary), result), [p, m, s, t])| v4a_workspace_file {
                    kind,
                    change,
                    binary,
                    reserved: 0,
                    path: nul_terminate_opt(p),
                    move_to: nul_terminate_opt(m),
                    source_key: nul_terminate_opt(s),
                    target_key: nul_terminate_opt(t),
                    result: result as *const v4a_result,
                },
            )
            .collect();
        let (code, mut recovered_names) = match recovery {
            None => (V4A_RECOVERY_NONE, Vec::new()),
            Some(r) => (
                match r.action {
                    RecoveryAction::Undone => V4A_RECOVERY_UNDONE,
                    _ => V4A_RECOVERY_FINISHED,
                },
                r.files,
            ),
        };
        let recovered = recovered_names.iter_mut().map(nul_terminate).collect();
        Done {
            _results: results,
            _names: names,
            _recovered_names: recovered_names,
            files,
            recovered,
            recovery: code,
            written,
            summary: CText::new(summary),
            notes: CText::new(notes),
        }
    }
}

impl Failed {
    fn engine(e: Error) -> Failed {
        Failed {
            store: Box::new(ErrorStore::new(e)),
            failure: V4A_FAILURE_PATCH,
            needs_recovery: false,
        }
    }

    fn workspace(e: v4a_workspace::Error) -> Failed {
        let needs_recovery = e.needs_recovery();
        let failure = match &e {
            v4a_workspace::Error::Patch(_) => V4A_FAILURE_PATCH,
            v4a_workspace::Error::PathConflict { .. } => V4A_FAILURE_PATH_CONFLICT,
            v4a_workspace::Error::ReadOnly { .. } => V4A_FAILURE_READ_ONLY,
            _ => V4A_FAILURE_IO,
        };
        let store = match e {
            v4a_workspace::Error::Patch(e) => ErrorStore::new(e),
            other => {
                // No engine status fits: the view carries V4A_STATUS_IO_ERROR, the message
                // and the path and patch line the layer knows.
                let d = Diagnostics {
                    path: other.path().map(str::to_string),
                    patch_line: other.patch_line().filter(|&l| l > 0),
                    ..Diagnostics::default()
                };
                let inner = Error::new(Status::Internal, other.message().to_string(), d);
                ErrorStore::with_status(inner, V4A_STATUS_IO_ERROR)
            }
        };
        Failed {
            store: Box::new(store),
            failure,
            needs_recovery,
        }
    }
}

impl v4a_workspace_result {
    fn publish(out: &mut *mut v4a_workspace_result, outcome: Result<Done, Failed>) -> v4a_status {
        let r = v4a_workspace_result { outcome };
        let status = r.status();
        publish(out, r);
        status
    }

    fn status(&self) -> v4a_status {
        match &self.outcome {
            Ok(_) => v4a_status(V4A_STATUS_OK),
            Err(f) => f.store.view().status,
        }
    }
}

/// The root directory argument: any bytes on Unix (a path need not be UTF-8 there), UTF-8
/// elsewhere.
unsafe fn root_in(ptr: *const u8, len: usize) -> Result<PathBuf, Error> {
    let bytes = bytes_in("root", ptr, len)?;
    if bytes.is_empty() {
        return Err(Error::simple(
            Status::InvalidArgument,
            "root is empty: pass the directory to apply the patch to (\".\" for the current one)",
        ));
    }
    if bytes.contains(&0) {
        return Err(Error::simple(
            Status::InvalidArgument,
            "root contains a NUL byte",
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
    }
    #[cfg(not(unix))]
    {
        let s = std::str::from_utf8(bytes).map_err(|e| Error::invalid_utf8("root", e))?;
        Ok(PathBuf::from(s))
    }
}

/// The options a caller passed (NULL: the defaults), and whether it is a dry run.
unsafe fn workspace_options_in(
    ptr: *const v4a_workspace_options,
) -> Result<(WorkspaceOptions, bool), Error> {
    let o = if ptr.is_null() {
        v4a_workspace_options::default()
    } else {
        let size = *(ptr as *const u32);
        let want = std::mem::size_of::<v4a_workspace_options>();
        if size as usize != want {
            return Err(Error::simple(
                Status::InvalidArgument,
                format!(
                    "v4a_workspace_options.struct_size is {size}, but this library knows \
                     v4a_workspace_options of {want} bytes: initialise the struct with \
                     v4a_workspace_options_init() and build against the library's v4a.h"
                ),
            ));
        }
        *ptr
    };
    let opts = WorkspaceOptions {
        engine: options_in(o.engine)?,
        allow_overwrite: flag_in("v4a_workspace_options.allow_overwrite", o.allow_overwrite)?,
        allow_read_only: flag_in("v4a_workspace_options.allow_read_only", o.allow_read_only)?,
        allow_vcs: flag_in("v4a_workspace_options.allow_vcs", o.allow_vcs)?,
        lock_wait: Duration::from_millis(u64::from(o.lock_wait_ms)),
        ..WorkspaceOptions::default()
    };
    let dry_run = flag_in("v4a_workspace_options.dry_run", o.dry_run)?;
    Ok((opts, dry_run))
}

/// Applies a parsed patch to the files under the directory `root`, through the workspace
/// layer: every path is resolved under the root through directory handles (a path that is
/// absolute, climbs out with `..`, goes through a symbolic link out of the root or names
/// `.git/`, `.hg/`, `.svn/` is `V4A_STATUS_UNSAFE_PATH`); every result is computed in memory
/// first, then the files are replaced in one crash-safe transaction (an intent journal in
/// `root/.v4a/`, removed when the call returns) under the root's lock; a file changed on
/// disk since it was read is `V4A_STATUS_CHANGED_ON_DISK`; an Add or Move onto an existing
/// file is `V4A_STATUS_FILE_EXISTS` unless allowed. Either every file is written or none is.
/// An apply that a crash interrupted earlier is recovered first
/// (`v4a_workspace_result_recovery`).
///
/// `root` is a `(pointer, length)` path (any bytes on Unix, UTF-8 elsewhere). `bases` is
/// `(NULL, 0)` (no bases; any pointer with length 0 too), or one `v4a_source` per operation
/// aligned with `v4a_patch_ops` as for `v4a_patch_apply_with_bases`: the text the model saw of
/// each Update File (`present = 1`), whose hunks are then located in it and merged into the
/// file as it is now. `options` may be NULL for the defaults; with `dry_run = 1` nothing is
/// written (a preview).
///
/// Stores in `*result_out` a new workspace result for every status except
/// `V4A_STATUS_INTERNAL` (then it is NULL); free it with `v4a_workspace_result_free`. A patch
/// that did not parse gives its parse error. Failures of the operating system are
/// `V4A_STATUS_IO_ERROR` (`v4a_workspace_result_failure` says which kind). On a platform
/// without the workspace layer every call is `V4A_STATUS_IO_ERROR` saying so.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_apply(
    root: *const u8,
    root_len: usize,
    patch: *const v4a_patch,
    bases: *const v4a_source,
    bases_len: usize,
    options: *const v4a_workspace_options,
    result_out: *mut *mut v4a_workspace_result,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(result_out)?;
        let outcome = (|| {
            let root = root_in(root, root_len).map_err(Failed::engine)?;
            let patch = patch
                .as_ref()
                .ok_or_else(|| Error::simple(Status::NullArgument, "patch is NULL"))
                .and_then(|p| p.parsed())
                .map_err(Failed::engine)?;
            let (mut opts, dry_run) = workspace_options_in(options).map_err(Failed::engine)?;
            // (NULL, 0), or any pointer with length 0, is no bases.
            if bases_len > 0 {
                let given = bases_in(patch, bases, bases_len).map_err(Failed::engine)?;
                for (op, base) in patch.ops.iter().zip(given) {
                    if let (engine::OpKind::Update, Some(b)) = (op.kind, base) {
                        opts.bases.insert(op.path.clone(), b.to_vec());
                    }
                }
            }
            let ws = Workspace::open(&root).map_err(Failed::workspace)?;
            let outcome = if dry_run {
                ws.preview(patch, &opts)
            } else {
                ws.apply(patch, &opts)
            }
            .map_err(Failed::workspace)?;
            Ok(Done::new(Some(outcome), None))
        })();
        Ok(v4a_workspace_result::publish(out, outcome))
    }
}

/// Finishes or undoes an apply to `root` that a crash interrupted (`v4a recover`): after it,
/// every file of that apply is all old or all new, and the journal and the lock are gone.
/// `v4a_workspace_result_recovery` says what was done (`V4A_RECOVERY_NONE` when there was
/// nothing to recover) and `v4a_workspace_result_recovered` lists the files; the result has
/// no file outcomes. `root` is as for `v4a_workspace_apply`.
///
/// Stores in `*result_out` a new workspace result for every status except
/// `V4A_STATUS_INTERNAL`; free it with `v4a_workspace_result_free`.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_recover(
    root: *const u8,
    root_len: usize,
    result_out: *mut *mut v4a_workspace_result,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(result_out)?;
        let outcome = (|| {
            let root = root_in(root, root_len).map_err(Failed::engine)?;
            let ws = Workspace::open(&root).map_err(Failed::workspace)?;
            let r = ws.recover().map_err(Failed::workspace)?;
            Ok(Done::new(None, r))
        })();
        Ok(v4a_workspace_result::publish(out, outcome))
    }
}

/// Frees a workspace result, its file results and every view read from them. NULL is
/// ignored.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_free(result: *mut v4a_workspace_result) {
    ffi_boundary! {
        free(result);
        Ok(())
    }
}

/// `V4A_STATUS_OK` when the call succeeded, else the error's status.
/// `V4A_STATUS_NULL_ARGUMENT` for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_status(
    result: *const v4a_workspace_result,
) -> v4a_status {
    ffi_boundary! {
        Ok(handle(result)?.status())
    }
}

/// The error that stopped the call (its `path` names the file as the patch writes it), owned
/// by the result; NULL on success or for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_error(
    result: *const v4a_workspace_result,
) -> *const v4a_error {
    ffi_boundary! {
        Ok(match &handle(result)?.outcome {
            Ok(_) => std::ptr::null(),
            Err(f) => f.store.view() as *const v4a_error,
        })
    }
}

/// The kind of failure (`V4A_FAILURE_*`): `V4A_FAILURE_NONE` on success (and for NULL),
/// `V4A_FAILURE_PATCH` for a status of the engine or the layer's refusals, else which kind of
/// `V4A_STATUS_IO_ERROR`.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_failure(
    result: *const v4a_workspace_result,
) -> v4a_failure {
    ffi_boundary! {
        Ok(match &handle(result)?.outcome {
            Ok(_) => V4A_FAILURE_NONE,
            Err(f) => f.failure,
        })
    }
}

/// 1 when a rollback could not finish and the intent journal was kept: call
/// `v4a_workspace_recover` (or apply again, which recovers first). 0 otherwise (and for NULL):
/// on failure, nothing was changed.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_needs_recovery(
    result: *const v4a_workspace_result,
) -> u32 {
    ffi_boundary! {
        Ok(match &handle(result)?.outcome {
            Ok(_) => 0,
            Err(f) => u32::from(f.needs_recovery),
        })
    }
}

/// 1 when files were written; 0 for a dry run, an apply that changed nothing, a recovery, a
/// failure, or NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_written(result: *const v4a_workspace_result) -> u32 {
    ffi_boundary! {
        Ok(match &handle(result)?.outcome {
            Ok(d) => u32::from(d.written),
            Err(_) => 0,
        })
    }
}

/// One outcome per file operation, in patch order (empty on failure and for a recovery).
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_files(
    result: *const v4a_workspace_result,
) -> v4a_workspace_files {
    ffi_boundary! {
        Ok(match &handle(result)?.outcome {
            Ok(d) => v4a_workspace_files::of(&d.files),
            Err(_) => v4a_workspace_files::EMPTY,
        })
    }
}

/// The summary other engines print, which models know: `Success. Updated the following
/// files:` then `A path` / `M path` / `D path` lines (a move as `M destination`); unchanged
/// files and hunks already applied said as such; control characters in paths escaped. Empty
/// on failure and for a recovery.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_summary(
    result: *const v4a_workspace_result,
) -> v4a_bytes {
    ffi_boundary! {
        Ok(match &handle(result)?.outcome {
            Ok(d) => d.summary.view(),
            Err(_) => empty_text(),
        })
    }
}

/// Notes, one per line: attributes that could not be kept (an owner only root can give
/// back), and cleanup that the next call will finish. Empty when there are none.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_notes(
    result: *const v4a_workspace_result,
) -> v4a_bytes {
    ffi_boundary! {
        Ok(match &handle(result)?.outcome {
            Ok(d) => d.notes.view(),
            Err(_) => empty_text(),
        })
    }
}

/// What was done about an interrupted earlier apply (`V4A_RECOVERY_*`): by
/// `v4a_workspace_recover`, or by `v4a_workspace_apply` before it applied.
/// `V4A_RECOVERY_NONE` when there was none, on failure and for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_recovery(
    result: *const v4a_workspace_result,
) -> v4a_recovery {
    ffi_boundary! {
        Ok(match &handle(result)?.outcome {
            Ok(d) => d.recovery,
            Err(_) => V4A_RECOVERY_NONE,
        })
    }
}

/// The files of the recovered apply, as its patch wrote them (put back or completed); empty
/// when nothing was recovered.
#[no_mangle]
pub unsafe extern "C" fn v4a_workspace_result_recovered(
    result: *const v4a_workspace_result,
) -> v4a_bytes_list {
    ffi_boundary! {
        Ok(match &handle(result)?.outcome {
            Ok(d) => v4a_bytes_list::of(&d.recovered),
            Err(_) => v4a_bytes_list::EMPTY,
        })
    }
}
