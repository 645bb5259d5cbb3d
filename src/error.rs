//! The error type, its stable status codes, and the structured diagnostics that travel with it.
//!
//! Every failure of the engine is an [`Error`]: a [`Status`] (a stable number, never
//! renumbered, shared with the C ABI), a message written for the model that produced the patch,
//! and [`Diagnostics`] holding the same facts in structured form.

use std::fmt;

/// Stable status codes. The numbers are part of the C ABI (`V4A_STATUS_*`) and never change;
/// new codes are appended, so a `match` needs a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[repr(u32)]
pub enum Status {
    /// Success.
    Ok = 0,
    /// An argument is out of range or inconsistent (e.g. a multi-file patch given to the
    /// single-file API, or an option value the engine does not know).
    InvalidArgument = 1,
    /// A required pointer was NULL (C ABI only).
    NullArgument = 2,
    /// An input is not valid UTF-8; the diagnostics carry the byte offset.
    InvalidUtf8 = 3,
    /// The patch text does not follow the V4A grammar; the diagnostics carry the patch line.
    PatchSyntax = 4,
    /// The patch starts with `*** Begin Patch` but has no `*** End Patch`.
    TruncatedPatch = 5,
    /// The apply mode is not one of update, create, delete, move.
    UnsupportedMode = 6,
    /// A hunk's old side (context and `-` lines) was not found in the file.
    ContextNotFound = 7,
    /// An `@@` anchor line was not found in the file.
    AnchorNotFound = 8,
    /// A hunk or anchor matches more than one place.
    Ambiguous = 9,
    /// Two hunks claim the same lines of the file.
    OverlappingHunks = 10,
    /// The hunk's change is already present (reported as an error only when configured).
    AlreadyApplied = 11,
    /// The total fuzz of the match exceeds the configured maximum.
    FuzzLimit = 12,
    /// Locating a hunk exceeded the search budget.
    SearchBudget = 13,
    /// The caller did not supply the text of a file the patch reads.
    MissingSource = 14,
    /// Two operations of one patch touch the same path.
    DuplicatePath = 15,
    /// A bug in v4a: a caught panic, or an internal check that failed (generation that could
    /// not make its hunks unique). Please report it.
    Internal = 16,
    /// An `*** Add File` or `*** Move to` names a file that already exists (overwriting it would lose it), unless the caller allows overwriting.
    FileExists = 17,
    /// Base-aware apply: a hunk changes lines that the current text also changed since the base.
    Conflict = 18,
    /// Workspace layer: a file changed on disk after it was read; nothing was written.
    ChangedOnDisk = 19,
    /// Workspace layer: a path leaves the root, goes through a link out of it, or names version-control metadata.
    UnsafePath = 20,
    /// Workspace layer: another apply holds the root's lock.
    Locked = 21,
    /// The matched lines admit no consistent map from the patch's indentation to the file's, so added lines cannot be indented safely.
    InconsistentIndentation = 22,
}

impl Status {
    /// All status codes, in numeric order.
    pub const ALL: [Status; 23] = [
        Status::Ok,
        Status::InvalidArgument,
        Status::NullArgument,
        Status::InvalidUtf8,
        Status::PatchSyntax,
        Status::TruncatedPatch,
        Status::UnsupportedMode,
        Status::ContextNotFound,
        Status::AnchorNotFound,
        Status::Ambiguous,
        Status::OverlappingHunks,
        Status::AlreadyApplied,
        Status::FuzzLimit,
        Status::SearchBudget,
        Status::MissingSource,
        Status::DuplicatePath,
        Status::Internal,
        Status::FileExists,
        Status::Conflict,
        Status::ChangedOnDisk,
        Status::UnsafePath,
        Status::Locked,
        Status::InconsistentIndentation,
    ];

    /// The numeric code.
    pub fn code(self) -> u32 {
        self as u32
    }

