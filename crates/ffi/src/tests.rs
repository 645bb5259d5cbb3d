//! Unit tests of the C ABI shell: the constants agree with the Rust API, the embedded strings
//! with `v4a::tools`, and the boundary catches panics. The C suite (`tests/c/`) tests the ABI
//! itself.

use std::ffi::CStr;
use std::mem::{align_of, size_of};
use std::ptr;

use super::boundary::{run, Fail};
use super::names::{level_name, status_category, status_name};
use super::*;
use engine::tools::{file_grammar, grammar, instructions, tool_schema, Flavor, Shape};
use engine::{Level, Mode, PathClass, Status};

#[test]
fn version_constants_match_cargo_toml() {
    assert_eq!(
        format!("{V4A_VERSION_MAJOR}.{V4A_VERSION_MINOR}.{V4A_VERSION_PATCH}"),
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(
        V4A_VERSION_MAJOR.to_string(),
        env!("CARGO_PKG_VERSION_MAJOR")
    );
    assert_eq!(
        V4A_VERSION_MINOR.to_string(),
        env!("CARGO_PKG_VERSION_MINOR")
    );
    assert_eq!(
        V4A_VERSION_PATCH.to_string(),
        env!("CARGO_PKG_VERSION_PATCH")
    );
    let v = unsafe { CStr::from_ptr(v4a_version()) };
    assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    assert_eq!(v4a_abi_version(), V4A_ABI_VERSION);
}

#[test]
fn status_constants_and_names_match_the_rust_api() {
    let consts = [
        V4A_STATUS_OK,
        V4A_STATUS_INVALID_ARGUMENT,
        V4A_STATUS_NULL_ARGUMENT,
        V4A_STATUS_INVALID_UTF8,
        V4A_STATUS_PATCH_SYNTAX,
        V4A_STATUS_TRUNCATED_PATCH,
        V4A_STATUS_UNSUPPORTED_MODE,
        V4A_STATUS_CONTEXT_NOT_FOUND,
        V4A_STATUS_ANCHOR_NOT_FOUND,
        V4A_STATUS_AMBIGUOUS,
        V4A_STATUS_OVERLAPPING_HUNKS,
        V4A_STATUS_ALREADY_APPLIED,
        V4A_STATUS_FUZZ_LIMIT,
        V4A_STATUS_SEARCH_BUDGET,
        V4A_STATUS_MISSING_SOURCE,
        V4A_STATUS_DUPLICATE_PATH,
        V4A_STATUS_INTERNAL,
        V4A_STATUS_FILE_EXISTS,
        V4A_STATUS_CONFLICT,
        V4A_STATUS_CHANGED_ON_DISK,
        V4A_STATUS_UNSAFE_PATH,
        V4A_STATUS_LOCKED,
        V4A_STATUS_INCONSISTENT_INDENTATION,
    ];
    assert_eq!(consts.len(), Status::ALL.len());
    for (c, s) in consts.iter().zip(Status::ALL) {
        assert_eq!(*c, s.code());
        assert_eq!(status_name(s).to_str().unwrap(), s.name());
        assert_eq!(status_category(s).to_str().unwrap(), s.category());
        let name = unsafe { CStr::from_ptr(v4a_status_str(v4a_status(*c))) };
        assert_eq!(name.to_str().unwrap(), s.name());
    }
    // The workspace layer's I/O status, which has no engine status, follows the last one.
    let io = unsafe { CStr::from_ptr(v4a_status_str(v4a_status(V4A_STATUS_IO_ERROR))) };
    assert_eq!(io.to_str().unwrap(), "IO_ERROR");
    assert_eq!(V4A_STATUS_IO_ERROR as usize, Status::ALL.len());
    let unknown = unsafe { CStr::from_ptr(v4a_status_str(v4a_status(24))) };
    assert_eq!(unknown.to_str().unwrap(), "UNKNOWN");
}

#[test]
fn enum_constants_follow_the_rust_orders() {
    assert_eq!(
        [
            V4A_MODE_UPDATE,
            V4A_MODE_CREATE,
            V4A_MODE_DELETE,
            V4A_MODE_MOVE
        ]
        .map(|m| Mode::ALL[m as usize]),
        [Mode::Update, Mode::Create, Mode::Delete, Mode::Move]
    );
    let levels = [
        V4A_LEVEL_EXACT,
        V4A_LEVEL_TRIM_END,
        V4A_LEVEL_TRIM,
        V4A_LEVEL_COLLAPSE,
        V4A_LEVEL_FOLD,
    ];
    for (c, l) in levels.iter().zip(Level::ALL) {
        assert_eq!(*c, l as u32);
        assert_eq!(level_name(l).to_str().unwrap(), l.name());
    }
    let classes = [
        (V4A_PATH_RELATIVE, PathClass::Relative),
        (V4A_PATH_ABSOLUTE, PathClass::Absolute),
        (V4A_PATH_PARENT_ESCAPE, PathClass::ParentEscape),
        (V4A_PATH_EMPTY, PathClass::Empty),
        (V4A_PATH_NUL, PathClass::Nul),
        (V4A_PATH_DRIVE_PREFIX, PathClass::DrivePrefix),
    ];
    for (c, p) in classes {
        assert_eq!(c, p as u32);
    }
    let flavors = [
        (V4A_FLAVOR_OPENAI_CHAT, Flavor::OpenAiChat),
        (
            V4A_FLAVOR_OPENAI_RESPONSES_CUSTOM,
            Flavor::OpenAiResponsesCustom,
        ),
        (V4A_FLAVOR_ANTHROPIC, Flavor::Anthropic),
        (V4A_FLAVOR_MCP, Flavor::Mcp),
        (V4A_FLAVOR_OPENAI_RESPONSES, Flavor::OpenAiResponses),
    ];
    assert_eq!(flavors.len(), Flavor::ALL.len());
    for (c, f) in flavors {
        assert_eq!(Flavor::from_code(c), Some(f));
    }
    assert_eq!(
        [V4A_SHAPE_INPUT, V4A_SHAPE_FILE].map(|s| Shape::ALL[s as usize]),
        [Shape::Input, Shape::File]
    );
}

#[test]
fn tool_views_are_the_rust_api_strings_followed_by_a_nul() {
    // The C views point at the engine's one embedding: the same bytes as the Rust strings,
    // with a NUL right after their length.
    let check = |v: v4a_bytes, rust: &'static str, what: &str| {
        let with_nul = unsafe { std::slice::from_raw_parts(v.ptr, v.len + 1) };
        assert_eq!(&with_nul[..v.len], rust.as_bytes(), "{what}");
        assert_eq!(with_nul[v.len], 0, "{what} ends with a NUL");
        assert!(!rust.contains('\0'), "{what} holds no NUL");
        assert_eq!(v.ptr, rust.as_ptr(), "{what} is embedded once");
    };
    for f in Flavor::ALL {
        for s in Shape::ALL {
            let what = format!("{f}-{s}");
            check(
                v4a_tool_schema(f.code(), s as u32),
                tool_schema(f, s),
                &what,
            );
        }
    }
    check(v4a_grammar(), grammar(), "grammar");
    check(v4a_file_grammar(), file_grammar(), "file grammar");
    check(v4a_instructions(), instructions(), "instructions");
}

