//! The structured line diff, derived from the edit script: one walk over the changes that
//! emits every entry into a [`Sink`] — the rows of [`DiffLine`]s, or the columns of a
//! [`LineDiff`].

use std::ops::Range;

use super::columns::LineDiff;
use super::cursor::LineCursor;
use super::refine::{self, RefineLimits, Segment};
use super::unified::Run;
use super::{ApplyResult, DiffEntry, DiffKind, DiffLine};
use crate::options::DiffStyle;
use crate::text::{strip_bom, Lines};

/// Where the walk puts the entries of the diff.
pub(crate) trait Sink {
    /// The number of entries so far.
    fn len(&self) -> usize;
    /// Appends an entry: 1-based line numbers (0 for absent), the 0-based hunk, the text's
    /// byte range in the source (equal and delete) or the new text (add).
    fn push(
        &mut self,
        kind: DiffKind,
        old_line: u32,
        new_line: u32,
        hunk: Option<usize>,
        text: Range<usize>,
    );
    /// Appends a run of equal entries, all in hunk `hunk`: original line `first_old + j` is new
    /// line `first_new + j` (0-based) and its text is the `j`-th of `spans` (in the source).
    fn push_equal_run(
        &mut self,
        first_old: usize,
        first_new: usize,
        hunk: Option<usize>,
        spans: impl Iterator<Item = Range<usize>>,
    ) {
        for (j, span) in spans.enumerate() {
            let (o, n) = (number(first_old + j), number(first_new + j));
            self.push(DiffKind::Equal, o, n, hunk, span);
        }
    }
    /// Appends a run of `k` equal entries, all in hunk `hunk`, whose spans are the next `k`
    /// lines of `old` (the source's cursor, moved past them): original line `first_old + j`
    /// is new line `first_new + j`.
    fn push_equal_lines(
        &mut self,
        first_old: usize,
        first_new: usize,
        hunk: Option<usize>,
        old: &mut LineCursor<'_>,
        k: usize,
    ) {
        equal_lines(self, first_old, first_new, hunk, old, k);
    }
    /// Appends one equal entry for the `count` equal lines from original line `first_old`
    /// (new line `first_new`, 0-based), all in hunk `hunk`; `text` spans them all (the inner
    /// terminators included). Only [`DiffStyle::Runs`] calls it.
    fn push_run(
        &mut self,
        first_old: usize,
        first_new: usize,
        hunk: Option<usize>,
        count: usize,
        text: Range<usize>,
    ) {
        let _ = count;
        let (o, n) = (number(first_old), number(first_new));
        self.push(DiffKind::Equal, o, n, hunk, text);
    }
    /// Makes room for `n` more entries (the full diff's size is known before the walk).
    fn reserve(&mut self, n: usize);
    /// Gives entry `entry` (already pushed) its character-level segments.
    fn set_segments(&mut self, entry: usize, segments: &[Segment]);
    /// True for a sink that hands each entry on as it comes ([`Stream`]): the walk then pushes
    /// a refined change's entries with their segments ([`Sink::push_refined`]), in order,
    /// and never calls [`Sink::set_segments`].
    const STREAMS: bool = false;
    /// Appends a changed entry with its segments (empty: none).
    fn push_refined(&mut self, entry: Entry, segments: &[Segment]) {
        let i = self.len();
        let Entry(kind, old_line, new_line, hunk, text) = entry;
        self.push(kind, old_line, new_line, hunk, text);
        if !segments.is_empty() {
            self.set_segments(i, segments);
        }
    }
}

/// The fields of one entry as [`Sink::push`] takes them.
pub(crate) struct Entry(DiffKind, u32, u32, Option<usize>, Range<usize>);

/// [`Sink::push_equal_lines`] from the spans the cursor hands out, one line at a time: read
/// from the source's index, or scanned.
pub(crate) fn equal_lines<S: Sink + ?Sized>(
    sink: &mut S,
    first_old: usize,
    first_new: usize,
    hunk: Option<usize>,
    old: &mut LineCursor<'_>,
    k: usize,
) {
    match old.take_indexed(k) {
        Some(spans) => sink.push_equal_run(first_old, first_new, hunk, spans),
        None => {
            let spans = std::iter::from_fn(|| old.scan_next()).take(k);
            sink.push_equal_run(first_old, first_new, hunk, spans);
        }
    }
}

/// The rows of [`ApplyResult::diff`] and the segments they refer to.
#[derive(Default)]
pub(crate) struct Rows {
    pub(crate) diff: Vec<DiffLine>,
    pub(crate) segments: Vec<Segment>,
}

