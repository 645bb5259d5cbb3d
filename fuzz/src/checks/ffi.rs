//! Target `ffi`: the C ABI, called as C calls it.

use std::collections::BTreeMap;

use engine::report::refine::RefineLimits;
use engine::{
    apply_bytes, apply_patch_indexed, make_patch, ApplyResult, DiffStyle, GenerateOptions,
    LineEnding, Mode, Options, Patch, Status,
};

use super::common::*;
use super::SEP;

/// `ffi`: the C ABI entry points, called as C would call them. A 16-byte header, then parts
/// separated by `0xFF`: the source (also the old text and the line to normalise), the patch,
/// then the sources of the multi-file patch (the first is also the new text and the path).
///
/// | byte | use |
/// |---|---|
/// | 0-3 | [`decode_options`] (byte 0 bits 0-1 are not the mode here) |
/// | 4 | bits 0-1 options pointer: NULL, valid, raw field values (some out of range), a wrong `struct_size`; bits 2-3 and 4-5 the source and diff arguments (see [`arg`]); bit 6 NULL out-pointers; bit 7 `v4a_apply_mode_name` |
/// | 5 | mode: bits 0-2 (4-7 are no mode), bit 7 a huge value |
/// | 6 | bits 0-1 patch argument; bit 2 strict parse; bit 3 one source too many; bit 4 a NULL sources array; bits 5-7 source quirks (absent, `present = 2`, `reserved != 0`) |
/// | 7 | level of `v4a_normalize` (% 7), flavour and shape of `v4a_tool_schema` |
/// | 8-15 | raw option values, generation options, unified-diff context |
///
/// Pointers are never wild: a part of the input, NULL with length 0, a part's pointer with
/// length 0, or NULL with the part's length (which must be refused). Every status is compared
/// with what the Rust API gives for the same arguments, every view is read to its end and its
/// NUL terminator (AddressSanitizer flags a view past its buffer), and every handle is freed
/// (LeakSanitizer flags one that is not).
pub fn ffi(data: &[u8]) {
    // SAFETY: every pointer passed is NULL or points into `data`, into a local, or into a
    // handle that is alive; handles are freed once, after their last use.
    unsafe { ffi_unsafe(data) }
}

mod c {
    pub use v4a_ffi::*;
}

const OK: u32 = c::V4A_STATUS_OK;

/// A `(pointer, length)` argument made from `part`: `how & 3` is 0 for the part, 1 for
/// `(NULL, 0)`, 2 for the part's pointer with length 0, 3 for NULL with the part's length.
fn arg(part: &[u8], how: u8) -> (*const u8, usize) {
    match how & 3 {
        0 => (part.as_ptr(), part.len()),
        1 => (std::ptr::null(), 0),
        2 => (part.as_ptr(), 0),
        _ => (std::ptr::null(), part.len()),
    }
}

/// The bytes the library sees for [`arg`], or `Err(NULL_ARGUMENT)` for NULL with a length.
fn seen(part: &[u8], how: u8) -> Result<&[u8], Status> {
    match how & 3 {
        0 => Ok(part),
        1 | 2 => Ok(&[]),
        _ if part.is_empty() => Ok(&[]),
        _ => Err(Status::NullArgument),
    }
}

/// The UTF-8 text the library sees, or the status of its refusal.
fn seen_str(part: &[u8], how: u8) -> Result<&str, Status> {
    std::str::from_utf8(seen(part, how)?).map_err(|_| Status::InvalidUtf8)
}

fn code<T>(r: &Result<T, Status>) -> u32 {
    match r {
        Ok(_) => OK,
        Err(s) => s.code(),
    }
}

/// A view's bytes: NULL only with length 0 (`None`), else every byte and the NUL after them.
unsafe fn bytes_of(b: c::v4a_bytes) -> Option<Vec<u8>> {
    if b.ptr.is_null() {
        assert_eq!(b.len, 0, "a NULL view with a length");
        return None;
    }
    let v = std::slice::from_raw_parts(b.ptr, b.len).to_vec();
    assert_eq!(*b.ptr.add(b.len), 0, "a view without its NUL terminator");
    Some(v)
}