#[test]
fn structs_have_no_implicit_padding() {
    let p = size_of::<usize>();
    assert_eq!(size_of::<v4a_status>(), 4);
    assert_eq!(size_of::<v4a_bytes>(), 2 * p);
    assert_eq!(size_of::<v4a_u32s>(), 2 * p);
    assert_eq!(size_of::<v4a_source>(), 2 * p + 8);
    assert_eq!(size_of::<v4a_options>(), 72);
    assert_eq!(size_of::<v4a_line_pair>(), 24);
    assert_eq!(size_of::<v4a_diff_columns>(), 12 * p);
    assert_eq!(size_of::<v4a_generate_options>(), 12);
    assert_eq!(size_of::<v4a_error>(), 40 + 12 * p);
    assert_eq!(size_of::<v4a_segment>(), 8 + 2 * p);
    assert_eq!(size_of::<v4a_diff_line>(), 16 + 4 * p);
    assert_eq!(size_of::<v4a_hunk_report>(), 40 + 2 * p);
    assert_eq!(size_of::<v4a_change>(), 20);
    assert_eq!(size_of::<v4a_op>(), 24 + 4 * p);
    assert_eq!(size_of::<v4a_file_result>(), 8 + 5 * p);
    assert_eq!(size_of::<v4a_workspace_options>(), 24 + p);
    assert_eq!(size_of::<v4a_workspace_file>(), 16 + 9 * p);
    assert!(align_of::<v4a_options>() <= 8);
}

