//! Text output: the unified diff of a result, coloured with character-level highlights, and
//! the per-hunk report. Styles are written as ANSI escapes; the output stream drops them when
//! colour is off (not a terminal, `NO_COLOR`, `--color never`).

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use v4a::{ApplyResult, DiffKind, DiffLine, FileResult, HunkReport, OpKind, PatchResult, Segment};
use v4a_workspace::escape_path;

const HEADER: Style = Style::new().bold();
const RANGE: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Cyan)));
const DELETED: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)));
const ADDED: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)));
const NOTE: Style = Style::new().dimmed();
const WARN: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)));

/// Lines of context in the diffs the command prints: the engine's customary context.
pub const CONTEXT: u32 = v4a::DiffStyle::DEFAULT_CONTEXT;

/// Appends `text` in `style`.
fn styled(out: &mut String, style: Style, text: &str) {
    if text.is_empty() {
        return;
    }
    let _ = write!(out, "{style}{text}{style:#}");
}

/// The unified diff of one file, with colours and, where the result carries character-level
/// segments (`Options::refine` with a structured diff), the changed characters highlighted.
pub fn file_diff(out: &mut String, a: &ApplyResult) {
    let text = a.unified_diff(CONTEXT as usize);
    let mut deleted = a.diff.iter().filter(|d| d.kind == DiffKind::Delete);
    let mut added = a.diff.iter().filter(|d| d.kind == DiffKind::Add);
    for (i, raw) in text.split_terminator('\n').enumerate() {
        // A path or a file line may hold terminal escapes: they are shown, not obeyed.
        let escaped = v4a_workspace::escape_message(raw);
        let line = escaped.as_str();
        let body = line.get(1..).unwrap_or_default();
        match line.as_bytes().first() {
            _ if i < 2 => styled(out, HEADER, line),
            Some(b'@') => styled(out, RANGE, line),
            Some(b'-') => changed_line(out, a, "-", body, deleted.next(), DELETED),
            Some(b'+') => changed_line(out, a, "+", body, added.next(), ADDED),
            Some(b'\\') => styled(out, NOTE, line),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
}

/// A `-` or `+` line: in the line's colour, its changed segments inverted.
fn changed_line(
    out: &mut String,
    a: &ApplyResult,
    prefix: &str,
    body: &str,
    entry: Option<&DiffLine>,
    style: Style,
) {
    // The structured diff lists the same lines in the same order; use its segments only when
    // the texts agree.
    let segments = entry
        .filter(|d| a.line_text(d) == body)
        .map(|d| a.line_segments(d))
        .unwrap_or_default();
    let emphasis = style.invert();
    let mut pieces: Vec<(Style, &str)> = vec![(style, prefix)];
    let mut pos = 0;
    for seg in segments {
        let (Some(before), Some(piece)) = (body.get(pos..seg.start), body.get(seg.start..seg.end))
        else {
            break;
        };
        pieces.push((style, before));
        pieces.push((if highlighted(seg) { emphasis } else { style }, piece));
        pos = seg.end;
    }
    pieces.push((style, body.get(pos..).unwrap_or_default()));
    // One escape per change of style.
    let mut run = String::new();
    let mut current = style;
    for (st, text) in pieces.into_iter().filter(|(_, t)| !t.is_empty()) {
        if st != current {
            styled(out, current, &run);
            run.clear();
            current = st;
        }
        run.push_str(text);
    }
    styled(out, current, &run);
}

fn highlighted(seg: &Segment) -> bool {
    seg.kind != DiffKind::Equal
}

/// The per-file, per-hunk report: where each hunk landed, its level and fuzz, its flags.
pub fn report(out: &mut String, result: &PatchResult) {
    for f in &result.files {
        file_report(out, f);
    }
}

fn file_report(out: &mut String, f: &FileResult) {
    let a = &f.applied;
    let (removed, added) = a
        .changes
        .iter()
        .fold((0, 0), |(r, ad), c| (r + c.old_len, ad + c.new_len));
    match f.kind {
        OpKind::Add => {
            styled(out, ADDED, "A");
            let _ = writeln!(
                out,
                " {}: new file, {added} {}",
                escape_path(&f.path),
                plural(added, "line")
            );
        }
        OpKind::Delete => {
            styled(out, DELETED, "D");
            let _ = writeln!(
                out,
                " {}: deleted, {removed} {}",
                escape_path(&f.path),
                plural(removed, "line")
            );
        }
        OpKind::Update => {
            styled(out, WARN, "M");
            let _ = write!(out, " {}", escape_path(f.target()));
            if f.move_to.is_some() {
                let _ = write!(out, " (moved from {})", escape_path(&f.path));
            }
            let n = a.hunks.len();
            let _ = write!(out, ": {n} {}, +{added} -{removed}, ", plural(n, "hunk"));
            if a.fuzz == 0 {
                out.push_str("fuzz 0\n");
            } else {
                styled(out, WARN, &format!("fuzz {}", a.fuzz));
                out.push('\n');
            }
            for (i, h) in a.hunks.iter().enumerate() {
                hunk_report(out, i, h);
            }
        }
    }
}

fn hunk_report(out: &mut String, i: usize, h: &HunkReport) {
    let old = if h.old_len == 0 {
        if h.end_of_file {
            "at the end".to_string()
        } else {
            format!("before line {}", h.old_start)
        }
    } else {
        span(h.old_start, h.old_len)
    };
    let new = if h.new_len == 0 {
        "removed".to_string()
    } else {
        span(h.new_start, h.new_len)
    };
    let lines = if h.old_len == 1 { "line" } else { "lines" };
    let _ = write!(
        out,
        "  hunk {} (patch line {}): {lines} {old} -> {new}, ",
        i + 1,
        h.patch_line
    );
    if h.fuzz == 0 {
        out.push_str(h.level.name());
    } else {
        styled(out, WARN, &format!("{}, fuzz {}", h.level.name(), h.fuzz));
    }
    for (on, what) in [
        (h.reindented, "re-indented"),
        (h.already_applied, "already applied: nothing changed"),
        (h.end_of_file, "end of file"),
        (h.out_of_order, "out of order"),
        (h.anchor_ignored, "anchor ignored"),
        (h.context_relaxed, "context relaxed"),
    ] {
        if on {
            out.push_str(", ");
            styled(out, WARN, what);
        }
    }
    if h.candidates > 1 {
        let _ = write!(out, ", first of {} candidates", h.candidates);
    }
    out.push('\n');
}

fn span(start: u32, len: u32) -> String {
    if len == 1 {
        start.to_string()
    } else {
        format!("{start}-{}", start + len - 1)
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}