    /// The status with this numeric code, if there is one.
    pub fn from_code(code: u32) -> Option<Status> {
        Status::ALL.get(code as usize).copied()
    }

    /// The stable upper-case name (`"AMBIGUOUS"`), as used by `v4a_status_str` and the test
    /// vectors.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "OK",
            Status::InvalidArgument => "INVALID_ARGUMENT",
            Status::NullArgument => "NULL_ARGUMENT",
            Status::InvalidUtf8 => "INVALID_UTF8",
            Status::PatchSyntax => "PATCH_SYNTAX",
            Status::TruncatedPatch => "TRUNCATED_PATCH",
            Status::UnsupportedMode => "UNSUPPORTED_MODE",
            Status::ContextNotFound => "CONTEXT_NOT_FOUND",
            Status::AnchorNotFound => "ANCHOR_NOT_FOUND",
            Status::Ambiguous => "AMBIGUOUS",
            Status::OverlappingHunks => "OVERLAPPING_HUNKS",
            Status::AlreadyApplied => "ALREADY_APPLIED",
            Status::FuzzLimit => "FUZZ_LIMIT",
            Status::SearchBudget => "SEARCH_BUDGET",
            Status::MissingSource => "MISSING_SOURCE",
            Status::DuplicatePath => "DUPLICATE_PATH",
            Status::Internal => "INTERNAL",
            Status::FileExists => "FILE_EXISTS",
            Status::Conflict => "CONFLICT",
            Status::ChangedOnDisk => "CHANGED_ON_DISK",
            Status::UnsafePath => "UNSAFE_PATH",
            Status::Locked => "LOCKED",
            Status::InconsistentIndentation => "INCONSISTENT_INDENTATION",
        }
    }

    /// The status with this name (`"AMBIGUOUS"`), if there is one.
    pub fn from_name(name: &str) -> Option<Status> {
        Status::ALL.iter().copied().find(|s| s.name() == name)
    }

    /// A one-line description of the category.
    pub fn category(self) -> &'static str {
        match self {
            Status::Ok => "success",
            Status::InvalidArgument => "invalid argument",
            Status::NullArgument => "null argument",
            Status::InvalidUtf8 => "invalid UTF-8",
            Status::PatchSyntax => "patch syntax error",
            Status::TruncatedPatch => "truncated patch",
            Status::UnsupportedMode => "unsupported mode",
            Status::ContextNotFound => "context not found",
            Status::AnchorNotFound => "anchor not found",
            Status::Ambiguous => "ambiguous match",
            Status::OverlappingHunks => "overlapping hunks",
            Status::AlreadyApplied => "already applied",
            Status::FuzzLimit => "fuzz limit exceeded",
            Status::SearchBudget => "search budget exceeded",
            Status::MissingSource => "missing source",
            Status::DuplicatePath => "duplicate path",
            Status::Internal => "internal error",
            Status::FileExists => "file exists",
            Status::Conflict => "conflict",
            Status::ChangedOnDisk => "changed on disk",
            Status::UnsafePath => "unsafe path",
            Status::Locked => "locked",
            Status::InconsistentIndentation => "inconsistent indentation",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The region of the file that came closest to a hunk that was not found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClosestRegion {
    /// First line of the region (1-based).
    pub start_line: u32,
    /// Last line of the region (1-based, inclusive).
    pub end_line: u32,
    /// How similar the region is to the hunk's old side, from 0.0 to 1.0.
    pub similarity: f64,
}

/// Structured facts about a failure. Every field is optional: each error fills what it knows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diagnostics {
    /// The file the failing operation works on, exactly as written in the patch.
    pub path: Option<String>,
    /// 1-based line of the patch text (as the caller gave it) where the problem is.
    pub patch_line: Option<u32>,
    /// 1-based number of the failing hunk within its file operation, as messages say it
    /// ("hunk 1" is the first hunk).
    pub hunk: Option<u32>,
    /// Byte offset of the first invalid byte, for [`Status::InvalidUtf8`].
    pub byte_offset: Option<u64>,
    /// Which input was at fault for [`Status::InvalidUtf8`] (`"source"`, `"patch"`, ...).
    pub input: Option<String>,
    /// 1-based file lines of every candidate place, for ambiguity and overlap errors.
    pub candidates: Vec<u32>,
    /// A concrete fix: an anchor line or extra context that would make the hunk unique.
    pub suggestion: Option<String>,
    /// For not-found errors: the closest region of the file.
    pub closest: Option<ClosestRegion>,
    /// For not-found errors: the hunk rewritten with the file's real lines, ready to resend.
    pub corrected_hunk: Option<String>,
}

