//! Patch generation (and the match-level normalisation) into `v4a_text` handles.

use crate::boundary::{enum_in, ffi_boundary, out_ptr, str_in};
use crate::constants::{v4a_level, v4a_status};
use crate::options::{generate_options_in, v4a_generate_options};
use crate::text::v4a_text;
use engine::Level;

/// Writes a V4A patch (`*** Update File:` envelope) that turns `old_text` into `new_text`,
/// with `context` lines of context, adding context or an `@@` anchor until every hunk is
/// unique. The patch applies back exactly: applying it to `old_text` gives `new_text` byte for
/// byte. Identical texts give an empty envelope. Differences a V4A patch cannot express (a
/// changed line terminator, an added or removed BOM) are `V4A_STATUS_INVALID_ARGUMENT`.
///
/// Inputs are `(pointer, length)` UTF-8; `options` may be NULL. Stores a new text in
/// `*text_out` for every status except `V4A_STATUS_INTERNAL`; free it with `v4a_text_free`.
#[no_mangle]
pub unsafe extern "C" fn v4a_make_patch(
    old_text: *const u8,
    old_len: usize,
    new_text: *const u8,
    new_len: usize,
    path: *const u8,
    path_len: usize,
    options: *const v4a_generate_options,
    text_out: *mut *mut v4a_text,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(text_out)?;
        let outcome = (|| {
            let old = str_in("old text", old_text, old_len)?;
            let new = str_in("new text", new_text, new_len)?;
            let path = str_in("path", path, path_len)?;
            let gen = generate_options_in(options)?;
            engine::make_patch(old, new, path, &gen)
        })();
        Ok(v4a_text::publish(out, outcome))
    }
}

/// `v4a_make_patch` for a file that also moves: the patch has `*** Move to: destination`
/// (omitted when the destination equals the path). Without a change and without a move, the
/// patch is an empty envelope.
#[no_mangle]
pub unsafe extern "C" fn v4a_make_move_patch(
    old_text: *const u8,
    old_len: usize,
    new_text: *const u8,
    new_len: usize,
    path: *const u8,
    path_len: usize,
    destination: *const u8,
    destination_len: usize,
    options: *const v4a_generate_options,
    text_out: *mut *mut v4a_text,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(text_out)?;
        let outcome = (|| {
            let old = str_in("old text", old_text, old_len)?;
            let new = str_in("new text", new_text, new_len)?;
            let path = str_in("path", path, path_len)?;
            let destination = str_in("destination", destination, destination_len)?;
            let gen = generate_options_in(options)?;
            engine::make_move_patch(old, new, path, Some(destination), &gen)
        })();
        Ok(v4a_text::publish(out, outcome))
    }
}

/// Writes a patch that adds `path` with `text` (`+` lines; a text without a final newline
/// ends with `\ No newline at end of file`). Inputs are `(pointer, length)` UTF-8. Stores a new
/// text in `*text_out` for every status except `V4A_STATUS_INTERNAL`.
#[no_mangle]
pub unsafe extern "C" fn v4a_make_add_patch(
    path: *const u8,
    path_len: usize,
    text: *const u8,
    text_len: usize,
    text_out: *mut *mut v4a_text,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(text_out)?;
        let outcome = (|| {
            let path = str_in("path", path, path_len)?;
            let text = str_in("text", text, text_len)?;
            Ok(engine::make_add_patch(path, text))
        })();
        Ok(v4a_text::publish(out, outcome))
    }
}

/// Writes a patch that deletes `path`. The path is a `(pointer, length)` UTF-8 input. Stores a
/// new text in `*text_out` for every status except `V4A_STATUS_INTERNAL`.
#[no_mangle]
pub unsafe extern "C" fn v4a_make_delete_patch(
    path: *const u8,
    path_len: usize,
    text_out: *mut *mut v4a_text,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(text_out)?;
        let outcome = str_in("path", path, path_len).map(engine::make_delete_patch);
        Ok(v4a_text::publish(out, outcome))
    }
}

/// The form of `line` that the match level `level` (`V4A_LEVEL_*`) compares: trailing
/// whitespace removed (trim-end), surrounding whitespace removed (trim), whitespace runs
/// collapsed (collapse), Unicode folded (fold). For showing a model why two lines match.
/// The line is a `(pointer, length)` UTF-8 input. Stores a new text in `*text_out` for every
/// status except `V4A_STATUS_INTERNAL`.
#[no_mangle]
pub unsafe extern "C" fn v4a_normalize(
    line: *const u8,
    line_len: usize,
    level: v4a_level,
    text_out: *mut *mut v4a_text,
) -> v4a_status {
    ffi_boundary! {
        let out = out_ptr(text_out)?;
        let outcome = (|| {
            let line = str_in("line", line, line_len)?;
            let level = enum_in("level", level, &Level::ALL, "V4A_LEVEL_EXACT (0) ... V4A_LEVEL_FOLD (4)")?;
            Ok(engine::normalized(line, level))
        })();
        Ok(v4a_text::publish(out, outcome))
    }
}
