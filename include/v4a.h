/*
 * v4a.h: the C ABI of v4a, which applies V4A patches (the `*** Begin Patch` edit format that
 * language models emit) to text held in memory and returns the patched text with a
 * structured account of every change. v4a never touches the disk.
 *
 * Generated from crates/ffi/ by cbindgen and cmake/group_header.py (cmake/Header.cmake, see
 * cbindgen.toml). Do not edit by hand. The declarations come in sections, one per object: each
 * type next to its constants and functions, starting with v4a_apply.
 *
 * CONVENTIONS
 *
 * Names. Functions are v4a_<object>_<verb>, types v4a_<object>, constants V4A_... .
 *
 * Status. Every fallible call returns a v4a_status (uint32_t): V4A_STATUS_OK (0) or an error
 * code. Codes are stable and never renumbered; v4a_status_str() gives the name of any code.
 * There is no thread-local "last error": the details travel in the handle the call returns.
 *
 * Handles. v4a_result, v4a_result_set, v4a_patch and v4a_text are opaque. A call that makes
 * one takes an out-pointer (`v4a_result **result_out`); it sets *out to NULL first, then
 * stores a new handle for every status except V4A_STATUS_INTERNAL, so that failures (a patch
 * that does not apply, a bad argument) come back with their message and diagnostics. A NULL
 * out-pointer is V4A_STATUS_NULL_ARGUMENT and nothing is stored. Each handle type has one
 * v4a_<type>_free function, NULL-safe, callable from any thread. Nothing is ever returned for
 * the caller to free() and no handle holds a pointer to the caller's memory.
 *
 * Inputs. Text and bytes are passed as (const uint8_t *ptr, size_t len). (NULL, 0) is the
 * empty input; NULL with a non-zero length is V4A_STATUS_NULL_ARGUMENT. Texts must be UTF-8
 * (V4A_STATUS_INVALID_UTF8, with the byte offset, otherwise). Inputs are read during the call
 * only and never kept. Numeric arguments and option fields that name a constant (a mode, a
 * level, a flag that is 0 or 1) are checked: a value out of range is
 * V4A_STATUS_INVALID_ARGUMENT (V4A_STATUS_UNSUPPORTED_MODE for a mode), never a silent default.
 *
 * Outputs. Text comes back as v4a_bytes { const uint8_t *ptr; size_t len; }, a view owned by
 * the handle it was read from and valid until that handle is freed. Two views hold no bytes
 * and mean different things: the ABSENT view {NULL, 0} is no value (no path, no suggestion,
 * a NULL handle), the EMPTY TEXT {"", 0} is a present value with no bytes (a deleted file's
 * text); a present view never has a NULL ptr, and its ptr[len] is a NUL byte that len does
 * not count, so ptr is also a C string when the text holds no NUL. Test ptr == NULL for
 * absence. Arrays come back the same way ({ const T *ptr; size_t len; }, {NULL, 0} when
 * empty) and error details as a const v4a_error * owned by the handle. Accessors given a NULL
 * handle return the absent view, 0 or NULL (a *_status accessor: V4A_STATUS_NULL_ARGUMENT).
 *
 * Kinds. Every argument or field that takes one of a set of constants has a typedef of
 * uint32_t named after the set: a v4a_mode takes a V4A_MODE_*, a v4a_level a V4A_LEVEL_*, a
 * v4a_flavor a V4A_FLAVOR_*, a v4a_shape a V4A_SHAPE_*, a v4a_diff_style a V4A_DIFF_STYLE_*,
 * a v4a_op_kind a V4A_OP_*, a v4a_path_class a V4A_PATH_*, ...
 *
 * Structs. Every struct crossing the boundary has fixed-width fields only (uint32_t kinds and
 * flags with V4A_ constants, 1-based line numbers with 0 = absent, size_t lengths, pointers),
 * and no implicit padding; `reserved` fields are 0. Options structs are versioned: their first
 * field is their size. Initialise one with its static initializer
 * (`v4a_options o = V4A_OPTIONS_INIT;`, V4A_GENERATE_OPTIONS_INIT) or its _init() function
 * (v4a_options_init(), v4a_generate_options_init()), then change fields; or pass NULL for the
 * defaults. A zeroed struct is refused (V4A_STATUS_INVALID_ARGUMENT).
 *
 * Threads. The library has no global mutable state. Every function may be called from any
 * thread at any time. Handles are immutable once returned: one handle may be read (and a
 * v4a_patch applied) from several threads at once. Free a handle once, after every thread is
 * done with it.
 *
 * Panics. Every export catches Rust panics at the boundary; a caught panic (a bug in v4a:
 * please report it) returns V4A_STATUS_INTERNAL and stores no handle.
 *
 * Versions. V4A_VERSION* describe this header; v4a_version() and v4a_abi_version() the loaded
 * library. Check `v4a_abi_version() == V4A_ABI_VERSION` at startup.
 */

#ifndef V4A_H
#define V4A_H

#include <stddef.h>
#include <stdint.h>

/* The declarations, grouped by object (cmake/group_header.py). */

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

/* Every struct, declared ahead so that each section may point to another's. */
struct v4a_line_diff;
struct v4a_patch;
struct v4a_refinement;
struct v4a_result;
struct v4a_result_set;
struct v4a_text;
struct v4a_workspace_result;
struct v4a_options;
struct v4a_generate_options;
struct v4a_bytes;
struct v4a_u32s;
struct v4a_error;
struct v4a_hunk_report;
struct v4a_hunk_reports;
struct v4a_diff_line;
struct v4a_diff_lines;
struct v4a_segment;
struct v4a_segments;
struct v4a_change;
struct v4a_changes;
struct v4a_unified_diff_input;
struct v4a_diff_columns;
struct v4a_line_pair;
struct v4a_line_pairs;
struct v4a_op;
struct v4a_ops;
struct v4a_source;
struct v4a_file_result;
struct v4a_file_results;
struct v4a_workspace_options;
struct v4a_workspace_file;
struct v4a_workspace_files;
struct v4a_bytes_list;

/* ---------------------------------------------------------------------------------------------
 * Shared vocabulary: the status type, byte views, arrays of uint32_t, offset units
 * --------------------------------------------------------------------------------------------- */

/**
 * A status code: `V4A_STATUS_OK` (0) or one of the `V4A_STATUS_*` error codes. Codes are
 * stable and never renumbered.
 */
typedef uint32_t v4a_status;

/**
 * A view of bytes owned by a v4a handle (or static, for the tool-kit strings).
 *
 * Absent or present: the absent view `{NULL, 0}` is no value (no path, no suggestion, a NULL
 * handle); a present value always has a non-NULL `ptr`, even the empty text `{"", 0}`, and
 * `ptr[len]` is a NUL byte that `len` does not count, so `ptr` can be used as a C string when
 * the text holds no NUL of its own. The view stays valid until the handle that owns it is
 * freed.
 */
typedef struct v4a_bytes {
    /**
     * The first byte (NULL only for an absent value).
     */
    const uint8_t *ptr;
    /**
     * The number of bytes, not counting the terminating NUL.
     */
    size_t len;
} v4a_bytes;

/**
 * A view of `uint32_t` values owned by a v4a handle.
 */
typedef struct v4a_u32s {
    /**
     * The first value (NULL when `len` is 0).
     */
    const uint32_t *ptr;
    /**
     * The number of values.
     */
    size_t len;
} v4a_u32s;

/**
 * The unit of the offsets of a line diff or a refinement (`v4a_result_line_diff`,
 * `v4a_refine_lines`): `V4A_UNITS_BYTES` or `V4A_UNITS_UTF16`.
 */
typedef uint32_t v4a_units;

/**
 * Offsets are UTF-8 bytes (C, Go, Rust strings).
 */
#define V4A_UNITS_BYTES 0

/**
 * Offsets are UTF-16 code units (JavaScript, C#, Java strings).
 */
#define V4A_UNITS_UTF16 1

/* ---------------------------------------------------------------------------------------------
 * Applying a diff to one text (the main entry point)
 * --------------------------------------------------------------------------------------------- */

/**
 * The mode of `v4a_apply`: one of the `V4A_MODE_*` constants.
 */
typedef uint32_t v4a_mode;

/**
 * Mode of `v4a_apply`: apply the diff's hunks to the source.
 */
#define V4A_MODE_UPDATE 0

/**
 * Mode of `v4a_apply`: build a new file from the diff's `+` lines; the source is ignored.
 */
#define V4A_MODE_CREATE 1

/**
 * Mode of `v4a_apply`: return empty text and list every source line as removed.
 */
#define V4A_MODE_DELETE 2

/**
 * Mode of `v4a_apply`: apply edits like update and report the destination.
 */
#define V4A_MODE_MOVE 3

/**
 * Applies a single-file diff to `source`.
 *
 * `diff` is a bare diff (hunks only) or a `*** Begin Patch` envelope naming exactly one file
 * whose operation agrees with `mode`: `V4A_MODE_UPDATE` applies the hunks,
 * `V4A_MODE_CREATE` builds a new file from the `+` lines (the source is ignored),
 * `V4A_MODE_DELETE` returns empty text and lists every source line as removed (the diff must
 * be empty or a `*** Delete File:` header), `V4A_MODE_MOVE` applies edits like update and
 * reports the destination. Any other mode is `V4A_STATUS_UNSUPPORTED_MODE`.
 *
 * `source` and `diff` are `(pointer, length)` inputs; `(NULL, 0)` is empty; both must be
 * UTF-8 (`V4A_STATUS_INVALID_UTF8` with the byte offset otherwise). `options` may be NULL for
 * the defaults. Neither input is kept after the call returns.
 *
 * Returns the status, and stores in `*result_out` a new result that holds the new text and
 * reports on success, or the error on failure. `*result_out` is set for every status except
 * `V4A_STATUS_INTERNAL` (then it is NULL); free it with `v4a_result_free`. A NULL
 * `result_out` is `V4A_STATUS_NULL_ARGUMENT`, and nothing is stored.
 */
v4a_status v4a_apply(const uint8_t *source,
                     size_t source_len,
                     const uint8_t *diff,
                     size_t diff_len,
                     v4a_mode mode,
                     const struct v4a_options *options,
                     struct v4a_result **result_out);

/**
 * `v4a_apply` with the mode given by name: `"update"`, `"create"`, `"delete"` or `"move"`
 * (the `mode` field of the one-file-per-call tool). Any other name is
 * `V4A_STATUS_UNSUPPORTED_MODE`, with a message for the model that names the valid modes.
 * The name is a `(pointer, length)` UTF-8 input; everything else is as `v4a_apply`.
 */
