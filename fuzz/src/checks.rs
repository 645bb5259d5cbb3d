//! The invariants of v4a's fuzz targets, shared by the libFuzzer targets (`fuzz/fuzz_targets/`)
//! and the corpus replay test (`tests/fuzz_corpus.rs`, a plain `cargo test`).
//!
//! Each public function decodes one input and panics when an invariant does not hold (a panic
//! inside the engine is a finding too). Inputs are decoded without any crate beyond v4a's own
//! dependencies, so the replay test needs nothing more than the main crate:
//!
//! * a fixed **header** of a few bytes selects options (missing bytes read as 0);
//! * the rest is split into **parts** at the byte `0xFF`, which never occurs in UTF-8 text, so
//!   mutations inside one part never move the boundary to the next. Where a part may hold
//!   invalid UTF-8 (the patch of `apply`), it runs to the end of the input instead.
//!
//! `fuzz/seed.py` writes seeds in this encoding from `tests/vectors/`; FUZZING.md documents
//! each target.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};

use engine::report::refine::{pair_lines, refine_pair, RefineLimits};
use engine::{
    apply_bytes, apply_patch_indexed, make_patch, ApplyResult, DiffKind, DiffStyle, Error,
    GenerateOptions, Level, LineEnding, Mode, OpKind, Options, Patch, Segment, Status,
};
use unicode_segmentation::UnicodeSegmentation;

/// Separates the parts of an input.
pub const SEP: u8 = 0xFF;

/// A check: decodes one input and panics on a broken invariant.
pub type Check = fn(&[u8]);

/// Every fuzz target, by name (the name of its `fuzz/corpus/` folder).
pub const TARGETS: &[(&str, Check)] = &[
    ("parse", parse),
    ("apply", apply),
    ("multi", multi),
    ("refine", refine),
    ("make_patch", make_patch_round_trip),
    ("reverse", reverse_round_trip),
    ("ffi", ffi),
];

/// The default search budget of [`Options`].
const DEFAULT_BUDGET: u64 = 200_000_000;

// ---------------------------------------------------------------------------------------------
// Decoding

/// The first `N` bytes (zero-padded) and the rest.
fn header<const N: usize>(data: &[u8]) -> ([u8; N], &[u8]) {
    let mut h = [0u8; N];
    let n = data.len().min(N);
    h[..n].copy_from_slice(&data[..n]);
    (h, &data[n..])
}

/// The bytes before the first [`SEP`] and everything after it.
fn split_once(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == SEP) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const LEVELS: [Level; 5] = [
    Level::Exact,
    Level::TrimEnd,
    Level::Trim,
    Level::Collapse,
    Level::Fold,
];