impl Sink for Rows {
    fn len(&self) -> usize {
        self.diff.len()
    }
    fn reserve(&mut self, n: usize) {
        self.diff.reserve(n);
    }
    fn push(
        &mut self,
        kind: DiffKind,
        old_line: u32,
        new_line: u32,
        hunk: Option<usize>,
        text: Range<usize>,
    ) {
        self.diff.push(DiffLine {
            kind,
            old_line: (old_line != 0).then_some(old_line),
            new_line: (new_line != 0).then_some(new_line),
            hunk: hunk.map(|h| u32::try_from(h.saturating_add(1)).unwrap_or(u32::MAX)),
            text,
            segments: 0..0,
        });
    }
    fn set_segments(&mut self, entry: usize, segments: &[Segment]) {
        let s0 = self.segments.len();
        self.segments.extend_from_slice(segments);
        if let Some(line) = self.diff.get_mut(entry) {
            line.segments = s0..self.segments.len();
        }
    }
}

/// A refined change block with at most this many pairs keeps its added lines' segments while
/// its deleted lines are written; a larger one refines each pair again for its added line
/// (the segments of a 50,000-line replacement are several times its text).
const KEPT_PAIRS: usize = 256;

/// A sink that lends each entry to a callback as it is made, and stops calling it after the
/// first error: [`ApplyResult::try_for_each_diff_line`].
pub(crate) struct Stream<'t, F, E> {
    pub(crate) source: &'t str,
    pub(crate) text: &'t str,
    pub(crate) f: F,
    pub(crate) len: usize,
    pub(crate) error: Option<E>,
}

impl<F, E> Sink for Stream<'_, F, E>
where
    F: FnMut(DiffEntry<'_>) -> Result<(), E>,
{
    const STREAMS: bool = true;
    fn len(&self) -> usize {
        self.len
    }
    fn reserve(&mut self, _: usize) {}
    fn push(
        &mut self,
        kind: DiffKind,
        old_line: u32,
        new_line: u32,
        hunk: Option<usize>,
        text: Range<usize>,
    ) {
        self.push_refined(Entry(kind, old_line, new_line, hunk, text), &[]);
    }
    fn set_segments(&mut self, _: usize, _: &[Segment]) {}
    fn push_refined(&mut self, entry: Entry, segments: &[Segment]) {
        self.len += 1;
        if self.error.is_some() {
            return;
        }
        let Entry(kind, old_line, new_line, hunk, text) = entry;
        let base = if kind == DiffKind::Add {
            self.text
        } else {
            self.source
        };
        let entry = DiffEntry {
            kind,
            old_line: (old_line != 0).then_some(old_line),
            new_line: (new_line != 0).then_some(new_line),
            hunk: hunk.map(|h| u32::try_from(h.saturating_add(1)).unwrap_or(u32::MAX)),
            text: base.get(text).unwrap_or_default(),
            segments,
        };
        if let Err(e) = (self.f)(entry) {
            self.error = Some(e);
        }
    }
}

/// A line number for the diff: 1-based, saturated at `u32::MAX`.
pub(crate) fn number(index: usize) -> u32 {
    u32::try_from(index.saturating_add(1)).unwrap_or(u32::MAX)
}

/// For each hunk, its original-line range; used to tag context lines with their hunk.
fn hunk_of_old_line(a: &ApplyResult) -> Vec<(usize, usize, usize)> {
    let mut v: Vec<(usize, usize, usize)> = a
        .hunks
        .iter()
        .enumerate()
        .filter(|(_, h)| !h.already_applied)
        .map(|(i, h)| {
            let s = (h.old_start as usize).saturating_sub(1);
            (s, s + h.old_len as usize, i)
        })
        .collect();
    v.sort();
    v
}

/// The state of one walk over the edit script: a cursor over each text (both are read front
/// to back, so neither is split into an index), the next old and new line after the changes
/// seen so far, and where the entries go.
struct Walk<'a, S: Sink> {
    a: &'a ApplyResult<'a>,
    /// The original text (`a.source`, or the same text the caller still holds).
    source: &'a str,
    old: LineCursor<'a>,
    new: LineCursor<'a>,
    /// The hunks' original-line ranges, sorted, and the first one not yet passed.
    ranges: Vec<(usize, usize, usize)>,
    ri: usize,
    /// `Some(c)`: only the changes with `c` equal lines around them.
    context: Option<usize>,
    /// Each run of equal lines as one entry ([`DiffStyle::Runs`]).
    runs: bool,
    refine: Option<&'a RefineLimits>,
    sink: &'a mut S,
    oi: usize,
    ni: usize,
}

