//! Every constant of the C ABI: versions, status codes, defaults, and each kind of `uint32_t`
//! argument or field (a `typedef uint32_t v4a_<kind>;` in the header, so that a parameter
//! names the constants it takes) with its values. A leaf: it imports nothing of this crate.

/// A status code: `V4A_STATUS_OK` (0) or one of the `V4A_STATUS_*` error codes. Codes are
/// stable and never renumbered.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct v4a_status(pub u32);

/// Major version of the library (`Cargo.toml`).
pub const V4A_VERSION_MAJOR: u32 = 0;
/// Minor version of the library.
pub const V4A_VERSION_MINOR: u32 = 1;
/// Patch version of the library.
pub const V4A_VERSION_PATCH: u32 = 0;
/// The ABI version of this header: incremented on every incompatible change of a function,
/// struct or constant. Compare with `v4a_abi_version()` at startup.
pub const V4A_ABI_VERSION: u32 = 2;

/// Success.
pub const V4A_STATUS_OK: u32 = 0;
/// An argument is out of range or inconsistent: a `uint32_t` value that names no constant, a
/// `struct_size` this library does not know, a multi-file patch given to `v4a_apply`, a
/// source count that does not match the operations.
pub const V4A_STATUS_INVALID_ARGUMENT: u32 = 1;
/// A required pointer was NULL (or NULL with a non-zero length).
pub const V4A_STATUS_NULL_ARGUMENT: u32 = 2;
/// An input is not valid UTF-8; `v4a_error.byte_offset` is the first invalid byte and
/// `v4a_error.input` names the input.
pub const V4A_STATUS_INVALID_UTF8: u32 = 3;
/// The patch does not follow the V4A grammar; `v4a_error.patch_line` is the line.
pub const V4A_STATUS_PATCH_SYNTAX: u32 = 4;
/// The patch starts with `*** Begin Patch` but has no `*** End Patch`.
pub const V4A_STATUS_TRUNCATED_PATCH: u32 = 5;
/// The mode is not update, create, delete or move.
pub const V4A_STATUS_UNSUPPORTED_MODE: u32 = 6;
/// A hunk's old side was not found; the error has the closest region and a corrected hunk.
pub const V4A_STATUS_CONTEXT_NOT_FOUND: u32 = 7;
/// An `@@` anchor line was not found.
pub const V4A_STATUS_ANCHOR_NOT_FOUND: u32 = 8;
/// A hunk or anchor matches several places; the error lists every candidate and a fix.
pub const V4A_STATUS_AMBIGUOUS: u32 = 9;
/// Two hunks change the same lines.
pub const V4A_STATUS_OVERLAPPING_HUNKS: u32 = 10;
/// The change is already there (an error only with `already_applied_is_error`).
pub const V4A_STATUS_ALREADY_APPLIED: u32 = 11;
/// The total fuzz exceeds `max_fuzz`.
pub const V4A_STATUS_FUZZ_LIMIT: u32 = 12;
/// Locating a hunk exceeded `search_budget`.
pub const V4A_STATUS_SEARCH_BUDGET: u32 = 13;
/// An operation reads a file whose source was not supplied (`present = 0`).
pub const V4A_STATUS_MISSING_SOURCE: u32 = 14;
/// Two operations of one patch touch the same path.
pub const V4A_STATUS_DUPLICATE_PATH: u32 = 15;
/// A bug in v4a: a panic was caught at the boundary. Please report it.
pub const V4A_STATUS_INTERNAL: u32 = 16;
/// An `*** Add File` or `*** Move to` names a file that already exists (overwriting it would
/// lose it), unless the caller allows overwriting.
pub const V4A_STATUS_FILE_EXISTS: u32 = 17;
/// Base-aware apply: a hunk changes lines that the current text also changed since the base.
pub const V4A_STATUS_CONFLICT: u32 = 18;
/// Workspace layer: a file changed on disk after it was read; nothing was written.
pub const V4A_STATUS_CHANGED_ON_DISK: u32 = 19;
/// Workspace layer: a path leaves the root, goes through a link out of it, or names
/// version-control metadata.
pub const V4A_STATUS_UNSAFE_PATH: u32 = 20;
/// Workspace layer: another apply holds the root's lock.
pub const V4A_STATUS_LOCKED: u32 = 21;
/// The matched lines admit no consistent map from the patch's indentation to the file's, so
/// added lines cannot be indented safely.
pub const V4A_STATUS_INCONSISTENT_INDENTATION: u32 = 22;

/// The mode of `v4a_apply`: one of the `V4A_MODE_*` constants.
pub type v4a_mode = u32;

