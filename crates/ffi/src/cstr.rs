//! Strings handed to C: every view is followed by a NUL byte that its length does not count.

use crate::views::v4a_bytes;

/// Writes a NUL byte just past the end of `s`, in its spare capacity, and returns the view.
/// The string's contents are unchanged; the NUL stays in place as long as `s` is not modified
/// again, which the handles guarantee (they are immutable once built).
pub(crate) fn nul_terminate(s: &mut String) -> v4a_bytes {
    s.reserve_exact(1);
    // SAFETY: only the spare capacity is written; the string's bytes (and so its UTF-8
    // validity) are untouched.
    unsafe { s.as_mut_vec() }.spare_capacity_mut()[0].write(0);
    v4a_bytes {
        ptr: s.as_ptr(),
        len: s.len(),
    }
}

/// [`nul_terminate`] for an optional string: `None` is the absent view `{NULL, 0}`.
pub(crate) fn nul_terminate_opt(s: &mut Option<String>) -> v4a_bytes {
    match s {
        Some(s) => nul_terminate(s),
        None => v4a_bytes::ABSENT,
    }
}

/// An owned string followed by a NUL byte.
#[derive(Debug)]
pub(crate) struct CText {
    text: String,
}

impl CText {
    pub(crate) fn new(mut text: String) -> CText {
        nul_terminate(&mut text);
        CText { text }
    }

    /// The view; the NUL written by [`CText::new`] follows it (the text is never modified).
    pub(crate) fn view(&self) -> v4a_bytes {
        v4a_bytes {
            ptr: self.text.as_ptr(),
            len: self.text.len(),
        }
    }

    #[cfg(test)]
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }
}

/// A view of a static string literal that ends with `"\0"` (the NUL is not counted).
pub(crate) fn static_view(with_nul: &'static str) -> v4a_bytes {
    debug_assert!(with_nul.ends_with('\0'));
    v4a_bytes {
        ptr: with_nul.as_ptr(),
        len: with_nul.len() - 1,
    }
}

/// The empty text, present: `{"", 0}` with a non-NULL `ptr` (a deleted file's text, the text
/// of a handle that holds an error). Not [`v4a_bytes::ABSENT`], which is `{NULL, 0}`.
pub(crate) fn empty_text() -> v4a_bytes {
    static_view("\0")
}

/// Many short texts in one buffer, each followed by a NUL.
#[derive(Debug, Default)]
pub(crate) struct Arena {
    bytes: Vec<u8>,
}

impl Arena {
    /// An arena for texts of `total` bytes in all, `count` texts.
    pub(crate) fn with_capacity(total: usize, count: usize) -> Arena {
        Arena {
            bytes: Vec::with_capacity(total + count),
        }
    }

    /// Appends `text` and its NUL; returns the text's offset.
    pub(crate) fn push(&mut self, text: &str) -> usize {
        let at = self.bytes.len();
        self.bytes.extend_from_slice(text.as_bytes());
        self.bytes.push(0);
        at
    }

    /// The view of a text pushed at `at` with `len` bytes. Call only once every text is
    /// pushed: pushing may move the buffer.
    pub(crate) fn view(&self, at: usize, len: usize) -> v4a_bytes {
        v4a_bytes {
            ptr: self.bytes[at..].as_ptr(),
            len,
        }
    }
}
