//! WebAssembly only: what a JavaScript host needs beyond the C ABI. The host has no `malloc`
//! of its own inside the module's memory, so it borrows input buffers from the module's
//! allocator ([`v4a_wasm_alloc`] / [`v4a_wasm_free`]), and it checks at start-up that the
//! struct layouts it reads agree with this build ([`v4a_wasm_layout`]).

use std::alloc::{alloc, dealloc, Layout};
use std::mem::size_of;

use crate::error::v4a_error;
use crate::line_diff::v4a_diff_columns;
use crate::options::{v4a_generate_options, v4a_options};
use crate::patch::{v4a_op, v4a_source};
use crate::refine::v4a_line_pair;
use crate::result::{v4a_change, v4a_diff_line, v4a_hunk_report, v4a_segment};
use crate::result_set::v4a_file_result;
use crate::unified_diff::v4a_unified_diff_input;
use crate::views::{v4a_bytes, v4a_u32s};

/// The alignment of every buffer handed to the host: enough for any struct of the ABI.
const ALIGN: usize = 8;

/// Allocates `len` bytes (aligned to 8) in the module's memory for the host to fill; NULL
/// for `len` 0 (the empty input is `(NULL, 0)`) or when memory is exhausted. Free it with
/// [`v4a_wasm_free`] and the same `len`.
#[no_mangle]
pub extern "C" fn v4a_wasm_alloc(len: usize) -> *mut u8 {
    match Layout::from_size_align(len, ALIGN) {
        // SAFETY: the layout has a non-zero size.
        Ok(layout) if len > 0 => unsafe { alloc(layout) },
        _ => std::ptr::null_mut(),
    }
}

/// Frees a buffer of [`v4a_wasm_alloc`]; `len` must be the length it was allocated with.
/// NULL (or `len` 0) is ignored.
///
/// # Safety
/// `ptr` is NULL or came from `v4a_wasm_alloc(len)` and was not freed yet.
#[no_mangle]
pub unsafe extern "C" fn v4a_wasm_free(ptr: *mut u8, len: usize) {
    if let (false, Ok(layout)) = (ptr.is_null(), Layout::from_size_align(len, ALIGN)) {
        if len > 0 {
            dealloc(ptr, layout);
        }
    }
}

/// The sizes of the structs the host reads and writes, in this order: `v4a_bytes`,
/// `v4a_u32s`, `v4a_error`, `v4a_op`, `v4a_source`, `v4a_file_result`, `v4a_hunk_report`,
/// `v4a_diff_line`, `v4a_segment`, `v4a_change`, `v4a_options`, `v4a_generate_options`,
/// `v4a_unified_diff_input`, `v4a_line_pair`, `v4a_diff_columns`.
/// Writes at most `cap` of them to `out` and returns how many there are.
///
/// # Safety
/// `out` is NULL (with `cap` 0) or valid for `cap` writes.
#[no_mangle]
pub unsafe extern "C" fn v4a_wasm_layout(out: *mut u32, cap: usize) -> usize {
    let sizes = [
        size_of::<v4a_bytes>(),
        size_of::<v4a_u32s>(),
        size_of::<v4a_error>(),
        size_of::<v4a_op>(),
        size_of::<v4a_source>(),
        size_of::<v4a_file_result>(),
        size_of::<v4a_hunk_report>(),
        size_of::<v4a_diff_line>(),
        size_of::<v4a_segment>(),
        size_of::<v4a_change>(),
        size_of::<v4a_options>(),
        size_of::<v4a_generate_options>(),
        size_of::<v4a_unified_diff_input>(),
        size_of::<v4a_line_pair>(),
        size_of::<v4a_diff_columns>(),
    ];
    if !out.is_null() {
        for (i, size) in sizes.iter().take(cap).enumerate() {
            *out.add(i) = *size as u32;
        }
    }
    sizes.len()
}

/// Whether the `len` bytes at `ptr` are all ASCII (1) or not (0); `len` 0 is ASCII. The JS
/// package asks before decoding a large output in Node, where ASCII bytes become a string
/// by a copy (`Buffer`'s latin1 decoding, the same characters for bytes below 0x80) instead
/// of a UTF-8 decoding pass (about 1.5x faster on a 3.4 MB file).
///
/// # Safety
/// `ptr` is NULL (with `len` 0) or points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn v4a_wasm_is_ascii(ptr: *const u8, len: usize) -> u32 {
    if ptr.is_null() || len == 0 {
        return 1;
    }
    let bytes = std::slice::from_raw_parts(ptr, len);
    u32::from(crate::boundary::is_ascii(bytes))
}