unsafe fn slice_of<'a, T>(ptr: *const T, len: usize) -> &'a [T] {
    if len == 0 {
        return &[];
    }
    assert!(!ptr.is_null(), "a NULL array view with a length");
    std::slice::from_raw_parts(ptr, len)
}

unsafe fn c_str(p: *const std::ffi::c_char) -> String {
    assert!(!p.is_null(), "a NULL static string");
    std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
}

/// Reads a `v4a_error` completely; checks its status.
unsafe fn read_error(e: *const c::v4a_error, status: u32) {
    assert!(!e.is_null(), "status {status} without an error");
    let e = &*e;
    assert_eq!(e.status.0, status);
    assert!(
        !bytes_of(e.message).unwrap_or_default().is_empty(),
        "an empty message"
    );
    for b in [e.path, e.input, e.suggestion, e.corrected_hunk] {
        bytes_of(b);
    }
    let _ = slice_of(e.candidates.ptr, e.candidates.len).to_vec();
    assert!(e.closest_start <= e.closest_end);
    assert!((0.0..=1.0).contains(&e.closest_similarity) || e.closest_similarity.is_nan());
}

/// Reads a text handle (status, bytes, error), checks it against `expect`, frees it.
unsafe fn take_text(t: *mut c::v4a_text, status: u32, expect: &Result<String, Status>) {
    assert!(!t.is_null(), "no text handle for status {status}");
    assert_eq!(c::v4a_text_status(t).0, status);
    assert_eq!(status, code(expect), "C and Rust disagree: {expect:?}");
    let bytes = bytes_of(c::v4a_text_bytes(t));
    let err = c::v4a_text_error(t);
    match expect {
        Ok(s) => {
            assert!(err.is_null());
            assert_eq!(
                bytes.as_deref(),
                Some(s.as_bytes()),
                "C and Rust texts differ"
            );
        }
        Err(_) => read_error(err, status),
    }
    c::v4a_text_free(t);
}