/// Mode of `v4a_apply`: apply the diff's hunks to the source.
pub const V4A_MODE_UPDATE: v4a_mode = 0;
/// Mode of `v4a_apply`: build a new file from the diff's `+` lines; the source is ignored.
pub const V4A_MODE_CREATE: v4a_mode = 1;
/// Mode of `v4a_apply`: return empty text and list every source line as removed.
pub const V4A_MODE_DELETE: v4a_mode = 2;
/// Mode of `v4a_apply`: apply edits like update and report the destination.
pub const V4A_MODE_MOVE: v4a_mode = 3;

/// A match level, from the strictest to the loosest: one of the `V4A_LEVEL_*` constants.
pub type v4a_level = u32;

/// Match level: bytes equal (line terminator excluded). Fuzz 0.
pub const V4A_LEVEL_EXACT: v4a_level = 0;
/// Match level: equal after removing trailing whitespace. Fuzz 1.
pub const V4A_LEVEL_TRIM_END: v4a_level = 1;
/// Match level: equal after removing leading and trailing whitespace. Fuzz 10.
pub const V4A_LEVEL_TRIM: v4a_level = 2;
/// Match level: trimmed, every internal whitespace run one space. Fuzz 50.
pub const V4A_LEVEL_COLLAPSE: v4a_level = 3;
/// Match level: collapsed after Unicode folding (NFKC, quotes, dashes, spaces, zero-width
/// characters). Fuzz 100.
pub const V4A_LEVEL_FOLD: v4a_level = 4;

/// `v4a_options.max_fuzz`: no limit.
pub const V4A_NO_FUZZ_LIMIT: u32 = u32::MAX;

/// The default of `v4a_options.diff_context` (`V4A_OPTIONS_INIT`, `v4a_options_init`): the
/// customary context of a diff, for `v4a_result_unified_diff` and `v4a_unified_diff` too.
/// The engine's `DiffStyle::DEFAULT_CONTEXT` (a test checks that they agree).
pub const V4A_DEFAULT_DIFF_CONTEXT: u32 = 3;
/// The default of `v4a_options.search_budget`, in line comparisons.
pub const V4A_DEFAULT_SEARCH_BUDGET: u64 = 200_000_000;
/// The default of `v4a_options.refine_max_graphemes`.
pub const V4A_DEFAULT_REFINE_MAX_GRAPHEMES: u64 = 200_000;
/// The default of `v4a_options.refine_max_cost`.
pub const V4A_DEFAULT_REFINE_MAX_COST: u64 = 8_000_000;
/// The default of `v4a_options.refine_max_pair_lines`.
pub const V4A_DEFAULT_REFINE_MAX_PAIR_LINES: u64 = 200;
/// The unit of the offsets of a line diff or a refinement (`v4a_result_line_diff`,
/// `v4a_refine_lines`): `V4A_UNITS_BYTES` or `V4A_UNITS_UTF16`.
pub type v4a_units = u32;
/// Offsets are UTF-8 bytes (C, Go, Rust strings).
pub const V4A_UNITS_BYTES: v4a_units = 0;
/// Offsets are UTF-16 code units (JavaScript, C#, Java strings).
pub const V4A_UNITS_UTF16: v4a_units = 1;
/// The default of `v4a_generate_options.context` (`V4A_GENERATE_OPTIONS_INIT`).
pub const V4A_DEFAULT_GENERATE_CONTEXT: u32 = 3;
/// The default of `v4a_generate_options.max_context`.
pub const V4A_DEFAULT_GENERATE_MAX_CONTEXT: u32 = 50;
/// `v4a_error.byte_offset`: no offset.
pub const V4A_NO_OFFSET: u64 = u64::MAX;

/// A line terminator (`v4a_options.add_file_line_ending`): `V4A_LINE_ENDING_LF` or
/// `V4A_LINE_ENDING_CRLF`.
pub type v4a_line_ending = u32;

/// `v4a_options.add_file_line_ending`: `\n`.
pub const V4A_LINE_ENDING_LF: v4a_line_ending = 0;
/// `v4a_options.add_file_line_ending`: `\r\n`.
pub const V4A_LINE_ENDING_CRLF: v4a_line_ending = 1;

/// Which structured diff a result holds (`v4a_options.diff_style`): one of the
/// `V4A_DIFF_STYLE_*` constants.
pub type v4a_diff_style = u32;

/// `v4a_options.diff_style`: no structured diff (the cheapest).
pub const V4A_DIFF_STYLE_NONE: v4a_diff_style = 0;
/// `v4a_options.diff_style`: every line of the file.
pub const V4A_DIFF_STYLE_FULL: v4a_diff_style = 1;
/// `v4a_options.diff_style`: changed lines with `diff_context` lines of context.
pub const V4A_DIFF_STYLE_CHANGES: v4a_diff_style = 2;
/// `v4a_options.diff_style`: every line of the file, each run of equal lines as one entry
/// whose `v4a_diff_columns.counts` gives its number of lines (`v4a_result_line_diff`); the
/// rows of `v4a_result_diff`, which have no count, are those of `V4A_DIFF_STYLE_FULL`.
pub const V4A_DIFF_STYLE_RUNS: v4a_diff_style = 3;

