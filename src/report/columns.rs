//! The structured line diff as columns ([`LineDiff`]): one vector per field, every entry at
//! the same index in each, the text of each line as offsets into the texts the caller already
//! has. The form that crosses the C ABI: a few arrays instead of one struct and one copied
//! string per line.

use std::ops::Range;

use super::cursor::LineCursor;
use super::diff::{equal_lines, number, Sink};
use super::refine::segments::{segments_to_utf16, utf16_units};
use super::refine::Segment;
use super::DiffKind;

/// The structured line diff of an [`ApplyResult`](super::ApplyResult) as columns, from
/// [`ApplyResult::line_diff`](super::ApplyResult::line_diff).
///
/// Entry `i` is `kinds[i]`, `old_lines[i]`, `new_lines[i]`, `hunks[i]`, `starts[i]..ends[i]`
/// and its segments `segments[segment_starts[i]..][..segment_counts[i]]`. Unlike
/// [`DiffLine`](super::DiffLine) nothing is copied: an entry's text is a range of the source
/// (equal and delete entries) or of the new text (add entries).
///
/// ```
/// use v4a::{apply, DiffKind, DiffStyle, Mode, Options};
/// let r = apply("a\nb\n", "@@\n a\n-b\n+c\n", Mode::Update, &Options::default()).unwrap();
/// let d = r.line_diff(DiffStyle::Full, None);
/// assert_eq!(d.kinds, [DiffKind::Equal, DiffKind::Delete, DiffKind::Add]);
/// assert_eq!((d.old_lines.clone(), d.new_lines.clone()), (vec![1, 2, 0], vec![1, 0, 2]));
/// assert_eq!(d.text(2, &r.source, &r.text), "c");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineDiff {
    /// Equal, delete or add.
    pub kinds: Vec<DiffKind>,
    /// 1-based line in the original text; 0 for an added line.
    pub old_lines: Vec<u32>,
    /// 1-based line in the new text; 0 for a deleted line.
    pub new_lines: Vec<u32>,
    /// 1-based number of the hunk the line belongs to (changed lines and the context lines of
    /// a hunk); 0 for none.
    pub hunks: Vec<u32>,
    /// Start of the line's text (terminator excluded) in the source (equal, delete) or the new
    /// text (add): a byte offset, or a UTF-16 index after [`LineDiff::into_utf16`].
    pub starts: Vec<usize>,
    /// End (exclusive) of the line's text, in the same unit as `starts`.
    pub ends: Vec<usize>,
    /// Index of the line's first segment in `segments`.
    pub segment_starts: Vec<u32>,
    /// Number of the line's segments; 0 when the line is unchanged, unpaired, or refinement
    /// was not requested or exceeded its limits.
    pub segment_counts: Vec<u32>,
    /// Character-level segments, offsets relative to the start of their line.
    pub segments: Vec<Segment>,
    /// The number of lines of the entry: 1, except for an equal entry of a
    /// [`DiffStyle::Runs`](super::DiffStyle::Runs) diff, which stands for this many equal
    /// lines — original lines `old_lines[i]..old_lines[i] + counts[i]`, new lines
    /// `new_lines[i]..new_lines[i] + counts[i]` — and whose text `starts[i]..ends[i]` runs
    /// from the first line's start to the last line's end: the terminators between them
    /// included, the last one's excluded (as a single line's). Split it with
    /// [`LineDiff::run_lines`].
    pub counts: Vec<u32>,
    /// Whether offsets are UTF-16 code units (after [`LineDiff::into_utf16`]) or bytes.
    pub utf16: bool,
}

impl LineDiff {
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// True when the diff has no entries.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The text of entry `i`, given the result's source and new text; empty for an index out
    /// of range or after [`LineDiff::into_utf16`] (whose offsets do not index a `str`).
    pub fn text<'t>(&self, i: usize, source: &'t str, text: &'t str) -> &'t str {
        if self.utf16 {
            return "";
        }
        let (Some(kind), Some(&s), Some(&e)) =
            (self.kinds.get(i), self.starts.get(i), self.ends.get(i))
        else {
            return "";
        };
        let base = if *kind == DiffKind::Add { text } else { source };
        base.get(s..e).unwrap_or_default()
    }

    /// The number of lines entry `i` stands for (see [`LineDiff::counts`]); 0 out of range.
    pub fn count(&self, i: usize) -> usize {
        self.counts.get(i).map_or(0, |&n| n as usize)
    }