/// Reads every view of a result and compares it with the Rust API's outcome.
unsafe fn read_result(r: *const c::v4a_result, expect: &Result<ApplyResult, Status>, context: u32) {
    assert!(!r.is_null());
    let status = c::v4a_result_status(r).0;
    assert_eq!(
        status,
        code(expect),
        "C and Rust disagree: {:?}",
        expect.as_ref().err()
    );
    let err = c::v4a_result_error(r);
    if status == OK {
        assert!(err.is_null(), "an error on success");
    } else {
        read_error(err, status);
    }
    let text = bytes_of(c::v4a_result_text(r));
    let source = bytes_of(c::v4a_result_source(r));
    bytes_of(c::v4a_result_path(r));
    bytes_of(c::v4a_result_destination(r));
    let fuzz = c::v4a_result_fuzz(r);
    let hunks = c::v4a_result_hunks(r);
    let hunks = slice_of(hunks.ptr, hunks.len);
    for h in hunks {
        let levels = slice_of(h.line_levels.ptr, h.line_levels.len);
        assert!(h.level <= c::V4A_LEVEL_FOLD && levels.iter().all(|&l| l <= c::V4A_LEVEL_FOLD));
        let known = c::V4A_HUNK_REINDENTED
            | c::V4A_HUNK_ALREADY_APPLIED
            | c::V4A_HUNK_END_OF_FILE
            | c::V4A_HUNK_OUT_OF_ORDER
            | c::V4A_HUNK_MERGED
            | c::V4A_HUNK_ANCHOR_IGNORED
            | c::V4A_HUNK_CONTEXT_RELAXED;
        assert!(h.flags & !known == 0, "unknown hunk flags {}", h.flags);
    }
    let segments = c::v4a_result_segments(r);
    let segments = slice_of(segments.ptr, segments.len);
    for s in segments {
        assert!(
            s.kind <= c::V4A_DIFF_ADD && s.start < s.end,
            "bad segment {s:?}"
        );
    }
    let diff = c::v4a_result_diff(r);
    let diff = slice_of(diff.ptr, diff.len);
    for d in diff {
        assert!(d.kind <= c::V4A_DIFF_ADD);
        let line = bytes_of(d.text).expect("a diff line without text");
        assert!(d.segment_start.saturating_add(d.segment_count) <= segments.len());
        if d.segment_count > 0 {
            let last = &segments[d.segment_start + d.segment_count - 1];
            assert_eq!(last.end, line.len(), "segments do not end with their line");
        }
    }
    let changes = c::v4a_result_changes(r);
    let changes = slice_of(changes.ptr, changes.len);
    let mut t = std::ptr::null_mut();
    let st = c::v4a_result_unified_diff(r, context, &mut t);
    match expect {
        Ok(a) => {
            assert_eq!(text.as_deref(), Some(a.text.as_bytes()));
            assert_eq!(source.as_deref(), Some(a.source.as_bytes()));
            assert_eq!(fuzz, a.fuzz);
            assert_eq!(hunks.len(), a.hunks.len());
            assert_eq!(diff.len(), a.diff.len());
            assert_eq!(segments.len(), a.segments.len());
            assert_eq!(changes.len(), a.changes.len());
            let unified = a.unified_diff(context as usize);
            take_text(t, st.0, &Ok(unified.clone()));
            // The same rendering from the parts a binding keeps.
            let input = c::v4a_unified_diff_input {
                source: c::v4a_result_source(r),
                text: c::v4a_result_text(r),
                path: c::v4a_result_path(r),
                destination: c::v4a_result_destination(r),
                changes: c::v4a_result_changes(r),
                context,
                reserved: 0,
            };
            let mut t = std::ptr::null_mut();
            let st = c::v4a_unified_diff(&input, &mut t);
            take_text(t, st.0, &Ok(unified));
        }
        Err(_) => {
            assert!(hunks.is_empty() && diff.is_empty() && changes.is_empty());
            take_text(t, st.0, &Err(Status::InvalidArgument));
        }
    }
}