v4a_status v4a_apply_mode_name(const uint8_t *source,
                               size_t source_len,
                               const uint8_t *diff,
                               size_t diff_len,
                               const uint8_t *mode_name,
                               size_t mode_name_len,
                               const struct v4a_options *options,
                               struct v4a_result **result_out);

/**
 * `v4a_apply` for a diff written against `base`, the text the model saw (what the read tool
 * returned), applied to `source`, the text as it is now.
 *
 * The hunks are located in `base` (the usual levels and rules apply there) and the change
 * is carried into `source` by a three-way merge; merged hunks have `V4A_HUNK_MERGED` in their
 * flags and their ranges in `source`. When `base` equals `source`, the result is exactly
 * `v4a_apply`'s. A hunk whose lines were also changed in `source` since the base is
 * `V4A_STATUS_CONFLICT`, whose message shows the three versions of those lines and how to
 * resend the hunk. A hunk not found in `base` is tried on `source`; when that fails too, the
 * error says that the file changed since the model read it.
 *
 * `base` is a `(pointer, length)` UTF-8 input like `source`; `(NULL, 0)` is an empty base
 * (the model saw an empty file). Without a base, call `v4a_apply`. In modes create and
 * delete the base is not used (nor, for create, read). Everything else is as `v4a_apply`.
 */
v4a_status v4a_apply_with_base(const uint8_t *source,
                               size_t source_len,
                               const uint8_t *base,
                               size_t base_len,
                               const uint8_t *diff,
                               size_t diff_len,
                               v4a_mode mode,
                               const struct v4a_options *options,
                               struct v4a_result **result_out);

/* ---------------------------------------------------------------------------------------------
 * Options: how loosely hunks match, the structured diff, the search budget
 * --------------------------------------------------------------------------------------------- */

/**
 * The static initializer of v4a_options: the defaults, the same values v4a_options_init()
 * stores (every level up to fold, no fuzz limit, no first-match, already-applied hunks are
 * no-ops, the final-newline state kept, Add File writes LF, no structured diff, no
 * refinement, the default search budget).
 *
 *     v4a_options options = V4A_OPTIONS_INIT;
 *     options.max_level = V4A_LEVEL_TRIM;
 */
#define V4A_OPTIONS_INIT                                                                  \
    {                                                                                     \
        (uint32_t)sizeof(v4a_options), V4A_LEVEL_FOLD, V4A_NO_FUZZ_LIMIT, 0, 0, 0,        \
            V4A_LINE_ENDING_LF, V4A_DIFF_STYLE_NONE, V4A_DEFAULT_DIFF_CONTEXT, 0,         \
            V4A_DEFAULT_SEARCH_BUDGET, V4A_DEFAULT_REFINE_MAX_GRAPHEMES,                  \
            V4A_DEFAULT_REFINE_MAX_COST, V4A_DEFAULT_REFINE_MAX_PAIR_LINES                \
    }

/**
 * `v4a_options.max_fuzz`: no limit.
 */
#define V4A_NO_FUZZ_LIMIT UINT32_MAX

/**
 * The default of `v4a_options.diff_context` (`V4A_OPTIONS_INIT`, `v4a_options_init`): the
 * customary context of a diff, for `v4a_result_unified_diff` and `v4a_unified_diff` too.
 * The engine's `DiffStyle::DEFAULT_CONTEXT` (a test checks that they agree).
 */
#define V4A_DEFAULT_DIFF_CONTEXT 3

/**
 * The default of `v4a_options.search_budget`, in line comparisons.
 */
#define V4A_DEFAULT_SEARCH_BUDGET 200000000

/**
 * The default of `v4a_options.refine_max_graphemes`.
 */
#define V4A_DEFAULT_REFINE_MAX_GRAPHEMES 200000

/**
 * The default of `v4a_options.refine_max_cost`.
 */
#define V4A_DEFAULT_REFINE_MAX_COST 8000000

/**
 * The default of `v4a_options.refine_max_pair_lines`.
 */
#define V4A_DEFAULT_REFINE_MAX_PAIR_LINES 200

/**
 * A match level, from the strictest to the loosest: one of the `V4A_LEVEL_*` constants.
 */
typedef uint32_t v4a_level;

/**
 * A line terminator (`v4a_options.add_file_line_ending`): `V4A_LINE_ENDING_LF` or
 * `V4A_LINE_ENDING_CRLF`.
 */
typedef uint32_t v4a_line_ending;

/**
 * Which structured diff a result holds (`v4a_options.diff_style`): one of the
 * `V4A_DIFF_STYLE_*` constants.
 */
typedef uint32_t v4a_diff_style;

/**
 * Options for applying patches. Initialise with `V4A_OPTIONS_INIT` (`v4a_options o =
 * V4A_OPTIONS_INIT;`) or `v4a_options_init`, then change fields; passing NULL instead of a
 * struct means the defaults.
 *
 * Versioned: `struct_size` is `sizeof(v4a_options)` as the caller was compiled, set by
 * `v4a_options_init`. Fields are only ever added at the end; a library accepts the sizes of
 * its own and older headers, and any other `struct_size` is `V4A_STATUS_INVALID_ARGUMENT`,
 * as is a value out of range for its field.
 */
typedef struct v4a_options {
    /**
     * `sizeof(v4a_options)`; set by `V4A_OPTIONS_INIT` and `v4a_options_init`.
     */
    uint32_t struct_size;
    /**
     * The loosest match level tried: `V4A_LEVEL_EXACT` (strict mode) … `V4A_LEVEL_FOLD`
     * (the default).
     */
    v4a_level max_level;
    /**
     * The largest total fuzz accepted for one file (`V4A_STATUS_FUZZ_LIMIT` above it);
     * `V4A_NO_FUZZ_LIMIT` (the default) for no limit.
     */
    uint32_t max_fuzz;
    /**
     * 1: take the first candidate instead of failing with `V4A_STATUS_AMBIGUOUS` (older
     * engines' behaviour). Default 0.
     */
    uint32_t first_match;
    /**
     * 1: a hunk whose change is already present is `V4A_STATUS_ALREADY_APPLIED` instead of
     * a no-op. Default 0.
     */
    uint32_t already_applied_is_error;
    /**
     * 1: the new text always ends with a line terminator. Default 0 (the file's final-newline
     * state is kept).
     */
    uint32_t ensure_final_newline;
    /**
     * The terminator `*** Add File` (and mode create) writes: `V4A_LINE_ENDING_LF` (default)
     * or `V4A_LINE_ENDING_CRLF`.
     */
    v4a_line_ending add_file_line_ending;
    /**
     * Which structured line diff to compute: `V4A_DIFF_STYLE_NONE` (default),
     * `V4A_DIFF_STYLE_FULL` (every line), `V4A_DIFF_STYLE_CHANGES` (changed lines with
     * `diff_context` lines of context) or `V4A_DIFF_STYLE_RUNS` (every line, each run of
     * equal lines as one entry of `v4a_result_line_diff`).
     */
    v4a_diff_style diff_style;
    /**
     * Context lines around each change for `V4A_DIFF_STYLE_CHANGES`. Default 3.
     */
    uint32_t diff_context;
    /**
     * 1: add character-level segments to the changed lines of the structured diff.
     * Default 0.
     */
    uint32_t refine;
    /**
     * Upper bound on search work per file, in line comparisons (`V4A_STATUS_SEARCH_BUDGET`
     * above it). Must be greater than 0. Default 200,000,000.
     */
    uint64_t search_budget;
    /**
     * Refinement limit: the longest line, in grapheme clusters, whose pair is refined (a
     * longer one is a whole-line change). Default 200,000.
     */
    uint64_t refine_max_graphemes;
    /**
     * Refinement limit: the work budget of one pair, in estimated cluster comparisons (a
     * pair that would cost more is a whole-line change). Default 8,000,000.
     */
    uint64_t refine_max_cost;
    /**
     * Refinement limit: blocks of more than this many deleted times added lines (squared)
     * are paired by position instead of by similarity. Default 200.
     */
    uint64_t refine_max_pair_lines;
} v4a_options;

/**
 * Match level: bytes equal (line terminator excluded). Fuzz 0.
 */
#define V4A_LEVEL_EXACT 0

/**
 * Match level: equal after removing trailing whitespace. Fuzz 1.
 */
#define V4A_LEVEL_TRIM_END 1

/**
 * Match level: equal after removing leading and trailing whitespace. Fuzz 10.
 */
#define V4A_LEVEL_TRIM 2

/**
 * Match level: trimmed, every internal whitespace run one space. Fuzz 50.
 */
#define V4A_LEVEL_COLLAPSE 3

/**
 * Match level: collapsed after Unicode folding (NFKC, quotes, dashes, spaces, zero-width
 * characters). Fuzz 100.
 */
#define V4A_LEVEL_FOLD 4

/**
 * `v4a_options.add_file_line_ending`: `\n`.
 */
#define V4A_LINE_ENDING_LF 0

/**
 * `v4a_options.add_file_line_ending`: `\r\n`.
 */
#define V4A_LINE_ENDING_CRLF 1

/**
 * `v4a_options.diff_style`: no structured diff (the cheapest).
 */
#define V4A_DIFF_STYLE_NONE 0

/**
 * `v4a_options.diff_style`: every line of the file.
 */
#define V4A_DIFF_STYLE_FULL 1

/**
 * `v4a_options.diff_style`: changed lines with `diff_context` lines of context.
 */
#define V4A_DIFF_STYLE_CHANGES 2

/**
 * `v4a_options.diff_style`: every line of the file, each run of equal lines as one entry
 * whose `v4a_diff_columns.counts` gives its number of lines (`v4a_result_line_diff`); the
 * rows of `v4a_result_diff`, which have no count, are those of `V4A_DIFF_STYLE_FULL`.
 */
#define V4A_DIFF_STYLE_RUNS 3

/**
 * Fills `*options` with the defaults and sets its `struct_size`: every level up to fold, no
 * fuzz limit, no first-match, already-applied hunks are no-ops, the final-newline state is
 * kept, Add File writes LF, no structured diff (3 context lines if `diff_style` is set to
 * `V4A_DIFF_STYLE_CHANGES`), no refinement (limits 200,000 clusters, a cost of 8,000,000
 * and 200 lines when it is asked for), a search budget of 200,000,000.
 * `V4A_STATUS_NULL_ARGUMENT` for NULL.
 */
v4a_status v4a_options_init(struct v4a_options *options);

/**
 * The form of `line` that the match level `level` (`V4A_LEVEL_*`) compares: trailing
 * whitespace removed (trim-end), surrounding whitespace removed (trim), whitespace runs
 * collapsed (collapse), Unicode folded (fold). For showing a model why two lines match.
 * The line is a `(pointer, length)` UTF-8 input. Stores a new text in `*text_out` for every
 * status except `V4A_STATUS_INTERNAL`.
 */