/// Options from a 4-byte header:
///
/// | byte | bits |
/// |---|---|
/// | 0 | 0-1 mode (apply only: update, create, delete, move); 2-4 max_level (value % 5: exact … fold); 5 first_match; 6 already_applied_is_error; 7 ensure_final_newline |
/// | 1 | 0-1 diff (0 none, 1 full, 2-3 changes); 2-4 changes context; 5 refine; 6 Add File CRLF; 7 small search budget |
/// | 2 | small search budget: `1 + b²` line comparisons |
/// | 3 | max_fuzz: 0 none, 1-127 `b - 1`, 128-255 `(b - 128) * 50` |
pub fn decode_options(h: [u8; 4]) -> Options {
    Options {
        max_level: LEVELS[usize::from(h[0] >> 2 & 7) % 5],
        max_fuzz: match h[3] {
            0 => None,
            b @ 1..=127 => Some(u32::from(b - 1)),
            b => Some(u32::from(b - 128) * 50),
        },
        first_match: h[0] & 0x20 != 0,
        already_applied_is_error: h[0] & 0x40 != 0,
        ensure_final_newline: h[0] & 0x80 != 0,
        add_file_line_ending: if h[1] & 0x40 != 0 {
            LineEnding::CrLf
        } else {
            LineEnding::Lf
        },
        diff: match h[1] & 3 {
            0 => DiffStyle::None,
            1 => DiffStyle::Full,
            _ => DiffStyle::Changes {
                context: u32::from(h[1] >> 2 & 7),
            },
        },
        refine: h[1] & 0x20 != 0,
        refine_limits: RefineLimits::default(),
        search_budget: if h[1] & 0x80 != 0 {
            1 + u64::from(h[2]) * u64::from(h[2])
        } else {
            DEFAULT_BUDGET
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Text helpers (independent of the engine's own splitter)

/// The lines of a text after its BOM: `(content, terminator)`, split at LF, CRLF and lone CR;
/// a final terminator does not start another line.
fn lines(text: &str) -> Vec<(&str, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let b = text.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < b.len() {
        let eol = match b[i] {
            b'\n' => 1,
            b'\r' if b.get(i + 1) == Some(&b'\n') => 2,
            b'\r' => 1,
            _ => 0,
        };
        if eol > 0 {
            out.push((&text[start..i], &text[i..i + eol]));
            i += eol;
            start = i;
        } else {
            i += 1;
        }
    }
    if start < b.len() {
        out.push((&text[start..], ""));
    }
    out
}

fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        3
    } else {
        0
    }
}

// ---------------------------------------------------------------------------------------------
// Shared result and error checks

/// What kind of result an [`ApplyResult`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Update,
    Create,
    Delete,
}

/// Checks an error: a known, non-internal status, a message, and a correct offset for invalid
/// UTF-8 (`inputs` names the byte inputs of the call).
fn check_error(e: &Error, inputs: &[(&str, &[u8])]) {
    assert_ne!(e.status(), Status::Internal, "internal error: {e:?}");
    assert!(!e.message().is_empty(), "empty message: {e:?}");
    assert_eq!(Status::from_code(e.status().code()), Some(e.status()));
    let _ = e.to_string();
    let d = e.diagnostics();
    if e.status() == Status::InvalidUtf8 {
        let offset = d.byte_offset.expect("INVALID_UTF8 without a byte offset") as usize;
        let name = d
            .input
            .as_deref()
            .expect("INVALID_UTF8 without the input's name");
        if let Some((_, bytes)) = inputs.iter().find(|(n, _)| *n == name) {
            assert!(
                offset < bytes.len(),
                "offset {offset} past the {name}: {e:?}"
            );
            assert!(std::str::from_utf8(&bytes[..offset]).is_ok(), "{e:?}");
            assert!(std::str::from_utf8(&bytes[offset..]).is_err(), "{e:?}");
        }
    } else {
        assert!(
            d.byte_offset.is_none(),
            "byte offset outside INVALID_UTF8: {e:?}"
        );
    }
    if let Some(c) = &d.closest {
        assert!(c.start_line >= 1 && c.start_line <= c.end_line, "{e:?}");
        assert!((0.0..=1.0).contains(&c.similarity), "{e:?}");
    }
}

/// Checks every invariant of a successful result against the source it was given.
fn check_applied(a: &ApplyResult, source: &str, kind: Kind, opts: &Options) {
    // The original source comes back unchanged (empty for a created file).
    match kind {
        Kind::Create => assert_eq!(a.source, "", "create: the source must be empty"),
        _ => assert_eq!(
            a.source, source,
            "the result's source differs from the input"
        ),
    }
    if kind == Kind::Delete {
        assert_eq!(a.text, "", "delete: the text must be empty");
    }
    if kind == Kind::Update && source.starts_with('\u{feff}') {
        assert!(a.text.starts_with('\u{feff}'), "the BOM was lost");
    }
    if opts.ensure_final_newline && kind != Kind::Delete && !a.text.is_empty() {
        assert!(
            a.text.ends_with('\n') || a.text.ends_with('\r'),
            "ensure_final_newline, but the text ends without a terminator: {:?}",
            a.text
        );
    }

    // Hunk reports.
    let old = lines(&a.source);
    let new = lines(&a.text);
    let mut total = 0u32;
    for (i, h) in a.hunks.iter().enumerate() {
        total = total.saturating_add(h.fuzz);
        assert!(h.level <= opts.max_level, "hunk {i} above max_level: {h:?}");
        for l in &h.line_levels {
            assert!(
                *l <= h.level,
                "hunk {i}: a line level above the hunk's: {h:?}"
            );
        }
        if !opts.first_match {
            assert!(
                h.candidates <= 1,
                "hunk {i}: several candidates without first_match"
            );
        }
        if opts.already_applied_is_error {
            assert!(
                !h.already_applied,
                "already applied with already_applied_is_error"
            );
        }
        if !h.already_applied {
            assert!(h.old_start >= 1, "hunk {i}: old_start 0: {h:?}");
            let old_end = (h.old_start - 1) as usize + h.old_len as usize;
            assert!(
                old_end <= old.len(),
                "hunk {i}: old range past the source: {h:?}"
            );
            assert!(h.new_start >= 1, "hunk {i}: new_start 0: {h:?}");
            let new_end = (h.new_start - 1) as usize + h.new_len as usize;
            // An empty line added at the end of a text without a final newline only adds the
            // terminator: the report counts it, the text has no such line (documented in
            // report::structured_diff).
            let phantom = usize::from(a.text.is_empty() || a.text.ends_with(['\n', '\r']));
            assert!(
                new_end <= new.len() + phantom,
                "hunk {i}: new range past the text: {h:?}"
            );
        }
    }
    assert_eq!(
        a.fuzz, total,
        "the file's fuzz is not the sum of its hunks'"
    );
    if let Some(max) = opts.max_fuzz {
        assert!(a.fuzz <= max, "fuzz {} above max_fuzz {max}", a.fuzz);
    }

    // The edit script turns the old lines into the new ones (contents; terminators aside).
    // Two known gaps between the script and the text (FUZZING.md): a last line left empty
    // without a final newline vanishes from the text (a phantom line, as documented for added
    // lines), and in a file with lone-CR terminators a line ending in CR followed by an empty
    // LF line reads back as one CRLF line.
    let phantom = a.text.is_empty() || a.text.ends_with(['\n', '\r']);
    let mut new_contents: Vec<&str> = new.iter().map(|l| l.0).collect();
    if phantom {
        new_contents.push("");
    }
    let lone_cr = old.iter().any(|l| l.1 == "\r");
    let (mut oi, mut ni) = (0usize, 0usize);
    let mut rebuilt: Vec<&str> = Vec::new();
    for ch in &a.changes {
        let (co, cn) = (ch.old_lines(), ch.new_lines());
        let o = co.start.min(old.len())..co.end.min(old.len());
        let n = cn.start.min(new_contents.len())..cn.end.min(new_contents.len());
        assert!(
            o.start >= oi && n.start >= ni,
            "changes out of order: {:?}",
            a.changes
        );
        // A whole-file result (add, delete) has one change of hunk 1 and no hunk report.
        let hunks = a.hunks.len().max(1);
        assert!(
            ch.hunk >= 1 && ch.hunk <= hunks,
            "change of hunk {} of {}",
            ch.hunk,
            a.hunks.len()
        );
        rebuilt.extend(old[oi.min(o.start)..o.start].iter().map(|l| l.0));
        rebuilt.extend(new_contents[n.start.min(n.end)..n.end].iter().copied());
        oi = o.end;
        ni = n.end;
    }
    rebuilt.extend(old[oi.min(old.len())..].iter().map(|l| l.0));
    if phantom && rebuilt.len() == new.len() + 1 && rebuilt.last() == Some(&"") {
        rebuilt.pop();
    }
    new_contents.truncate(new.len());
    if !lone_cr {
        assert_eq!(
            rebuilt, new_contents,
            "the changes do not rebuild the new text"
        );
    }

    check_diff(a, opts, !lone_cr);
    let context = match opts.diff {
        DiffStyle::Changes { context } => context as usize,
        _ => 3,
    };
    let unified = a.unified_diff(context);
    if a.text == a.source {
        assert_eq!(unified, "", "a unified diff of no change");
    }
    // Unbounded context: one hunk holding every change.
    let whole = a.unified_diff(usize::MAX);
    let headers = whole.lines().filter(|l| l.starts_with("@@ -")).count();
    assert!(
        headers <= 1,
        "{headers} hunks with unbounded context:\n{whole}"
    );
}

/// The structured diff and its segments; `exact_lines`: its lines are the texts' lines (not
/// so after the CR + LF merge, see [`check_applied`]).
fn check_diff(a: &ApplyResult, opts: &Options, exact_lines: bool) {
    if opts.diff == DiffStyle::None {
        assert!(
            a.diff.is_empty() && a.segments.is_empty(),
            "a diff nobody asked for"
        );
        return;
    }
    let old = lines(&a.source);
    let mut new = lines(&a.text);
    let real_new = new.len();
    // The phantom empty last line (see check_applied): the diff may list it.
    if a.text.is_empty() || a.text.ends_with(['\n', '\r']) {
        new.push(("", ""));
    }
    let (old_off, new_off) = (bom_len(&a.source), bom_len(&a.text));
    let (mut last_old, mut last_new) = (0u32, 0u32);
    for d in &a.diff {
        if let Some(h) = d.hunk {
            assert!(h < a.hunks.len().max(1), "diff line of hunk {h}: {d:?}");
        }
        let base = if d.kind == DiffKind::Add {
            &a.text
        } else {
            &a.source
        };
        let text = base
            .get(d.text.clone())
            .expect("diff line range outside its text");
        assert!(
            !text.contains(['\n', '\r']),
            "a terminator inside a diff line: {d:?}"
        );
        match d.kind {
            DiffKind::Equal | DiffKind::Delete => {
                let o = d.old_line.expect("no old line") as usize;
                assert!(o > last_old as usize, "old lines out of order: {d:?}");
                last_old = o as u32;
                let span = old_off + line_start(&old, o - 1);
                assert_eq!(
                    d.text.start, span,
                    "diff text range is not the old line's: {d:?}"
                );
                assert_eq!(text, old[o - 1].0);
            }
            DiffKind::Add => assert!(d.old_line.is_none(), "an added line with an old line"),
        }
        match d.kind {
            DiffKind::Equal | DiffKind::Add => {
                let n = d.new_line.expect("no new line") as usize;
                assert!(n > last_new as usize, "new lines out of order: {d:?}");
                last_new = n as u32;
                if !exact_lines {
                    continue; // the line numbers of the new text are off
                }
                assert_eq!(
                    text,
                    new[n - 1].0,
                    "diff text differs from the new line: {d:?}"
                );
                if d.kind == DiffKind::Add && n <= real_new {
                    let span = new_off + line_start(&new, n - 1);
                    assert_eq!(d.text.start, span, "diff text range is not the new line's");
                }
            }
            DiffKind::Delete => assert!(d.new_line.is_none(), "a deleted line with a new line"),
        }
        if d.kind == DiffKind::Equal {
            let (o, n) = (d.old_line.unwrap() as usize, d.new_line.unwrap() as usize);
            // A kept line keeps its terminator (the last line's may be added or removed).
            if o < old.len() && n < real_new {
                assert_eq!(old[o - 1].1, new[n - 1].1, "terminator changed on {d:?}");
            }
        }
        // Segments: inside the line, on char boundaries, covering it in order.
        let segs = a
            .segments
            .get(d.segments.clone())
            .expect("segment range outside");
        if d.kind == DiffKind::Equal {
            assert!(segs.is_empty(), "segments on an equal line");
        }
        if !segs.is_empty() {
            let other = if d.kind == DiffKind::Add {
                DiffKind::Add
            } else {
                DiffKind::Delete
            };
            check_segments(text, segs, other);
        }
        if !opts.refine {
            assert!(segs.is_empty(), "segments without refine");
        }
    }
    if opts.diff == DiffStyle::Full && exact_lines {
        assert_eq!(
            last_old as usize,
            old.len(),
            "the full diff misses old lines"
        );
        let counted = a.diff.iter().filter(|d| d.kind != DiffKind::Add).count();
        assert_eq!(counted, old.len(), "the full diff skips old lines");
        // Every new line, and perhaps the phantom one.
        let counted = a.diff.iter().filter(|d| d.kind != DiffKind::Delete).count();
        assert!(
            last_new as usize == counted && (counted == real_new || counted == new.len()),
            "the full diff lists {counted} new lines up to {last_new}, the text has {real_new}"
        );
    }
}

/// Byte offset where line `i` starts, after the BOM.
fn line_start(l: &[(&str, &str)], i: usize) -> usize {
    l[..i].iter().map(|(c, e)| c.len() + e.len()).sum()
}

/// Segments of one line: contiguous from 0 to the end, non-empty, on grapheme boundaries,
/// alternating kinds, each `Equal` or `changed`.
fn check_segments(line: &str, segs: &[Segment], changed: DiffKind) {
    let bounds: Vec<usize> = line
        .grapheme_indices(true)
        .map(|(i, _)| i)
        .chain([line.len()])
        .collect();
    let mut at = 0;
    for (k, s) in segs.iter().enumerate() {
        assert_eq!(s.start, at, "gap or overlap in {segs:?} of {line:?}");
        assert!(
            s.end > s.start && s.end <= line.len(),
            "bad segment {s:?} of {line:?}"
        );
        assert!(
            bounds.binary_search(&s.start).is_ok() && bounds.binary_search(&s.end).is_ok(),
            "segment {s:?} splits a grapheme cluster of {line:?}"
        );
        assert!(
            s.kind == DiffKind::Equal || s.kind == changed,
            "kind {s:?} on {line:?}"
        );
        if k > 0 {
            assert_ne!(
                segs[k - 1].kind,
                s.kind,
                "adjacent segments of one kind: {segs:?}"
            );
        }
        at = s.end;
    }
    assert_eq!(at, line.len(), "segments {segs:?} do not cover {line:?}");
}

// ---------------------------------------------------------------------------------------------
// parse

/// `parse`: the whole input is patch text (lossily decoded).
///
/// * strict-accepted ⇒ lenient-accepted, with the same result;
/// * every error has a status, a message and a patch line within the text;
/// * a parsed patch is well formed (no empty hunk, no duplicate path, ...), and written back in
///   the canonical form it parses strictly to the same operations.
pub fn parse(data: &[u8]) {
    let text = lossy(data);
    let lenient = Patch::parse(&text);
    let strict = Patch::parse_strict(&text);
    let line_count = text.split('\n').count() as u32;
    for r in [&lenient, &strict] {
        if let Err(e) = r {
            check_error(e, &[]);
            if let Some(l) = e.diagnostics().patch_line {
                assert!(
                    l >= 1 && l <= line_count,
                    "patch line {l} of {line_count}: {e:?}"
                );
            }
        }
    }
    match (&strict, &lenient) {
        (Ok(s), Ok(l)) => assert_eq!(s, l, "strict and lenient parses differ"),
        (Ok(_), Err(e)) => panic!("strict parse accepts, lenient rejects: {e:?}"),
        _ => {}
    }
    let Ok(p) = lenient else { return };
    check_patch(&p, line_count);
    if let Some(canonical) = render_canonical(&p) {
        let again = if p.has_file_headers {
            Patch::parse_strict(&canonical)
        } else {
            Patch::parse(&canonical)
        };
        let again = again.unwrap_or_else(|e| {
            panic!("the canonical form does not parse: {e:?}\n{canonical}");
        });
        assert_eq!(
            without_lines(&again),
            without_lines(&p),
            "the canonical form parses differently:\n{canonical}"
        );
    }
}

fn check_patch(p: &Patch, line_count: u32) {
    // An empty envelope is a patch of no operations (make_patch writes one for equal texts).
    if !p.has_file_headers {
        assert!(p.ops.len() == 1 && p.ops[0].path.is_empty() && p.ops[0].kind == OpKind::Update);
    }
    let mut written = std::collections::HashSet::new();
    for op in &p.ops {
        assert!(op.patch_line >= 1 && op.patch_line <= line_count, "{op:?}");
        if p.has_file_headers {
            assert!(!op.path.trim().is_empty(), "an empty path: {op:?}");
            assert!(
                written.insert(op.path.as_str()),
                "duplicate path {:?}",
                op.path
            );
            if op.is_move() {
                assert!(
                    written.insert(op.target()),
                    "move onto a claimed path: {op:?}"
                );
            }
        }
        match op.kind {
            OpKind::Add => assert_eq!(op.hunks.len(), 1, "Add with {} hunks", op.hunks.len()),
            OpKind::Delete => assert!(op.hunks.is_empty()),
            OpKind::Update => assert!(!op.hunks.is_empty() || op.move_to.is_some(), "{op:?}"),
        }
        for h in &op.hunks {
            if op.kind == OpKind::Update {
                assert!(!h.lines.is_empty(), "an empty hunk: {h:?}");
            } else {
                assert!(
                    h.lines.iter().all(|l| l.kind == engine::LineKind::Add),
                    "{h:?}"
                );
            }
            assert!(h.patch_line >= 1 && h.patch_line <= line_count);
            for l in &h.lines {
                assert!(l.patch_line >= h.patch_line && l.patch_line <= line_count);
                assert!(!l.text.contains('\n'));
            }
            for a in &h.anchors {
                assert!(
                    !a.text.trim().is_empty() && a.text == a.text.trim_end(),
                    "{a:?}"
                );
            }
        }
    }
}

/// The patch with every patch line number set to 0.
fn without_lines(p: &Patch) -> Patch {
    let mut p = p.clone();
    for op in &mut p.ops {
        op.patch_line = 0;
        for h in &mut op.hunks {
            h.patch_line = 0;
            h.anchors.iter_mut().for_each(|a| a.patch_line = 0);
            h.lines.iter_mut().for_each(|l| l.patch_line = 0);
        }
    }
    p
}

/// The patch in the canonical form, or `None` when it holds text the canonical form cannot
/// carry (a carriage return, an anchor that reads as a unified hunk header).
fn render_canonical(p: &Patch) -> Option<String> {
    use engine::LineKind;
    let mut s = String::new();
    if p.has_file_headers {
        s.push_str("*** Begin Patch\n");
    }
    const NO_NL: &str = "\\ No newline at end of file\n";
    for op in &p.ops {
        match op.kind {
            OpKind::Add => {
                s.push_str(&format!("*** Add File: {}\n", op.path));
                let h = &op.hunks[0];
                for l in &h.lines {
                    s.push_str(&format!("+{}\n", l.text));
                }
                if h.new_no_newline {
                    s.push_str(NO_NL);
                }
                continue;
            }
            OpKind::Delete => {
                s.push_str(&format!("*** Delete File: {}\n", op.path));
                continue;
            }
            OpKind::Update => {}
        }
        if p.has_file_headers {
            s.push_str(&format!("*** Update File: {}\n", op.path));
        }
        if let Some(m) = &op.move_to {
            s.push_str(&format!("*** Move to: {m}\n"));
        }
        for h in &op.hunks {
            if h.anchors.is_empty() {
                s.push_str("@@\n");
            }
            for a in &h.anchors {
                let t = a.text.trim_start();
                let b = t.as_bytes();
                if t.starts_with("...")
                    || b.first() == Some(&b'-') && b.get(1).is_some_and(u8::is_ascii_digit)
                {
                    return None;
                }
                s.push_str(&format!("@@ {}\n", a.text));
            }
            let last_of = |k: LineKind| h.lines.iter().rposition(|l| l.kind == k);
            let (last_del, last_add) = (last_of(LineKind::Delete), last_of(LineKind::Add));
            let mut markers = Vec::new();
            match (h.old_no_newline, h.new_no_newline) {
                (true, true) if last_del.is_some() && last_add.is_some() => {
                    markers.extend(last_del);
                    markers.extend(last_add);
                }
                (true, true) => markers.extend(last_of(LineKind::Context)),
                (true, false) => markers.extend(last_del),
                (false, true) => markers.extend(last_add),
                (false, false) => {}
            }
            for (i, l) in h.lines.iter().enumerate() {
                let prefix = match l.kind {
                    LineKind::Context => ' ',
                    LineKind::Delete => '-',
                    LineKind::Add => '+',
                };
                s.push_str(&format!("{prefix}{}\n", l.text));
                if markers.contains(&i) {
                    s.push_str(NO_NL);
                }
            }
            if h.end_of_file {
                s.push_str("*** End of File\n");
            }
        }
    }
    if p.has_file_headers {
        s.push_str("*** End Patch\n");
    }
    (!s.contains('\r')).then_some(s)
}

// ---------------------------------------------------------------------------------------------
// apply

/// `apply`: a 4-byte header ([`decode_options`], with the mode in byte 0), then the source,
/// `0xFF`, and the patch (to the end of the input; both may be invalid UTF-8).
///
/// * no panic; errors are well formed ([`check_error`]);
/// * on success every invariant of [`check_applied`] holds: the source comes back unchanged,
///   hunk ranges lie inside the texts, the edit script and the structured diff rebuild the new
///   text, kept lines keep their terminators, refine segments lie inside their line, on
///   grapheme boundaries, and cover it;
/// * with a small search budget, an outcome other than `SEARCH_BUDGET` is the same with the
///   default budget; a success without first-match is the same success with first-match.
pub fn apply(data: &[u8]) {
    let (h, rest) = header::<4>(data);
    let (source, patch) = split_once(rest);
    let mode = Mode::ALL[usize::from(h[0] & 3)];
    let opts = decode_options(h);
    let r = apply_bytes(source, patch, mode, &opts);
    let kind = match mode {
        Mode::Create => Kind::Create,
        Mode::Delete => Kind::Delete,
        Mode::Update | Mode::Move => Kind::Update,
    };
    match &r {
        Ok(a) => {
            let src = std::str::from_utf8(source).unwrap_or("");
            check_applied(a, src, kind, &opts);
        }
        Err(e) => {
            check_error(e, &[("source", source), ("patch", patch)]);
            if opts.search_budget == DEFAULT_BUDGET {
                assert_ne!(
                    e.status(),
                    Status::SearchBudget,
                    "a small input exhausted the budget"
                );
            }
        }
    }
    let plain = Options {
        diff: DiffStyle::None,
        refine: false,
        ..opts.clone()
    };
    if opts.search_budget != DEFAULT_BUDGET
        && !matches!(&r, Err(e) if e.status() == Status::SearchBudget)
    {
        let again = apply_bytes(
            source,
            patch,
            mode,
            &Options {
                search_budget: DEFAULT_BUDGET,
                ..plain.clone()
            },
        );
        assert_eq!(
            outcome(&r),
            outcome(&again),
            "a larger search budget changed the outcome"
        );
    }
    if let (Ok(a), false) = (&r, opts.first_match) {
        let first = apply_bytes(
            source,
            patch,
            mode,
            &Options {
                first_match: true,
                ..plain
            },
        );
        match first {
            Ok(b) => assert_eq!(a.text, b.text, "first_match changed a unique result"),
            Err(e) => panic!("first_match fails where the unique search succeeded: {e:?}"),
        }
    }
}

/// The text of a success, or the status of a failure.
fn outcome(r: &Result<ApplyResult, Error>) -> Result<&str, Status> {
    match r {
        Ok(a) => Ok(&a.text),
        Err(e) => Err(e.status()),
    }
}

// ---------------------------------------------------------------------------------------------
// multi

/// Decodes a multi-file input: a 4-byte options header, then the patch text and the sources,
/// separated by `0xFF`. Source `k` belongs to the `k`-th operation that reads a file (Update or
/// Delete), in patch order; an operation without a source has none (`MISSING_SOURCE`).
fn decode_multi(data: &[u8]) -> (Options, String, Vec<&[u8]>) {
    let (h, rest) = header::<4>(data);
    let mut parts = rest.split(|&b| b == SEP);
    let patch = lossy(parts.next().unwrap_or_default());
    (decode_options(h), patch, parts.collect())
}

/// The source of each operation (by index) under the multi-file encoding.
fn sources_by_op<'a>(p: &Patch, sources: &[&'a [u8]]) -> Vec<Option<&'a [u8]>> {
    let mut k = 0;
    p.ops
        .iter()
        .map(|op| {
            if op.kind == OpKind::Add {
                return None;
            }
            k += 1;
            sources.get(k - 1).copied()
        })
        .collect()
}

