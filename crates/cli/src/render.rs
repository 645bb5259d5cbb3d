//! Text output: the unified diff of a result, coloured with character-level highlights, and
//! the per-hunk report. Styles are written as ANSI escapes; the output stream drops them when
//! colour is off (not a terminal, `NO_COLOR`, `--color never`).

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io;

use anstyle::{AnsiColor, Style};
use v4a::{
    ApplyResult, DiffEntry, DiffKind, DiffStyle, FileResult, HunkReport, OpKind, PatchResult,
    RefineLimits, Segment,
};
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

/// The dry-run text: each file's diff, then where each hunk landed.
pub fn preview(w: &mut dyn io::Write, result: &PatchResult) -> io::Result<()> {
    let mut any = false;
    for f in &result.files {
        any |= file_diff(w, &f.applied)?;
    }
    let mut out = String::new();
    if any {
        out.push('\n');
    }
    out.push_str("Dry run: nothing was written. The patch applies:\n");
    report(&mut out, result);
    w.write_all(out.as_bytes())
}

/// What [`file_diff`] gathers before it writes: about one pipe's worth.
const CHUNK: usize = 1 << 16;

/// Writes the unified diff of one file to `w`, with colours and the changed characters of
/// each `-` and `+` line highlighted (refined with the default limits). Returns whether it
/// wrote anything (nothing when nothing changed).
///
/// The structured diff is streamed from the result's edit script
/// ([`ApplyResult::try_for_each_diff_line`]) in step with the unified diff's lines: neither
/// its rows nor their segments are held (those of a 50,000-line replacement are several times
/// its text). The output is gathered and written in chunks of whole lines.
pub fn file_diff(w: &mut dyn io::Write, a: &ApplyResult) -> io::Result<bool> {
    let text = a.unified_diff(CONTEXT as usize);
    let mut preview = Preview {
        // A path or a file line may hold terminal escapes: they are shown, not obeyed.
        lines: text
            .split_terminator('\n')
            .map(v4a_workspace::escape_message)
            .enumerate()
            .peekable(),
        waiting: Default::default(),
        out: String::new(),
        w,
    };
    for_each_diff_entry(a, |e| preview.entry(e))?;
    preview.drain(true);
    preview.flush()?;
    Ok(!text.is_empty())
}

/// The per-line diff the command shows — the changed lines with [`CONTEXT`] lines of context,
/// refined to characters with the default limits — entry by entry: the result's own rows when
/// the apply computed them ([`with_rows`]: the MCP server's dry run, which shows the diff
/// twice, as text and as JSON), else streamed from the edit script, holding none of it.
pub fn for_each_diff_entry<E>(
    a: &ApplyResult,
    mut f: impl FnMut(DiffEntry<'_>) -> Result<(), E>,
) -> Result<(), E> {
    if a.diff.is_empty() {
        let style = DiffStyle::Changes { context: CONTEXT };
        return a.try_for_each_diff_line(style, Some(&RefineLimits::default()), f);
    }
    a.diff.iter().try_for_each(|d| {
        f(DiffEntry {
            kind: d.kind,
            old_line: d.old_line,
            new_line: d.new_line,
            hunk: d.hunk,
            text: a.line_text(d),
            segments: a.line_segments(d),
        })
    })
}

/// The options of an apply whose diff is shown twice: the apply computes the rows that
/// [`for_each_diff_entry`] reads, instead of each reader refining the diff again.
pub fn with_rows(mut opts: v4a::Options) -> v4a::Options {
    opts.diff = DiffStyle::Changes { context: CONTEXT };
    opts.refine = true;
    opts.refine_limits = RefineLimits::default();
    opts
}

/// A deleted or added line of the structured diff that came before its line of the unified
/// diff could be written: its text and segments, copied.
type Waiting = VecDeque<(String, Vec<Segment>)>;

/// The walk of [`file_diff`]: the unified diff's lines (escaped, numbered), each `-` line
/// paired with the structured diff's next deleted line and each `+` line with its next added
/// line, as the two come.
struct Preview<'w, L: Iterator<Item = (usize, String)>> {
    lines: std::iter::Peekable<L>,
    /// The entries not yet paired, deleted (0) and added (1). The two diffs list the lines in
    /// the same order, so at most one waits; any order still pairs the n-th with the n-th.
    waiting: [Waiting; 2],
    out: String,
    w: &'w mut dyn io::Write,
}

