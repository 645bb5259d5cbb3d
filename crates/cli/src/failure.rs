//! What can go wrong in the command, and the exit status of each.

use std::fmt;

/// Exit status: the patch does not apply (or names a path the command refuses).
pub const EXIT_PATCH: u8 = 1;
/// Exit status: the command was called wrongly.
pub const EXIT_USAGE: u8 = 2;
/// Exit status: the operating system refused a read or a write.
pub const EXIT_IO: u8 = 3;

/// A failure of the command.
#[derive(Debug)]
pub enum Failure {
    /// The engine refused the patch (exit 1): its message is written for the model.
    Patch(v4a::Error),
    /// The patch names a path the command will not touch (exit 1).
    Path(PathProblem),
    /// The command was called wrongly (exit 2).
    Usage(String),
    /// A read or a write failed (exit 3).
    Io(IoFailure),
}

/// A path the command refuses: outside DIR, two operations on one file, a directory where a
/// file should be.
#[derive(Debug)]
pub struct PathProblem {
    /// `PATH_CONFLICT` or `READ_ONLY` (the statuses with a code travel as [`Failure::Patch`]).
    pub status: &'static str,
    /// The path as written in the patch.
    pub path: String,
    /// The patch line of the operation.
    pub patch_line: Option<u32>,
    /// The whole message, naming the path.
    pub message: String,
}

/// A failed read or write. Nothing was changed, unless `needs_recovery` says that an
/// interrupted apply was left for `v4a recover`.
#[derive(Debug, Default)]
pub struct IoFailure {
    pub path: Option<String>,
    pub message: String,
    pub needs_recovery: bool,
}

impl Failure {
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Patch(_) | Failure::Path(_) => EXIT_PATCH,
            Failure::Usage(_) => EXIT_USAGE,
            Failure::Io(_) => EXIT_IO,
        }
    }

    /// An I/O failure about `path`.
    pub fn io(path: Option<&str>, message: impl Into<String>) -> Failure {
        Failure::Io(IoFailure {
            path: path.map(str::to_string),
            message: message.into(),
            ..IoFailure::default()
        })
    }

    /// A refused path.
    pub fn path(
        status: &'static str,
        path: &str,
        patch_line: Option<u32>,
        message: impl Into<String>,
    ) -> Failure {
        Failure::Path(PathProblem {
            status,
            path: path.to_string(),
            patch_line,
            message: message.into(),
        })
    }
}

impl fmt::Display for Failure {
    /// The text printed on stderr, control characters escaped (a path or a file line can
    /// hold terminal escapes).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Failure::Patch(e) => e.message().to_string(),
            Failure::Path(p) => p.message.clone(),
            Failure::Usage(m) => format!("v4a: {m}"),
            Failure::Io(io) => format!("v4a: {}", io.message),
        };
        f.write_str(&v4a_workspace::escape_message(&text))
    }
}

impl From<v4a_workspace::Error> for Failure {
    fn from(e: v4a_workspace::Error) -> Failure {
        match e {
            v4a_workspace::Error::Patch(e) => Failure::Patch(e),
            v4a_workspace::Error::PathConflict {
                path,
                patch_line,
                message,
            } => Failure::path("PATH_CONFLICT", &path, Some(patch_line), message),
            v4a_workspace::Error::ReadOnly {
                path,
                patch_line,
                message,
            } => Failure::path("READ_ONLY", &path, Some(patch_line), message),
            other => Failure::Io(IoFailure {
                path: other.path().map(str::to_string),
                message: other.message().to_string(),
                needs_recovery: other.needs_recovery(),
            }),
        }
    }
}

impl From<v4a::Error> for Failure {
    fn from(e: v4a::Error) -> Failure {
        Failure::Patch(e)
    }
}
