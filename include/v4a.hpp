/*
 * v4a.hpp: a header-only C++17 wrapper over the C ABI of v4a (v4a.h). Link libv4a as for C.
 *
 * What it adds to v4a.h, and nothing else (every rule lives in the library):
 *   - RAII: v4a::Result, v4a::Text, v4a::Patch and v4a::ResultSet own their handle, are
 *     movable and not copyable, and free it in their destructor.
 *   - Inputs are std::string_view (no NUL needed, any bytes); outputs are views owned by the
 *     object they were read from: std::string_view for text, v4a::Span<T> for arrays of the C
 *     structs (v4a_hunk_report, v4a_change, ...). A view lives as long as its owner.
 *   - Typed kinds: enum class Status, Mode, Level, DiffStyle, ... with the values of the
 *     V4A_* constants.
 *   - Errors: a failing call throws v4a::Error, which carries the status, the message written
 *     for the model and a copy of every diagnostic (so it outlives the handle). The try_*
 *     functions return the handle instead, holding either the value or the error, for code
 *     that does not use exceptions on the expected path (a patch that does not apply).
 *
 *     v4a::Result r = v4a::apply(source, diff);            // throws v4a::Error on failure
 *     std::string_view text = r.text();                     // valid while r lives
 *
 * Thread safety, lifetimes and NULL handling are those of v4a.h.
 */
#ifndef V4A_HPP
#define V4A_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "v4a.h"