/// The options argument chosen by the header, and the options the library should read from
/// it (or the status of its refusal).
unsafe fn options_arg(
    h: &[u8; 16],
    opts: &Options,
) -> (Option<c::v4a_options>, Result<Options, Status>) {
    let mut o: c::v4a_options = std::mem::zeroed();
    assert_eq!(c::v4a_options_init(&mut o).0, OK);
    let size = o.struct_size;
    match h[4] & 3 {
        0 => (None, Ok(Options::default())),
        1 => {
            o.max_level = opts.max_level as u32;
            o.max_fuzz = opts.max_fuzz.unwrap_or(c::V4A_NO_FUZZ_LIMIT);
            o.first_match = opts.first_match.into();
            o.already_applied_is_error = opts.already_applied_is_error.into();
            o.ensure_final_newline = opts.ensure_final_newline.into();
            o.add_file_line_ending = match opts.add_file_line_ending {
                LineEnding::Lf => c::V4A_LINE_ENDING_LF,
                LineEnding::CrLf => c::V4A_LINE_ENDING_CRLF,
            };
            (o.diff_style, o.diff_context) = match opts.diff {
                DiffStyle::None => (c::V4A_DIFF_STYLE_NONE, 3),
                DiffStyle::Full => (c::V4A_DIFF_STYLE_FULL, 3),
                DiffStyle::Changes { context } => (c::V4A_DIFF_STYLE_CHANGES, context),
                DiffStyle::Runs => (c::V4A_DIFF_STYLE_RUNS, 3),
            };
            o.refine = opts.refine.into();
            o.search_budget = opts.search_budget;
            (Some(o), Ok(opts.clone()))
        }
        2 => {
            o.max_level = u32::from(h[8] % 7);
            o.first_match = u32::from(h[9] % 3);
            o.already_applied_is_error = u32::from(h[10] % 3);
            o.ensure_final_newline = u32::from(h[11] % 3);
            o.add_file_line_ending = u32::from(h[12] % 3);
            o.diff_style = u32::from(h[13] % 5);
            o.diff_context = u32::from(h[14]);
            o.refine = u32::from(h[15] % 3);
            o.max_fuzz = if h[10] & 0x80 != 0 {
                c::V4A_NO_FUZZ_LIMIT
            } else {
                u32::from(h[14])
            };
            o.search_budget = if h[9] & 0x80 != 0 {
                0
            } else {
                opts.search_budget
            };
            let flag = |v: u32| (v <= 1).then_some(v == 1);
            let expect = (|| {
                Some(Options {
                    max_level: *LEVELS.get(o.max_level as usize)?,
                    max_fuzz: (o.max_fuzz != c::V4A_NO_FUZZ_LIMIT).then_some(o.max_fuzz),
                    first_match: flag(o.first_match)?,
                    already_applied_is_error: flag(o.already_applied_is_error)?,
                    ensure_final_newline: flag(o.ensure_final_newline)?,
                    add_file_line_ending: [LineEnding::Lf, LineEnding::CrLf]
                        .get(o.add_file_line_ending as usize)
                        .copied()?,
                    diff: match o.diff_style {
                        0 => DiffStyle::None,
                        1 => DiffStyle::Full,
                        2 => DiffStyle::Changes {
                            context: o.diff_context,
                        },
                        3 => DiffStyle::Runs,
                        _ => return None,
                    },
                    refine: flag(o.refine)?,
                    refine_limits: RefineLimits {
                        max_graphemes: usize::try_from(o.refine_max_graphemes).ok()?,
                        max_cost: usize::try_from(o.refine_max_cost).ok()?,
                        max_pair_lines: usize::try_from(o.refine_max_pair_lines).ok()?,
                    },
                    search_budget: o.search_budget,
                })
            })();
            // (A zero search budget is refused by the apply itself, after UTF-8 decoding.)
            let expect = expect.ok_or(Status::InvalidArgument);
            (Some(o), expect)
        }
        _ => {
            o.struct_size = u32::from(h[8]);
            // The size of today's struct, or of the struct before the refine limits (read with
            // the limits' defaults; the first fields are the defaults here too).
            let before_limits = std::mem::offset_of!(c::v4a_options, refine_max_graphemes) as u32;
            let expect = if o.struct_size == size || o.struct_size == before_limits {
                Ok(Options::default())
            } else {
                Err(Status::InvalidArgument)
            };
            (Some(o), expect)
        }
    }
}

