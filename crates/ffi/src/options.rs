//! The versioned options structs `v4a_options` and `v4a_generate_options`: their `_init`
//! functions (the defaults) and their conversion to the Rust options.

use std::mem::{offset_of, size_of};

use crate::boundary::{enum_in, ffi_boundary, flag_in, out_value};
use crate::constants::{
    v4a_diff_style, v4a_level, v4a_line_ending, v4a_status, V4A_DEFAULT_DIFF_CONTEXT,
    V4A_DIFF_STYLE_CHANGES, V4A_DIFF_STYLE_FULL, V4A_DIFF_STYLE_NONE, V4A_DIFF_STYLE_RUNS,
    V4A_LINE_ENDING_CRLF, V4A_LINE_ENDING_LF, V4A_NO_FUZZ_LIMIT, V4A_STATUS_OK,
};
use engine::{DiffStyle, Error, GenerateOptions, Level, LineEnding, Options, Status};

/// Options for applying patches. Initialise with `V4A_OPTIONS_INIT` (`v4a_options o =
/// V4A_OPTIONS_INIT;`) or `v4a_options_init`, then change fields; passing NULL instead of a
/// struct means the defaults.
///
/// Versioned: `struct_size` is `sizeof(v4a_options)` as the caller was compiled, set by
/// `v4a_options_init`. Fields are only ever added at the end; a library accepts the sizes of
/// its own and older headers, and any other `struct_size` is `V4A_STATUS_INVALID_ARGUMENT`,
/// as is a value out of range for its field.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_options {
    /// `sizeof(v4a_options)`; set by `V4A_OPTIONS_INIT` and `v4a_options_init`.
    pub struct_size: u32,
    /// The loosest match level tried: `V4A_LEVEL_EXACT` (strict mode) … `V4A_LEVEL_FOLD`
    /// (the default).
    pub max_level: v4a_level,
    /// The largest total fuzz accepted for one file (`V4A_STATUS_FUZZ_LIMIT` above it);
    /// `V4A_NO_FUZZ_LIMIT` (the default) for no limit.
    pub max_fuzz: u32,
    /// 1: take the first candidate instead of failing with `V4A_STATUS_AMBIGUOUS` (older
    /// engines' behaviour). Default 0.
    pub first_match: u32,
    /// 1: a hunk whose change is already present is `V4A_STATUS_ALREADY_APPLIED` instead of
    /// a no-op. Default 0.
    pub already_applied_is_error: u32,
    /// 1: the new text always ends with a line terminator. Default 0 (the file's final-newline
    /// state is kept).
    pub ensure_final_newline: u32,
    /// The terminator `*** Add File` (and mode create) writes: `V4A_LINE_ENDING_LF` (default)
    /// or `V4A_LINE_ENDING_CRLF`.
    pub add_file_line_ending: v4a_line_ending,
    /// Which structured line diff to compute: `V4A_DIFF_STYLE_NONE` (default),
    /// `V4A_DIFF_STYLE_FULL` (every line), `V4A_DIFF_STYLE_CHANGES` (changed lines with
    /// `diff_context` lines of context) or `V4A_DIFF_STYLE_RUNS` (every line, each run of
    /// equal lines as one entry of `v4a_result_line_diff`).
    pub diff_style: v4a_diff_style,
    /// Context lines around each change for `V4A_DIFF_STYLE_CHANGES`. Default 3.
    pub diff_context: u32,
    /// 1: add character-level segments to the changed lines of the structured diff.
    /// Default 0.
    pub refine: u32,
    /// Upper bound on search work per file, in line comparisons (`V4A_STATUS_SEARCH_BUDGET`
    /// above it). Must be greater than 0. Default 200,000,000.
    pub search_budget: u64,
    /// Refinement limit: the longest line, in grapheme clusters, whose pair is refined (a
    /// longer one is a whole-line change). Default 200,000.
    pub refine_max_graphemes: u64,
    /// Refinement limit: the work budget of one pair, in estimated cluster comparisons (a
    /// pair that would cost more is a whole-line change). Default 8,000,000.
    pub refine_max_cost: u64,
    /// Refinement limit: blocks of more than this many deleted times added lines (squared)
    /// are paired by position instead of by similarity. Default 200.
    pub refine_max_pair_lines: u64,
}