namespace v4a {

/** The status of a call (V4A_STATUS_*). Codes are stable; new ones are only appended. */
enum class Status : v4a_status {
    Ok = V4A_STATUS_OK,
    InvalidArgument = V4A_STATUS_INVALID_ARGUMENT,
    NullArgument = V4A_STATUS_NULL_ARGUMENT,
    InvalidUtf8 = V4A_STATUS_INVALID_UTF8,
    PatchSyntax = V4A_STATUS_PATCH_SYNTAX,
    TruncatedPatch = V4A_STATUS_TRUNCATED_PATCH,
    UnsupportedMode = V4A_STATUS_UNSUPPORTED_MODE,
    ContextNotFound = V4A_STATUS_CONTEXT_NOT_FOUND,
    AnchorNotFound = V4A_STATUS_ANCHOR_NOT_FOUND,
    Ambiguous = V4A_STATUS_AMBIGUOUS,
    OverlappingHunks = V4A_STATUS_OVERLAPPING_HUNKS,
    AlreadyApplied = V4A_STATUS_ALREADY_APPLIED,
    FuzzLimit = V4A_STATUS_FUZZ_LIMIT,
    SearchBudget = V4A_STATUS_SEARCH_BUDGET,
    MissingSource = V4A_STATUS_MISSING_SOURCE,
    DuplicatePath = V4A_STATUS_DUPLICATE_PATH,
    Internal = V4A_STATUS_INTERNAL,
    FileExists = V4A_STATUS_FILE_EXISTS,
    Conflict = V4A_STATUS_CONFLICT,
    ChangedOnDisk = V4A_STATUS_CHANGED_ON_DISK,
    UnsafePath = V4A_STATUS_UNSAFE_PATH,
    Locked = V4A_STATUS_LOCKED,
    InconsistentIndentation = V4A_STATUS_INCONSISTENT_INDENTATION,
};

/** The mode of a single-file apply (V4A_MODE_*). */
enum class Mode : v4a_mode {
    Update = V4A_MODE_UPDATE,
    Create = V4A_MODE_CREATE,
    Delete = V4A_MODE_DELETE,
    Move = V4A_MODE_MOVE,
};

/** A match level, strictest first (V4A_LEVEL_*). */
enum class Level : v4a_level {
    Exact = V4A_LEVEL_EXACT,
    TrimEnd = V4A_LEVEL_TRIM_END,
    Trim = V4A_LEVEL_TRIM,
    Collapse = V4A_LEVEL_COLLAPSE,
    Fold = V4A_LEVEL_FOLD,
};

/** The terminator Add File writes (V4A_LINE_ENDING_*). */
enum class LineEnding : v4a_line_ending {
    Lf = V4A_LINE_ENDING_LF,
    CrLf = V4A_LINE_ENDING_CRLF,
};

/** Which structured diff a result holds (V4A_DIFF_STYLE_*). */
enum class DiffStyle : v4a_diff_style {
    None = V4A_DIFF_STYLE_NONE,
    Full = V4A_DIFF_STYLE_FULL,
    Changes = V4A_DIFF_STYLE_CHANGES,
};

/** The kind of a diff line or segment (V4A_DIFF_*). */
enum class DiffKind : v4a_diff_kind {
    Equal = V4A_DIFF_EQUAL,
    Delete = V4A_DIFF_DELETE,
    Add = V4A_DIFF_ADD,
};

/** The kind of a file operation (V4A_OP_*). */
enum class OpKind : v4a_op_kind {
    Add = V4A_OP_ADD,
    Delete = V4A_OP_DELETE,
    Update = V4A_OP_UPDATE,
};

/** The class of a path as written in a patch (V4A_PATH_*). */
enum class PathClass : v4a_path_class {
    Relative = V4A_PATH_RELATIVE,
    Absolute = V4A_PATH_ABSOLUTE,
    ParentEscape = V4A_PATH_PARENT_ESCAPE,
    Empty = V4A_PATH_EMPTY,
    Nul = V4A_PATH_NUL,
    DrivePrefix = V4A_PATH_DRIVE_PREFIX,
};

/** The API a tool definition is written for (V4A_FLAVOR_*). */
enum class Flavor : v4a_flavor {
    OpenAiChat = V4A_FLAVOR_OPENAI_CHAT,
    OpenAiResponsesCustom = V4A_FLAVOR_OPENAI_RESPONSES_CUSTOM,
    Anthropic = V4A_FLAVOR_ANTHROPIC,
    Mcp = V4A_FLAVOR_MCP,
    OpenAiResponses = V4A_FLAVOR_OPENAI_RESPONSES,
};

/** The shape of a tool (V4A_SHAPE_*). */
enum class Shape : v4a_shape {
    Input = V4A_SHAPE_INPUT,
    File = V4A_SHAPE_FILE,
};

/** The stable name of a status ("AMBIGUOUS"); "UNKNOWN" for a code this library lacks. */
inline std::string_view status_name(Status status) noexcept {
    return v4a_status_str(static_cast<v4a_status>(status));
}

/** The stable name of a level ("exact", ... "fold"). */
inline std::string_view level_name(Level level) noexcept {
    return v4a_level_str(static_cast<v4a_level>(level));
}

/** The version of the loaded library ("0.1.0"). */
inline std::string_view version() noexcept { return v4a_version(); }

/** True when the loaded library has the ABI this header was written for. */
inline bool abi_matches() noexcept { return v4a_abi_version() == V4A_ABI_VERSION; }

/** A read-only view of `size()` values of T owned by a v4a object (C++17 has no std::span). */
template <typename T>
class Span {
public:
    constexpr Span() noexcept = default;
    constexpr Span(const T *data, std::size_t size) noexcept
        : data_(size == 0 ? nullptr : data), size_(data == nullptr ? 0 : size) {}

    constexpr const T *data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr const T *begin() const noexcept { return data_; }
    constexpr const T *end() const noexcept { return data_ + size_; }
    /** The i-th value; std::out_of_range past the end. */
    const T &at(std::size_t i) const {
        if (i >= size_) {
            throw std::out_of_range("v4a::Span::at: index past the end");
        }
        return data_[i];
    }
    constexpr const T &operator[](std::size_t i) const noexcept { return data_[i]; }

private:
    const T *data_ = nullptr;
    std::size_t size_ = 0;
};

namespace detail {

/** A string_view as a (pointer, length) input: (NULL, 0) when empty. */
inline const std::uint8_t *ptr(std::string_view s) noexcept {
    return s.empty() ? nullptr : reinterpret_cast<const std::uint8_t *>(s.data());
}

/** A view as a string_view ("" for an absent view). */
inline std::string_view str(v4a_bytes b) noexcept {
    return b.ptr == nullptr ? std::string_view() : std::string_view(reinterpret_cast<const char *>(b.ptr), b.len);
}

/** A view that may be absent ({NULL, 0}): std::nullopt then. */
inline std::optional<std::string_view> opt(v4a_bytes b) noexcept {
    if (b.ptr == nullptr) {
        return std::nullopt;
    }
    return str(b);
}

inline v4a_bytes bytes(std::string_view s) noexcept {
    v4a_bytes b;
    b.ptr = ptr(s);
    b.len = s.size();
    return b;
}

} // namespace detail

/**
 * The error of a failed call: the status, the message for the model that wrote the patch, and
 * the diagnostics (copied: an Error outlives the handle it came from).
 */
class Error : public std::runtime_error {
public:
    /** Copies a C error (not NULL). */
    explicit Error(const v4a_error &e)
        : std::runtime_error(std::string(detail::str(e.message))), status_(static_cast<Status>(e.status)),
          patch_line_(e.patch_line), hunk_(e.hunk), closest_start_(e.closest_start), closest_end_(e.closest_end),
          closest_similarity_(e.closest_similarity),
          byte_offset_(e.byte_offset == V4A_NO_OFFSET ? std::nullopt : std::optional<std::uint64_t>(e.byte_offset)),
          path_(copy(e.path)), input_(copy(e.input)), suggestion_(copy(e.suggestion)),
          corrected_hunk_(copy(e.corrected_hunk)),
          candidates_(e.candidates.ptr, e.candidates.ptr == nullptr ? e.candidates.ptr : e.candidates.ptr + e.candidates.len) {}

