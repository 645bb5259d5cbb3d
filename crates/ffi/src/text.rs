//! The `v4a_text` handle: a generated text (a patch, a unified diff, a normalised line) or the
//! error that prevented it.

use crate::boundary::{ffi_boundary, free, handle, publish};
use crate::constants::{v4a_status, V4A_STATUS_INTERNAL, V4A_STATUS_OK};
use crate::cstr::{empty_text, CText};
use crate::error::{v4a_error, ErrorStore};
use crate::views::v4a_bytes;
use engine::error::{Error, Status};

/// A text made by v4a (a generated patch, a unified diff, ...), or the error that prevented
/// it.
#[derive(Debug)]
pub struct v4a_text {
    outcome: Result<CText, ErrorStore>,
}

impl v4a_text {
    /// Stores a new text handle in `out` and returns its status.
    pub(crate) fn publish(out: &mut *mut v4a_text, outcome: Result<String, Error>) -> v4a_status {
        if let Err(e) = &outcome {
            if e.status() == Status::Internal {
                // A failed internal check (a bug, like a caught panic): the header promises
                // no handle with `V4A_STATUS_INTERNAL`.
                return v4a_status(V4A_STATUS_INTERNAL);
            }
        }
        let text = v4a_text {
            outcome: outcome.map(CText::new).map_err(ErrorStore::new),
        };
        let status = text.status();
        publish(out, text);
        status
    }

    fn status(&self) -> v4a_status {
        match &self.outcome {
            Ok(_) => v4a_status(V4A_STATUS_OK),
            Err(e) => e.view().status,
        }
    }

    #[cfg(test)]
    pub(crate) fn as_str(&self) -> Option<&str> {
        self.outcome.as_ref().ok().map(CText::as_str)
    }
}

/// Frees a text and every view read from it. NULL is ignored. Callable from any thread, but
/// not while another thread still uses the text.
#[no_mangle]
pub unsafe extern "C" fn v4a_text_free(text: *mut v4a_text) {
    ffi_boundary! {
        free(text);
        Ok(())
    }
}

/// The text's status: `V4A_STATUS_OK`, else its error's status. `V4A_STATUS_NULL_ARGUMENT`
/// for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_text_status(text: *const v4a_text) -> v4a_status {
    ffi_boundary! {
        Ok(handle(text)?.status())
    }
}

/// The text: the empty text `{"", 0}` when the handle holds an error; absent (`{NULL, 0}`)
/// for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_text_bytes(text: *const v4a_text) -> v4a_bytes {
    ffi_boundary! {
        Ok(match &handle(text)?.outcome {
            Ok(t) => t.view(),
            Err(_) => empty_text(),
        })
    }
}

/// The error, owned by the text handle; NULL on success or for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_text_error(text: *const v4a_text) -> *const v4a_error {
    ffi_boundary! {
        Ok(match &handle(text)?.outcome {
            Ok(_) => std::ptr::null(),
            Err(e) => e.view() as *const v4a_error,
        })
    }
}
