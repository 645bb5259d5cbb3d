//! Single-file apply: `v4a_apply`, `v4a_apply_mode_name` and `v4a_apply_with_base`, which
//! make a `v4a_result`.

use crate::boundary::{bytes_in, enum_in, ffi_boundary, out_ptr, str_in, utf8_in};
use crate::constants::{v4a_mode, v4a_status};
use crate::options::{options_in, v4a_options};
use crate::result::{publish_result, v4a_result};
use engine::{ApplyResult, Error, Mode, Options, Status};

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
    mode: v4a_mode,
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
            apply_bytes(source, diff, mode, &options)
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
            apply_bytes(source, diff, mode, &options)
        })();
        Ok(publish_result(out, outcome))
    }
}

/// `v4a_apply` for a diff written against `base`, the text the model saw (what the read tool
/// returned), applied to `source`, the text as it is now.
///
/// The hunks are located in `base` (the usual levels and rules apply there) and the change
/// is carried into `source` by a three-way merge; merged hunks have `V4A_HUNK_MERGED` in their
/// flags and their ranges in `source`. When `base` equals `source`, the result is exactly
/// `v4a_apply`'s. A hunk whose lines were also changed in `source` since the base is
/// `V4A_STATUS_CONFLICT`, whose message shows the three versions of those lines and how to
/// resend the hunk. A hunk not found in `base` is tried on `source`; when that fails too, the
/// error says that the file changed since the model read it.
///
/// `base` is a `(pointer, length)` UTF-8 input like `source`; `(NULL, 0)` is an empty base
/// (the model saw an empty file). Without a base, call `v4a_apply`. In modes create and
/// delete the base is not used (nor, for create, read). Everything else is as `v4a_apply`.
#[no_mangle]
pub unsafe extern "C" fn v4a_apply_with_base(
    source: *const u8,
    source_len: usize,
    base: *const u8,
    base_len: usize,
    diff: *const u8,
    diff_len: usize,
    mode: v4a_mode,
    options: *const v4a_options,
    result_out: *mut *mut v4a_result,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(result_out)?;
        let outcome = (|| {
            let source = bytes_in("source", source, source_len)?;
            let base = bytes_in("base", base, base_len)?;
            let diff = bytes_in("diff", diff, diff_len)?;
            let mode = enum_in("mode", mode, &Mode::ALL, MODE_NAMES)
                .map_err(|e| Error::simple(Status::UnsupportedMode, e.message()))?;
            let options = options_in(options)?;
            // As `apply_bytes`: the patch first, and neither text in create mode.
            let diff = utf8("patch", diff)?;
            let (source, base) = if mode == Mode::Create {
                ("", "")
            } else {
                (utf8("source", source)?, utf8("base", base)?)
            };
            engine::apply_with_base(source, base, diff, mode, &options)
        })();
        Ok(publish_result(out, outcome))
    }
}

/// `engine::apply_bytes` with [`utf8_in`]'s validation (the same answers, faster on ASCII):
/// the patch first, and the source not read in create mode.
fn apply_bytes<'s>(
    source: &'s [u8],
    diff: &[u8],
    mode: Mode,
    options: &Options,
) -> Result<ApplyResult<'s>, Error> {
    let diff = utf8("patch", diff)?;
    let source = if mode == Mode::Create {
        ""
    } else {
        utf8("source", source)?
    };
    engine::apply(source, diff, mode, options)
}

/// `bytes` as UTF-8, or `V4A_STATUS_INVALID_UTF8` naming `what` with the byte offset.
fn utf8<'a>(what: &str, bytes: &'a [u8]) -> Result<&'a str, Error> {
    utf8_in(what, bytes)
}