    /** An error without diagnostics (a call that returned no handle). */
    Error(Status status, const std::string &message) : std::runtime_error(message), status_(status) {}

    Status status() const noexcept { return status_; }
    /** The stable name of the status ("CONTEXT_NOT_FOUND"). */
    std::string_view status_name() const noexcept { return v4a::status_name(status_); }
    /** The message written for the model (what()). */
    std::string_view message() const noexcept { return what(); }
    /** 1-based patch line of the problem; 0 when absent. */
    std::uint32_t patch_line() const noexcept { return patch_line_; }
    /** 1-based number of the failing hunk within its file; 0 when absent. */
    std::uint32_t hunk() const noexcept { return hunk_; }
    /** The closest region of the file (1-based, inclusive); 0 when absent. */
    std::uint32_t closest_start() const noexcept { return closest_start_; }
    std::uint32_t closest_end() const noexcept { return closest_end_; }
    double closest_similarity() const noexcept { return closest_similarity_; }
    /** For an invalid UTF-8 input, the offset of the first bad byte. */
    const std::optional<std::uint64_t> &byte_offset() const noexcept { return byte_offset_; }
    /** The file the failing operation works on, as written in the patch. */
    const std::optional<std::string> &path() const noexcept { return path_; }
    /** For an invalid UTF-8 input, which input ("source", "patch", ...). */
    const std::optional<std::string> &input() const noexcept { return input_; }
    /** For ambiguity, a concrete fix. */
    const std::optional<std::string> &suggestion() const noexcept { return suggestion_; }
    /** For a hunk not found, the hunk rewritten with the file's real lines. */
    const std::optional<std::string> &corrected_hunk() const noexcept { return corrected_hunk_; }
    /** For ambiguity and overlap, the 1-based lines of every candidate place. */
    const std::vector<std::uint32_t> &candidates() const noexcept { return candidates_; }

private:
    static std::optional<std::string> copy(v4a_bytes b) {
        if (b.ptr == nullptr) {
            return std::nullopt;
        }
        return std::string(detail::str(b));
    }

    Status status_;
    std::uint32_t patch_line_ = 0, hunk_ = 0, closest_start_ = 0, closest_end_ = 0;
    double closest_similarity_ = 0.0;
    std::optional<std::uint64_t> byte_offset_;
    std::optional<std::string> path_, input_, suggestion_, corrected_hunk_;
    std::vector<std::uint32_t> candidates_;
};

namespace detail {

/** Throws the error of a call that stored no handle (only V4A_STATUS_INTERNAL does that). */
[[noreturn]] inline void no_handle(v4a_status status) {
    throw Error(static_cast<Status>(status), std::string("v4a: the call returned no handle (") +
                                                 std::string(v4a_status_str(status)) + ")");
}

/** Owns a C handle; moves, never copies. */
template <typename T, void (*Free)(T *)>
class Handle {
public:
    Handle() noexcept = default;
    explicit Handle(T *raw) noexcept : raw_(raw) {}
    Handle(Handle &&other) noexcept : raw_(std::exchange(other.raw_, nullptr)) {}
    Handle &operator=(Handle &&other) noexcept {
        if (this != &other) {
            Free(raw_);
            raw_ = std::exchange(other.raw_, nullptr);
        }
        return *this;
    }
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    ~Handle() { Free(raw_); }