/// Options for `v4a_make_patch` and `v4a_make_move_patch`. Initialise with
/// `V4A_GENERATE_OPTIONS_INIT` or `v4a_generate_options_init`; NULL means the defaults.
/// Versioned like `v4a_options`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct v4a_generate_options {
    /// `sizeof(v4a_generate_options)`; set by `v4a_generate_options_init`.
    pub struct_size: u32,
    /// Unchanged lines shown before and after each change. Default 3.
    pub context: u32,
    /// The most context a hunk may grow to while it is made unique. Default 50.
    pub max_context: u32,
}

impl From<&Options> for v4a_options {
    fn from(o: &Options) -> v4a_options {
        let (diff_style, diff_context) = match o.diff {
            DiffStyle::None => (V4A_DIFF_STYLE_NONE, V4A_DEFAULT_DIFF_CONTEXT),
            DiffStyle::Full => (V4A_DIFF_STYLE_FULL, V4A_DEFAULT_DIFF_CONTEXT),
            DiffStyle::Changes { context } => (V4A_DIFF_STYLE_CHANGES, context),
            DiffStyle::Runs => (V4A_DIFF_STYLE_RUNS, V4A_DEFAULT_DIFF_CONTEXT),
        };
        v4a_options {
            struct_size: size_of::<v4a_options>() as u32,
            max_level: o.max_level as u32,
            max_fuzz: o.max_fuzz.unwrap_or(V4A_NO_FUZZ_LIMIT),
            first_match: o.first_match.into(),
            already_applied_is_error: o.already_applied_is_error.into(),
            ensure_final_newline: o.ensure_final_newline.into(),
            add_file_line_ending: match o.add_file_line_ending {
                LineEnding::Lf => V4A_LINE_ENDING_LF,
                LineEnding::CrLf => V4A_LINE_ENDING_CRLF,
            },
            diff_style,
            diff_context,
            refine: o.refine.into(),
            search_budget: o.search_budget,
            refine_max_graphemes: o.refine_limits.max_graphemes as u64,
            refine_max_cost: o.refine_limits.max_cost as u64,
            refine_max_pair_lines: o.refine_limits.max_pair_lines as u64,
        }
    }
}

/// A refinement limit as a `usize` (saturated on 32-bit targets, where no line is that long).
fn limit_in(value: u64) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

/// The size of `v4a_options` in the headers before the refinement limits were added (ABI 2 as
/// first released): callers built against them are still served, with the default limits.
const V4A_OPTIONS_SIZE_BEFORE_REFINE_LIMITS: usize = offset_of!(v4a_options, refine_max_graphemes);

