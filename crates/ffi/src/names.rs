//! The static names of statuses and levels as C strings. The Rust API returns them without a
//! terminating NUL; these exhaustive matches add it (a new variant fails to compile here), and
//! a unit test checks that the texts agree.

use std::ffi::CStr;

use engine::{Level, Status};

/// [`Status::name`] with a NUL.
pub(crate) fn status_name(s: Status) -> &'static CStr {
    match s {
        Status::Ok => c"OK",
        Status::InvalidArgument => c"INVALID_ARGUMENT",
        Status::NullArgument => c"NULL_ARGUMENT",
        Status::InvalidUtf8 => c"INVALID_UTF8",
        Status::PatchSyntax => c"PATCH_SYNTAX",
        Status::TruncatedPatch => c"TRUNCATED_PATCH",
        Status::UnsupportedMode => c"UNSUPPORTED_MODE",
        Status::ContextNotFound => c"CONTEXT_NOT_FOUND",
        Status::AnchorNotFound => c"ANCHOR_NOT_FOUND",
        Status::Ambiguous => c"AMBIGUOUS",
        Status::OverlappingHunks => c"OVERLAPPING_HUNKS",
        Status::AlreadyApplied => c"ALREADY_APPLIED",
        Status::FuzzLimit => c"FUZZ_LIMIT",
        Status::SearchBudget => c"SEARCH_BUDGET",
        Status::MissingSource => c"MISSING_SOURCE",
        Status::DuplicatePath => c"DUPLICATE_PATH",
        Status::Internal => c"INTERNAL",
        Status::FileExists => c"FILE_EXISTS",
        Status::Conflict => c"CONFLICT",
        Status::ChangedOnDisk => c"CHANGED_ON_DISK",
        Status::UnsafePath => c"UNSAFE_PATH",
        Status::Locked => c"LOCKED",
        Status::InconsistentIndentation => c"INCONSISTENT_INDENTATION",
        _ => c"UNKNOWN",
    }
}

/// [`Status::category`] with a NUL.
pub(crate) fn status_category(s: Status) -> &'static CStr {
    match s {
        Status::Ok => c"success",
        Status::InvalidArgument => c"invalid argument",
        Status::NullArgument => c"null argument",
        Status::InvalidUtf8 => c"invalid UTF-8",
        Status::PatchSyntax => c"patch syntax error",
        Status::TruncatedPatch => c"truncated patch",
        Status::UnsupportedMode => c"unsupported mode",
        Status::ContextNotFound => c"context not found",
        Status::AnchorNotFound => c"anchor not found",
        Status::Ambiguous => c"ambiguous match",
        Status::OverlappingHunks => c"overlapping hunks",
        Status::AlreadyApplied => c"already applied",
        Status::FuzzLimit => c"fuzz limit exceeded",
        Status::SearchBudget => c"search budget exceeded",
        Status::MissingSource => c"missing source",
        Status::DuplicatePath => c"duplicate path",
        Status::Internal => c"internal error",
        Status::FileExists => c"file exists",
        Status::Conflict => c"conflict",
        Status::ChangedOnDisk => c"changed on disk",
        Status::UnsafePath => c"unsafe path",
        Status::Locked => c"locked",
        Status::InconsistentIndentation => c"inconsistent indentation",
        _ => c"unknown",
    }
}

/// [`Level::name`] with a NUL.
pub(crate) fn level_name(l: Level) -> &'static CStr {
    match l {
        Level::Exact => c"exact",
        Level::TrimEnd => c"trim_end",
        Level::Trim => c"trim",
        Level::Collapse => c"collapse",
        Level::Fold => c"fold",
    }
}