    T *get() const noexcept { return raw_; }
    /** Gives up ownership: the caller frees the handle. */
    T *release() noexcept { return std::exchange(raw_, nullptr); }

private:
    T *raw_ = nullptr;
};

} // namespace detail

/** Options for applying patches; defaults as V4A_OPTIONS_INIT. Setters chain. */
class Options {
public:
    Options &max_level(Level level) noexcept {
        raw_.max_level = static_cast<v4a_level>(level);
        return *this;
    }
    /** The largest total fuzz accepted for one file; V4A_NO_FUZZ_LIMIT (the default): none. */
    Options &max_fuzz(std::uint32_t fuzz) noexcept {
        raw_.max_fuzz = fuzz;
        return *this;
    }
    Options &first_match(bool on) noexcept {
        raw_.first_match = on ? 1u : 0u;
        return *this;
    }
    Options &already_applied_is_error(bool on) noexcept {
        raw_.already_applied_is_error = on ? 1u : 0u;
        return *this;
    }
    Options &ensure_final_newline(bool on) noexcept {
        raw_.ensure_final_newline = on ? 1u : 0u;
        return *this;
    }
    Options &add_file_line_ending(LineEnding ending) noexcept {
        raw_.add_file_line_ending = static_cast<v4a_line_ending>(ending);
        return *this;
    }
    /** The structured diff, with `context` lines around changes for DiffStyle::Changes. */
    Options &diff(DiffStyle style, std::uint32_t context = V4A_DEFAULT_DIFF_CONTEXT) noexcept {
        raw_.diff_style = static_cast<v4a_diff_style>(style);
        raw_.diff_context = context;
        return *this;
    }
    Options &refine(bool on) noexcept {
        raw_.refine = on ? 1u : 0u;
        return *this;
    }
    Options &search_budget(std::uint64_t budget) noexcept {
        raw_.search_budget = budget;
        return *this;
    }
    /** The C struct, for calling v4a.h directly. */
    const v4a_options &raw() const noexcept { return raw_; }

private:
    v4a_options raw_ = V4A_OPTIONS_INIT;
};

/** Options for patch generation; defaults as V4A_GENERATE_OPTIONS_INIT. */
class GenerateOptions {
public:
    GenerateOptions &context(std::uint32_t lines) noexcept {
        raw_.context = lines;
        return *this;
    }
    GenerateOptions &max_context(std::uint32_t lines) noexcept {
        raw_.max_context = lines;
        return *this;
    }
    const v4a_generate_options &raw() const noexcept { return raw_; }

private:
    v4a_generate_options raw_ = V4A_GENERATE_OPTIONS_INIT;
};

/** A text made by v4a (a patch, a unified diff, a normalised line), or the error instead. */
class Text {
public:
    explicit Text(v4a_text *raw) noexcept : handle_(raw) {}
    bool ok() const noexcept { return v4a_text_status(handle_.get()) == V4A_STATUS_OK; }
    Status status() const noexcept { return static_cast<Status>(v4a_text_status(handle_.get())); }
    /** The error, or NULL on success. */
    const v4a_error *error() const noexcept { return v4a_text_error(handle_.get()); }
    /** The text ("" when the handle holds an error). */
    std::string_view view() const noexcept { return detail::str(v4a_text_bytes(handle_.get())); }
    std::string str() const { return std::string(view()); }
    v4a_text *raw() const noexcept { return handle_.get(); }

private:
    detail::Handle<v4a_text, v4a_text_free> handle_;
};

namespace detail {

/** Takes the text a call made; throws its error. */
inline Text take_text(v4a_status status, v4a_text *raw) {
    if (raw == nullptr) {
        no_handle(status);
    }
    Text text(raw);
    if (status != V4A_STATUS_OK) {
        throw Error(*text.error());
    }
    return text;
}

} // namespace detail

/**
 * The accessors of a result, without ownership: what Result owns, and what a ResultSet lends
 * for each file. Views live as long as the owner of the result.
 */
class ResultView {
public:
    explicit ResultView(const v4a_result *raw) noexcept : raw_(raw) {}
    bool ok() const noexcept { return v4a_result_status(raw_) == V4A_STATUS_OK; }
    Status status() const noexcept { return static_cast<Status>(v4a_result_status(raw_)); }
    /** The error, or NULL on success. */
    const v4a_error *error() const noexcept { return v4a_result_error(raw_); }
    /** The new text. */
    std::string_view text() const noexcept { return detail::str(v4a_result_text(raw_)); }
    /** The original source, unchanged. */
    std::string_view source() const noexcept { return detail::str(v4a_result_source(raw_)); }
    /** The path as written in the patch (none for a bare diff). */
    std::optional<std::string_view> path() const noexcept { return detail::opt(v4a_result_path(raw_)); }
    /** The move destination (none without `*** Move to`). */
    std::optional<std::string_view> destination() const noexcept {
        return detail::opt(v4a_result_destination(raw_));
    }
    std::uint32_t fuzz() const noexcept { return v4a_result_fuzz(raw_); }
    Span<v4a_hunk_report> hunks() const noexcept {
        v4a_hunk_reports v = v4a_result_hunks(raw_);
        return Span<v4a_hunk_report>(v.ptr, v.len);
    }
    Span<v4a_diff_line> diff() const noexcept {
        v4a_diff_lines v = v4a_result_diff(raw_);
        return Span<v4a_diff_line>(v.ptr, v.len);
    }
    Span<v4a_segment> segments() const noexcept {
        v4a_segments v = v4a_result_segments(raw_);
        return Span<v4a_segment>(v.ptr, v.len);
    }
    Span<v4a_change> changes() const noexcept {
        v4a_changes v = v4a_result_changes(raw_);
        return Span<v4a_change>(v.ptr, v.len);
    }
    /** The change as a unified diff with `context` lines of context ("" when unchanged). */
    Text unified_diff(std::uint32_t context = 3) const {
        v4a_text *raw = nullptr;
        v4a_status status = v4a_result_unified_diff(raw_, context, &raw);
        return detail::take_text(status, raw);
    }
    const v4a_result *raw() const noexcept { return raw_; }

protected:
    const v4a_result *raw_;
};

/** The outcome of a single-file apply, owned. A moved-from Result is empty (NULL). */
class Result : public ResultView {
public:
    explicit Result(v4a_result *raw) noexcept : ResultView(raw), handle_(raw) {}
    Result(Result &&other) noexcept : ResultView(std::exchange(other.raw_, nullptr)), handle_(std::move(other.handle_)) {}
    Result &operator=(Result &&other) noexcept {
        handle_ = std::move(other.handle_);
        raw_ = std::exchange(other.raw_, nullptr);
        return *this;
    }

private:
    detail::Handle<v4a_result, v4a_result_free> handle_;
};

namespace detail {

inline Result take_result(v4a_status status, v4a_result *raw) {
    if (raw == nullptr) {
        no_handle(status);
    }
    return Result(raw);
}

inline Result checked(Result result) {
    if (!result.ok()) {
        throw Error(*result.error());
    }
    return result;
}

} // namespace detail

/**
 * Applies a single-file diff to `source`, and returns the result holding either the new text
 * or the error (check ok()); throws only when the library returned no handle.
 */
inline Result try_apply(std::string_view source, std::string_view diff, Mode mode = Mode::Update,
                        const Options &options = Options()) {
    v4a_result *raw = nullptr;
    v4a_status status = v4a_apply(detail::ptr(source), source.size(), detail::ptr(diff), diff.size(),
                                  static_cast<v4a_mode>(mode), &options.raw(), &raw);
    return detail::take_result(status, raw);
}

/** Applies a single-file diff to `source`; throws v4a::Error when it does not apply. */
inline Result apply(std::string_view source, std::string_view diff, Mode mode = Mode::Update,
                    const Options &options = Options()) {
    return detail::checked(try_apply(source, diff, mode, options));
}

/** apply() with the mode given by name ("update", "create", "delete", "move"). */
inline Result apply(std::string_view source, std::string_view diff, std::string_view mode_name,
                    const Options &options = Options()) {
    v4a_result *raw = nullptr;
    v4a_status status = v4a_apply_mode_name(detail::ptr(source), source.size(), detail::ptr(diff), diff.size(),
                                            detail::ptr(mode_name), mode_name.size(), &options.raw(), &raw);
    return detail::checked(detail::take_result(status, raw));
}

/** The file text of one operation of a multi-file patch: present with its bytes, or absent. */
struct Source {
    std::string_view text;
    bool present = true;