v4a_status v4a_normalize(const uint8_t *line,
                         size_t line_len,
                         v4a_level level,
                         struct v4a_text **text_out);

/**
 * The stable name of a match level (`"exact"`, `"trim_end"`, `"trim"`, `"collapse"`,
 * `"fold"`), a static NUL-terminated string; `"unknown"` for any other value.
 */
const char *v4a_level_str(v4a_level level);

/* ---------------------------------------------------------------------------------------------
 * A result: the new text, the hunk reports, the structured diff, the edit script
 * --------------------------------------------------------------------------------------------- */

/**
 * The outcome of a single-file apply (or of one file of a multi-file patch): the new text,
 * the original source and the reports on success, the error on failure.
 */
typedef struct v4a_result v4a_result;

/**
 * The bits of `v4a_hunk_report.flags`: an OR of `V4A_HUNK_*` constants.
 */
typedef uint32_t v4a_hunk_flags;

/**
 * Where one hunk landed and how well it matched.
 */
typedef struct v4a_hunk_report {
    /**
     * First line of the original text the hunk covers (1-based). For a pure insertion
     * (`old_len` 0), the line before which the new lines were inserted.
     */
    uint32_t old_start;
    /**
     * Number of original lines the hunk covers (context and removed).
     */
    uint32_t old_len;
    /**
     * First line of the hunk in the new text (1-based).
     */
    uint32_t new_start;
    /**
     * Number of lines the hunk occupies in the new text (context and added).
     */
    uint32_t new_len;
    /**
     * The level its old side matched at (`V4A_LEVEL_*`).
     */
    v4a_level level;
    /**
     * The hunk's fuzz: its level's, its anchors', 1000 for an end-of-file hunk found
     * elsewhere, 200 for anchors set aside, 300 per relaxed context line.
     */
    uint32_t fuzz;
    /**
     * Candidate places considered at the deciding level.
     */
    uint32_t candidates;
    /**
     * `V4A_HUNK_*` bits: re-indented, already applied, end of file, out of order, merged,
     * anchor ignored, context relaxed.
     */
    v4a_hunk_flags flags;
    /**
     * 1-based patch line where the hunk starts.
     */
    uint32_t patch_line;
    /**
     * Always 0.
     */
    uint32_t reserved;
    /**
     * For each old-side line (context and removed, in order), the strictest level
     * (`V4A_LEVEL_*`) it matches at. For an already-applied hunk, the levels of its new side.
     */
    struct v4a_u32s line_levels;
} v4a_hunk_report;

/**
 * A view of hunk reports owned by a result.
 */
typedef struct v4a_hunk_reports {
    /**
     * The first report (NULL when `len` is 0).
     */
    const struct v4a_hunk_report *ptr;
    /**
     * The number of reports.
     */
    size_t len;
} v4a_hunk_reports;

/**
 * The kind of a diff line or segment: `V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE` or `V4A_DIFF_ADD`.
 */
typedef uint32_t v4a_diff_kind;

/**
 * One entry of the structured line diff.
 */
typedef struct v4a_diff_line {
    /**
     * `V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE` or `V4A_DIFF_ADD`.
     */
    v4a_diff_kind kind;
    /**
     * 1-based number of the hunk the line belongs to (changed lines and the context lines of
     * a hunk); 0 for none.
     */
    uint32_t hunk;
    /**
     * 1-based line in the original text; 0 for an added line.
     */
    uint32_t old_line;
    /**
     * 1-based line in the new text; 0 for a deleted line.
     */
    uint32_t new_line;
    /**
     * The line's text, terminator excluded.
     */
    struct v4a_bytes text;
    /**
     * Index of the line's first segment in `v4a_result_segments()`.
     */
    size_t segment_start;
    /**
     * Number of the line's segments; 0 when the line is unchanged, unpaired, or refinement
     * was not requested or exceeded its limits.
     */
    size_t segment_count;
} v4a_diff_line;

/**
 * A view of diff lines owned by a result.
 */
typedef struct v4a_diff_lines {
    /**
     * The first entry (NULL when `len` is 0).
     */
    const struct v4a_diff_line *ptr;
    /**
     * The number of entries.
     */
    size_t len;
} v4a_diff_lines;

/**
 * Character-level change of part of a line (see `v4a_options.refine`).
 */
typedef struct v4a_segment {
    /**
     * `V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE` or `V4A_DIFF_ADD`.
     */
    v4a_diff_kind kind;
    /**
     * Always 0.
     */
    uint32_t reserved;
    /**
     * Start offset in the line's text (at a grapheme-cluster boundary): in bytes, or in
     * UTF-16 code units where a call's `units` asked for `V4A_UNITS_UTF16`.
     */
    size_t start;
    /**
     * End offset (exclusive) in the line's text, in the same unit.
     */
    size_t end;
} v4a_segment;

/**
 * A view of segments owned by a result.
 */
typedef struct v4a_segments {
    /**
     * The first segment (NULL when `len` is 0).
     */
    const struct v4a_segment *ptr;
    /**
     * The number of segments.
     */
    size_t len;
} v4a_segments;

/**
 * A run of changed lines of the edit script: `old_len` original lines from `old_start` were
 * replaced by `new_len` new lines from `new_start`.
 */
typedef struct v4a_change {
    /**
     * First removed line of the original text (1-based, BOM excluded); for a pure insertion,
     * the line before which lines were added.
     */
    uint32_t old_start;
    /**
     * Number of removed lines.
     */
    uint32_t old_len;
    /**
     * First added line of the new text (1-based); for a pure deletion, the line the removed
     * lines would have preceded.
     */
    uint32_t new_start;
    /**
     * Number of added lines.
     */
    uint32_t new_len;
    /**
     * 1-based number of the hunk that made the change.
     */
    uint32_t hunk;
} v4a_change;

/**
 * A view of changes owned by a result.
 */
typedef struct v4a_changes {
    /**
     * The first change (NULL when `len` is 0).
     */
    const struct v4a_change *ptr;
    /**
     * The number of changes.
     */
    size_t len;
} v4a_changes;

/**
 * Kind of a diff line or segment: unchanged.
 */
#define V4A_DIFF_EQUAL 0

/**
 * Kind of a diff line or segment: removed (old side only).
 */
#define V4A_DIFF_DELETE 1

/**
 * Kind of a diff line or segment: added (new side only).
 */
#define V4A_DIFF_ADD 2

/**
 * `v4a_hunk_report.flags`: added lines were re-indented to the file's indentation.
 */
#define V4A_HUNK_REINDENTED 1

/**
 * `v4a_hunk_report.flags`: the change was already present; nothing was changed.
 */
#define V4A_HUNK_ALREADY_APPLIED 2

/**
 * `v4a_hunk_report.flags`: placed at the end of the file.
 */
#define V4A_HUNK_END_OF_FILE 4

/**
 * `v4a_hunk_report.flags`: found before the previous hunk (out of file order).
 */
#define V4A_HUNK_OUT_OF_ORDER 8

/**
 * `v4a_hunk_report.flags`: located in the base and carried into the current text by a
 * three-way merge (`v4a_apply_with_base`, `v4a_patch_apply_with_bases`); the report's
 * ranges are in the current text.
 */
#define V4A_HUNK_MERGED 16

/**
 * `v4a_hunk_report.flags`: the hunk's `@@` anchors did not help (not found, or found more
 * than once) and were set aside; its old side is unique where a hunk without anchors is
 * searched (200 fuzz).
 */
#define V4A_HUNK_ANCHOR_IGNORED 32

/**
 * `v4a_hunk_report.flags`: the hunk was found only with some context lines relaxed (they
 * differ from the file, whose lines are kept; every `-` line matches and the place is unique;
 * 300 fuzz per relaxed line).
 */
#define V4A_HUNK_CONTEXT_RELAXED 64

/**
 * Frees a result made by `v4a_apply` or `v4a_apply_mode_name`, and every view read from it.
 * NULL is ignored. Callable from any thread, but not while another thread still uses the
 * result. Never pass a result borrowed from a result set (`v4a_file_result.result`).
 */
void v4a_result_free(struct v4a_result *result);

/**
 * The result's status: `V4A_STATUS_OK` on success, else its error's status.
 * `V4A_STATUS_NULL_ARGUMENT` for a NULL result.
 */
v4a_status v4a_result_status(const struct v4a_result *result);

/**
 * The error of a failed result, owned by the result; NULL on success or for a NULL result.
 */
const struct v4a_error *v4a_result_error(const struct v4a_result *result);

/**
 * The new text: the empty text `{"", 0}` for a deleted file or when the result holds an
 * error; absent (`{NULL, 0}`) for a NULL result.
 */
struct v4a_bytes v4a_result_text(const struct v4a_result *result);

/**
 * The original source, unchanged: rolling back reads this one view. The result's own copy
 * (made by the apply), so the buffer passed to `v4a_apply` may be freed once it returns. The
 * empty text `{"", 0}` for an added file or when the result holds an error; absent
 * (`{NULL, 0}`) for a NULL result.
 */
struct v4a_bytes v4a_result_source(const struct v4a_result *result);

/**
 * The file's path as written in the patch; absent (`{NULL, 0}`) for a bare diff or an error.
 */
struct v4a_bytes v4a_result_path(const struct v4a_result *result);

/**
 * The `*** Move to:` destination as written in the patch; absent (`{NULL, 0}`) without one.
 */
struct v4a_bytes v4a_result_destination(const struct v4a_result *result);

/**
 * The total fuzz of the file (the sum of its hunks'); 0 for an error or a NULL result.
 */
uint32_t v4a_result_fuzz(const struct v4a_result *result);

/**
 * One report per hunk, in patch order (empty for an error, an added or a deleted file).
 */
struct v4a_hunk_reports v4a_result_hunks(const struct v4a_result *result);

/**
 * The structured line diff, when `v4a_options.diff_style` asked for one (else empty).
 */
struct v4a_diff_lines v4a_result_diff(const struct v4a_result *result);

/**
 * The character-level segments that `v4a_diff_line.segment_start` and `segment_count`
 * index, when `v4a_options.refine` asked for them (else empty).
 */
struct v4a_segments v4a_result_segments(const struct v4a_result *result);

/**
 * The edit script: every run of changed lines, in file order (always computed).
 */
struct v4a_changes v4a_result_changes(const struct v4a_result *result);

