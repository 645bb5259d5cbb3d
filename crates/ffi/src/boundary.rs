//! The boundary every export goes through: panics are caught, NULL pointers are refused, and
//! `(pointer, length)` inputs and out-pointers are converted. Nothing here knows about patches.
//!
//! The C ABI never prints to the host's streams (SPEC §7): a panic caught here is silent. A
//! panic hook installed once per process stays quiet while the current thread is inside an
//! export and hands every other panic to the hook that was installed before it.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use crate::constants::{v4a_status, V4A_STATUS_INTERNAL, V4A_STATUS_NULL_ARGUMENT};
use engine::error::{Error, Status};

/// Why an export stopped before doing its work.
#[derive(Debug)]
pub(crate) enum Fail {
    /// A pointer the call cannot do without was NULL (the out-pointer, or the handle of an
    /// accessor): the export returns [`Fallback::on_null`].
    Null,
}

/// What an export returns when it is refused a pointer or when its body panics (the views
/// implement it beside their types: `{NULL, 0}`).
pub(crate) trait Fallback {
    /// The value for a NULL required pointer.
    fn on_null() -> Self;
    /// The value for a caught panic.
    fn on_panic() -> Self;
}

impl Fallback for v4a_status {
    fn on_null() -> Self {
        v4a_status(V4A_STATUS_NULL_ARGUMENT)
    }
    fn on_panic() -> Self {
        v4a_status(V4A_STATUS_INTERNAL)
    }
}

impl Fallback for u32 {
    fn on_null() -> Self {
        0
    }
    fn on_panic() -> Self {
        0
    }
}

impl Fallback for () {
    fn on_null() -> Self {}
    fn on_panic() -> Self {}
}

impl<T> Fallback for *const T {
    fn on_null() -> Self {
        std::ptr::null()
    }
    fn on_panic() -> Self {
        std::ptr::null()
    }
}

/// Runs an export's body: a caught panic becomes [`Fallback::on_panic`] (for a status,
/// `V4A_STATUS_INTERNAL`), a refused pointer becomes [`Fallback::on_null`] (for a status,
/// `V4A_STATUS_NULL_ARGUMENT`). Use it through [`ffi_boundary!`].
pub(crate) fn run<T: Fallback>(body: impl FnOnce() -> Result<T, Fail>) -> T {
    install_quiet_hook();
    let _inside = Inside::enter();
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => value,
        Ok(Err(Fail::Null)) => T::on_null(),
        Err(payload) => {
            // Dropping the payload could itself panic (a payload with a panicking Drop):
            // catch that too, so nothing ever unwinds into C.
            let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
            T::on_panic()
        }
    }
}

thread_local! {
    /// True while this thread runs the body of an export (see [`run`]).
    static INSIDE: Cell<bool> = const { Cell::new(false) };
}

/// Marks the current thread as inside an export until dropped; restores the previous state,
/// so an export called from inside another one (a binding's callback) stays marked.
struct Inside {
    was: bool,
}

impl Inside {
    fn enter() -> Self {
        Inside {
            was: INSIDE.with(|i| i.replace(true)),
        }
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        let was = self.was;
        // `try_with`: during thread teardown the flag may be gone; nothing to restore then.
        let _ = INSIDE.try_with(|i| i.set(was));
    }
}

/// Installs, once per process, the panic hook that keeps panics inside an export silent and
/// delegates every other panic to the previous hook (the host's, or Rust's default).
fn install_quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !INSIDE.try_with(Cell::get).unwrap_or(false) {
                previous(info);
            }
        }));
    });
}

/// Wraps the body of every `extern "C"` function of the C ABI. The body evaluates to
/// `Result<T, Fail>`; `?` on [`Fail::Null`] returns the NULL fallback. Panics are caught.
macro_rules! ffi_boundary {
    ($($body:tt)*) => {
        $crate::boundary::run(move || -> ::core::result::Result<_, $crate::boundary::Fail> {
            $($body)*
        })
    };
}
pub(crate) use ffi_boundary;

/// A handle the caller must pass: NULL is refused.
///
/// # Safety
/// `ptr` is NULL or points to a live `T` for the lifetime `'a`.
pub(crate) unsafe fn handle<'a, T>(ptr: *const T) -> Result<&'a T, Fail> {
    ptr.as_ref().ok_or(Fail::Null)
}

/// An out-pointer: NULL is refused; otherwise `*ptr` is set to NULL at once, so it is NULL
/// whenever the call does not store a new handle.
///
/// # Safety
/// `ptr` is NULL or valid for writes.
pub(crate) unsafe fn out_ptr<'a, T>(ptr: *mut *mut T) -> Result<&'a mut *mut T, Fail> {
    let out = ptr.as_mut().ok_or(Fail::Null)?;
    *out = std::ptr::null_mut();
    Ok(out)
}

/// A plain out-value (`uint32_t *`, `v4a_bytes *`): NULL is refused.
///
/// # Safety
/// `ptr` is NULL or valid for writes.
pub(crate) unsafe fn out_value<'a, T>(ptr: *mut T) -> Result<&'a mut T, Fail> {
    ptr.as_mut().ok_or(Fail::Null)
}