impl Diagnostics {
    /// The 1-based hunk number of [`Diagnostics::hunk`] for a 0-based hunk index (saturating
    /// at `u32::MAX`, which no real patch reaches).
    pub(crate) fn hunk_number(index: usize) -> Option<u32> {
        Some(u32::try_from(index.saturating_add(1)).unwrap_or(u32::MAX))
    }
}

/// An error of the v4a engine: a stable [`Status`], a model-facing message, and diagnostics.
///
/// ```
/// let err = v4a::apply("a\nb\n", "@@\n-x\n+y\n", v4a::Mode::Update, &v4a::Options::default())
///     .unwrap_err();
/// assert_eq!(err.status(), v4a::Status::ContextNotFound);
/// assert!(err.message().contains("hunk 1"));
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    status: Status,
    message: String,
    diagnostics: Box<Diagnostics>,
}

impl Error {
    /// Creates an error from its parts.
    pub fn new(status: Status, message: impl Into<String>, diagnostics: Diagnostics) -> Error {
        Error {
            status,
            message: message.into(),
            diagnostics: Box::new(diagnostics),
        }
    }

    /// An error with only a status and a message.
    pub fn simple(status: Status, message: impl Into<String>) -> Error {
        Error::new(status, message, Diagnostics::default())
    }

    /// A patch syntax error at a 1-based patch line.
    pub fn syntax(line: u32, message: impl Into<String>) -> Error {
        Error::new(
            Status::PatchSyntax,
            message,
            Diagnostics {
                patch_line: Some(line),
                ..Diagnostics::default()
            },
        )
    }

    /// An invalid UTF-8 error for the named input at a byte offset.
    pub fn invalid_utf8(input: &str, err: std::str::Utf8Error) -> Error {
        let offset = err.valid_up_to();
        Error::new(
            Status::InvalidUtf8,
            format!("the {input} is not valid UTF-8: invalid byte at offset {offset}"),
            Diagnostics {
                byte_offset: Some(offset as u64),
                input: Some(input.to_string()),
                ..Diagnostics::default()
            },
        )
    }

    /// The stable status code.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The message, written for the model that produced the patch.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The structured diagnostics.
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.diagnostics
    }

    /// Sets the path the error is about, and prefixes the message with it when the message
    /// does not name it yet.
    /// Does nothing for an empty path (a bare diff names no file).
    pub(crate) fn with_path(mut self, path: &str) -> Error {
        if self.diagnostics.path.is_none() && !path.is_empty() {
            self.diagnostics.path = Some(path.to_string());
            if !self.message.contains(path) {
                self.message = format!("{path}: {}", self.message);
            }
        }
        self
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_stable_and_round_trip() {
        for (i, s) in Status::ALL.iter().enumerate() {
            assert_eq!(s.code() as usize, i);
            assert_eq!(Status::from_code(s.code()), Some(*s));
            assert_eq!(Status::from_name(s.name()), Some(*s));
        }
        assert_eq!(Status::Ambiguous.code(), 9);
        assert_eq!(Status::Internal.code(), 16);
        assert_eq!(Status::InconsistentIndentation.code(), 22);
        assert_eq!(Status::from_code(23), None);
    }
}
