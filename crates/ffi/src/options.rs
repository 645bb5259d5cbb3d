//! The versioned options structs: defaults, and conversion to the Rust options.

use std::mem::size_of;

use super::boundary::{enum_in, ffi_boundary, flag_in, out_value};
use super::types::{v4a_generate_options, v4a_options, v4a_status};
use super::{
    V4A_DIFF_STYLE_CHANGES, V4A_DIFF_STYLE_FULL, V4A_DIFF_STYLE_NONE, V4A_LINE_ENDING_CRLF,
    V4A_LINE_ENDING_LF, V4A_NO_FUZZ_LIMIT, V4A_STATUS_OK,
};
use engine::{DiffStyle, Error, GenerateOptions, Level, LineEnding, Options, Status};

/// Context lines of `V4A_DIFF_STYLE_CHANGES` when the caller does not choose.
const DEFAULT_DIFF_CONTEXT: u32 = 3;

impl From<&Options> for v4a_options {
    fn from(o: &Options) -> v4a_options {
        let (diff_style, diff_context) = match o.diff {
            DiffStyle::None => (V4A_DIFF_STYLE_NONE, DEFAULT_DIFF_CONTEXT),
            DiffStyle::Full => (V4A_DIFF_STYLE_FULL, DEFAULT_DIFF_CONTEXT),
            DiffStyle::Changes { context } => (V4A_DIFF_STYLE_CHANGES, context),
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
        }
    }
}

/// Checks the `struct_size` of a versioned struct before the rest of it is read.
///
/// # Safety
/// `ptr` points to at least a readable, aligned `uint32_t`.
unsafe fn check_size<T>(name: &str, init: &str, ptr: *const T) -> Result<(), Error> {
    let size = *(ptr as *const u32);
    let want = size_of::<T>();
    if size as usize == want {
        Ok(())
    } else {
        Err(Error::simple(
            Status::InvalidArgument,
            format!(
                "{name}.struct_size is {size}, but this library knows {name} of {want} bytes: \
                 initialise the struct with {init}() and build against the library's v4a.h"
            ),
        ))
    }
}

/// The options a caller passed (NULL: the defaults).
///
/// # Safety
/// `ptr` is NULL or points to a readable `v4a_options` of `struct_size` bytes.
pub(crate) unsafe fn options_in(ptr: *const v4a_options) -> Result<Options, Error> {
    if ptr.is_null() {
        return Ok(Options::default());
    }
    check_size("v4a_options", "v4a_options_init", ptr)?;
    let o = &*ptr;
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
            other => {
                return Err(Error::simple(
                    Status::InvalidArgument,
                    format!(
                        "v4a_options.diff_style is {other}: expected V4A_DIFF_STYLE_NONE (0), \
                         V4A_DIFF_STYLE_FULL (1) or V4A_DIFF_STYLE_CHANGES (2)"
                    ),
                ))
            }
        },
        refine: flag_in("v4a_options.refine", o.refine)?,
        search_budget: o.search_budget,
    })
}

/// Fills `*options` with the defaults and sets its `struct_size`: every level up to fold, no
/// fuzz limit, no first-match, already-applied hunks are no-ops, the final-newline state is
/// kept, Add File writes LF, no structured diff (3 context lines if `diff_style` is set to
/// `V4A_DIFF_STYLE_CHANGES`), no refinement, a search budget of 200,000,000.
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
    check_size("v4a_generate_options", "v4a_generate_options_init", ptr)?;
    let o = &*ptr;
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