/**
 * Renders the change as a unified diff (`---`/`+++`/`@@ -a,b +c,d @@`) with `context` lines
 * of context, for logs and review; empty when nothing changed. Stores a new text in
 * `*text_out` (free it with `v4a_text_free`) for every status except `V4A_STATUS_INTERNAL`;
 * a result that holds an error gives `V4A_STATUS_INVALID_ARGUMENT`.
 */
v4a_status v4a_result_unified_diff(const struct v4a_result *result,
                                   uint32_t context,
                                   struct v4a_text **text_out);

/**
 * The structured line diff of a successful result, as columns: the same entries (and, with
 * `options->refine`, segments) that applying with these options gives `v4a_result_diff`,
 * without copying a line. `options` gives `diff_style` (`V4A_DIFF_STYLE_NONE` is an empty
 * diff; `V4A_DIFF_STYLE_RUNS` the compact full diff, one entry per run of equal lines),
 * `diff_context`, `refine` and the refinement limits; NULL is the defaults (no diff).
 * Apply with `V4A_DIFF_STYLE_NONE` and ask for the diff here: the cheap path for a binding
 * that converts the diff into its own objects.
 *
 * `units` is the unit of the offsets: `V4A_UNITS_BYTES`, or `V4A_UNITS_UTF16` for
 * JavaScript, C# or Java strings (one pass over the changed lines; free for ASCII texts).
 *
 * Stores a new line diff in `*diff_out` (free it with `v4a_line_diff_free`) for every status
 * except `V4A_STATUS_INTERNAL`: `V4A_STATUS_NULL_ARGUMENT` for a NULL result (no handle),
 * `V4A_STATUS_INVALID_ARGUMENT` for a result that holds an error, a bad option or `units`.
 */
v4a_status v4a_result_line_diff(const struct v4a_result *result,
                                const struct v4a_options *options,
                                v4a_units units,
                                struct v4a_line_diff **diff_out);

/* ---------------------------------------------------------------------------------------------
 * Errors: status codes and the diagnostics of a failure
 * --------------------------------------------------------------------------------------------- */

/**
 * Success.
 */
#define V4A_STATUS_OK 0

/**
 * An argument is out of range or inconsistent: a `uint32_t` value that names no constant, a
 * `struct_size` this library does not know, a multi-file patch given to `v4a_apply`, a
 * source count that does not match the operations.
 */
#define V4A_STATUS_INVALID_ARGUMENT 1

/**
 * A required pointer was NULL (or NULL with a non-zero length).
 */
#define V4A_STATUS_NULL_ARGUMENT 2

/**
 * An input is not valid UTF-8; `v4a_error.byte_offset` is the first invalid byte and
 * `v4a_error.input` names the input.
 */
#define V4A_STATUS_INVALID_UTF8 3

/**
 * The patch does not follow the V4A grammar; `v4a_error.patch_line` is the line.
 */
#define V4A_STATUS_PATCH_SYNTAX 4

/**
 * The patch starts with `*** Begin Patch` but has no `*** End Patch`.
 */
#define V4A_STATUS_TRUNCATED_PATCH 5

/**
 * The mode is not update, create, delete or move.
 */
#define V4A_STATUS_UNSUPPORTED_MODE 6

/**
 * A hunk's old side was not found; the error has the closest region and a corrected hunk.
 */
#define V4A_STATUS_CONTEXT_NOT_FOUND 7

/**
 * An `@@` anchor line was not found.
 */
#define V4A_STATUS_ANCHOR_NOT_FOUND 8

/**
 * A hunk or anchor matches several places; the error lists every candidate and a fix.
 */
#define V4A_STATUS_AMBIGUOUS 9

/**
 * Two hunks change the same lines.
 */
#define V4A_STATUS_OVERLAPPING_HUNKS 10

/**
 * The change is already there (an error only with `already_applied_is_error`).
 */
#define V4A_STATUS_ALREADY_APPLIED 11

/**
 * The total fuzz exceeds `max_fuzz`.
 */
#define V4A_STATUS_FUZZ_LIMIT 12

/**
 * Locating a hunk exceeded `search_budget`.
 */
#define V4A_STATUS_SEARCH_BUDGET 13

/**
 * An operation reads a file whose source was not supplied (`present = 0`).
 */
#define V4A_STATUS_MISSING_SOURCE 14

/**
 * Two operations of one patch touch the same path.
 */
#define V4A_STATUS_DUPLICATE_PATH 15

/**
 * A bug in v4a: a panic was caught at the boundary. Please report it.
 */
#define V4A_STATUS_INTERNAL 16

/**
 * An `*** Add File` or `*** Move to` names a file that already exists (overwriting it would
 * lose it), unless the caller allows overwriting.
 */
#define V4A_STATUS_FILE_EXISTS 17

/**
 * Base-aware apply: a hunk changes lines that the current text also changed since the base.
 */
#define V4A_STATUS_CONFLICT 18

/**
 * Workspace layer: a file changed on disk after it was read; nothing was written.
 */
#define V4A_STATUS_CHANGED_ON_DISK 19

/**
 * Workspace layer: a path leaves the root, goes through a link out of it, or names
 * version-control metadata.
 */
#define V4A_STATUS_UNSAFE_PATH 20

/**
 * Workspace layer: another apply holds the root's lock.
 */
#define V4A_STATUS_LOCKED 21

/**
 * The matched lines admit no consistent map from the patch's indentation to the file's, so
 * added lines cannot be indented safely.
 */
#define V4A_STATUS_INCONSISTENT_INDENTATION 22

/**
 * `v4a_error.byte_offset`: no offset.
 */
#define V4A_NO_OFFSET UINT64_MAX

/**
 * Workspace layer: the operating system refused a read or a write (a missing or unreadable
 * root, a full disk, a permission denied), a path the patch needs as a file is a directory
 * (or the reverse), or a read-only file would be changed; `v4a_workspace_result_failure`
 * says which. Also: the workspace layer is not supported on this platform.
 */
#define V4A_STATUS_IO_ERROR 23

/**
 * The error of a failed call: a status, the message written for the model that produced
 * the patch, and the structured diagnostics. Owned by the handle it was read from.
 */
typedef struct v4a_error {
    /**
     * The status code (never `V4A_STATUS_OK`).
     */
    v4a_status status;
    /**
     * 1-based line of the patch text (as the caller gave it) where the problem is; 0 when
     * absent.
     */
    uint32_t patch_line;
    /**
     * 1-based number of the failing hunk within its file operation; 0 when absent.
     */
    uint32_t hunk;
    /**
     * For not-found errors: the first line (1-based) of the closest region of the file; 0
     * when absent.
     */
    uint32_t closest_start;
    /**
     * For not-found errors: the last line (1-based, inclusive) of the closest region; 0 when
     * absent.
     */
    uint32_t closest_end;
    /**
     * Always 0.
     */
    uint32_t reserved;
    /**
     * How similar the closest region is to the hunk's old side, from 0.0 to 1.0 (0.0 when
     * absent).
     */
    double closest_similarity;
    /**
     * For `V4A_STATUS_INVALID_UTF8`: the offset of the first invalid byte in the input named
     * by `input`. `V4A_NO_OFFSET` when absent.
     */
    uint64_t byte_offset;
    /**
     * The message, written for the model that produced the patch (always present).
     */
    struct v4a_bytes message;
    /**
     * The file the failing operation works on, exactly as written in the patch; absent for a
     * bare diff or an error that is not about one file operation.
     */
    struct v4a_bytes path;
    /**
     * For `V4A_STATUS_INVALID_UTF8`: which input is at fault (`"source"`, `"patch"`, ...).
     */
    struct v4a_bytes input;
    /**
     * For ambiguity: a concrete fix (an anchor line or context that makes the hunk unique).
     */
    struct v4a_bytes suggestion;
    /**
     * For not-found errors: the hunk rewritten with the file's real lines, ready to resend.
     */
    struct v4a_bytes corrected_hunk;
    /**
     * For ambiguity and overlap: the 1-based file lines of every candidate place.
     */
    struct v4a_u32s candidates;
} v4a_error;

/**
 * The stable name of a status (`"AMBIGUOUS"` for `V4A_STATUS_AMBIGUOUS`), a static
 * NUL-terminated string; `"UNKNOWN"` for a code this library does not know.
 */
const char *v4a_status_str(v4a_status status);

/**
 * A one-line description of a status's category (`"ambiguous match"`), a static
 * NUL-terminated string; `"unknown status"` for a code this library does not know.
 */
const char *v4a_status_category(v4a_status status);

/* ---------------------------------------------------------------------------------------------
 * Multi-file patches: parse, inspect, apply atomically, reverse
 * --------------------------------------------------------------------------------------------- */

/**
 * A parsed patch (its file operations), or the error that made it unparsable. Immutable:
 * it can be applied from several threads at once.
 */
typedef struct v4a_patch v4a_patch;

/**
 * The kind of a file operation: `V4A_OP_ADD`, `V4A_OP_DELETE` or `V4A_OP_UPDATE`.
 */
typedef uint32_t v4a_op_kind;

/**
 * The class of a path as written in a patch: one of the `V4A_PATH_*` constants; only
 * `V4A_PATH_RELATIVE` is safe to write under a root.
 */
typedef uint32_t v4a_path_class;

/**
 * One file operation of a parsed patch.
 */
typedef struct v4a_op {
    /**
     * `V4A_OP_ADD`, `V4A_OP_DELETE` or `V4A_OP_UPDATE` (a move is an update with a
     * `move_to`).
     */
    v4a_op_kind kind;
    /**
     * The class of `path` (`V4A_PATH_*`): refuse to write anything but `V4A_PATH_RELATIVE`
     * outside a sandbox.
     */
    v4a_path_class path_class;
    /**
     * The class of `move_to`; `V4A_PATH_EMPTY` when there is no `move_to`.
     */
    v4a_path_class move_to_class;
    /**
     * 1-based patch line of the operation's header.
     */
    uint32_t patch_line;
    /**
     * Number of hunks (1 for an Add File, 0 for a Delete File).
     */
    uint32_t hunk_count;
    /**
     * Always 0.
     */
    uint32_t reserved;
    /**
     * The path exactly as written (empty for a bare diff).
     */
    struct v4a_bytes path;
    /**
     * The `*** Move to:` destination exactly as written; absent (`{NULL, 0}`) without one.
     */
    struct v4a_bytes move_to;
} v4a_op;

/**
 * A view of the operations owned by a patch.
 */
typedef struct v4a_ops {
    /**
     * The first operation (NULL when `len` is 0).
     */
    const struct v4a_op *ptr;
    /**
     * The number of operations.
     */
    size_t len;
} v4a_ops;

/**
 * The file text of one operation for `v4a_patch_apply` and `v4a_patch_reverse`.
 */