    static Source absent() noexcept { return Source{std::string_view(), false}; }
};

/** One file of a ResultSet: the operation, its paths and its result (owned by the set). */
struct FileResult {
    OpKind kind;
    std::string_view path;
    std::optional<std::string_view> move_to;
    ResultView result;
};

/** The results of every file of a multi-file patch, owned; all or nothing. */
class ResultSet {
public:
    explicit ResultSet(v4a_result_set *raw) noexcept : handle_(raw) {}
    bool ok() const noexcept { return v4a_result_set_status(handle_.get()) == V4A_STATUS_OK; }
    const v4a_error *error() const noexcept { return v4a_result_set_error(handle_.get()); }
    std::size_t size() const noexcept { return v4a_result_set_files(handle_.get()).len; }
    /** The i-th file, in patch order; std::out_of_range past the end. */
    FileResult file(std::size_t i) const {
        v4a_file_results files = v4a_result_set_files(handle_.get());
        const v4a_file_result &f = Span<v4a_file_result>(files.ptr, files.len).at(i);
        return FileResult{static_cast<OpKind>(f.kind), detail::str(f.path), detail::opt(f.move_to),
                          ResultView(f.result)};
    }
    /** The summary other engines print ("Success. Updated the following files: ..."). */
    std::string_view summary() const noexcept { return detail::str(v4a_result_set_summary(handle_.get())); }
    v4a_result_set *raw() const noexcept { return handle_.get(); }

private:
    detail::Handle<v4a_result_set, v4a_result_set_free> handle_;
};

/** A parsed multi-file patch, owned; immutable, so it may be applied from several threads. */
class Patch {
public:
    /** Parses a patch as models send it; throws v4a::Error when it does not parse. */
    static Patch parse(std::string_view text) { return make(text, v4a_patch_parse); }
    /** Parses only the canonical form (what the tool-kit grammar describes). */
    static Patch parse_strict(std::string_view text) { return make(text, v4a_patch_parse_strict); }

