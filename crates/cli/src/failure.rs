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
    /// `UNSAFE_PATH`, `DUPLICATE_PATH` or `PATH_CONFLICT`.
    pub status: &'static str,
    /// The path as written in the patch.
    pub path: String,
    /// The patch line of the operation.
    pub patch_line: Option<u32>,
    /// The whole message, naming the path.
    pub message: String,
}

/// A failed read or write. When a write failed midway, `restored` lists the files put back
/// from memory and `not_restored` those that could not be.
#[derive(Debug, Default)]
pub struct IoFailure {
    pub path: Option<String>,
    pub message: String,
    pub restored: Vec<String>,
    pub not_restored: Vec<String>,
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
    /// The text printed on stderr.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Patch(e) => f.write_str(e.message()),
            Failure::Path(p) => f.write_str(&p.message),
            Failure::Usage(m) => write!(f, "v4a: {m}"),
            Failure::Io(io) => write!(f, "v4a: {}", io.message),
        }
    }
}

impl From<v4a::Error> for Failure {
    fn from(e: v4a::Error) -> Failure {
        Failure::Patch(e)
    }
}