/// The kind of a diff line or segment: `V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE` or `V4A_DIFF_ADD`.
pub type v4a_diff_kind = u32;

/// Kind of a diff line or segment: unchanged.
pub const V4A_DIFF_EQUAL: v4a_diff_kind = 0;
/// Kind of a diff line or segment: removed (old side only).
pub const V4A_DIFF_DELETE: v4a_diff_kind = 1;
/// Kind of a diff line or segment: added (new side only).
pub const V4A_DIFF_ADD: v4a_diff_kind = 2;

/// The bits of `v4a_hunk_report.flags`: an OR of `V4A_HUNK_*` constants.
pub type v4a_hunk_flags = u32;

/// `v4a_hunk_report.flags`: added lines were re-indented to the file's indentation.
pub const V4A_HUNK_REINDENTED: v4a_hunk_flags = 1;
/// `v4a_hunk_report.flags`: the change was already present; nothing was changed.
pub const V4A_HUNK_ALREADY_APPLIED: v4a_hunk_flags = 2;
/// `v4a_hunk_report.flags`: placed at the end of the file.
pub const V4A_HUNK_END_OF_FILE: v4a_hunk_flags = 4;
/// `v4a_hunk_report.flags`: found before the previous hunk (out of file order).
pub const V4A_HUNK_OUT_OF_ORDER: v4a_hunk_flags = 8;
/// `v4a_hunk_report.flags`: located in the base and carried into the current text by a
/// three-way merge (`v4a_apply_with_base`, `v4a_patch_apply_with_bases`); the report's
/// ranges are in the current text.
pub const V4A_HUNK_MERGED: v4a_hunk_flags = 16;
/// `v4a_hunk_report.flags`: the hunk's `@@` anchors did not help (not found, or found more
/// than once) and were set aside; its old side is unique where a hunk without anchors is
/// searched (200 fuzz).
pub const V4A_HUNK_ANCHOR_IGNORED: v4a_hunk_flags = 32;
/// `v4a_hunk_report.flags`: the hunk was found only with some context lines relaxed (they
/// differ from the file, whose lines are kept; every `-` line matches and the place is unique;
/// 300 fuzz per relaxed line).
pub const V4A_HUNK_CONTEXT_RELAXED: v4a_hunk_flags = 64;

/// The kind of a file operation: `V4A_OP_ADD`, `V4A_OP_DELETE` or `V4A_OP_UPDATE`.
pub type v4a_op_kind = u32;

/// File operation: `*** Add File`.
pub const V4A_OP_ADD: v4a_op_kind = 0;
/// File operation: `*** Delete File`.
pub const V4A_OP_DELETE: v4a_op_kind = 1;
/// File operation: `*** Update File` (with an optional `*** Move to`).
pub const V4A_OP_UPDATE: v4a_op_kind = 2;

/// The class of a path as written in a patch: one of the `V4A_PATH_*` constants; only
/// `V4A_PATH_RELATIVE` is safe to write under a root.
pub type v4a_path_class = u32;

/// Path class: relative, and stays inside the root (`src/a.rs`, `a/../b`).
pub const V4A_PATH_RELATIVE: v4a_path_class = 0;
/// Path class: absolute (`/etc/passwd`, `\\server\share`).
pub const V4A_PATH_ABSOLUTE: v4a_path_class = 1;
/// Path class: relative but climbs out of the root with `..`.
pub const V4A_PATH_PARENT_ESCAPE: v4a_path_class = 2;
/// Path class: empty or only whitespace.
pub const V4A_PATH_EMPTY: v4a_path_class = 3;
/// Path class: contains a NUL byte.
pub const V4A_PATH_NUL: v4a_path_class = 4;
/// Path class: starts with a Windows drive prefix (`C:`).
pub const V4A_PATH_DRIVE_PREFIX: v4a_path_class = 5;

/// The API a tool definition is written for: one of the `V4A_FLAVOR_*` constants.
pub type v4a_flavor = u32;