typedef struct v4a_source {
    /**
     * The file's bytes; `(NULL, 0)` is an empty file.
     */
    const uint8_t *ptr;
    /**
     * The number of bytes.
     */
    size_t len;
    /**
     * 1: the file exists with these bytes. 0: there is no such file (an operation that reads
     * it fails with `V4A_STATUS_MISSING_SOURCE`). Any other value is
     * `V4A_STATUS_INVALID_ARGUMENT`.
     */
    uint32_t present;
    /**
     * Must be 0.
     */
    uint32_t reserved;
} v4a_source;

/**
 * File operation: `*** Add File`.
 */
#define V4A_OP_ADD 0

/**
 * File operation: `*** Delete File`.
 */
#define V4A_OP_DELETE 1

/**
 * File operation: `*** Update File` (with an optional `*** Move to`).
 */
#define V4A_OP_UPDATE 2

/**
 * Path class: relative, and stays inside the root (`src/a.rs`, `a/../b`).
 */
#define V4A_PATH_RELATIVE 0

/**
 * Path class: absolute (`/etc/passwd`, `\\server\share`).
 */
#define V4A_PATH_ABSOLUTE 1

/**
 * Path class: relative but climbs out of the root with `..`.
 */
#define V4A_PATH_PARENT_ESCAPE 2

/**
 * Path class: empty or only whitespace.
 */
#define V4A_PATH_EMPTY 3

/**
 * Path class: contains a NUL byte.
 */
#define V4A_PATH_NUL 4

/**
 * Path class: starts with a Windows drive prefix (`C:`).
 */
#define V4A_PATH_DRIVE_PREFIX 5

/**
 * Parses a patch (`*** Begin Patch` ... `*** End Patch`, or a bare diff) into its file
 * operations, accepting what models really send (CRLF, heredoc and Markdown wrappers, git
 * headers where a file header may stand). The text is a `(pointer, length)` UTF-8 input and
 * is not kept.
 *
 * Stores in `*patch_out` a new patch for every status except `V4A_STATUS_INTERNAL` (then it
 * is NULL): on `V4A_STATUS_OK` it holds the operations, on failure the error
 * (`V4A_STATUS_PATCH_SYNTAX` or `V4A_STATUS_TRUNCATED_PATCH` with the patch line, ...).
 * Free it with `v4a_patch_free`.
 */
v4a_status v4a_patch_parse(const uint8_t *patch,
                           size_t patch_len,
                           struct v4a_patch **patch_out);

/**
 * `v4a_patch_parse` accepting only the canonical form: the envelope, LF line endings,
 * markers written exactly, no wrappers (what the tool-kit grammar describes).
 */
v4a_status v4a_patch_parse_strict(const uint8_t *patch,
                                  size_t patch_len,
                                  struct v4a_patch **patch_out);

/**
 * Frees a patch and every view read from it. NULL is ignored. Callable from any thread, but
 * not while another thread still uses the patch. Result sets made from the patch stay valid.
 */
void v4a_patch_free(struct v4a_patch *patch);

/**
 * The patch's status: `V4A_STATUS_OK` when it parsed, else its error's status.
 * `V4A_STATUS_NULL_ARGUMENT` for NULL.
 */
v4a_status v4a_patch_status(const struct v4a_patch *patch);

/**
 * The parse error, owned by the patch; NULL when the patch parsed or for NULL.
 */
const struct v4a_error *v4a_patch_error(const struct v4a_patch *patch);

/**
 * The file operations in patch order (empty when the patch did not parse). The sources
 * passed to `v4a_patch_apply` are aligned with this array.
 */
struct v4a_ops v4a_patch_ops(const struct v4a_patch *patch);

/**
 * Applies every operation of a parsed patch, atomically: the engine computes every file's
 * result before returning any, so either all of them come back or one error does.
 *
 * `sources` holds one entry per operation, aligned with `v4a_patch_ops` (`sources_len` must
 * equal its length): the current bytes of the file each Update and Delete reads, with
 * `present = 1`; `present = 0` for a file that does not exist (`V4A_STATUS_MISSING_SOURCE`
 * if an operation reads it). Add File entries are not read. `(NULL, 0)` is accepted when the
 * patch has no operations. Sources must be UTF-8 and are not kept. `options` may be NULL.
 *
 * Stores in `*result_set_out` a new result set for every status except `V4A_STATUS_INTERNAL`
 * (then it is NULL); free it with `v4a_result_set_free`. A patch that did not parse gives
 * its parse error. The patch is only read: several threads may apply one patch at once.
 */
v4a_status v4a_patch_apply(const struct v4a_patch *patch,
                           const struct v4a_source *sources,
                           size_t sources_len,
                           const struct v4a_options *options,
                           struct v4a_result_set **result_set_out);

/**
 * `v4a_patch_apply` for a patch written against `bases`, the texts the model saw (what the
 * read tool returned), applied to `sources`, the texts as they are now; atomically.
 *
 * `bases` is aligned with `v4a_patch_ops` like `sources` (`bases_len` must equal its length):
 * for each Update File operation, the content the model was shown with `present = 1`, or
 * `present = 0` when it is unknown (that file is applied as by `v4a_patch_apply`). Entries of
 * Add and Delete operations are not read. A file with a base has its hunks located in the
 * base and carried into its source by a three-way merge, as `v4a_apply_with_base` does
 * (`V4A_HUNK_MERGED` in the hunks' flags); a hunk whose lines were also changed since is
 * `V4A_STATUS_CONFLICT`, and nothing is applied. Bases must be UTF-8 and are not kept.
 * Everything else is as `v4a_patch_apply`.
 */
v4a_status v4a_patch_apply_with_bases(const struct v4a_patch *patch,
                                      const struct v4a_source *sources,
                                      size_t sources_len,
                                      const struct v4a_source *bases,
                                      size_t bases_len,
                                      const struct v4a_options *options,
                                      struct v4a_result_set **result_set_out);

/**
 * Writes the patch that undoes `patch`, given the sources it applies to (aligned with the
 * operations, as for `v4a_patch_apply`): Add and Delete swapped, moves back, each update's
 * change inverted; operations in reverse order. Applying the patch first, the reverse fails
 * with the same error the apply would. Stores a new text in `*text_out` for every status
 * except `V4A_STATUS_INTERNAL`; free it with `v4a_text_free`.
 */
v4a_status v4a_patch_reverse(const struct v4a_patch *patch,
                             const struct v4a_source *sources,
                             size_t sources_len,
                             const struct v4a_options *options,
                             struct v4a_text **text_out);

/**
 * Classifies a path as written in a patch, storing a `V4A_PATH_*` class in `*class_out`:
 * relative and inside the root, absolute, escaping with `..`, empty, containing NUL, or with
 * a drive prefix. Only `V4A_PATH_RELATIVE` is safe to write under a root. The path is a
 * `(pointer, length)` UTF-8 input. Returns `V4A_STATUS_INVALID_UTF8` for a path that is not
 * UTF-8 and `V4A_STATUS_NULL_ARGUMENT` for NULL pointers.
 */
v4a_status v4a_classify_path(const uint8_t *path,
                             size_t path_len,
                             v4a_path_class *class_out);

/* ---------------------------------------------------------------------------------------------
 * The result of a multi-file patch
 * --------------------------------------------------------------------------------------------- */

/**
 * The results of every file operation of a multi-file patch, or the one error that stopped
 * it: nothing is ever partially applied. Immutable.
 */
typedef struct v4a_result_set v4a_result_set;

/**
 * The result of one file operation of a multi-file patch.
 */
typedef struct v4a_file_result {
    /**
     * `V4A_OP_ADD`, `V4A_OP_DELETE` or `V4A_OP_UPDATE`.
     */
    v4a_op_kind kind;
    /**
     * Always 0.
     */
    uint32_t reserved;
    /**
     * The path as written in the patch.
     */
    struct v4a_bytes path;
    /**
     * The destination when the file moves to another path; absent (`{NULL, 0}`) otherwise.
     * Write the new text there and remove `path`.
     */
    struct v4a_bytes move_to;
    /**
     * The file's result (new text, original source, reports), owned by the result set:
     * never pass it to `v4a_result_free`.
     */
    const struct v4a_result *result;
} v4a_file_result;

/**
 * A view of the file results owned by a result set.
 */
typedef struct v4a_file_results {
    /**
     * The first file result (NULL when `len` is 0).
     */
    const struct v4a_file_result *ptr;
    /**
     * The number of file results.
     */
    size_t len;
} v4a_file_results;

/**
 * Frees a result set, its file results and every view read from them. NULL is ignored.
 * Callable from any thread, but not while another thread still uses the set.
 */
void v4a_result_set_free(struct v4a_result_set *result_set);

/**
 * `V4A_STATUS_OK` when every operation succeeded, else the error's status.
 * `V4A_STATUS_NULL_ARGUMENT` for NULL.
 */
v4a_status v4a_result_set_status(const struct v4a_result_set *result_set);

/**
 * The error that stopped the patch (its `path` names the file), owned by the set; NULL on
 * success or for NULL.
 */
const struct v4a_error *v4a_result_set_error(const struct v4a_result_set *result_set);

/**
 * One result per file operation, in patch order (empty on failure).
 */
struct v4a_file_results v4a_result_set_files(const struct v4a_result_set *result_set);

/**
 * The summary other engines print, which models know: `Success. Updated the following
 * files:` then one `A path`, `M path` or `D path` line per operation (a move is
 * `M destination`). The empty text `{"", 0}` on failure; absent (`{NULL, 0}`) for NULL.
 */
struct v4a_bytes v4a_result_set_summary(const struct v4a_result_set *result_set);

/* ---------------------------------------------------------------------------------------------
 * Applying a patch to a directory: the workspace layer (confined, atomic, journaled)
 * --------------------------------------------------------------------------------------------- */

/**
 * The static initializer of v4a_workspace_options: the defaults, the same values
 * v4a_workspace_options_init() stores (write, no overwriting, read-only files and
 * version-control metadata refused, V4A_DEFAULT_LOCK_WAIT_MS, the engine's defaults).
 */
#define V4A_WORKSPACE_OPTIONS_INIT                                                        \
    {                                                                                     \
        (uint32_t)sizeof(v4a_workspace_options), 0, 0, 0, 0, V4A_DEFAULT_LOCK_WAIT_MS, NULL \
    }

/**
 * The default of `v4a_workspace_options.lock_wait_ms`: how long an apply waits for another
 * apply on the same root before it fails with `V4A_STATUS_LOCKED`.
 */
#define V4A_DEFAULT_LOCK_WAIT_MS 5000