impl<'a, S: Sink> Walk<'a, S> {
    /// `source` is the original text; `lines`, when given, its line index (of the text after
    /// the BOM), read instead of scanning the source.
    fn new(
        a: &'a ApplyResult<'a>,
        source: &'a str,
        lines: Option<&'a Lines<'_>>,
        style: DiffStyle,
        refine: Option<&'a RefineLimits>,
        sink: &'a mut S,
    ) -> Self {
        let context = match style {
            DiffStyle::Changes { context } => Some(context as usize),
            _ => None,
        };
        let (_, src) = strip_bom(source);
        let (_, new) = strip_bom(&a.text);
        let base = source.len() - src.len();
        Walk {
            a,
            source,
            old: match (lines, a.known.of(&a.source)) {
                (Some(lines), _) => LineCursor::indexed(src, base, lines),
                // What the apply learnt of this very source (still borrowed: unchanged).
                (None, Some(starts)) if std::ptr::eq(source, &*a.source) => {
                    LineCursor::known_lf(src, base, starts)
                }
                (None, _) => LineCursor::new(src, base),
            },
            // Moved over the equal lines by comparing them with the source's, and counted
            // only from the first change on.
            new: LineCursor::lazy(new, a.text.len() - new.len()),
            ranges: hunk_of_old_line(a),
            ri: 0,
            context,
            runs: style == DiffStyle::Runs,
            refine,
            sink,
            oi: 0,
            ni: 0,
        }
    }

    /// The hunk whose original lines hold line `i` (for increasing `i`), and the line where
    /// that answer next changes.
    fn hunk_run(&mut self, i: usize) -> (Option<usize>, usize) {
        while self.ri < self.ranges.len() && self.ranges[self.ri].1 <= i {
            self.ri += 1;
        }
        match self.ranges.get(self.ri) {
            None => (None, usize::MAX),
            Some(r) if r.0 <= i => (Some(r.2), r.1),
            Some(r) => (None, r.0),
        }
    }

    /// Emits the `count` original lines from `o` as equal to the new lines from `n`, in runs
    /// of lines of the same hunk.
    fn equal_run(&mut self, o: usize, n: usize, count: usize) {
        let (mut o, mut n, end) = (o, n, o.saturating_add(count));
        self.old.seek(o);
        while o < end {
            let (hunk, until) = self.hunk_run(o);
            let k = until.min(end) - o;
            if self.runs {
                self.push_runs(o, n, hunk, k);
            } else {
                self.sink.push_equal_lines(o, n, hunk, &mut self.old, k);
            }
            o += k;
            n += k;
        }
    }

    /// The `k` equal lines from `o` (new line `n`), all in hunk `hunk`, as runs: one entry,
    /// or one per `u32::MAX` lines (the most a count holds).
    fn push_runs(&mut self, o: usize, n: usize, hunk: Option<usize>, k: usize) {
        let mut done = 0;
        while done < k {
            let count = (k - done).min(u32::MAX as usize);
            match self.old.take_run(count) {
                Some(span) => {
                    let count = count.min(self.old.len().saturating_sub(o + done));
                    self.sink.push_run(o + done, n + done, hunk, count, span);
                }
                None => return,
            }
            done += count;
        }
    }

    /// The `gap` equal lines before change `ci`: all of them, or the `c` after the previous
    /// change and the `c` before this one. Moves the new text's cursor over them too.
    fn gap(&mut self, ci: usize, gap: usize) {
        let (oi, ni) = (self.oi, self.ni);
        self.old.seek(oi);
        let from = self.old.pos();
        let (head, tail) = match self.context {
            None => (0..gap, gap..gap),
            Some(c) => {
                let head = if ci > 0 { 0..c.min(gap) } else { 0..0 };
                let tail = gap.saturating_sub(c).max(head.end)..gap;
                (head, tail)
            }
        };
        for shown in [head, tail] {
            self.equal_run(oi + shown.start, ni + shown.start, shown.len());
        }
        self.old.seek(oi + gap);
        self.new.seek(ni);
        self.new.skip_same(gap, self.old.since(from));
    }

