//! What can go wrong when a patch is applied to a directory.

use std::io;

use v4a::{Diagnostics, Status};

/// A failure of the workspace layer. Whatever the variant, nothing was changed on disk unless
/// [`Error::needs_recovery`] says so (then the intent journal lets [`crate::Workspace::recover`]
/// finish the job).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The patch does not apply, or the files refuse it: an engine error, or one of this
    /// layer's statuses with the same shape (`FILE_EXISTS`, `CHANGED_ON_DISK`, `UNSAFE_PATH`,
    /// `LOCKED`, `DUPLICATE_PATH`). The message is written for the model that sent the patch.
    #[error("{0}")]
    Patch(v4a::Error),
    /// A path the patch needs as a file is a directory or a special file, or a directory the
    /// patch needs is a file (also between two operations of the patch).
    #[error("{message}")]
    PathConflict {
        /// The path as written in the patch.
        path: String,
        /// The patch line of the operation.
        patch_line: u32,
        /// The whole message.
        message: String,
    },
    /// A file the patch would change or remove is read-only (no write permission for the
    /// caller), and [`crate::WorkspaceOptions::allow_read_only`] is off.
    #[error("{message}")]
    ReadOnly {
        /// The path as written in the patch.
        path: String,
        /// The patch line of the operation.
        patch_line: u32,
        /// The whole message.
        message: String,
    },
    /// The operating system refused a read or a write.
    #[error("{message}")]
    Io {
        /// The path (as written in the patch) the failure is about, if any.
        path: Option<String>,
        /// The whole message, naming what was being done and the OS's reason.
        message: String,
        /// The OS's error kind.
        kind: io::ErrorKind,
        /// True when a crash-safe rollback could not finish: the journal was kept and
        /// [`crate::Workspace::recover`] (`v4a recover`) must run.
        needs_recovery: bool,
    },
}

impl Error {
    /// The stable name of the failure: the engine status name (`"FILE_EXISTS"`), or
    /// `"PATH_CONFLICT"`, `"READ_ONLY"`, `"IO_ERROR"`.
    pub fn status_name(&self) -> &'static str {
        match self {
            Error::Patch(e) => e.status().name(),
            Error::PathConflict { .. } => "PATH_CONFLICT",
            Error::ReadOnly { .. } => "READ_ONLY",
            Error::Io { .. } => "IO_ERROR",
        }
    }

    /// The engine status, for [`Error::Patch`].
    pub fn status(&self) -> Option<Status> {
        match self {
            Error::Patch(e) => Some(e.status()),
            _ => None,
        }
    }

    /// The message (the same text as `Display`).
    pub fn message(&self) -> &str {
        match self {
            Error::Patch(e) => e.message(),
            Error::PathConflict { message, .. }
            | Error::ReadOnly { message, .. }
            | Error::Io { message, .. } => message,
        }
    }

    /// The path the failure is about, as written in the patch.
    pub fn path(&self) -> Option<&str> {
        match self {
            Error::Patch(e) => e.diagnostics().path.as_deref(),
            Error::PathConflict { path, .. } | Error::ReadOnly { path, .. } => Some(path),
            Error::Io { path, .. } => path.as_deref(),
        }
    }

    /// The patch line of the failing operation, when known.
    pub fn patch_line(&self) -> Option<u32> {
        match self {
            Error::Patch(e) => e.diagnostics().patch_line,
            Error::PathConflict { patch_line, .. } | Error::ReadOnly { patch_line, .. } => {
                Some(*patch_line)
            }
            Error::Io { .. } => None,
        }
    }

    /// True when an interrupted apply is left for [`crate::Workspace::recover`].
    pub fn needs_recovery(&self) -> bool {
        matches!(
            self,
            Error::Io {
                needs_recovery: true,
                ..
            }
        )
    }

    /// A layer refusal with an engine status.
    pub(crate) fn status_at(
        status: Status,
        path: Option<&str>,
        patch_line: Option<u32>,
        message: String,
    ) -> Error {
        Error::Patch(v4a::Error::new(
            status,
            message,
            Diagnostics {
                path: path.map(str::to_string),
                patch_line,
                ..Diagnostics::default()
            },
        ))
    }

    /// An OS failure: `what` says what was being done ("create a temporary file in src").
    pub(crate) fn io(path: Option<&str>, what: &str, e: impl Into<io::Error>) -> Error {
        let e: io::Error = e.into();
        Error::Io {
            path: path.map(str::to_string),
            message: format!("cannot {what}: {e}"),
            kind: e.kind(),
            needs_recovery: false,
        }
    }
}

impl From<v4a::Error> for Error {
    fn from(e: v4a::Error) -> Error {
        Error::Patch(e)
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
