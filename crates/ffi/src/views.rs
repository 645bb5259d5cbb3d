//! Views: `(pointer, length)` pairs of bytes or of structs, owned by the handle they were read
//! from (or static). The array view of each struct lives beside that struct.

use std::ptr;

use crate::boundary::Fallback;

/// A view of bytes owned by a v4a handle (or static, for the tool-kit strings).
///
/// Absent or present: the absent view `{NULL, 0}` is no value (no path, no suggestion, a NULL
/// handle); a present value always has a non-NULL `ptr`, even the empty text `{"", 0}`, and
/// `ptr[len]` is a NUL byte that `len` does not count, so `ptr` can be used as a C string when
/// the text holds no NUL of its own. The view stays valid until the handle that owns it is
/// freed.
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

impl v4a_bytes {
    /// The absent value, `{NULL, 0}`: no path, no suggestion, a NULL handle. Not the empty
    /// text, which is present (see [`crate::cstr::empty_text`]).
    pub(crate) const ABSENT: v4a_bytes = v4a_bytes {
        ptr: ptr::null(),
        len: 0,
    };
}

/// A view accessor given a NULL handle (or whose body panicked) returns the absent view
/// `{NULL, 0}`.
impl Fallback for v4a_bytes {
    fn on_null() -> Self {
        v4a_bytes::ABSENT
    }
    fn on_panic() -> Self {
        v4a_bytes::ABSENT
    }
}

/// Defines the array view `$view` of `$item`: `{NULL, 0}` when empty, else a pointer into a
/// vector the handle owns; `{NULL, 0}` too when its accessor is refused a pointer or panics.
macro_rules! array_view {
    ($view:ident, $item:ty) => {
        impl $view {
            /// The empty view, `{NULL, 0}`.
            pub(crate) const EMPTY: $view = $view {
                ptr: ::std::ptr::null(),
                len: 0,
            };
            /// The view of `items` (which must outlive every use of the view).
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
        impl $crate::boundary::Fallback for $view {
            fn on_null() -> Self {
                $view::EMPTY
            }
            fn on_panic() -> Self {
                $view::EMPTY
            }
        }
    };
}
pub(crate) use array_view;

array_view!(v4a_u32s, u32);