    /// The deleted and added lines of one change, then their refinement.
    fn change(&mut self, ch: &Run, hunk: usize) {
        let first_del = self.sink.len();
        let mut spans: (Vec<Range<usize>>, Vec<Range<usize>>) = Default::default();
        let keep = self.refine.is_some() && !ch.old.is_empty() && !ch.new.is_empty();
        for k in ch.old.clone() {
            if let Some(span) = self.old.span(k) {
                if keep {
                    spans.0.push(span.clone());
                }
                self.sink
                    .push(DiffKind::Delete, number(k), 0, Some(hunk), span);
            }
        }
        let first_add = self.sink.len();
        for k in ch.new.clone() {
            if let Some(span) = self.new.span(k) {
                if keep {
                    spans.1.push(span.clone());
                }
                self.sink
                    .push(DiffKind::Add, 0, number(k), Some(hunk), span);
            }
        }
        if let (Some(limits), true) = (self.refine, keep) {
            let (a, source, sink) = (self.a, self.source, &mut *self.sink);
            let text = |t: &'a str, r: &Range<usize>| t.get(r.clone()).unwrap_or_default();
            let dels: Vec<&str> = spans.0.iter().map(|r| text(source, r)).collect();
            let adds: Vec<&str> = spans.1.iter().map(|r| text(&a.text, r)).collect();
            // Pair by pair, as `refine_lines` does, but each pair's segments go straight to
            // the sink: a block's segments are never held twice.
            for (d, n) in refine::pair_lines(&dels, &adds, limits) {
                if let Some((old, new)) = refine::refine_pair(dels[d], adds[n], limits) {
                    sink.set_segments(first_del + d, &old);
                    sink.set_segments(first_add + n, &new);
                }
            }
        }
    }

    /// [`Walk::change`] for a streaming sink: a refined change's deleted lines, each with its
    /// segments, then its added lines, each with its segments. Only the block's lines and
    /// pairs are held, never its segments: a pair is refined again for its added line when
    /// the block has more than [`KEPT_PAIRS`] pairs (the deleted lines are written first).
    fn change_streamed(&mut self, ch: &Run, hunk: usize) {
        let refine = self
            .refine
            .filter(|_| !ch.old.is_empty() && !ch.new.is_empty());
        let Some(limits) = refine else {
            return self.change(ch, hunk);
        };
        let (a, source) = (self.a, self.source);
        let text = |t: &'a str, r: Range<usize>| t.get(r).unwrap_or_default();
        // The spans are those of a prefix of the run's lines (none past the text's end).
        let mut dels: (Vec<Range<usize>>, Vec<&str>) = Default::default();
        for k in ch.old.clone() {
            if let Some(span) = self.old.span(k) {
                dels.1.push(text(source, span.clone()));
                dels.0.push(span);
            }
        }
        // The spans are those of a prefix of the run's lines (none past the text's end).
        let mut adds: (Vec<Range<usize>>, Vec<&str>) = Default::default();
        for k in ch.new.clone() {
            if let Some(span) = self.new.span(k) {
                adds.1.push(text(&a.text, span.clone()));
                adds.0.push(span);
            }
        }
        let pairs = refine::pair_lines(&dels.1, &adds.1, limits);
        let keep = pairs.len() <= KEPT_PAIRS;
        let mut kept: Vec<Option<Vec<Segment>>> = Vec::new();
        let mut next = pairs.iter().peekable();
        for (d, span) in dels.0.into_iter().enumerate() {
            let mut segments = Vec::new();
            if let Some(&(_, n)) = next.next_if(|p| p.0 == d) {
                let refined = refine::refine_pair(dels.1[d], adds.1[n], limits);
                let (old, new) = refined.map_or((Vec::new(), None), |(o, n)| (o, Some(n)));
                segments = old;
                if keep {
                    kept.push(new);
                }
            }
            let entry = Entry(
                DiffKind::Delete,
                number(ch.old.start + d),
                0,
                Some(hunk),
                span,
            );
            self.sink.push_refined(entry, &segments);
        }
        let mut next = pairs.iter().enumerate().peekable();
        for (n, span) in adds.0.into_iter().enumerate() {
            let mut segments = Vec::new();
            if let Some((i, &(d, _))) = next.next_if(|p| p.1 .1 == n) {
                segments = match kept.get_mut(i) {
                    Some(new) => new.take().unwrap_or_default(),
                    None => refine::refine_pair(dels.1[d], adds.1[n], limits)
                        .map(|(_, new)| new)
                        .unwrap_or_default(),
                };
            }
            let entry = Entry(DiffKind::Add, 0, number(ch.new.start + n), Some(hunk), span);
            self.sink.push_refined(entry, &segments);
        }
    }