/**
 * The outcome of `v4a_workspace_apply` or `v4a_workspace_recover`: the file outcomes, the
 * recovery of an earlier interrupted apply, notes; or the one error that stopped the call
 * (then nothing was changed on disk, unless `v4a_workspace_result_needs_recovery` says so).
 * Immutable.
 */
typedef struct v4a_workspace_result v4a_workspace_result;

/**
 * How `v4a_workspace_apply` treats the files it meets. Versioned: initialise it with
 * `V4A_WORKSPACE_OPTIONS_INIT` or `v4a_workspace_options_init()`, then change fields.
 */
typedef struct v4a_workspace_options {
    /**
     * `sizeof(v4a_workspace_options)`, set by the initializers.
     */
    uint32_t struct_size;
    /**
     * 1: compute everything and make every check an apply makes before writing (paths,
     * `V4A_STATUS_FILE_EXISTS`, read-only files), then write nothing (a preview). Default 0.
     */
    uint32_t dry_run;
    /**
     * 1: `*** Add File` and `*** Move to` may replace an existing file. Default 0
     * (`V4A_STATUS_FILE_EXISTS`).
     */
    uint32_t allow_overwrite;
    /**
     * 1: read-only files may be changed and removed. Default 0 (refused).
     */
    uint32_t allow_read_only;
    /**
     * 1: paths inside `.git/`, `.hg/`, `.svn/` may be written. Default 0
     * (`V4A_STATUS_UNSAFE_PATH`).
     */
    uint32_t allow_vcs;
    /**
     * How long to wait, in milliseconds, for another apply on the same root to finish before
     * failing with `V4A_STATUS_LOCKED`. Default `V4A_DEFAULT_LOCK_WAIT_MS`.
     */
    uint32_t lock_wait_ms;
    /**
     * The engine's options (levels, fuzz, line endings, the structured diff); NULL for the
     * defaults. Read during the call only.
     */
    const struct v4a_options *engine;
} v4a_workspace_options;

/**
 * Which kind of failure a workspace result holds (`v4a_workspace_result_failure`): one of
 * the `V4A_FAILURE_*` constants.
 */
typedef uint32_t v4a_failure;

/**
 * What a workspace operation did to its file (`v4a_workspace_file.change`): one of the
 * `V4A_CHANGE_*` constants.
 */
typedef uint32_t v4a_file_change;

/**
 * One file operation of a workspace apply: what it did to its file and the engine's result.
 */
typedef struct v4a_workspace_file {
    /**
     * `V4A_OP_ADD`, `V4A_OP_DELETE` or `V4A_OP_UPDATE`.
     */
    v4a_op_kind kind;
    /**
     * What happened to the file (`V4A_CHANGE_*`); in a dry run, what would happen.
     */
    v4a_file_change change;
    /**
     * 1 when the file is not UTF-8 text (deleted or moved as bytes; its `result` holds no
     * text), else 0.
     */
    uint32_t binary;
    /**
     * Always 0.
     */
    uint32_t reserved;
    /**
     * The path exactly as written in the patch.
     */
    struct v4a_bytes path;
    /**
     * The `*** Move to:` destination as written; absent (`{NULL, 0}`) without one.
     */
    struct v4a_bytes move_to;
    /**
     * The file the operation names as a root-relative path with `.`, `..` and links resolved
     * (one key per file, whatever the patch's spelling).
     */
    struct v4a_bytes source_key;
    /**
     * Where the new text goes, in the same form (the destination of a move); absent for a
     * deletion.
     */
    struct v4a_bytes target_key;
    /**
     * The engine's result for the file (new text, original source, reports), owned by the
     * workspace result: never pass it to `v4a_result_free`.
     */
    const struct v4a_result *result;
} v4a_workspace_file;

/**
 * A view of the file outcomes owned by a workspace result.
 */
typedef struct v4a_workspace_files {
    /**
     * The first file (NULL when `len` is 0).
     */
    const struct v4a_workspace_file *ptr;
    /**
     * The number of files.
     */
    size_t len;
} v4a_workspace_files;

/**
 * How an interrupted apply was recovered (`v4a_workspace_result_recovery`): one of the
 * `V4A_RECOVERY_*` constants.
 */
typedef uint32_t v4a_recovery;

/**
 * A view of texts (paths) owned by a workspace result.
 */
typedef struct v4a_bytes_list {
    /**
     * The first text (NULL when `len` is 0).
     */
    const struct v4a_bytes *ptr;
    /**
     * The number of texts.
     */
    size_t len;
} v4a_bytes_list;

/**
 * File change: a new file was created (or, when allowed, an existing one replaced by an Add).
 */
#define V4A_CHANGE_ADDED 0

/**
 * File change: the file's content changed in place.
 */
#define V4A_CHANGE_MODIFIED 1

/**
 * File change: the file moved to its destination (with or without edits).
 */
#define V4A_CHANGE_MOVED 2

/**
 * File change: the file was removed.
 */
#define V4A_CHANGE_DELETED 3

/**
 * File change: nothing to do (every hunk already applied, or an Add whose file already holds
 * that text); not written.
 */
#define V4A_CHANGE_UNCHANGED 4

/**
 * Recovery: there was no interrupted apply to recover.
 */
#define V4A_RECOVERY_NONE 0

/**
 * Recovery: the interrupted apply had not committed; every file is as it was before it.
 */
#define V4A_RECOVERY_UNDONE 1

/**
 * Recovery: the interrupted apply had committed; every file is new, its cleanup finished.
 */
#define V4A_RECOVERY_FINISHED 2

/**
 * Workspace failure: none (the call succeeded).
 */
#define V4A_FAILURE_NONE 0

/**
 * Workspace failure: the patch does not apply or the files refuse it; the status says why
 * (`V4A_STATUS_CONTEXT_NOT_FOUND`, `V4A_STATUS_UNSAFE_PATH`, `V4A_STATUS_FILE_EXISTS`, ...).
 */
#define V4A_FAILURE_PATCH 1

/**
 * Workspace failure (`V4A_STATUS_IO_ERROR`): a path the patch needs as a file is a directory
 * or a special file, or a directory it needs is a file.
 */
#define V4A_FAILURE_PATH_CONFLICT 2

/**
 * Workspace failure (`V4A_STATUS_IO_ERROR`): a file the patch would change or remove is
 * read-only, and `v4a_workspace_options.allow_read_only` is 0.
 */
#define V4A_FAILURE_READ_ONLY 3

/**
 * Workspace failure (`V4A_STATUS_IO_ERROR`): the operating system refused a read or a write.
 */
#define V4A_FAILURE_IO 4

/**
 * Fills `*options` with the defaults and sets its `struct_size`: an apply that writes, no
 * overwriting, read-only files and version-control metadata refused, a lock wait of
 * `V4A_DEFAULT_LOCK_WAIT_MS`, the engine's default options. `V4A_STATUS_NULL_ARGUMENT` for
 * NULL.
 */
v4a_status v4a_workspace_options_init(struct v4a_workspace_options *options);

/**
 * Applies a parsed patch to the files under the directory `root`, through the workspace
 * layer: every path is resolved under the root through directory handles (a path that is
 * absolute, climbs out with `..`, goes through a symbolic link out of the root or names
 * `.git/`, `.hg/`, `.svn/` is `V4A_STATUS_UNSAFE_PATH`); every result is computed in memory
 * first, then the files are replaced in one crash-safe transaction (an intent journal in
 * `root/.v4a/`, removed when the call returns) under the root's lock; a file changed on
 * disk since it was read is `V4A_STATUS_CHANGED_ON_DISK`; an Add or Move onto an existing
 * file is `V4A_STATUS_FILE_EXISTS` unless allowed. Either every file is written or none is.
 * An apply that a crash interrupted earlier is recovered first
 * (`v4a_workspace_result_recovery`).
 *
 * `root` is a `(pointer, length)` path (any bytes on Unix, UTF-8 elsewhere). `bases` is
 * `(NULL, 0)` (no bases; any pointer with length 0 too), or one `v4a_source` per operation
 * aligned with `v4a_patch_ops` as for `v4a_patch_apply_with_bases`: the text the model saw of
 * each Update File (`present = 1`), whose hunks are then located in it and merged into the
 * file as it is now. `options` may be NULL for the defaults; with `dry_run = 1` nothing is
 * written (a preview).
 *
 * Stores in `*result_out` a new workspace result for every status except
 * `V4A_STATUS_INTERNAL` (then it is NULL); free it with `v4a_workspace_result_free`. A patch
 * that did not parse gives its parse error. Failures of the operating system are
 * `V4A_STATUS_IO_ERROR` (`v4a_workspace_result_failure` says which kind). On a platform
 * without the workspace layer every call is `V4A_STATUS_IO_ERROR` saying so.
 */
v4a_status v4a_workspace_apply(const uint8_t *root,
                               size_t root_len,
                               const struct v4a_patch *patch,
                               const struct v4a_source *bases,
                               size_t bases_len,
                               const struct v4a_workspace_options *options,
                               struct v4a_workspace_result **result_out);

/**
 * Finishes or undoes an apply to `root` that a crash interrupted (`v4a recover`): after it,
 * every file of that apply is all old or all new, and the journal and the lock are gone.
 * `v4a_workspace_result_recovery` says what was done (`V4A_RECOVERY_NONE` when there was
 * nothing to recover) and `v4a_workspace_result_recovered` lists the files; the result has
 * no file outcomes. `root` is as for `v4a_workspace_apply`.
 *
 * Stores in `*result_out` a new workspace result for every status except
 * `V4A_STATUS_INTERNAL`; free it with `v4a_workspace_result_free`.
 */
v4a_status v4a_workspace_recover(const uint8_t *root,
                                 size_t root_len,
                                 struct v4a_workspace_result **result_out);

/**
 * Frees a workspace result, its file results and every view read from them. NULL is
 * ignored.
 */
void v4a_workspace_result_free(struct v4a_workspace_result *result);

/**
 * `V4A_STATUS_OK` when the call succeeded, else the error's status.
 * `V4A_STATUS_NULL_ARGUMENT` for NULL.
 */
v4a_status v4a_workspace_result_status(const struct v4a_workspace_result *result);

/**
 * The error that stopped the call (its `path` names the file as the patch writes it), owned
 * by the result; NULL on success or for NULL.
 */
const struct v4a_error *v4a_workspace_result_error(const struct v4a_workspace_result *result);

/**
 * The kind of failure (`V4A_FAILURE_*`): `V4A_FAILURE_NONE` on success (and for NULL),
 * `V4A_FAILURE_PATCH` for a status of the engine or the layer's refusals, else which kind of
 * `V4A_STATUS_IO_ERROR`.
 */
v4a_failure v4a_workspace_result_failure(const struct v4a_workspace_result *result);