#[test]
fn the_boundary_turns_panics_and_null_into_statuses() {
    let panicked: v4a_status = run(|| -> Result<v4a_status, Fail> { panic!("boom") });
    assert_eq!(panicked, v4a_status(V4A_STATUS_INTERNAL));
    let null: v4a_status = run(|| Err(Fail::Null));
    assert_eq!(null, v4a_status(V4A_STATUS_NULL_ARGUMENT));
    let bytes: v4a_bytes = run(|| -> Result<v4a_bytes, Fail> { panic!("boom") });
    assert!(bytes.ptr.is_null() && bytes.len == 0);
    assert_eq!(run(|| -> Result<u32, Fail> { panic!("boom") }), 0);
}

#[test]
fn apply_through_the_exports() {
    let source = b"a\nb\n";
    let diff = b"@@\n a\n-b\n+c\n";
    let mut opts: v4a_options = unsafe { std::mem::zeroed() };
    let mut result: *mut v4a_result = ptr::null_mut();
    unsafe {
        assert_eq!(v4a_options_init(&mut opts), v4a_status(V4A_STATUS_OK));
        opts.diff_style = V4A_DIFF_STYLE_FULL;
        let status = v4a_apply(
            source.as_ptr(),
            source.len(),
            diff.as_ptr(),
            diff.len(),
            V4A_MODE_UPDATE,
            &opts,
            &mut result,
        );
        assert_eq!(status, v4a_status(V4A_STATUS_OK));
        let text = v4a_result_text(result);
        assert_eq!(
            std::slice::from_raw_parts(text.ptr, text.len + 1),
            b"a\nc\n\0"
        );
        let diff = v4a_result_diff(result);
        assert_eq!(diff.len, 3);
        let last = &*diff.ptr.add(2);
        assert_eq!(last.kind, V4A_DIFF_ADD);
        assert_eq!(
            std::slice::from_raw_parts(last.text.ptr, last.text.len + 1),
            b"c\0"
        );
        let mut unified: *mut v4a_text = ptr::null_mut();
        assert_eq!(
            v4a_result_unified_diff(result, 3, &mut unified),
            v4a_status(V4A_STATUS_OK)
        );
        assert_eq!(
            (*unified).as_str(),
            Some("--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
        );
        v4a_text_free(unified);
        v4a_result_free(result);
    }
}

#[test]
fn options_out_of_range_are_invalid_arguments() {
    let mut opts: v4a_options = unsafe { std::mem::zeroed() };
    let mut result: *mut v4a_result = ptr::null_mut();
    unsafe {
        v4a_options_init(&mut opts);
        opts.refine = 2;
        let status = v4a_apply(
            ptr::null(),
            0,
            ptr::null(),
            0,
            V4A_MODE_UPDATE,
            &opts,
            &mut result,
        );
        assert_eq!(status, v4a_status(V4A_STATUS_INVALID_ARGUMENT));
        let e = &*v4a_result_error(result);
        let msg = std::slice::from_raw_parts(e.message.ptr, e.message.len);
        assert_eq!(
            std::str::from_utf8(msg).unwrap(),
            "v4a_options.refine is 2: expected 0 or 1"
        );
        v4a_result_free(result);
    }
}

#[test]
fn default_constants_are_the_engine_defaults() {
    // V4A_OPTIONS_INIT and V4A_GENERATE_OPTIONS_INIT are written with these constants.
    let o = engine::Options::default();
    let c = v4a_options::from(&o);
    assert_eq!(c.search_budget, V4A_DEFAULT_SEARCH_BUDGET);
    assert_eq!(
        (
            c.refine_max_graphemes,
            c.refine_max_cost,
            c.refine_max_pair_lines
        ),
        (
            V4A_DEFAULT_REFINE_MAX_GRAPHEMES,
            V4A_DEFAULT_REFINE_MAX_COST,
            V4A_DEFAULT_REFINE_MAX_PAIR_LINES
        )
    );
    assert_eq!(c.diff_context, V4A_DEFAULT_DIFF_CONTEXT);
    assert_eq!(V4A_DEFAULT_DIFF_CONTEXT, engine::DiffStyle::DEFAULT_CONTEXT);
    assert_eq!(c.max_level, V4A_LEVEL_FOLD);
    assert_eq!(c.max_fuzz, V4A_NO_FUZZ_LIMIT);
    assert_eq!(
        (c.diff_style, c.add_file_line_ending),
        (V4A_DIFF_STYLE_NONE, V4A_LINE_ENDING_LF)
    );
    assert_eq!(
        (
            c.first_match,
            c.already_applied_is_error,
            c.ensure_final_newline,
            c.refine
        ),
        (0, 0, 0, 0)
    );
    let g = engine::GenerateOptions::default();
    assert_eq!(g.context, V4A_DEFAULT_GENERATE_CONTEXT as usize);
    assert_eq!(g.max_context, V4A_DEFAULT_GENERATE_MAX_CONTEXT as usize);
    assert_eq!(
        size_of::<v4a_unified_diff_input>(),
        8 + 10 * size_of::<usize>()
    );
}

#[test]
fn tool_schema_is_absent_for_unknown_kinds() {
    for (f, s) in [(5, 0), (0, 2), (u32::MAX, u32::MAX)] {
        let v = v4a_tool_schema(f, s);
        assert!(v.ptr.is_null() && v.len == 0, "{f}/{s}");
    }
    let v = v4a_tool_schema(V4A_FLAVOR_MCP, V4A_SHAPE_FILE);
    let json = unsafe { std::slice::from_raw_parts(v.ptr, v.len) };
    assert_eq!(json, tool_schema(Flavor::Mcp, Shape::File).as_bytes());
}

/// The absent view `{NULL, 0}` (no value) and the empty text `{"", 0}` (a present value with no
/// bytes) stay apart: a caller tells them apart by `ptr == NULL` alone.
#[test]
fn absent_views_and_the_empty_text_are_told_apart_by_ptr() {
    let is_empty_text = |v: v4a_bytes| !v.ptr.is_null() && v.len == 0 && unsafe { *v.ptr } == 0;
    let is_absent = |v: v4a_bytes| v.ptr.is_null() && v.len == 0;
    unsafe {
        // A result that holds an error: its texts are present and empty, its path absent.
        let mut r = ptr::null_mut();
        let diff = b"@@\n-x\n+y\n";
        let st = v4a_apply(
            b"a\n".as_ptr(),
            2,
            diff.as_ptr(),
            diff.len(),
            V4A_MODE_UPDATE,
            ptr::null(),
            &mut r,
        );
        assert_eq!(st.0, V4A_STATUS_CONTEXT_NOT_FOUND);
        assert!(is_empty_text(v4a_result_text(r)));
        assert!(is_empty_text(v4a_result_source(r)));
        assert!(is_absent(v4a_result_path(r)));
        assert!(is_absent(v4a_result_destination(r)));
        v4a_result_free(r);

        // A deleted file: its text is the empty text, its source the file.
        let mut r = ptr::null_mut();
        let st = v4a_apply(
            b"a\n".as_ptr(),
            2,
            ptr::null(),
            0,
            V4A_MODE_DELETE,
            ptr::null(),
            &mut r,
        );
        assert_eq!(st.0, V4A_STATUS_OK);
        assert!(is_empty_text(v4a_result_text(r)));
        assert_eq!(v4a_result_source(r).len, 2);
        v4a_result_free(r);

        // A NULL handle: every view is absent.
        assert!(is_absent(v4a_result_text(ptr::null())));
        assert!(is_absent(v4a_result_source(ptr::null())));
        assert!(is_absent(v4a_text_bytes(ptr::null())));
        assert!(is_absent(v4a_result_set_summary(ptr::null())));
    }
}

/// The engine's single-file calls borrow the source (issue 20), but a C caller's buffers need
/// not outlive `v4a_apply`: the handle keeps its own NUL-terminated copy, which survives the
/// caller overwriting and freeing its buffer, and the unified diff and line diff read it.
#[test]
fn the_result_keeps_its_source_after_the_callers_buffer_is_gone() {
    unsafe {
        for mode in [V4A_MODE_UPDATE, V4A_MODE_DELETE] {
            let mut source = b"a\nb\nc\n".to_vec();
            let diff: &[u8] = if mode == V4A_MODE_UPDATE {
                b"@@\n a\n-b\n+B\n"
            } else {
                b""
            };
            let mut r = ptr::null_mut();
            let st = v4a_apply(
                source.as_ptr(),
                source.len(),
                diff.as_ptr(),
                diff.len(),
                mode,
                ptr::null(),
                &mut r,
            );
            assert_eq!(st.0, V4A_STATUS_OK);
            source.fill(b'#');
            drop(source);
            let kept = v4a_result_source(r);
            assert_ne!(kept.ptr, ptr::null());
            assert_eq!(std::slice::from_raw_parts(kept.ptr, kept.len), b"a\nb\nc\n");
            assert_eq!(*kept.ptr.add(kept.len), 0, "the source is NUL-terminated");
            let applied = (*r).applied().expect("a success");
            assert!(applied.unified_diff(1).contains("-b\n"));
            v4a_result_free(r);
        }
    }
}