/// `multi`: [`decode_multi`]. Applies the patch with `apply_patch_indexed` and `apply_patch`
/// (by path), which must agree; on success each file result is checked with
/// [`check_applied`] and equals applying its operation alone; on failure, the first operation
/// that fails alone fails with the same status (atomicity: one bad operation, one error).
pub fn multi(data: &[u8]) {
    let (opts, text, sources) = decode_multi(data);
    let Ok(patch) = Patch::parse(&text) else {
        return;
    };
    let by_op = sources_by_op(&patch, &sources);
    let indexed = apply_patch_indexed(&patch, |i, _| by_op[i], &opts);
    let by_path: BTreeMap<&str, &[u8]> = patch
        .ops
        .iter()
        .zip(&by_op)
        .filter_map(|(op, s)| s.map(|s| (op.path.as_str(), s)))
        .collect();
    let named = patch.apply(|p| by_path.get(p).copied(), &opts);
    match (&indexed, &named) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "apply_patch and apply_patch_indexed differ"),
        (Err(a), Err(b)) => assert_eq!(a.status(), b.status()),
        _ => panic!("apply_patch and apply_patch_indexed disagree: {indexed:?} / {named:?}"),
    }
    let alone = |i: usize| {
        let one = Patch {
            ops: vec![patch.ops[i].clone()],
            has_file_headers: patch.has_file_headers,
        };
        apply_patch_indexed(&one, |_, _| by_op[i], &opts)
    };
    match indexed {
        Ok(r) => {
            assert_eq!(r.files.len(), patch.ops.len());
            for (i, (f, op)) in r.files.iter().zip(&patch.ops).enumerate() {
                assert_eq!((f.kind, &f.path), (op.kind, &op.path));
                assert_eq!(f.target(), op.target());
                let src = by_op[i].map(|s| std::str::from_utf8(s).expect("applied non-UTF-8"));
                let kind = match op.kind {
                    OpKind::Add => Kind::Create,
                    OpKind::Delete => Kind::Delete,
                    OpKind::Update => Kind::Update,
                };
                check_applied(&f.applied, src.unwrap_or(""), kind, &opts);
                let single = alone(i).unwrap_or_else(|e| panic!("op {i} fails alone: {e:?}"));
                assert_eq!(&single.files[0], f, "op {i} gives another result alone");
            }
            let summary = r.summary();
            assert_eq!(summary.lines().count(), 1 + r.files.len());
        }
        Err(e) => {
            // An invalid source is named by its path: check the offset against that source.
            // (A bare diff's empty path is not named.)
            let path = e.diagnostics().path.as_deref().unwrap_or("");
            let i = patch.ops.iter().position(|op| op.path == path);
            let src = i.and_then(|i| by_op[i]).unwrap_or_default();
            check_error(&e, &[("source", src)]);
            let first = (0..patch.ops.len()).find_map(|i| alone(i).err());
            let first = first.unwrap_or_else(|| panic!("fails, but every op applies alone: {e:?}"));
            assert_eq!(first.status(), e.status(), "{first:?} / {e:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// refine

/// `refine`: a 1-byte header choosing the limits (bits 0-1: default, a cost cap of 2 000, a
/// 48-cluster line cap, or pairing by position past 2×2 lines), then the old and the new text
/// separated by `0xFF` (lossily decoded).
///
/// * `refine_pair` on the two texts: each side's segments cover it exactly, in order, on
///   grapheme boundaries, with alternating kinds, and the equal segments spell the same text on
///   both sides;
/// * `pair_lines` on their lines: pairs strictly increasing and in range; a block paired with
///   itself pairs every line with itself; every pair refines as above.
pub fn refine(data: &[u8]) {
    let (h, rest) = header::<1>(data);
    let (old, new) = split_once(rest);
    let (old, new) = (lossy(old), lossy(new));
    let defaults = RefineLimits::default();
    let limits = match h[0] & 3 {
        0 => defaults,
        1 => RefineLimits {
            max_cost: 2_000,
            ..defaults
        },
        2 => RefineLimits {
            max_graphemes: 48,
            ..defaults
        },
        _ => RefineLimits {
            max_pair_lines: 2,
            ..defaults
        },
    };
    check_pair(&old, &new, &limits);
    let dels: Vec<&str> = old.split('\n').collect();
    let adds: Vec<&str> = new.split('\n').collect();
    let pairs = pair_lines(&dels, &adds, &limits);
    for w in pairs.windows(2) {
        assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "pairs cross: {pairs:?}");
    }
    for &(d, a) in &pairs {
        assert!(
            d < dels.len() && a < adds.len(),
            "pair out of range: {pairs:?}"
        );
        check_pair(dels[d], adds[a], &limits);
    }
    let same = pair_lines(&dels, &dels, &limits);
    let diagonal: Vec<(usize, usize)> = (0..dels.len()).map(|i| (i, i)).collect();
    assert_eq!(same, diagonal, "a block paired with itself");
}

fn check_pair(old: &str, new: &str, limits: &RefineLimits) {
    let Some((ds, adds)) = refine_pair(old, new, limits) else {
        return;
    };
    check_segments(old, &ds, DiffKind::Delete);
    check_segments(new, &adds, DiffKind::Add);
    let equal = |line: &str, segs: &[Segment]| -> String {
        segs.iter()
            .filter(|s| s.kind == DiffKind::Equal)
            .map(|s| &line[s.start..s.end])
            .collect()
    };
    assert_eq!(equal(old, &ds), equal(new, &adds), "equal segments differ");
    if old == new {
        assert!(ds.iter().all(|s| s.kind == DiffKind::Equal), "{ds:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// make_patch

/// `make_patch`: a 1-byte header (bits 0-2: context lines; bits 3-4: `max_context` 50, 4, 0,
/// or both `usize::MAX`), then the old and the new text separated by `0xFF` (lossily decoded).
///
/// * a generated patch is canonical (strict parse) and applies to the old text, exactly (every
///   hunk at fuzz 0), giving the new text byte for byte; identical texts give an empty
///   envelope;
/// * `INVALID_ARGUMENT` only when the texts differ in a way a patch cannot express: a BOM added
///   or removed, or carriage returns in play; no other error.
pub fn make_patch_round_trip(data: &[u8]) {
    let (h, rest) = header::<1>(data);
    let (old, new) = split_once(rest);
    let (old, new) = (lossy(old), lossy(new));
    let context = usize::from(h[0] & 7);
    let gen = match h[0] >> 3 & 3 {
        0 => GenerateOptions {
            context,
            max_context: 50,
        },
        1 => GenerateOptions {
            context,
            max_context: 4,
        },
        2 => GenerateOptions {
            context,
            max_context: 0,
        },
        _ => GenerateOptions {
            context: usize::MAX,
            max_context: usize::MAX,
        },
    };
    match make_patch(&old, &new, "f", &gen) {
        Ok(p) => {
            if old == new {
                // Identical texts give an empty envelope (documented): an empty patch, which
                // the parser refuses (SPEC §2.3).
                assert_eq!(p, "*** Begin Patch\n*** End Patch\n");
                let e = Patch::parse_strict(&p).expect_err("an empty patch is an error");
                assert_eq!(e.status(), Status::PatchSyntax);
                return;
            }
            let parsed = Patch::parse_strict(&p)
                .unwrap_or_else(|e| panic!("generated patch is not canonical: {e:?}\n{p}"));
            assert_eq!(parsed.ops.len(), 1);
            let r = engine::apply(&old, &p, Mode::Update, &Options::default())
                .unwrap_or_else(|e| panic!("generated patch does not apply: {e:?}\n{p}"));
            assert_eq!(r.text, new, "generated patch gives another text:\n{p}");
            for h in &r.hunks {
                assert!(h.fuzz == 0 && !h.already_applied, "inexact hunk {h:?}\n{p}");
            }
        }
        Err(e) => match e.status() {
            Status::InvalidArgument => {
                let bom = |t: &str| t.starts_with('\u{feff}');
                assert!(
                    bom(&old) != bom(&new) || old.contains('\r') || new.contains('\r'),
                    "make_patch refuses an expressible change: {e:?}"
                );
            }
            _ => panic!("unexpected make_patch error: {e:?}"),
        },
    }
}

// ---------------------------------------------------------------------------------------------
// reverse

/// `reverse`: the multi-file encoding ([`decode_multi`]). When the patch applies, its reverse
/// is canonical and, applied to the files after the patch, gives back the files before it.
/// `INVALID_ARGUMENT` is accepted only when carriage returns or BOMs make the change
/// inexpressible; a patch that changes nothing has no reverse (an error saying why).
pub fn reverse_round_trip(data: &[u8]) {
    let (opts, text, sources) = decode_multi(data);
    let opts = Options {
        diff: DiffStyle::None,
        refine: false,
        ..opts
    };
    let Ok(patch) = Patch::parse(&text) else {
        return;
    };
    if !patch.has_file_headers {
        return;
    }
    let mut before: BTreeMap<String, String> = BTreeMap::new();
    for (op, s) in patch.ops.iter().zip(sources_by_op(&patch, &sources)) {
        if let Some(s) = s {
            before.insert(op.path.clone(), lossy(s));
        }
    }
    let Ok(forward) = patch.apply(|p| before.get(p), &opts) else {
        return;
    };
    let mut after = before.clone();
    for f in &forward.files {
        after.remove(&f.path);
        if f.kind != OpKind::Delete {
            after.insert(f.target().to_string(), f.applied.text.clone());
        }
    }
    let inexpressible = |t: &str| t.contains('\r') || t.contains('\u{feff}');
    // A patch that changes nothing has no reverse: an error that says why (ALREADY_APPLIED
    // when a hunk was already there), never an empty patch.
    let changes_nothing = forward
        .files
        .iter()
        .all(|f| f.kind == OpKind::Update && f.move_to.is_none() && !f.applied.changed());
    let undo = match patch.reverse(|p| before.get(p), &opts) {
        Ok(u) => {
            assert!(!changes_nothing, "an empty reverse:\n{u}");
            u
        }
        Err(e) if changes_nothing => {
            let already = forward
                .files
                .iter()
                .any(|f| f.applied.hunks.iter().any(|h| h.already_applied));
            let want = if already {
                Status::AlreadyApplied
            } else {
                Status::InvalidArgument
            };
            assert_eq!(
                e.status(),
                want,
                "a reverse of a patch that changes nothing: {e:?}"
            );
            return;
        }
        Err(e) => {
            let involved = forward
                .files
                .iter()
                .any(|f| inexpressible(&f.applied.text) || inexpressible(&f.applied.source));
            assert!(
                e.status() == Status::InvalidArgument && involved,
                "reverse fails: {e:?}"
            );
            return;
        }
    };
    // Canonical, unless a path holds a carriage return (no canonical form has one).
    let undo_patch = if undo.contains('\r') {
        Patch::parse(&undo)
    } else {
        Patch::parse_strict(&undo)
    };
    let undo_patch =
        undo_patch.unwrap_or_else(|e| panic!("reverse is not canonical: {e:?}\n{undo}"));
    let back = undo_patch
        .apply(|p| after.get(p), &Options::default())
        .unwrap_or_else(|e| panic!("the reverse does not apply: {e:?}\n{undo}"));
    let mut restored = after.clone();
    for f in &back.files {
        restored.remove(&f.path);
        if f.kind != OpKind::Delete {
            restored.insert(f.target().to_string(), f.applied.text.clone());
        }
    }
    // A deleted file comes back through "*** Add File", which writes LF line endings.
    let deleted_cr = forward
        .files
        .iter()
        .any(|f| f.kind == OpKind::Delete && f.applied.source.contains('\r'));
    if !deleted_cr {
        assert_eq!(
            restored, before,
            "patch then reverse is not the identity:\n{undo}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// ffi

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
            | c::V4A_HUNK_ANCHOR_IGNORED;
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
            o.diff_style = u32::from(h[13] % 4);
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
            let expect = if o.struct_size == size {
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
        assert_eq!(
            name == "UNKNOWN",
            Status::from_code(s).is_none(),
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

thread_local! {
    /// Set while [`run`] runs a check on this thread: its panics are caught and reported, so
    /// the panic hook stays quiet.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `check` on `data`, turning a panic into an `Err` with its message (the default panic
/// hook stays quiet for it; other threads' panics print as usual).
pub fn run(check: Check, data: &[u8]) -> Result<(), String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                default(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let r = panic::catch_unwind(AssertUnwindSafe(|| check(data)));
    QUIET.with(|q| q.set(false));
    r.map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".to_string())
    })
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