impl<L: Iterator<Item = (usize, String)>> Preview<'_, L> {
    /// One entry of the structured diff: written with its line if that is next, else kept.
    fn entry(&mut self, e: DiffEntry<'_>) -> io::Result<()> {
        let Some(side) = side_of(e.kind) else {
            return Ok(());
        };
        self.drain(false);
        let next = self.lines.peek().and_then(|(i, l)| changed_side(*i, l));
        if next == Some(side) && self.waiting[side].is_empty() {
            if let Some((_, line)) = self.lines.next() {
                self.changed(&line, side, e.text, e.segments);
            }
        } else {
            self.waiting[side].push_back((e.text.to_owned(), e.segments.to_vec()));
        }
        if self.out.len() >= CHUNK {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the lines up to the next `-` or `+` line whose entry has not come yet; `end`: no
    /// more entries will come, so every line is written (a changed line without one shows no
    /// highlights).
    fn drain(&mut self, end: bool) {
        while let Some((i, line)) = self.lines.peek() {
            match changed_side(*i, line) {
                Some(side) if !self.waiting[side].is_empty() => {
                    let (text, segments) = self.waiting[side].pop_front().unwrap_or_default();
                    if let Some((_, line)) = self.lines.next() {
                        self.changed(&line, side, &text, &segments);
                    }
                }
                Some(_) if !end => return,
                Some(side) => {
                    if let Some((_, line)) = self.lines.next() {
                        self.changed(&line, side, "", &[]);
                    }
                }
                None => {
                    if let Some((i, line)) = self.lines.next() {
                        other_line(&mut self.out, i, &line);
                    }
                }
            }
        }
    }

    /// A `-` (side 0) or `+` (side 1) line with the text and segments of its entry, whose
    /// segments are used only when the texts agree.
    fn changed(&mut self, line: &str, side: usize, text: &str, segments: &[Segment]) {
        let body = line.get(1..).unwrap_or_default();
        let segments = if text == body { segments } else { &[] };
        let (prefix, style) = [("-", DELETED), ("+", ADDED)][side];
        changed_line(&mut self.out, prefix, body, segments, style);
        self.out.push('\n');
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.write_all(self.out.as_bytes())?;
        self.out.clear();
        Ok(())
    }
}

/// 0 for a deleted line, 1 for an added one, `None` for an equal one.
fn side_of(kind: DiffKind) -> Option<usize> {
    match kind {
        DiffKind::Delete => Some(0),
        DiffKind::Add => Some(1),
        _ => None,
    }
}

/// The side of the unified diff's line `i` if it is a `-` or `+` line (not the two headers).
fn changed_side(i: usize, line: &str) -> Option<usize> {
    match line.as_bytes().first() {
        _ if i < 2 => None,
        Some(b'-') => Some(0),
        Some(b'+') => Some(1),
        _ => None,
    }
}

/// A line of the unified diff that is neither `-` nor `+`: a header, a range, a note or
/// context.
fn other_line(out: &mut String, i: usize, line: &str) {
    match line.as_bytes().first() {
        _ if i < 2 => styled(out, HEADER, line),
        Some(b'@') => styled(out, RANGE, line),
        Some(b'\\') => styled(out, NOTE, line),
        _ => out.push_str(line),
    }
    out.push('\n');
}

/// A `-` or `+` line: in the line's colour, its changed segments inverted.
fn changed_line(out: &mut String, prefix: &str, body: &str, segments: &[Segment], style: Style) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The preview as it was written when the engine materialised the diff first
    /// (`Options::diff` and `refine`): each `-`/`+` line of the unified diff paired with the
    /// next deleted/added row.
    fn materialised(result: &PatchResult) -> Vec<u8> {
        let mut out = String::new();
        for f in &result.files {
            let mut a = f.applied.clone();
            let style = DiffStyle::Changes { context: CONTEXT };
            a.compute_diff_with(style, Some(&RefineLimits::default()));
            let mut rows = [DiffKind::Delete, DiffKind::Add]
                .map(|kind| a.diff.iter().filter(move |d| d.kind == kind));
            for (i, line) in a.unified_diff(CONTEXT as usize).lines().enumerate() {
                let line = v4a_workspace::escape_message(line);
                let Some(side) = changed_side(i, &line) else {
                    other_line(&mut out, i, &line);
                    continue;
                };
                let body = line.get(1..).unwrap_or_default();
                let segments = rows[side]
                    .next()
                    .filter(|d| a.line_text(d) == body)
                    .map(|d| a.line_segments(d))
                    .unwrap_or_default();
                let (prefix, style) = [("-", DELETED), ("+", ADDED)][side];
                changed_line(&mut out, prefix, body, segments, style);
                out.push('\n');
            }
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str("Dry run: nothing was written. The patch applies:\n");
        report(&mut out, result);
        out.into_bytes()
    }

    /// The fixture's streamed preview is byte for byte the materialised one, highlights and
    /// all.
    #[test]
    fn the_streamed_preview_is_the_materialised_one_byte_for_byte() {
        let (_dir, outcome) = crate::fixture::outcome();
        let mut streamed = Vec::new();
        preview(&mut streamed, &outcome.result).expect("preview");
        let text = String::from_utf8_lossy(&streamed);
        assert!(text.contains("\x1b[7m\x1b[32mg\x1b[0m"), "{text}");
        assert!(text.contains("say \\x1b[32mgreen"), "escapes shown: {text}");
        assert_eq!(
            text,
            String::from_utf8_lossy(&materialised(&outcome.result))
        );
    }
}