/// A `(pointer, length)` input. `(NULL, 0)` and any pointer with length 0 are the empty
/// input. NULL with a length is an error for the result handle ([`Status::NullArgument`]), as
/// is a length above `PTRDIFF_MAX` ([`Status::InvalidArgument`]).
///
/// # Safety
/// A non-NULL `ptr` points to `len` readable bytes that stay unchanged during the call.
pub(crate) unsafe fn bytes_in<'a>(
    what: &str,
    ptr: *const u8,
    len: usize,
) -> Result<&'a [u8], Error> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Error::simple(
            Status::NullArgument,
            format!("{what} is NULL but its length is {len}: pass (NULL, 0) for an empty input"),
        ));
    }
    if len > isize::MAX as usize {
        return Err(Error::simple(
            Status::InvalidArgument,
            format!("{what}: the length {len} is larger than PTRDIFF_MAX"),
        ));
    }
    Ok(std::slice::from_raw_parts(ptr, len))
}

/// A `(pointer, length)` array of `T`. `(NULL, 0)` and any pointer with length 0 are the
/// empty array. NULL with a length is [`Status::NullArgument`]; a length no real array can
/// have (more than `PTRDIFF_MAX` bytes in all) is [`Status::InvalidArgument`], refused before
/// anything is read or allocated. Both messages name the argument.
///
/// # Safety
/// A non-NULL `ptr` points to `len` readable, initialised `T` that stay unchanged during the
/// call.
pub(crate) unsafe fn slice_in<'a, T>(
    what: &str,
    ptr: *const T,
    len: usize,
) -> Result<&'a [T], Error> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Error::simple(
            Status::NullArgument,
            format!("{what} is NULL but its length is {len}: pass (NULL, 0) for an empty array"),
        ));
    }
    let max = isize::MAX as usize / std::mem::size_of::<T>().max(1);
    if len > max {
        return Err(Error::simple(
            Status::InvalidArgument,
            format!(
                "{what}: the length {len} cannot be an array of {} bytes per element (at most \
                 {max} fit in PTRDIFF_MAX bytes)",
                std::mem::size_of::<T>()
            ),
        ));
    }
    Ok(std::slice::from_raw_parts(ptr, len))
}

/// A `(pointer, length)` input that must be UTF-8 ([`Status::InvalidUtf8`] with the byte
/// offset otherwise).
///
/// # Safety
/// As [`bytes_in`].
pub(crate) unsafe fn str_in<'a>(what: &str, ptr: *const u8, len: usize) -> Result<&'a str, Error> {
    utf8_in(what, bytes_in(what, ptr, len)?)
}

/// The bytes [`utf8_in`] checks at a time for ASCII before it asks `from_utf8`.
const ASCII_CHUNK: usize = 4 * 1024;

/// `bytes` as UTF-8, or [`Status::InvalidUtf8`] naming `what` with the byte offset: what
/// `std::str::from_utf8` answers, faster on text that is mostly ASCII (source code). Each
/// chunk is first checked with [`is_ascii`] (SSE2 on x86_64: about 0.2 instructions a
/// byte, where `from_utf8` takes 0.45); only a chunk holding other bytes is validated by
/// `from_utf8`, a character cut by the chunk's end carried whole into the next one.
pub(crate) fn utf8_in<'a>(what: &str, bytes: &'a [u8]) -> Result<&'a str, Error> {
    let mut rest = bytes;
    while !rest.is_empty() {
        let chunk = rest.get(..ASCII_CHUNK).unwrap_or(rest);
        let valid = if is_ascii(chunk) {
            chunk.len()
        } else {
            match std::str::from_utf8(chunk) {
                Ok(_) => chunk.len(),
                Err(e) if e.error_len().is_none() && chunk.len() < rest.len() => e.valid_up_to(),
                Err(_) => break,
            }
        };
        rest = rest.get(valid..).unwrap_or_default();
    }
    if rest.is_empty() {
        // SAFETY: every byte was validated above, in pieces that end at character
        // boundaries (a cut character starts the next piece).
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    // Not UTF-8: the whole input's error, for its offset.
    std::str::from_utf8(bytes).map_err(|e| Error::invalid_utf8(what, e))
}

/// `<[u8]>::is_ascii`, 64 bytes at a time with WebAssembly SIMD where the build has it (the
/// standard library is not rebuilt with the target feature, and its own check reads 4 bytes at
/// a time: a quarter of an exact apply of 1,000 lines in Node).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) fn is_ascii(bytes: &[u8]) -> bool {
    use core::arch::wasm32::{u8x16_bitmask, v128, v128_load, v128_or};
    let chunks = bytes.chunks_exact(64);
    let rest = chunks.remainder();
    for chunk in chunks {
        let p = chunk.as_ptr().cast::<v128>();
        // SAFETY: `chunk` holds 64 readable bytes, four unaligned 16-byte loads.
        let any = unsafe {
            v128_or(
                v128_or(v128_load(p), v128_load(p.add(1))),
                v128_or(v128_load(p.add(2)), v128_load(p.add(3))),
            )
        };
        if u8x16_bitmask(any) != 0 {
            return false;
        }
    }
    rest.is_ascii()
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub(crate) fn is_ascii(bytes: &[u8]) -> bool {
    bytes.is_ascii()
}