    /// The lines of entry `i` — one for most entries, `counts[i]` for a run of equal lines —
    /// each as (old line, new line, text) with the numbers as [`LineDiff::old_lines`] gives
    /// them (0 for absent): what the [`DiffStyle::Full`](super::DiffStyle::Full) diff has in
    /// their place. Empty for an index out of range or after [`LineDiff::into_utf16`].
    pub fn run_lines<'t>(
        &self,
        i: usize,
        source: &'t str,
        text: &'t str,
    ) -> impl Iterator<Item = (u32, u32, &'t str)> + 't {
        let (old, new) = (self.old_lines.get(i), self.new_lines.get(i));
        let (old, new) = (old.copied().unwrap_or(0), new.copied().unwrap_or(0));
        let count = if self.utf16 { 0 } else { self.count(i) };
        let mut rest = Some(self.text(i, source, text));
        (0..count as u32).map_while(move |j| {
            let (line, tail) = split_line(rest?);
            rest = tail;
            let at = |n: u32| if n == 0 { 0 } else { n.saturating_add(j) };
            Some((at(old), at(new), line))
        })
    }

    /// The segments of entry `i` (empty for an index out of range).
    pub fn line_segments(&self, i: usize) -> &[Segment] {
        match (self.segment_starts.get(i), self.segment_counts.get(i)) {
            (Some(&s), Some(&n)) => {
                let s = s as usize;
                self.segments.get(s..s + n as usize).unwrap_or_default()
            }
            _ => &[],
        }
    }

    /// Converts every offset — the line ranges and the segments — from bytes to UTF-16 code
    /// units, the indices of JavaScript, C#, Java strings. `source` and `text` must be the
    /// texts the diff was computed from. One pass over the lines' bytes; free for ASCII texts.
    pub fn into_utf16(mut self, source: &str, text: &str) -> LineDiff {
        if self.utf16 {
            return self;
        }
        self.utf16 = true;
        let (src_ascii, text_ascii) = (source.is_ascii(), text.is_ascii());
        if src_ascii && text_ascii {
            return self;
        }
        let mut cursors = [
            Utf16Cursor::new(source.as_bytes()),
            Utf16Cursor::new(text.as_bytes()),
        ];
        for i in 0..self.kinds.len() {
            let side = usize::from(self.kinds[i] == DiffKind::Add);
            if (side == 0 && src_ascii) || (side == 1 && text_ascii) {
                continue;
            }
            let (s, e) = (self.starts[i], self.ends[i]);
            let cursor = &mut cursors[side];
            let us = cursor.units_at(s);
            let ue = cursor.units_at(e);
            let count = self.segment_counts[i] as usize;
            if count > 0 && ue - us != e - s {
                let line = std::str::from_utf8(cursor.bytes.get(s..e).unwrap_or_default());
                let first = self.segment_starts[i] as usize;
                if let (Ok(line), Some(segs)) = (line, self.segments.get_mut(first..first + count))
                {
                    segments_to_utf16(line, segs);
                }
            }
            self.starts[i] = us;
            self.ends[i] = ue;
        }
        self
    }
}

impl LineDiff {
    /// After spans were appended from entry `before` on: the other columns of those equal
    /// entries, filled in bulk.
    fn fill_equal(
        &mut self,
        first_old: usize,
        first_new: usize,
        hunk: Option<usize>,
        before: usize,
    ) {
        let after = self.starts.len();
        let count = after - before;
        let hunk = hunk.map_or(0, number);
        self.kinds.resize(after, DiffKind::Equal);
        line_numbers(&mut self.old_lines, first_old, count);
        line_numbers(&mut self.new_lines, first_new, count);
        self.hunks.resize(after, hunk);
        self.counts.resize(after, 1);
        self.segment_starts.resize(after, 0);
        self.segment_counts.resize(after, 0);
    }
}

/// The first line of `text` (terminator excluded) and the text after its terminator: split at
/// LF, CRLF or lone CR, as the diff's lines are; `None` after the last line.
fn split_line(text: &str) -> (&str, Option<&str>) {
    match text.find(['\n', '\r']) {
        None => (text, None),
        Some(at) => {
            let crlf = text.as_bytes().get(at..at + 2) == Some(b"\r\n");
            (&text[..at], Some(&text[at + if crlf { 2 } else { 1 }..]))
        }
    }
}