/**
 * 1 when a rollback could not finish and the intent journal was kept: call
 * `v4a_workspace_recover` (or apply again, which recovers first). 0 otherwise (and for NULL):
 * on failure, nothing was changed.
 */
uint32_t v4a_workspace_result_needs_recovery(const struct v4a_workspace_result *result);

/**
 * 1 when files were written; 0 for a dry run, an apply that changed nothing, a recovery, a
 * failure, or NULL.
 */
uint32_t v4a_workspace_result_written(const struct v4a_workspace_result *result);

/**
 * One outcome per file operation, in patch order (empty on failure and for a recovery).
 */
struct v4a_workspace_files v4a_workspace_result_files(const struct v4a_workspace_result *result);

/**
 * The summary other engines print, which models know: `Success. Updated the following
 * files:` then `A path` / `M path` / `D path` lines (a move as `M destination`); unchanged
 * files and hunks already applied said as such; control characters in paths escaped. Empty
 * on failure and for a recovery.
 */
struct v4a_bytes v4a_workspace_result_summary(const struct v4a_workspace_result *result);

/**
 * Notes, one per line: attributes that could not be kept (an owner only root can give
 * back), and cleanup that the next call will finish. Empty when there are none.
 */
struct v4a_bytes v4a_workspace_result_notes(const struct v4a_workspace_result *result);

/**
 * What was done about an interrupted earlier apply (`V4A_RECOVERY_*`): by
 * `v4a_workspace_recover`, or by `v4a_workspace_apply` before it applied.
 * `V4A_RECOVERY_NONE` when there was none, on failure and for NULL.
 */
v4a_recovery v4a_workspace_result_recovery(const struct v4a_workspace_result *result);

/**
 * The files of the recovered apply, as its patch wrote them (put back or completed); empty
 * when nothing was recovered.
 */
struct v4a_bytes_list v4a_workspace_result_recovered(const struct v4a_workspace_result *result);

/* ---------------------------------------------------------------------------------------------
 * Refining any block of lines: pairs and character segments
 * --------------------------------------------------------------------------------------------- */

/**
 * The refinement of one block of lines (from `v4a_refine_lines`): the refined pairs and
 * their segments, or the error that prevented it.
 */
typedef struct v4a_refinement v4a_refinement;

/**
 * A deleted line paired with an added line by `v4a_refine_lines`, and where the
 * segments of both are in `v4a_refinement_segments()`.
 */
typedef struct v4a_line_pair {
    /**
     * 0-based index of the deleted line in the `deleted` array.
     */
    uint32_t deleted;
    /**
     * 0-based index of the added line in the `added` array.
     */
    uint32_t added;
    /**
     * Index of the deleted line's first segment (kinds equal and delete).
     */
    uint32_t deleted_segment_start;
    /**
     * Number of the deleted line's segments (0 for an empty line).
     */
    uint32_t deleted_segment_count;
    /**
     * Index of the added line's first segment (kinds equal and add).
     */
    uint32_t added_segment_start;
    /**
     * Number of the added line's segments (0 for an empty line).
     */
    uint32_t added_segment_count;
} v4a_line_pair;

/**
 * A view of line pairs owned by a refinement.
 */
typedef struct v4a_line_pairs {
    /**
     * The first pair (NULL when `len` is 0).
     */
    const struct v4a_line_pair *ptr;
    /**
     * The number of pairs.
     */
    size_t len;
} v4a_line_pairs;

/**
 * Refines a block of deleted lines replaced by added lines: pairs the lines by similarity
 * and diffs each pair at grapheme-cluster boundaries, within the refinement limits of
 * `options` (`refine_max_graphemes`, `refine_max_cost`, `refine_max_pair_lines`; NULL: the
 * defaults; its other fields are checked but not used) — the segments apply's structured
 * diff shows for the same block. For editors that diff buffers of their own.
 *
 * `deleted` and `added` are arrays of `deleted_count` and `added_count` lines, each a UTF-8
 * `(ptr, len)` input without its terminator (`{NULL, 0}` is an empty line; `(NULL, 0)` an
 * empty array). `units` is the unit of the segments' offsets: `V4A_UNITS_BYTES` or
 * `V4A_UNITS_UTF16`.
 *
 * Stores a new refinement in `*refinement_out` (free it with `v4a_refinement_free`) for
 * every status except `V4A_STATUS_INTERNAL`; a line that is not UTF-8 is
 * `V4A_STATUS_INVALID_UTF8` naming it (`added[2]`), a bad `units` or option
 * `V4A_STATUS_INVALID_ARGUMENT`.
 */
v4a_status v4a_refine_lines(const struct v4a_bytes *deleted,
                            size_t deleted_count,
                            const struct v4a_bytes *added,
                            size_t added_count,
                            const struct v4a_options *options,
                            v4a_units units,
                            struct v4a_refinement **refinement_out);

/**
 * Frees a refinement and every view read from it. NULL is ignored.
 */
void v4a_refinement_free(struct v4a_refinement *refinement);

/**
 * The refinement's status: `V4A_STATUS_OK`, else its error's. `V4A_STATUS_NULL_ARGUMENT`
 * for NULL.
 */
v4a_status v4a_refinement_status(const struct v4a_refinement *refinement);

/**
 * The error, owned by the refinement; NULL on success or for NULL.
 */
const struct v4a_error *v4a_refinement_error(const struct v4a_refinement *refinement);

/**
 * The refined pairs, strictly increasing in both indices (pairs never cross). A line in no
 * pair is a whole-line change (too different from the other side's lines, or its pair
 * exceeded the limits). Empty on error or for NULL.
 */
struct v4a_line_pairs v4a_refinement_pairs(const struct v4a_refinement *refinement);

/**
 * The segments the pairs refer to; offsets relative to their line, in the `units` asked
 * for. Empty on error or for NULL.
 */
struct v4a_segments v4a_refinement_segments(const struct v4a_refinement *refinement);

/* ---------------------------------------------------------------------------------------------
 * The structured diff as columns (the cheap form)
 * --------------------------------------------------------------------------------------------- */

/**
 * The structured line diff of a result as columns (from `v4a_result_line_diff`), or the
 * error that prevented it.
 */
typedef struct v4a_line_diff v4a_line_diff;

/**
 * The columns of a line diff, owned by its `v4a_line_diff`: entry `i` of the diff is
 * `kinds[i]`, `old_lines[i]`, `new_lines[i]`, `hunks[i]`, its text `starts[i]..ends[i]` and
 * its `segment_counts[i]` segments from `segments.ptr[segment_starts[i]]`. Every pointer is
 * NULL when `len` is 0.
 *
 * An entry's text is a range of the result's source (`V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE`)
 * or of its new text (`V4A_DIFF_ADD`), terminator excluded: nothing is copied, so slice the
 * texts you already hold (`v4a_result_source`, `v4a_result_text`, or your copies of them).
 */
typedef struct v4a_diff_columns {
    /**
     * The number of entries.
     */
    size_t len;
    /**
     * `V4A_DIFF_EQUAL`, `V4A_DIFF_DELETE` or `V4A_DIFF_ADD`, one byte each.
     */
    const uint8_t *kinds;
    /**
     * 1-based line in the original text; 0 for an added line.
     */
    const uint32_t *old_lines;
    /**
     * 1-based line in the new text; 0 for a deleted line.
     */
    const uint32_t *new_lines;
    /**
     * 1-based number of the hunk the line belongs to (changed lines and a hunk's context
     * lines); 0 for none.
     */
    const uint32_t *hunks;
    /**
     * Start of the line's text in the source or new text, in the `units` asked for (bytes,
     * or UTF-16 code units).
     */
    const size_t *starts;
    /**
     * End (exclusive) of the line's text, in the same unit.
     */
    const size_t *ends;
    /**
     * Index of the line's first segment in `segments`.
     */
    const uint32_t *segment_starts;
    /**
     * Number of the line's segments; 0 when the line is unchanged, unpaired, or refinement
     * was not asked for or exceeded its limits.
     */
    const uint32_t *segment_counts;
    /**
     * The character-level segments, offsets relative to their line's start, in the same
     * unit.
     */
    struct v4a_segments segments;
    /**
     * The number of lines of each entry: 1, except for an equal entry of a
     * `V4A_DIFF_STYLE_RUNS` diff, which stands for `counts[i]` equal lines (original lines
     * `old_lines[i]` on, new lines `new_lines[i]` on) and whose text runs from the first
     * line's start to the last line's end: the terminators between them included (LF, CRLF
     * or lone CR, as in the texts), the last one's excluded.
     */
    const uint32_t *counts;
} v4a_diff_columns;

/**
 * Frees a line diff and every view read from it. NULL is ignored.
 */
void v4a_line_diff_free(struct v4a_line_diff *diff);

/**
 * The error, owned by the line diff; NULL on success or for NULL.
 */
const struct v4a_error *v4a_line_diff_error(const struct v4a_line_diff *diff);

/**
 * The columns of the line diff (every pointer NULL and `len` 0 on error or for NULL); valid
 * until the line diff is freed.
 */
struct v4a_diff_columns v4a_line_diff_columns(const struct v4a_line_diff *diff);

/* ---------------------------------------------------------------------------------------------
 * Texts the library writes (patches, normalised lines)
 * --------------------------------------------------------------------------------------------- */

/**
 * A text made by v4a (a generated patch, a unified diff, ...), or the error that prevented
 * it.
 */
typedef struct v4a_text v4a_text;

/**
 * Frees a text and every view read from it. NULL is ignored. Callable from any thread, but
 * not while another thread still uses the text.
 */
void v4a_text_free(struct v4a_text *text);

/**
 * The text's status: `V4A_STATUS_OK`, else its error's status. `V4A_STATUS_NULL_ARGUMENT`
 * for NULL.
 */
v4a_status v4a_text_status(const struct v4a_text *text);

/**
 * The text: the empty text `{"", 0}` when the handle holds an error; absent (`{NULL, 0}`)
 * for NULL.
 */
struct v4a_bytes v4a_text_bytes(const struct v4a_text *text);

/**
 * The error, owned by the text handle; NULL on success or for NULL.
 */
const struct v4a_error *v4a_text_error(const struct v4a_text *text);

/* ---------------------------------------------------------------------------------------------
 * Unified diffs from the parts of a result
 * --------------------------------------------------------------------------------------------- */

/**
 * The parts of a result that `v4a_unified_diff` renders, as a binding copied them before
 * freeing the result. Each text is a `(pointer, length)` input like any other (`{NULL, 0}`
 * is empty; for `path` and `destination`, absent) and must be UTF-8.
 */