    /** The file operations, in patch order. */
    Span<v4a_op> ops() const noexcept {
        v4a_ops v = v4a_patch_ops(handle_.get());
        return Span<v4a_op>(v.ptr, v.len);
    }

    /**
     * Applies every operation; `sources` has one entry per operation, in the order of ops().
     * Throws v4a::Error when any operation fails (then nothing applies).
     */
    ResultSet apply(const std::vector<Source> &sources, const Options &options = Options()) const {
        std::vector<v4a_source> in = c_sources(sources);
        v4a_result_set *raw = nullptr;
        v4a_status status = v4a_patch_apply(handle_.get(), in.empty() ? nullptr : in.data(), in.size(),
                                            &options.raw(), &raw);
        if (raw == nullptr) {
            detail::no_handle(status);
        }
        ResultSet set(raw);
        if (!set.ok()) {
            throw Error(*set.error());
        }
        return set;
    }

    /** The patch that undoes this one, given the sources it applies to. */
    Text reverse(const std::vector<Source> &sources, const Options &options = Options()) const {
        std::vector<v4a_source> in = c_sources(sources);
        v4a_text *raw = nullptr;
        v4a_status status = v4a_patch_reverse(handle_.get(), in.empty() ? nullptr : in.data(), in.size(),
                                              &options.raw(), &raw);
        return detail::take_text(status, raw);
    }

    v4a_patch *raw() const noexcept { return handle_.get(); }

private:
    explicit Patch(v4a_patch *raw) noexcept : handle_(raw) {}

    static Patch make(std::string_view text, v4a_status (*parse)(const std::uint8_t *, std::size_t, v4a_patch **)) {
        v4a_patch *raw = nullptr;
        v4a_status status = parse(detail::ptr(text), text.size(), &raw);
        if (raw == nullptr) {
            detail::no_handle(status);
        }
        Patch patch(raw);
        if (status != V4A_STATUS_OK) {
            throw Error(*v4a_patch_error(raw));
        }
        return patch;
    }

    static std::vector<v4a_source> c_sources(const std::vector<Source> &sources) {
        std::vector<v4a_source> in;
        in.reserve(sources.size());
        for (const Source &s : sources) {
            v4a_source c;
            c.ptr = detail::ptr(s.text);
            c.len = s.text.size();
            c.present = s.present ? 1u : 0u;
            c.reserved = 0;
            in.push_back(c);
        }
        return in;
    }

