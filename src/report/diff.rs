//! The structured line diff, derived from the edit script: one walk over the changes that
//! emits every entry into a [`Sink`] — the rows of [`DiffLine`]s, or the columns of a
//! [`LineDiff`].

use std::ops::Range;

use super::columns::LineDiff;
use super::refine::{self, RefineLimits, Segment};
use super::unified::Run;
use super::{split_both, ApplyResult, DiffKind, DiffLine};
use crate::options::DiffStyle;
use crate::text::Lines;

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
    /// Makes room for `n` more entries (the full diff's size is known before the walk).
    fn reserve(&mut self, n: usize);
    /// Gives entry `entry` (already pushed) its character-level segments.
    fn set_segments(&mut self, entry: usize, segments: &[Segment]);
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

/// A line number for the diff: 1-based, saturated at `u32::MAX`.
fn number(index: usize) -> u32 {
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

/// Walks the edit script of `a` and emits the structured diff in `style` into `sink`, with
/// the segments of paired changed lines when `refine` gives the limits.
pub(crate) fn walk(
    a: &ApplyResult,
    style: DiffStyle,
    refine: Option<&RefineLimits>,
    sink: &mut impl Sink,
) {
    if style == DiffStyle::None {
        return;
    }
    let (old, old_off, new, new_off) = split_both(a);
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

/// The structured diff of `a` as rows.
pub(crate) fn rows(a: &ApplyResult, style: DiffStyle, refine: Option<&RefineLimits>) -> Rows {
    let mut rows = Rows::default();
    walk(a, style, refine, &mut rows);
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