/// Tool flavour: OpenAI function calling (strict JSON Schema), Chat Completions layout
/// (`{"type": "function", "function": {...}}`), `tools/openai-chat-*.json`.
pub const V4A_FLAVOR_OPENAI_CHAT: v4a_flavor = 0;
/// Tool flavour: OpenAI custom (freeform) tool with a Lark grammar, Responses layout
/// (`{"type": "custom", "name", ..., "format": {...}}`), `tools/openai-responses-custom-*.json`.
pub const V4A_FLAVOR_OPENAI_RESPONSES_CUSTOM: v4a_flavor = 1;
/// Tool flavour: Anthropic tool use.
pub const V4A_FLAVOR_ANTHROPIC: v4a_flavor = 2;
/// Tool flavour: Model Context Protocol.
pub const V4A_FLAVOR_MCP: v4a_flavor = 3;
/// Tool flavour: OpenAI function calling (strict JSON Schema), Responses layout
/// (`{"type": "function", "name", ..., "strict": true}`), `tools/openai-responses-*.json`.
pub const V4A_FLAVOR_OPENAI_RESPONSES: v4a_flavor = 4;

/// The shape of a tool: `V4A_SHAPE_INPUT` (the whole patch per call) or `V4A_SHAPE_FILE`
/// (one file per call).
pub type v4a_shape = u32;

/// Tool shape: the whole patch in one call (`input`), tool `apply_patch`.
pub const V4A_SHAPE_INPUT: v4a_shape = 0;
/// Tool shape: one file per call (`path`, `mode`, `diff`), tool `patch_file`.
pub const V4A_SHAPE_FILE: v4a_shape = 1;

/// Workspace layer: the operating system refused a read or a write (a missing or unreadable
/// root, a full disk, a permission denied), a path the patch needs as a file is a directory
/// (or the reverse), or a read-only file would be changed; `v4a_workspace_result_failure`
/// says which. Also: the workspace layer is not supported on this platform.
pub const V4A_STATUS_IO_ERROR: u32 = 23;

/// What a workspace operation did to its file (`v4a_workspace_file.change`): one of the
/// `V4A_CHANGE_*` constants.
pub type v4a_file_change = u32;

/// File change: a new file was created (or, when allowed, an existing one replaced by an Add).
pub const V4A_CHANGE_ADDED: v4a_file_change = 0;
/// File change: the file's content changed in place.
pub const V4A_CHANGE_MODIFIED: v4a_file_change = 1;
/// File change: the file moved to its destination (with or without edits).
pub const V4A_CHANGE_MOVED: v4a_file_change = 2;
/// File change: the file was removed.
pub const V4A_CHANGE_DELETED: v4a_file_change = 3;
/// File change: nothing to do (every hunk already applied, or an Add whose file already holds
/// that text); not written.
pub const V4A_CHANGE_UNCHANGED: v4a_file_change = 4;

/// How an interrupted apply was recovered (`v4a_workspace_result_recovery`): one of the
/// `V4A_RECOVERY_*` constants.
pub type v4a_recovery = u32;

/// Recovery: there was no interrupted apply to recover.
pub const V4A_RECOVERY_NONE: v4a_recovery = 0;
/// Recovery: the interrupted apply had not committed; every file is as it was before it.
pub const V4A_RECOVERY_UNDONE: v4a_recovery = 1;
/// Recovery: the interrupted apply had committed; every file is new, its cleanup finished.
pub const V4A_RECOVERY_FINISHED: v4a_recovery = 2;

/// Which kind of failure a workspace result holds (`v4a_workspace_result_failure`): one of
/// the `V4A_FAILURE_*` constants.
pub type v4a_failure = u32;

/// Workspace failure: none (the call succeeded).
pub const V4A_FAILURE_NONE: v4a_failure = 0;
/// Workspace failure: the patch does not apply or the files refuse it; the status says why
/// (`V4A_STATUS_CONTEXT_NOT_FOUND`, `V4A_STATUS_UNSAFE_PATH`, `V4A_STATUS_FILE_EXISTS`, ...).
pub const V4A_FAILURE_PATCH: v4a_failure = 1;
/// Workspace failure (`V4A_STATUS_IO_ERROR`): a path the patch needs as a file is a directory
/// or a special file, or a directory it needs is a file.
pub const V4A_FAILURE_PATH_CONFLICT: v4a_failure = 2;
/// Workspace failure (`V4A_STATUS_IO_ERROR`): a file the patch would change or remove is
/// read-only, and `v4a_workspace_options.allow_read_only` is 0.
pub const V4A_FAILURE_READ_ONLY: v4a_failure = 3;
/// Workspace failure (`V4A_STATUS_IO_ERROR`): the operating system refused a read or a write.
pub const V4A_FAILURE_IO: v4a_failure = 4;

/// The default of `v4a_workspace_options.lock_wait_ms`: how long an apply waits for another
/// apply on the same root before it fails with `V4A_STATUS_LOCKED`.
pub const V4A_DEFAULT_LOCK_WAIT_MS: u32 = 5000;