unsafe fn ffi_unsafe(data: &[u8]) {
    let (h, rest) = header::<16>(data);
    let parts: Vec<&[u8]> = rest.split(|&b| b == SEP).collect();
    let part = |i: usize| parts.get(i).copied().unwrap_or_default();
    let (source, patch) = (part(0), part(1));
    let opts = decode_options([h[0], h[1], h[2], h[3]]);
    let context = u32::from(h[15]);

    // Static strings, for every status, level and version.
    assert!(!c_str(c::v4a_version()).is_empty());
    assert_eq!(c::v4a_abi_version(), c::V4A_ABI_VERSION);
    let raw = u32::from(h[8]) | u32::from(h[9]) << 24;
    for s in [raw, u32::from(h[8] % 20)] {
        let name = c_str(c::v4a_status_str(c::v4a_status(s)));
        // IO_ERROR is the C ABI's own (the workspace layer's), not one of the engine's.
        assert_eq!(
            name == "UNKNOWN",
            Status::from_code(s).is_none() && s != c::V4A_STATUS_IO_ERROR,
            "status {s}: {name}"
        );
        c_str(c::v4a_status_category(c::v4a_status(s)));
        c_str(c::v4a_level_str(s));
    }
    assert_eq!(
        c::v4a_options_init(std::ptr::null_mut()).0,
        c::V4A_STATUS_NULL_ARGUMENT
    );
    assert_eq!(
        c::v4a_generate_options_init(std::ptr::null_mut()).0,
        c::V4A_STATUS_NULL_ARGUMENT
    );
    // Accessors of NULL handles.
    assert_eq!(
        c::v4a_result_status(std::ptr::null()).0,
        c::V4A_STATUS_NULL_ARGUMENT
    );
    assert!(c::v4a_result_error(std::ptr::null()).is_null());
    assert!(bytes_of(c::v4a_result_text(std::ptr::null())).is_none());
    assert_eq!(c::v4a_result_hunks(std::ptr::null()).len, 0);
    assert_eq!(
        c::v4a_patch_status(std::ptr::null()).0,
        c::V4A_STATUS_NULL_ARGUMENT
    );
    assert_eq!(c::v4a_patch_ops(std::ptr::null()).len, 0);
    assert_eq!(c::v4a_result_set_files(std::ptr::null()).len, 0);
    assert!(bytes_of(c::v4a_text_bytes(std::ptr::null())).is_none());
    c::v4a_result_free(std::ptr::null_mut());
    c::v4a_patch_free(std::ptr::null_mut());
    c::v4a_result_set_free(std::ptr::null_mut());
    c::v4a_text_free(std::ptr::null_mut());

    // Single-file apply.
    let (opt_struct, opt_expect) = options_arg(&h, &opts);
    let opt_ptr = opt_struct
        .as_ref()
        .map_or(std::ptr::null(), |o| o as *const _);
    let (src_how, diff_how) = (h[4] >> 2, h[4] >> 4);
    let (sp, sl) = arg(source, src_how);
    let (dp, dl) = arg(patch, diff_how);
    let null_out = h[4] & 0x40 != 0;
    let mut result = std::ptr::null_mut();
    let out = if null_out {
        std::ptr::null_mut()
    } else {
        &mut result as *mut _
    };
    let (st, mode) = if h[4] & 0x80 != 0 {
        let names: [&[u8]; 8] = [
            b"update", b"create", b"delete", b"move", b"rename", b"", b"Update", b"\xc3(",
        ];
        let name = names[usize::from(h[5] & 7)];
        let mode = match std::str::from_utf8(name) {
            Ok(n) => n.parse::<Mode>().map_err(|e| e.status()),
            Err(_) => Err(Status::InvalidUtf8),
        };
        let st = c::v4a_apply_mode_name(sp, sl, dp, dl, name.as_ptr(), name.len(), opt_ptr, out);
        (st, mode)
    } else {
        let m = if h[5] & 0x80 != 0 {
            u32::from(h[5]) << 24 | u32::from(h[6])
        } else {
            u32::from(h[5] & 7)
        };
        let mode = Mode::ALL
            .get(m as usize)
            .copied()
            .ok_or(Status::UnsupportedMode);
        (c::v4a_apply(sp, sl, dp, dl, m, opt_ptr, out), mode)
    };
    if null_out {
        assert_eq!(st.0, c::V4A_STATUS_NULL_ARGUMENT);
    } else {
        let expect = (|| {
            let src = seen(source, src_how)?;
            let diff = seen(patch, diff_how)?;
            let mode = mode?;
            let o = opt_expect.clone()?;
            apply_bytes(src, diff, mode, &o).map_err(|e| e.status())
        })();
        assert_eq!(st.0, code(&expect));
        read_result(result, &expect, context);
        c::v4a_result_free(result);
    }

    // Multi-file: parse, inspect, apply, summarise, reverse.
    let patch_how = h[6];
    let (pp, pl) = arg(patch, patch_how);
    let strict = h[6] & 4 != 0;
    let mut handle = std::ptr::null_mut();
    let st = if strict {
        c::v4a_patch_parse_strict(pp, pl, &mut handle)
    } else {
        c::v4a_patch_parse(pp, pl, &mut handle)
    };
    let parsed: Result<Patch, Status> = seen_str(patch, patch_how).and_then(|t| {
        if strict {
            Patch::parse_strict(t)
        } else {
            Patch::parse(t)
        }
        .map_err(|e| e.status())
    });
    assert_eq!(st.0, code(&parsed));
    assert!(!handle.is_null());
    assert_eq!(c::v4a_patch_status(handle), st);
    if st.0 != OK {
        read_error(c::v4a_patch_error(handle), st.0);
    } else {
        assert!(c::v4a_patch_error(handle).is_null());
    }
    let ops = c::v4a_patch_ops(handle);
    let ops = slice_of(ops.ptr, ops.len);
    for op in ops {
        assert!(op.kind <= c::V4A_OP_UPDATE && op.path_class <= 5 && op.move_to_class <= 5);
        assert!(bytes_of(op.path).is_some());
        bytes_of(op.move_to);
    }
    if let Ok(p) = &parsed {
        assert_eq!(ops.len(), p.ops.len());
    }
    // One source per operation (or one too many), from the parts after the patch.
    let n = ops.len() + usize::from(h[6] & 8 != 0);
    let quirk = h[6] >> 5;
    let mut sources = Vec::with_capacity(n);
    let mut rust_sources: Result<Vec<Option<&[u8]>>, Status> = Ok(Vec::new());
    for i in 0..n {
        let bytes = parts.get(2 + i).copied();
        let how = h[(8 + i) % 16] >> 6;
        let (ptr, len) = arg(bytes.unwrap_or_default(), how);
        let present: u32 = match (bytes, quirk == 1 && i == 0, quirk == 2 && i == 0) {
            (None, _, _) | (_, true, _) => 0,
            (_, _, true) => 2,
            _ => 1,
        };
        let reserved = u32::from(quirk == 3 && i == 0);
        sources.push(c::v4a_source {
            ptr,
            len,
            present,
            reserved,
        });
        if let Ok(v) = &mut rust_sources {
            let s = if reserved != 0 || present > 1 {
                Err(Status::InvalidArgument)
            } else {
                seen(bytes.unwrap_or_default(), how).map(|b| (present == 1).then_some(b))
            };
            match s {
                Ok(s) => v.push(s),
                Err(e) => rust_sources = Err(e),
            }
        }
    }
    let null_sources = h[6] & 0x10 != 0;
    let sources_ptr = if null_sources {
        std::ptr::null()
    } else {
        sources.as_ptr()
    };
    let expect_sources = |p: &Patch| -> Result<Vec<Option<&[u8]>>, Status> {
        if n != p.ops.len() {
            return Err(Status::InvalidArgument);
        }
        if n > 0 && null_sources {
            return Err(Status::NullArgument);
        }
        rust_sources.clone()
    };
    let mut set = std::ptr::null_mut();
    let st = c::v4a_patch_apply(handle, sources_ptr, n, opt_ptr, &mut set);
    let applied = (|| {
        let p = parsed.as_ref().map_err(|s| *s)?;
        let s = expect_sources(p)?;
        let o = opt_expect.clone()?;
        apply_patch_indexed(p, |i, _| s[i], &o).map_err(|e| e.status())
    })();
    assert_eq!(
        st.0,
        code(&applied),
        "v4a_patch_apply: {:?}",
        applied.as_ref().err()
    );
    assert!(!set.is_null());
    assert_eq!(c::v4a_result_set_status(set), st);
    let files = c::v4a_result_set_files(set);
    let files = slice_of(files.ptr, files.len);
    let summary = bytes_of(c::v4a_result_set_summary(set));
    match &applied {
        Ok(r) => {
            assert!(c::v4a_result_set_error(set).is_null());
            assert_eq!(files.len(), r.files.len());
            for (f, rf) in files.iter().zip(&r.files) {
                assert_eq!(bytes_of(f.path).as_deref(), Some(rf.path.as_bytes()));
                bytes_of(f.move_to);
                read_result(f.result, &Ok(rf.applied.clone()), context);
            }
            assert_eq!(summary.as_deref(), Some(r.summary().as_bytes()));
        }
        Err(_) => {
            read_error(c::v4a_result_set_error(set), st.0);
            assert!(files.is_empty());
        }
    }
    c::v4a_result_set_free(set);
    let mut t = std::ptr::null_mut();
    let st = c::v4a_patch_reverse(handle, sources_ptr, n, opt_ptr, &mut t);
    let reversed = (|| {
        let p = parsed.as_ref().map_err(|s| *s)?;
        let s = expect_sources(p)?;
        let o = opt_expect.clone()?;
        let by_path: BTreeMap<&str, Option<&[u8]>> = p
            .ops
            .iter()
            .zip(&s)
            .map(|(op, s)| (op.path.as_str(), *s))
            .collect();
        p.reverse(|path| by_path.get(path).copied().flatten(), &o)
            .map_err(|e| e.status())
    })();
    take_text(t, st.0, &reversed);
    c::v4a_patch_free(handle);

    // A unified diff from parts a caller made up: any edit script over any texts renders or
    // is refused, never a panic (V4A_STATUS_INTERNAL).
    let script: Vec<c::v4a_change> = part(3)
        .chunks_exact(5)
        .take(8)
        .map(|b| c::v4a_change {
            old_start: u32::from(b[0] % 8),
            old_len: u32::from(b[1] % 4),
            new_start: u32::from(b[2] % 8),
            new_len: u32::from(b[3] % 4),
            hunk: u32::from(b[4]),
        })
        .collect();
    let (tp, tl) = arg(part(2), h[11]);
    let (pp, pl) = arg(part(4), h[11] >> 2);
    let view = |ptr, len| c::v4a_bytes { ptr, len };
    let input = c::v4a_unified_diff_input {
        source: view(sp, sl),
        text: view(tp, tl),
        path: view(pp, pl),
        destination: view(std::ptr::null(), 0),
        changes: c::v4a_changes {
            ptr: script.as_ptr(),
            len: script.len(),
        },
        context,
        reserved: 0,
    };
    let mut t = std::ptr::null_mut();
    let st = c::v4a_unified_diff(&input, &mut t);
    assert_ne!(
        st.0,
        c::V4A_STATUS_INTERNAL,
        "v4a_unified_diff panicked on {script:?}"
    );
    assert!(!t.is_null());
    assert_eq!(c::v4a_text_status(t), st);
    bytes_of(c::v4a_text_bytes(t));
    if st.0 != OK {
        read_error(c::v4a_text_error(t), st.0);
    }
    c::v4a_text_free(t);

    // Generation, normalisation, paths, the tool-calling kit.
    let (new, path) = (part(2), part(3));
    let gen_how = h[9] & 3;
    let mut g: c::v4a_generate_options = std::mem::zeroed();
    assert_eq!(c::v4a_generate_options_init(&mut g).0, OK);
    let gen_size = g.struct_size;
    let gen_expect: Result<GenerateOptions, Status> = match gen_how {
        0 => Ok(GenerateOptions::default()),
        1 => {
            g.context = u32::from(h[10] % 8);
            g.max_context = u32::from(h[11] % 64);
            Ok(GenerateOptions {
                context: g.context as usize,
                max_context: g.max_context as usize,
            })
        }
        2 => {
            g.context = u32::MAX;
            g.max_context = u32::MAX;
            Ok(GenerateOptions {
                context: u32::MAX as usize,
                max_context: u32::MAX as usize,
            })
        }
        _ => {
            g.struct_size = u32::from(h[10]);
            if g.struct_size == gen_size {
                Ok(GenerateOptions::default())
            } else {
                Err(Status::InvalidArgument)
            }
        }
    };
    let g_ptr = if gen_how == 0 {
        std::ptr::null()
    } else {
        &g as *const _
    };
    let (new_how, path_how) = (h[10] >> 4, h[10] >> 6);
    let (np, nl) = arg(new, new_how);
    let (pathp, pathl) = arg(path, path_how);
    // make_patch re-applies its patch once per round of added context: on long runs of
    // identical lines that costs seconds under the sanitizer (see FUZZING.md, "left"); the
    // make_patch target covers the algorithm, this one the boundary, on small texts.
    let small = |t: &[u8]| t.iter().filter(|&&b| b == b'\n').count() <= 64;
    if small(source) && small(new) {
        ffi_make_patch(source, new, path, h, g_ptr, &gen_expect);
    }
    let mut t = std::ptr::null_mut();
    let st = c::v4a_make_add_patch(pathp, pathl, np, nl, &mut t);
    let expect = seen_str(path, path_how)
        .and_then(|p| Ok(engine::make_add_patch(p, seen_str(new, new_how)?)));
    take_text(t, st.0, &expect);
    let mut t = std::ptr::null_mut();
    let st = c::v4a_make_delete_patch(pathp, pathl, &mut t);
    take_text(
        t,
        st.0,
        &seen_str(path, path_how).map(engine::make_delete_patch),
    );
    assert_eq!(
        c::v4a_make_delete_patch(pathp, pathl, std::ptr::null_mut()).0,
        c::V4A_STATUS_NULL_ARGUMENT
    );

    let line = &source[..source.len().min(256)];
    let level = u32::from(h[7] % 7);
    let mut t = std::ptr::null_mut();
    let st = c::v4a_normalize(line.as_ptr(), line.len(), level, &mut t);
    let expect = std::str::from_utf8(line)
        .map_err(|_| Status::InvalidUtf8)
        .and_then(|l| {
            let lv = LEVELS.get(level as usize).ok_or(Status::InvalidArgument)?;
            Ok(engine::normalized(l, *lv))
        });
    take_text(t, st.0, &expect);

    let mut class = u32::MAX;
    let st = c::v4a_classify_path(pathp, pathl, &mut class);
    match seen_str(path, path_how) {
        Ok(p) => {
            assert_eq!(st.0, OK);
            assert_eq!(class, engine::classify_path(p) as u32);
        }
        Err(s) => assert_eq!(st.0, s.code()),
    }
    assert_eq!(
        c::v4a_classify_path(pathp, pathl, std::ptr::null_mut()).0,
        c::V4A_STATUS_NULL_ARGUMENT
    );

    let (flavor, shape) = (u32::from(h[7] >> 3 & 7), u32::from(h[7] >> 6));
    let schema = c::v4a_tool_schema(flavor, shape);
    let known = flavor < 5 && shape < 2;
    assert_eq!(
        bytes_of(schema).is_some_and(|s| !s.is_empty()),
        known,
        "tool schema {flavor}/{shape}"
    );
    for b in [
        c::v4a_grammar(),
        c::v4a_file_grammar(),
        c::v4a_instructions(),
    ] {
        assert!(!bytes_of(b).unwrap_or_default().is_empty());
    }
}