    /// Every change with the equal lines before it, then the equal lines after the last.
    fn run(&mut self) {
        let old_len = self.old.len();
        let changes = &self.a.changes;
        if self.context.is_none() {
            // Every old line once, plus the added lines; as runs, every changed line and a
            // run of equal lines (or two, in and out of a hunk) on each side of each change.
            // (No more added lines than the new text has bytes, plus one.)
            let added = changes.iter().map(|c| c.new_len).sum::<usize>();
            let added = added.min(self.a.text.len().saturating_add(1));
            let n = if self.runs {
                let deleted = changes.iter().map(|c| c.old_len).sum::<usize>();
                deleted.min(old_len) + added + 2 * changes.len() + 2
            } else {
                old_len + added
            };
            self.sink.reserve(n);
        }
        for (ci, change) in changes.iter().enumerate() {
            // An empty line added at the very end of a text without a final newline is not
            // a line. The old side's clamp places the gap; the new text is counted once the
            // cursor is past the first gap (the lines before it are the cursor's index).
            let old = Run::clamped(change, old_len, 0).old;
            self.gap(ci, old.start.saturating_sub(self.oi));
            let ch = Run::clamped(change, old_len, self.new.count_lines());
            if S::STREAMS {
                self.change_streamed(&ch, change.hunk_index());
            } else {
                self.change(&ch, change.hunk_index());
            }
            self.oi = self.oi.max(ch.old.end);
            self.ni = self.ni.max(ch.new.end);
        }
        let tail = old_len.saturating_sub(self.oi);
        let show_tail = match self.context {
            None => tail,
            Some(c) if !changes.is_empty() => c.min(tail),
            Some(_) => 0,
        };
        self.equal_run(self.oi, self.ni, show_tail);
    }
}

/// Walks the edit script of `a` and emits the structured diff in `style` into `sink`, with
/// the segments of paired changed lines when `refine` gives the limits.
pub(crate) fn walk(
    a: &ApplyResult,
    style: DiffStyle,
    refine: Option<&RefineLimits>,
    sink: &mut impl Sink,
) {
    if style != DiffStyle::None {
        Walk::new(a, &a.source, None, style, refine, sink).run();
    }
}

/// [`walk`] with the source's line index still held by the caller (the apply's split of the
/// source, after its BOM): the walk reads each original line from it instead of scanning
/// `source` again. `source` is the text `a` was applied to (`a.source`, which may still be
/// empty), `lines` the split of `strip_bom(source).1`.
pub(crate) fn walk_indexed(
    a: &ApplyResult,
    source: &str,
    lines: &Lines<'_>,
    style: DiffStyle,
    refine: Option<&RefineLimits>,
    sink: &mut impl Sink,
) {
    if style != DiffStyle::None {
        Walk::new(a, source, Some(lines), style.rows(), refine, sink).run();
    }
}

/// The structured diff of `a` as rows.
pub(crate) fn rows(a: &ApplyResult, style: DiffStyle, refine: Option<&RefineLimits>) -> Rows {
    let mut rows = Rows::default();
    walk(a, style.rows(), refine, &mut rows);
    rows
}