/// Appends the 1-based numbers of the `count` lines from 0-based `first`, saturated at
/// `u32::MAX`: a plain `u32` range (filled in bulk) when none saturates.
fn line_numbers(column: &mut Vec<u32>, first: usize, count: usize) {
    match u32::try_from(first.saturating_add(count)) {
        // The last number is `first + count`, below `u32::MAX`; so is `first + 1`.
        Ok(last) if last < u32::MAX && count > 0 => column.extend(first as u32 + 1..last + 1),
        _ => column.extend((first..first.saturating_add(count)).map(number)),
    }
}

/// Byte offset to UTF-16 index, for increasing offsets (restarts from 0 on a step back).
struct Utf16Cursor<'t> {
    bytes: &'t [u8],
    byte: usize,
    units: usize,
}

impl<'t> Utf16Cursor<'t> {
    fn new(bytes: &'t [u8]) -> Self {
        Utf16Cursor {
            bytes,
            byte: 0,
            units: 0,
        }
    }

    fn units_at(&mut self, target: usize) -> usize {
        let target = target.min(self.bytes.len());
        if target < self.byte {
            self.byte = 0;
            self.units = 0;
        }
        let run = &self.bytes[self.byte..target];
        if run.is_ascii() {
            self.units += run.len();
        } else {
            self.units += run.iter().map(|&b| utf16_units(b)).sum::<usize>();
        }
        self.byte = target;
        self.units
    }
}

impl Sink for LineDiff {
    fn len(&self) -> usize {
        self.kinds.len()
    }
    fn reserve(&mut self, n: usize) {
        self.kinds.reserve_exact(n);
        self.old_lines.reserve_exact(n);
        self.new_lines.reserve_exact(n);
        self.hunks.reserve_exact(n);
        self.starts.reserve_exact(n);
        self.ends.reserve_exact(n);
        self.segment_starts.reserve_exact(n);
        self.segment_counts.reserve_exact(n);
        self.counts.reserve_exact(n);
    }
    fn push(
        &mut self,
        kind: DiffKind,
        old_line: u32,
        new_line: u32,
        hunk: Option<usize>,
        text: Range<usize>,
    ) {
        self.kinds.push(kind);
        self.old_lines.push(old_line);
        self.new_lines.push(new_line);
        self.hunks.push(hunk.map_or(0, |h| {
            u32::try_from(h.saturating_add(1)).unwrap_or(u32::MAX)
        }));
        self.starts.push(text.start);
        self.ends.push(text.end);
        self.segment_starts.push(0);
        self.segment_counts.push(0);
        self.counts.push(1);
    }
    fn push_run(
        &mut self,
        first_old: usize,
        first_new: usize,
        hunk: Option<usize>,
        count: usize,
        text: Range<usize>,
    ) {
        let (o, n) = (number(first_old), number(first_new));
        self.push(DiffKind::Equal, o, n, hunk, text);
        if let Some(c) = self.counts.last_mut() {
            *c = u32::try_from(count).unwrap_or(u32::MAX);
        }
    }
    fn push_equal_run(
        &mut self,
        first_old: usize,
        first_new: usize,
        hunk: Option<usize>,
        spans: impl Iterator<Item = Range<usize>>,
    ) {
        // Column by column: the texts' spans first, then the other columns filled in bulk.
        let before = self.starts.len();
        for span in spans {
            self.starts.push(span.start);
            self.ends.push(span.end);
        }
        self.fill_equal(first_old, first_new, hunk, before);
    }
    fn push_equal_lines(
        &mut self,
        first_old: usize,
        first_new: usize,
        hunk: Option<usize>,
        old: &mut LineCursor<'_>,
        k: usize,
    ) {
        // A text without CR is read straight into the columns of spans.
        let before = self.starts.len();
        if old.take_lf(k, &mut self.starts, &mut self.ends).is_some() {
            self.fill_equal(first_old, first_new, hunk, before);
        } else {
            equal_lines(self, first_old, first_new, hunk, old, k);
        }
    }
    fn set_segments(&mut self, entry: usize, segments: &[Segment]) {
        let start = u32::try_from(self.segments.len()).unwrap_or(u32::MAX);
        let count = u32::try_from(segments.len()).unwrap_or(u32::MAX);
        self.segments.extend_from_slice(segments);
        if let (Some(s), Some(n)) = (
            self.segment_starts.get_mut(entry),
            self.segment_counts.get_mut(entry),
        ) {
            *s = start;
            *n = count;
        }
    }
}