/// `v4a_make_patch` and `v4a_make_move_patch`, compared with the Rust API.
unsafe fn ffi_make_patch(
    source: &[u8],
    new: &[u8],
    path: &[u8],
    h: [u8; 16],
    g_ptr: *const c::v4a_generate_options,
    gen_expect: &Result<GenerateOptions, Status>,
) {
    let (old_how, new_how, path_how) = (h[10] >> 2, h[10] >> 4, h[10] >> 6);
    let (op_, ol) = arg(source, old_how);
    let (np, nl) = arg(new, new_how);
    let (pathp, pathl) = arg(path, path_how);
    let strs = || -> Result<(&str, &str, &str), Status> {
        Ok((
            seen_str(source, old_how)?,
            seen_str(new, new_how)?,
            seen_str(path, path_how)?,
        ))
    };
    let mut t = std::ptr::null_mut();
    let st = c::v4a_make_patch(op_, ol, np, nl, pathp, pathl, g_ptr, &mut t);
    let expect = strs().and_then(|(o, n, p)| {
        let g = gen_expect.clone()?;
        make_patch(o, n, p, &g).map_err(|e| e.status())
    });
    take_text(t, st.0, &expect);
    let mut t = std::ptr::null_mut();
    let st = c::v4a_make_move_patch(op_, ol, np, nl, pathp, pathl, np, nl, g_ptr, &mut t);
    let expect = strs().and_then(|(o, n, p)| {
        let g = gen_expect.clone()?;
        engine::make_move_patch(o, n, p, Some(n), &g).map_err(|e| e.status())
    });
    take_text(t, st.0, &expect);
}