/// The structured diff of `a` as columns.
pub(crate) fn columns(
    a: &ApplyResult,
    style: DiffStyle,
    refine: Option<&RefineLimits>,
) -> LineDiff {
    let mut columns = LineDiff::default();
    walk(a, style, refine, &mut columns);
    columns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::Change;
    use crate::report::{HunkReport, KnownLines};
    use crate::Level;
    use proptest::prelude::*;
    use std::borrow::Cow;

    #[test]
    fn what_the_apply_knows_of_the_source_gives_the_scanned_diff() {
        // Sources of every kind (LF, CRLF, lone CR, no final newline, a BOM, one line, long
        // lines across the 64-byte blocks) and hunks at the start, the middle, the end, next
        // to each other and of pure additions: the diff read with what the apply learnt of
        // the source equals the one scanned from scratch, in every style.
        let line = |i: usize| format!("line {i} {}", "x".repeat(i * 7 % 90));
        let mut sources = Vec::new();
        for n in [1usize, 2, 3, 8, 40] {
            let lf: String = (0..n).map(|i| line(i) + "\n").collect();
            sources.push(lf.clone());
            sources.push(lf.trim_end_matches('\n').to_string());
            sources.push(format!("\u{feff}{lf}"));
            sources.push(lf.replace('\n', "\r\n"));
            sources.push(lf.replacen('\n', "\r", 1));
        }
        sources.push(String::new());
        let mut patches = Vec::new();
        for at in [0usize, 1, 2, 5, 20, 39] {
            patches.push(format!("@@\n-{}\n+changed\n", line(at)));
            patches.push(format!("@@\n {}\n+added\n", line(at)));
            patches.push(format!("@@\n+before\n {}\n", line(at)));
            patches.push(format!(
                "@@\n {}\n-{}\n@@\n-{}\n+x\n+y\n",
                line(at),
                line(at + 1),
                line(at + 2)
            ));
            patches.push(format!("@@\n-{}\n@@\n {}\n+z\n", line(at), line(at + 9)));
        }
        let limits = RefineLimits::default();
        let mut carried = 0;
        for source in &sources {
            for patch in &patches {
                let opts = crate::Options::default();
                let Ok(a) = crate::apply(source, patch, crate::Mode::Update, &opts) else {
                    continue;
                };
                let known = a.known.of(&a.source).is_some();
                carried += usize::from(known);
                assert!(!known || !strip_bom(source).1.contains('\r'), "{source:?}");
                let mut scanned = a.clone();
                scanned.known = KnownLines::default();
                for style in [
                    DiffStyle::Runs,
                    DiffStyle::Full,
                    DiffStyle::Changes { context: 0 },
                    DiffStyle::Changes { context: 2 },
                ] {
                    for refine in [None, Some(&limits)] {
                        let (got, want) =
                            (columns(&a, style, refine), columns(&scanned, style, refine));
                        assert_eq!(got, want, "{source:?} {patch:?} {style:?}");
                        let (got, want) = (rows(&a, style, refine), rows(&scanned, style, refine));
                        assert_eq!(got.diff, want.diff, "{source:?} {patch:?} {style:?}");
                        assert_eq!(got.segments, want.segments);
                    }
                }
            }
        }
        // The raw path answered, and left its knowledge, for most of them.
        assert!(carried >= 50, "{carried}");
        // A source replaced in the result (owned, or another text) is scanned.
        let source = "a\nb\nc\n".to_string();
        let mut a = crate::apply(
            &source,
            "@@\n-b\n+B\n",
            crate::Mode::Update,
            &Default::default(),
        )
        .unwrap();
        assert!(a.known.of(&a.source).is_some());
        let other = "a\nb\r\nq\nc\n".to_string();
        a.source = Cow::Borrowed(&other);
        assert!(a.known.of(&a.source).is_none());
        a.source = Cow::Owned(source.clone());
        assert!(a.known.of(&a.source).is_none());
    }

    /// The walk as it was before the cursors: both texts split into a line index first. The
    /// reference the cursors must match entry for entry.
    #[allow(clippy::too_many_lines)]
    fn reference_walk(
        a: &ApplyResult,
        style: DiffStyle,
        refine: Option<&RefineLimits>,
        sink: &mut impl Sink,
    ) {
        if style == DiffStyle::None {
            return;
        }
        let (_, src) = strip_bom(&a.source);
        let (_, text) = strip_bom(&a.text);
        let (old, old_off) = (Lines::split(src), a.source.len() - src.len());
        let (new, new_off) = (Lines::split(text), a.text.len() - text.len());
        let ranges = hunk_of_old_line(a);
        let context = match style {
            DiffStyle::Changes { context } => Some(context as usize),
            _ => None,
        };
        let mut ri = 0usize;
        let mut hunk_at = |i: usize| -> Option<usize> {
            while ri < ranges.len() && ranges[ri].1 <= i {
                ri += 1;
            }
            ranges.get(ri).filter(|r| r.0 <= i && i < r.1).map(|r| r.2)
        };
        let span = |l: &Lines<'_>, off: usize, i: usize| {
            let s = l.span(i);
            off + s.start..off + s.end
        };
        let (mut oi, mut ni) = (0usize, 0usize);
        let changes = &a.changes;
        if context.is_none() {
            // Every old line once, plus the added lines.
            sink.reserve(
                old.len()
                    + changes
                        .iter()
                        .map(|c| c.new_len)
                        .sum::<usize>()
                        .min(new.len()),
            );
        }
        for (ci, change) in changes.iter().enumerate() {
            // An empty line added at the very end of a text without a final newline is not a line.
            let ch = Run::clamped(change, old.len(), new.len());
            let hunk = change.hunk_index();
            // Equal lines before this change: all of them, or the `c` after the previous change
            // and the `c` before this one.
            let gap = ch.old.start.saturating_sub(oi);
            for k in 0..gap {
                let show = match context {
                    None => true,
                    Some(c) => (ci > 0 && k < c) || k + c >= gap,
                };
                if show {
                    let (o, n) = (oi + k, ni + k);
                    sink.push(
                        DiffKind::Equal,
                        number(o),
                        number(n),
                        hunk_at(o),
                        span(&old, old_off, o),
                    );
                }
            }
            let first_del = sink.len();
            for k in ch.old.clone() {
                sink.push(
                    DiffKind::Delete,
                    number(k),
                    0,
                    Some(hunk),
                    span(&old, old_off, k),
                );
            }
            let first_add = sink.len();
            for k in ch.new.clone() {
                sink.push(
                    DiffKind::Add,
                    0,
                    number(k),
                    Some(hunk),
                    span(&new, new_off, k),
                );
            }
            if let Some(limits) = refine {
                if !ch.old.is_empty() && !ch.new.is_empty() {
                    let dels: Vec<&str> = ch.old.clone().map(|k| old.get(k)).collect();
                    let adds: Vec<&str> = ch.new.clone().map(|k| new.get(k)).collect();
                    let refined = refine::refine_lines(&dels, &adds, limits);
                    for pair in &refined.pairs {
                        sink.set_segments(first_del + pair.deleted, refined.deleted_segments(pair));
                        sink.set_segments(first_add + pair.added, refined.added_segments(pair));
                    }
                }
            }
            oi = oi.max(ch.old.end);
            ni = ni.max(ch.new.end);
        }
        let tail = old.len().saturating_sub(oi);
        let show_tail = match context {
            None => tail,
            Some(c) if !changes.is_empty() => c.min(tail),
            Some(_) => 0,
        };
        for k in 0..show_tail {
            let (o, n) = (oi + k, ni + k);
            sink.push(
                DiffKind::Equal,
                number(o),
                number(n),
                hunk_at(o),
                span(&old, old_off, o),
            );
        }
    }

    /// The columns as rows (`DiffLine`s), to compare them with the rows' walk.
    fn as_rows(c: &LineDiff) -> Vec<DiffLine> {
        (0..c.len())
            .map(|i| {
                let (s, n) = (c.segment_starts[i] as usize, c.segment_counts[i] as usize);
                DiffLine {
                    kind: c.kinds[i],
                    old_line: (c.old_lines[i] != 0).then_some(c.old_lines[i]),
                    new_line: (c.new_lines[i] != 0).then_some(c.new_lines[i]),
                    hunk: (c.hunks[i] != 0).then_some(c.hunks[i]),
                    text: c.starts[i]..c.ends[i],
                    segments: if n == 0 { 0..0 } else { s..s + n },
                }
            })
            .collect()
    }

    /// An entry's fields, its text and its segments, owned.
    type Owned = (
        DiffKind,
        Option<u32>,
        Option<u32>,
        Option<u32>,
        String,
        Vec<Segment>,
    );

    /// The entries [`ApplyResult::try_for_each_diff_line`] hands out.
    fn streamed(a: &ApplyResult, style: DiffStyle, refine: Option<&RefineLimits>) -> Vec<Owned> {
        let mut got = Vec::new();
        let r = a.try_for_each_diff_line(style, refine, |e| {
            let text = e.text.to_string();
            got.push((
                e.kind,
                e.old_line,
                e.new_line,
                e.hunk,
                text,
                e.segments.to_vec(),
            ));
            Ok::<(), ()>(())
        });
        assert_eq!(r, Ok(()));
        got
    }

    /// The rows' entries, with their texts (in `a`) and segments (in `rows`).
    fn as_entries(a: &ApplyResult, rows: &Rows) -> Vec<Owned> {
        let segments = |d: &DiffLine| rows.segments.get(d.segments.clone()).unwrap_or_default();
        rows.diff
            .iter()
            .map(|d| {
                let text = a.line_text(d).to_string();
                (
                    d.kind,
                    d.old_line,
                    d.new_line,
                    d.hunk,
                    text,
                    segments(d).to_vec(),
                )
            })
            .collect()
    }

    /// A block of more pairs than [`KEPT_PAIRS`] (each pair refined again for its added
    /// line), one of fewer, an unrefined one, and a callback's error.
    #[test]
    fn a_streamed_diff_has_the_rows_entries() {
        let limits = RefineLimits::default();
        for n in [3usize, 300, 1000] {
            let old: String = (0..n).map(|i| format!("let v{i} = f({i});\n")).collect();
            let new: String = (0..n).map(|i| format!("let v{i} = g({i});\n")).collect();
            let patch = format!(
                "@@\n{}{}",
                old.lines().map(|l| format!("-{l}\n")).collect::<String>(),
                new.lines().map(|l| format!("+{l}\n")).collect::<String>()
            );
            let opts = crate::Options::default();
            let a = crate::apply(&old, &patch, crate::Mode::Update, &opts).unwrap();
            for style in [DiffStyle::Full, DiffStyle::Changes { context: 3 }] {
                for refine in [None, Some(&limits)] {
                    let want = rows(&a, style, refine);
                    let got = streamed(&a, style, refine);
                    assert_eq!(got, as_entries(&a, &want));
                    assert!(refine.is_none() || got.iter().any(|e| !e.5.is_empty()));
                }
            }
            let mut calls = 0;
            let r = a.try_for_each_diff_line(DiffStyle::Full, Some(&limits), |_| {
                calls += 1;
                if calls == 2 {
                    Err("stop")
                } else {
                    Ok(())
                }
            });
            assert_eq!((r, calls), (Err("stop"), 2));
        }
    }

    fn text_of(lines: &[(usize, usize)], bom: bool) -> String {
        const LONG: &str = "a line longer than one 64-byte block of the cursor's scan, é and all";
        const CONTENT: [&str; 6] = ["", "a", "bb", "é c", "a", LONG];
        const EOL: [&str; 4] = ["\n", "\r\n", "\r", ""];
        let mut t = String::from(if bom { "\u{feff}" } else { "" });
        for &(c, e) in lines {
            t.push_str(CONTENT[c]);
            t.push_str(EOL[e]);
        }
        t
    }

    fn hunk(old_start: u32, old_len: u32, already_applied: bool) -> HunkReport {
        HunkReport {
            old_start,
            old_len,
            new_start: 1,
            new_len: 1,
            level: Level::Exact,
            line_levels: Vec::new(),
            fuzz: 0,
            candidates: 1,
            reindented: false,
            already_applied,
            end_of_file: false,
            out_of_order: false,
            merged: false,
            anchor_ignored: false,
            context_relaxed: false,
            patch_line: 1,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Any texts (LF, CRLF, lone CR, a BOM, a last line without terminator) and any edit
        /// script — consistent or not: overlapping, out of order, past the end — give the
        /// same entries and segments as the split-first walk, in every style.
        #[test]
        fn cursors_match_the_line_index(
            old in proptest::collection::vec((0..6usize, 0..4usize), 0..16),
            new in proptest::collection::vec((0..6usize, 0..4usize), 0..16),
            boms in (any::<bool>(), any::<bool>()),
            changes in proptest::collection::vec((1..18usize, 0..4usize, 1..18usize, 0..4usize, 1..3usize), 0..4),
            hunks in proptest::collection::vec((1..18u32, 0..6u32, any::<bool>()), 0..3),
            context in 0..4u32,
        ) {
            let a = ApplyResult {
                text: text_of(&new, boms.1),
                source: text_of(&old, boms.0).into(),
                path: None,
                destination: None,
                hunks: hunks.iter().map(|&(s, l, done)| hunk(s, l, done)).collect(),
                fuzz: 0,
                diff: Vec::new(),
                segments: Vec::new(),
                changes: changes
                    .iter()
                    .map(|&(old_start, old_len, new_start, new_len, hunk)| Change {
                        old_start,
                        old_len,
                        new_start,
                        new_len,
                        hunk,
                    })
                    .collect(),
                known: Default::default(),
            };
            let limits = RefineLimits::default();
            for style in [DiffStyle::Full, DiffStyle::Changes { context }] {
                for refine in [None, Some(&limits)] {
                    let (mut got, mut want) = (Rows::default(), Rows::default());
                    walk(&a, style, refine, &mut got);
                    reference_walk(&a, style, refine, &mut want);
                    prop_assert_eq!(&got.diff, &want.diff);
                    prop_assert_eq!(&got.segments, &want.segments);
                    // Reading the source's line index instead of scanning it, with the
                    // source held by the caller (not yet in the result).
                    let lines = Lines::split(strip_bom(&a.source).1);
                    let bare = ApplyResult { source: "".into(), ..a.clone() };
                    let mut indexed = Rows::default();
                    walk_indexed(&bare, &a.source, &lines, style, refine, &mut indexed);
                    prop_assert_eq!(&indexed.diff, &want.diff);
                    prop_assert_eq!(&indexed.segments, &want.segments);
                    // The columns (read 8 bytes at a time on a text without CR) hold the
                    // same entries.
                    // (An entry without segments: the columns say 0..0, the rows an empty
                    // range at the running count.)
                    let cols = columns(&a, style, refine);
                    let mut rows = want.diff.clone();
                    for r in rows.iter_mut().filter(|r| r.segments.is_empty()) {
                        r.segments = 0..0;
                    }
                    prop_assert_eq!(as_rows(&cols), rows);
                    prop_assert_eq!(&cols.segments, &want.segments);
                    // Streamed one entry at a time: the same entries and segments.
                    prop_assert_eq!(streamed(&a, style, refine), as_entries(&a, &want));
                }
            }
        }
    }
}