typedef struct v4a_unified_diff_input {
    /**
     * The original text (`v4a_result_source`).
     */
    struct v4a_bytes source;
    /**
     * The new text (`v4a_result_text`).
     */
    struct v4a_bytes text;
    /**
     * The path as written in the patch (`v4a_result_path`); `{NULL, 0}` when absent.
     */
    struct v4a_bytes path;
    /**
     * The move destination (`v4a_result_destination`); `{NULL, 0}` when absent.
     */
    struct v4a_bytes destination;
    /**
     * The edit script, as `v4a_result_changes` gave it.
     */
    struct v4a_changes changes;
    /**
     * Lines of context around each change (3 is the usual).
     */
    uint32_t context;
    /**
     * Must be 0.
     */
    uint32_t reserved;
} v4a_unified_diff_input;

/**
 * Renders a unified diff from the parts of a result that a binding copied before freeing it
 * (see `v4a_unified_diff_input`): the same text as `v4a_result_unified_diff` on the live
 * result. Stores a new text in `*text_out` (free it with `v4a_text_free`) for every status
 * except `V4A_STATUS_INTERNAL`. A NULL `input` is `V4A_STATUS_NULL_ARGUMENT`. An edit script
 * the texts cannot have (changes out of order, overlapping, or past the end of a text) is
 * `V4A_STATUS_INVALID_ARGUMENT`, its message naming the change.
 */
v4a_status v4a_unified_diff(const struct v4a_unified_diff_input *input,
                            struct v4a_text **text_out);

/* ---------------------------------------------------------------------------------------------
 * Writing patches: generation
 * --------------------------------------------------------------------------------------------- */

/**
 * The static initializer of v4a_generate_options: the defaults, the same values
 * v4a_generate_options_init() stores.
 */
#define V4A_GENERATE_OPTIONS_INIT                                                         \
    {                                                                                     \
        (uint32_t)sizeof(v4a_generate_options), V4A_DEFAULT_GENERATE_CONTEXT,             \
            V4A_DEFAULT_GENERATE_MAX_CONTEXT                                              \
    }

/**
 * The default of `v4a_generate_options.context` (`V4A_GENERATE_OPTIONS_INIT`).
 */
#define V4A_DEFAULT_GENERATE_CONTEXT 3

/**
 * The default of `v4a_generate_options.max_context`.
 */
#define V4A_DEFAULT_GENERATE_MAX_CONTEXT 50

/**
 * Options for `v4a_make_patch` and `v4a_make_move_patch`. Initialise with
 * `V4A_GENERATE_OPTIONS_INIT` or `v4a_generate_options_init`; NULL means the defaults.
 * Versioned like `v4a_options`.
 */
typedef struct v4a_generate_options {
    /**
     * `sizeof(v4a_generate_options)`; set by `v4a_generate_options_init`.
     */
    uint32_t struct_size;
    /**
     * Unchanged lines shown before and after each change. Default 3.
     */
    uint32_t context;
    /**
     * The most context a hunk may grow to while it is made unique. Default 50.
     */
    uint32_t max_context;
} v4a_generate_options;

/**
 * Fills `*options` with the generation defaults (3 context lines, at most 50 while making a
 * hunk unique) and sets its `struct_size`. `V4A_STATUS_NULL_ARGUMENT` for NULL.
 */
v4a_status v4a_generate_options_init(struct v4a_generate_options *options);

/**
 * Writes a V4A patch (`*** Update File:` envelope) that turns `old_text` into `new_text`,
 * with `context` lines of context, adding context or an `@@` anchor until every hunk is
 * unique. The patch applies back exactly: applying it to `old_text` gives `new_text` byte for
 * byte. Identical texts give an empty envelope. Differences a V4A patch cannot express (a
 * changed line terminator, an added or removed BOM) are `V4A_STATUS_INVALID_ARGUMENT`.
 *
 * Inputs are `(pointer, length)` UTF-8; `options` may be NULL. Stores a new text in
 * `*text_out` for every status except `V4A_STATUS_INTERNAL`; free it with `v4a_text_free`.
 */
v4a_status v4a_make_patch(const uint8_t *old_text,
                          size_t old_len,
                          const uint8_t *new_text,
                          size_t new_len,
                          const uint8_t *path,
                          size_t path_len,
                          const struct v4a_generate_options *options,
                          struct v4a_text **text_out);

/**
 * `v4a_make_patch` for a file that also moves: the patch has `*** Move to: destination`
 * (omitted when the destination equals the path). Without a change and without a move, the
 * patch is an empty envelope.
 */
v4a_status v4a_make_move_patch(const uint8_t *old_text,
                               size_t old_len,
                               const uint8_t *new_text,
                               size_t new_len,
                               const uint8_t *path,
                               size_t path_len,
                               const uint8_t *destination,
                               size_t destination_len,
                               const struct v4a_generate_options *options,
                               struct v4a_text **text_out);

/**
 * Writes a patch that adds `path` with `text` (`+` lines; a text without a final newline
 * ends with `\ No newline at end of file`). Inputs are `(pointer, length)` UTF-8. Stores a new
 * text in `*text_out` for every status except `V4A_STATUS_INTERNAL`.
 */
v4a_status v4a_make_add_patch(const uint8_t *path,
                              size_t path_len,
                              const uint8_t *text,
                              size_t text_len,
                              struct v4a_text **text_out);

/**
 * Writes a patch that deletes `path`. The path is a `(pointer, length)` UTF-8 input. Stores a
 * new text in `*text_out` for every status except `V4A_STATUS_INTERNAL`.
 */
v4a_status v4a_make_delete_patch(const uint8_t *path,
                                 size_t path_len,
                                 struct v4a_text **text_out);

/* ---------------------------------------------------------------------------------------------
 * The tool-calling kit: schemas, grammars, instructions
 * --------------------------------------------------------------------------------------------- */

/**
 * The API a tool definition is written for: one of the `V4A_FLAVOR_*` constants.
 */
typedef uint32_t v4a_flavor;

/**
 * The shape of a tool: `V4A_SHAPE_INPUT` (the whole patch per call) or `V4A_SHAPE_FILE`
 * (one file per call).
 */
typedef uint32_t v4a_shape;

/**
 * Tool flavour: OpenAI function calling (strict JSON Schema), Chat Completions layout
 * (`{"type": "function", "function": {...}}`), `tools/openai-chat-*.json`.
 */
#define V4A_FLAVOR_OPENAI_CHAT 0

/**
 * Tool flavour: OpenAI custom (freeform) tool with a Lark grammar, Responses layout
 * (`{"type": "custom", "name", ..., "format": {...}}`), `tools/openai-responses-custom-*.json`.
 */
#define V4A_FLAVOR_OPENAI_RESPONSES_CUSTOM 1

/**
 * Tool flavour: Anthropic tool use.
 */
#define V4A_FLAVOR_ANTHROPIC 2

/**
 * Tool flavour: Model Context Protocol.
 */
#define V4A_FLAVOR_MCP 3

/**
 * Tool flavour: OpenAI function calling (strict JSON Schema), Responses layout
 * (`{"type": "function", "name", ..., "strict": true}`), `tools/openai-responses-*.json`.
 */
#define V4A_FLAVOR_OPENAI_RESPONSES 4

/**
 * Tool shape: the whole patch in one call (`input`), tool `apply_patch`.
 */
#define V4A_SHAPE_INPUT 0

/**
 * Tool shape: one file per call (`path`, `mode`, `diff`), tool `patch_file`.
 */
#define V4A_SHAPE_FILE 1

/**
 * The tool definition (JSON text) of a flavour (`V4A_FLAVOR_*`: OpenAI function calling in
 * the Chat Completions or the Responses layout, OpenAI custom tool of the Responses API with
 * a Lark grammar, Anthropic tool use, MCP) and a shape
 * (`V4A_SHAPE_INPUT`: the whole patch per call, tool `apply_patch`; `V4A_SHAPE_FILE`: one
 * file per call with `path`, `mode`, `diff`, tool `patch_file`). Static, like the other
 * tool-kit getters: valid for the life of the process, never freed. Absent (`{NULL, 0}`)
 * for a flavour or shape that names no constant.
 */
struct v4a_bytes v4a_tool_schema(v4a_flavor flavor,
                                 v4a_shape shape);

/**
 * The Lark grammar of a whole patch in the canonical form (`tools/v4a.lark`). Static.
 */
struct v4a_bytes v4a_grammar(void);

/**
 * The Lark grammar of one file's section without the envelope (`tools/file-diff.lark`), used
 * by the one-file-per-call custom tool. Static.
 */
struct v4a_bytes v4a_file_grammar(void);

/**
 * The model instructions (`tools/instructions.md`) for the system prompt of an agent that
 * has one of the tools: the format, the context and anchor rules, and how to read v4a's
 * errors. Static.
 */
struct v4a_bytes v4a_instructions(void);

/* ---------------------------------------------------------------------------------------------
 * Versions
 * --------------------------------------------------------------------------------------------- */

/** Expands to its argument as a string literal, after macro expansion. */
#define V4A_STRINGIFY(x) V4A_STRINGIFY_(x)

#define V4A_STRINGIFY_(x) #x

/**
 * The version of this header as text ("MAJOR.MINOR.PATCH"); v4a_version() returns the version
 * of the library actually loaded.
 */
#define V4A_VERSION \
    V4A_STRINGIFY(V4A_VERSION_MAJOR) "." V4A_STRINGIFY(V4A_VERSION_MINOR) "." \
    V4A_STRINGIFY(V4A_VERSION_PATCH)

/**
 * Major version of the library (`Cargo.toml`).
 */
#define V4A_VERSION_MAJOR 0

/**
 * Minor version of the library.
 */
#define V4A_VERSION_MINOR 1

/**
 * Patch version of the library.
 */
#define V4A_VERSION_PATCH 0

/**
 * The ABI version of this header: incremented on every incompatible change of a function,
 * struct or constant. Compare with `v4a_abi_version()` at startup.
 */
#define V4A_ABI_VERSION 2

/**
 * The version of the loaded library (`"0.1.0"`), a static NUL-terminated string.
 */
const char *v4a_version(void);

/**
 * The ABI version of the loaded library; equal to `V4A_ABI_VERSION` when the header and the
 * library agree.
 */
uint32_t v4a_abi_version(void);

/* ---------------------------------------------------------------------------------------------
 * Testing the panic boundary
 * --------------------------------------------------------------------------------------------- */

#if defined(V4A_TEST_PANIC)
/**
 * Test-only (cargo feature `test-panic`, define `V4A_TEST_PANIC` before including the
 * header): panics inside the boundary, which must return `V4A_STATUS_INTERNAL`.
 */
v4a_status v4a_test_panic(void);
#endif

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* V4A_H */