/// Reads a versioned struct: its `struct_size` must be the size this library knows or one of
/// the `older` sizes (a caller built against an older header), whose bytes are then laid over
/// `defaults` (fields are only ever added at the end), so no byte past `struct_size` is read.
///
/// # Safety
/// `ptr` points to at least a readable, aligned `uint32_t`, and to `struct_size` readable
/// bytes.
unsafe fn read_versioned<T: Copy>(
    name: &str,
    init: &str,
    ptr: *const T,
    defaults: T,
    older: &[usize],
) -> Result<T, Error> {
    let size = *(ptr as *const u32) as usize;
    let want = size_of::<T>();
    if size == want {
        return Ok(*ptr);
    }
    if older.contains(&size) && size < want {
        let mut out = defaults;
        std::ptr::copy_nonoverlapping(ptr as *const u8, &mut out as *mut T as *mut u8, size);
        return Ok(out);
    }
    Err(Error::simple(
        Status::InvalidArgument,
        format!(
            "{name}.struct_size is {size}, but this library knows {name} of {want} bytes{}: \
             initialise the struct with {init}() and build against the library's v4a.h",
            if older.is_empty() {
                String::new()
            } else {
                format!(
                    " (or {} from older headers)",
                    older
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ),
    ))
}

/// The options a caller passed (NULL: the defaults).
///
/// # Safety
/// `ptr` is NULL or points to a readable `v4a_options` of `struct_size` bytes.
pub(crate) unsafe fn options_in(ptr: *const v4a_options) -> Result<Options, Error> {
    if ptr.is_null() {
        return Ok(Options::default());
    }
    let o = &read_versioned(
        "v4a_options",
        "v4a_options_init",
        ptr,
        v4a_options::from(&Options::default()),
        &[V4A_OPTIONS_SIZE_BEFORE_REFINE_LIMITS],
    )?;
    Ok(Options {
        max_level: enum_in(
            "v4a_options.max_level",
            o.max_level,
            &Level::ALL,
            "V4A_LEVEL_EXACT (0) ... V4A_LEVEL_FOLD (4)",
        )?,
        max_fuzz: (o.max_fuzz != V4A_NO_FUZZ_LIMIT).then_some(o.max_fuzz),
        first_match: flag_in("v4a_options.first_match", o.first_match)?,
        already_applied_is_error: flag_in(
            "v4a_options.already_applied_is_error",
            o.already_applied_is_error,
        )?,
        ensure_final_newline: flag_in("v4a_options.ensure_final_newline", o.ensure_final_newline)?,
        add_file_line_ending: enum_in(
            "v4a_options.add_file_line_ending",
            o.add_file_line_ending,
            &[LineEnding::Lf, LineEnding::CrLf],
            "V4A_LINE_ENDING_LF (0) or V4A_LINE_ENDING_CRLF (1)",
        )?,
        diff: match o.diff_style {
            V4A_DIFF_STYLE_NONE => DiffStyle::None,
            V4A_DIFF_STYLE_FULL => DiffStyle::Full,
            V4A_DIFF_STYLE_CHANGES => DiffStyle::Changes {
                context: o.diff_context,
            },
            V4A_DIFF_STYLE_RUNS => DiffStyle::Runs,
            other => {
                return Err(Error::simple(
                    Status::InvalidArgument,
                    format!(
                        "v4a_options.diff_style is {other}: expected V4A_DIFF_STYLE_NONE (0), \
                         V4A_DIFF_STYLE_FULL (1), V4A_DIFF_STYLE_CHANGES (2) or \
                         V4A_DIFF_STYLE_RUNS (3)"
                    ),
                ))
            }
        },
        refine: flag_in("v4a_options.refine", o.refine)?,
        search_budget: o.search_budget,
        refine_limits: engine::RefineLimits {
            max_graphemes: limit_in(o.refine_max_graphemes),
            max_cost: limit_in(o.refine_max_cost),
            max_pair_lines: limit_in(o.refine_max_pair_lines),
        },
    })
}

/// Fills `*options` with the defaults and sets its `struct_size`: every level up to fold, no
/// fuzz limit, no first-match, already-applied hunks are no-ops, the final-newline state is
/// kept, Add File writes LF, no structured diff (3 context lines if `diff_style` is set to
/// `V4A_DIFF_STYLE_CHANGES`), no refinement (limits 200,000 clusters, a cost of 8,000,000
/// and 200 lines when it is asked for), a search budget of 200,000,000.
/// `V4A_STATUS_NULL_ARGUMENT` for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_options_init(options: *mut v4a_options) -> v4a_status {
    ffi_boundary! {
        *out_value(options)? = v4a_options::from(&Options::default());
        Ok(v4a_status(V4A_STATUS_OK))
    }
}

/// The generation options a caller passed (NULL: the defaults).
///
/// # Safety
/// `ptr` is NULL or points to a readable `v4a_generate_options` of `struct_size` bytes.
pub(crate) unsafe fn generate_options_in(
    ptr: *const v4a_generate_options,
) -> Result<GenerateOptions, Error> {
    if ptr.is_null() {
        return Ok(GenerateOptions::default());
    }
    let d = GenerateOptions::default();
    let defaults = v4a_generate_options {
        struct_size: size_of::<v4a_generate_options>() as u32,
        context: u32::try_from(d.context).unwrap_or(u32::MAX),
        max_context: u32::try_from(d.max_context).unwrap_or(u32::MAX),
    };
    let o = &read_versioned(
        "v4a_generate_options",
        "v4a_generate_options_init",
        ptr,
        defaults,
        &[],
    )?;
    Ok(GenerateOptions {
        context: o.context as usize,
        max_context: o.max_context as usize,
    })
}

/// Fills `*options` with the generation defaults (3 context lines, at most 50 while making a
/// hunk unique) and sets its `struct_size`. `V4A_STATUS_NULL_ARGUMENT` for NULL.
#[no_mangle]
pub unsafe extern "C" fn v4a_generate_options_init(
    options: *mut v4a_generate_options,
) -> v4a_status {
    ffi_boundary! {
        let d = GenerateOptions::default();
        *out_value(options)? = v4a_generate_options {
            struct_size: size_of::<v4a_generate_options>() as u32,
            context: u32::try_from(d.context).unwrap_or(u32::MAX),
            max_context: u32::try_from(d.max_context).unwrap_or(u32::MAX),
        };
        Ok(v4a_status(V4A_STATUS_OK))
    }
}