/// A `uint32_t` that must be 0 or 1.
pub(crate) fn flag_in(what: &str, value: u32) -> Result<bool, Error> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Error::simple(
            Status::InvalidArgument,
            format!("{what} is {value}: expected 0 or 1"),
        )),
    }
}

/// A `uint32_t` that must be 0 (a reserved field).
pub(crate) fn reserved_in(what: &str, value: u32) -> Result<(), Error> {
    if value == 0 {
        Ok(())
    } else {
        Err(Error::simple(
            Status::InvalidArgument,
            format!("{what} is {value}: reserved fields must be 0"),
        ))
    }
}

/// A `uint32_t` code that must index `all` (an enum's values in C ABI order).
pub(crate) fn enum_in<T: Copy>(what: &str, value: u32, all: &[T], names: &str) -> Result<T, Error> {
    all.get(value as usize).copied().ok_or_else(|| {
        Error::simple(
            Status::InvalidArgument,
            format!("{what} is {value}: expected {names}"),
        )
    })
}

/// Moves `value` to the heap and stores the pointer in `out`.
pub(crate) fn publish<T>(out: &mut *mut T, value: T) {
    *out = Box::into_raw(Box::new(value));
}

/// Frees a handle made by [`publish`]; NULL is ignored.
///
/// # Safety
/// `ptr` is NULL or a handle from [`publish`] that was not freed yet.
pub(crate) unsafe fn free<T>(ptr: *mut T) {
    if !ptr.is_null() {
        drop(Box::from_raw(ptr));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `utf8_in` answers as `from_utf8` does, with the same offset on failure, for texts of
    /// ASCII with characters of 2, 3 and 4 bytes (and broken ones: a lone continuation
    /// byte, a cut character, an overlong form, a surrogate) at and around every place where
    /// a chunk ends, and at the very end of the text.
    #[test]
    fn utf8_in_answers_as_from_utf8() {
        let pieces: [&[u8]; 9] = [
            "é".as_bytes(),
            "€".as_bytes(),
            "😀".as_bytes(),
            b"\x80",
            b"\xe2\x82",
            b"\xc0\xaf",
            b"\xed\xa0\x80",
            b"\xf0\x9f\x98",
            b"a",
        ];
        let mut cases = 0;
        for size in [0, 1, ASCII_CHUNK - 5, 3 * ASCII_CHUNK - 2] {
            for piece in pieces {
                for at in size.saturating_sub(4)..=size + 4 {
                    for tail in [0, 1, ASCII_CHUNK + 7] {
                        let mut text = vec![b'x'; at];
                        text.extend_from_slice(piece);
                        text.extend(std::iter::repeat_n(b'y', tail));
                        let want = std::str::from_utf8(&text).map_err(|e| e.valid_up_to());
                        let got = utf8_in("source", &text).map_err(|e| {
                            assert_eq!(e.status(), Status::InvalidUtf8);
                            e.diagnostics().byte_offset.map(|o| o as usize)
                        });
                        match (got, want) {
                            (Ok(g), Ok(w)) => assert_eq!(g, w),
                            (Err(g), Err(w)) => assert_eq!(g, Some(w), "{piece:?} at {at}"),
                            (g, w) => panic!("{piece:?} at {at}: {g:?} against {w:?}"),
                        }
                        cases += 1;
                    }
                }
            }
        }
        assert!(cases > 300);
    }

    /// A panic in an export's body, then one outside any export, in a child process (this
    /// test binary again): only the second may reach stderr.
    #[test]
    fn a_panic_inside_the_boundary_is_silent() {
        if std::env::var_os("V4A_BOUNDARY_CHILD").is_some() {
            let status: v4a_status = run(|| -> Result<v4a_status, Fail> {
                panic!("a deliberate panic inside the boundary")
            });
            let outside = catch_unwind(|| panic!("a deliberate panic outside the boundary"));
            println!(
                "V4A_CHILD_RESULT status={} outside={}",
                status.0,
                outside.is_err()
            );
            return;
        }
        let exe = std::env::current_exe().expect("the test binary's path");
        let out = std::process::Command::new(exe)
            .args([
                "--exact",
                "boundary::tests::a_panic_inside_the_boundary_is_silent",
                "--nocapture",
            ])
            .env("V4A_BOUNDARY_CHILD", "1")
            .env("RUST_BACKTRACE", "1")
            .output()
            .expect("the child test process runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{out:?}");
        assert!(
            stdout.contains(&format!(
                "V4A_CHILD_RESULT status={V4A_STATUS_INTERNAL} outside=true"
            )),
            "{stdout}"
        );
        assert!(!stderr.contains("inside the boundary"), "{stderr:?}");
        // The previous hook still runs for panics outside the boundary.
        assert!(stderr.contains("outside the boundary"), "{stderr:?}");
    }
}