    detail::Handle<v4a_patch, v4a_patch_free> handle_;
};

/** A patch that turns `old_text` into `new_text` (an Update File of `path`). */
inline Text make_patch(std::string_view old_text, std::string_view new_text, std::string_view path,
                       const GenerateOptions &options = GenerateOptions()) {
    v4a_text *raw = nullptr;
    v4a_status status = v4a_make_patch(detail::ptr(old_text), old_text.size(), detail::ptr(new_text), new_text.size(),
                                       detail::ptr(path), path.size(), &options.raw(), &raw);
    return detail::take_text(status, raw);
}

/** make_patch() for a file that also moves to `destination`. */
inline Text make_move_patch(std::string_view old_text, std::string_view new_text, std::string_view path,
                            std::string_view destination, const GenerateOptions &options = GenerateOptions()) {
    v4a_text *raw = nullptr;
    v4a_status status =
        v4a_make_move_patch(detail::ptr(old_text), old_text.size(), detail::ptr(new_text), new_text.size(),
                            detail::ptr(path), path.size(), detail::ptr(destination), destination.size(),
                            &options.raw(), &raw);
    return detail::take_text(status, raw);
}

/** A patch that adds `path` with `text`. */
inline Text make_add_patch(std::string_view path, std::string_view text) {
    v4a_text *raw = nullptr;
    v4a_status status = v4a_make_add_patch(detail::ptr(path), path.size(), detail::ptr(text), text.size(), &raw);
    return detail::take_text(status, raw);
}

/** A patch that deletes `path`. */
inline Text make_delete_patch(std::string_view path) {
    v4a_text *raw = nullptr;
    v4a_status status = v4a_make_delete_patch(detail::ptr(path), path.size(), &raw);
    return detail::take_text(status, raw);
}

/** The unified diff of the parts of a result copied before it was freed (v4a_unified_diff). */
inline Text unified_diff(std::string_view source, std::string_view text, Span<v4a_change> changes,
                         std::optional<std::string_view> path = std::nullopt,
                         std::optional<std::string_view> destination = std::nullopt, std::uint32_t context = 3) {
    v4a_unified_diff_input in;
    in.source = detail::bytes(source);
    in.text = detail::bytes(text);
    in.path = path ? detail::bytes(*path) : detail::bytes(std::string_view());
    in.destination = destination ? detail::bytes(*destination) : detail::bytes(std::string_view());
    in.changes.ptr = changes.data();
    in.changes.len = changes.size();
    in.context = context;
    in.reserved = 0;
    v4a_text *raw = nullptr;
    v4a_status status = v4a_unified_diff(&in, &raw);
    return detail::take_text(status, raw);
}

/** The form of `line` that `level` compares. */
inline Text normalize(std::string_view line, Level level) {
    v4a_text *raw = nullptr;
    v4a_status status = v4a_normalize(detail::ptr(line), line.size(), static_cast<v4a_level>(level), &raw);
    return detail::take_text(status, raw);
}

/** The class of a path as written in a patch; only PathClass::Relative is safe under a root. */
inline PathClass classify_path(std::string_view path) {
    v4a_path_class c = V4A_PATH_EMPTY;
    v4a_status status = v4a_classify_path(detail::ptr(path), path.size(), &c);
    if (status != V4A_STATUS_OK) {
        throw Error(static_cast<Status>(status), "v4a::classify_path: the path is not valid UTF-8");
    }
    return static_cast<PathClass>(c);
}

/** The tool definition (JSON) of a flavour and a shape; static. "" for a value out of range. */
inline std::string_view tool_schema(Flavor flavor, Shape shape) noexcept {
    return detail::str(v4a_tool_schema(static_cast<v4a_flavor>(flavor), static_cast<v4a_shape>(shape)));
}

/** The Lark grammar of a whole patch in the canonical form; static. */
inline std::string_view grammar() noexcept { return detail::str(v4a_grammar()); }

/** The Lark grammar of one file's section; static. */
inline std::string_view file_grammar() noexcept { return detail::str(v4a_file_grammar()); }

/** The model instructions for a system prompt; static. */
inline std::string_view instructions() noexcept { return detail::str(v4a_instructions()); }

} // namespace v4a

#endif /* V4A_HPP */
