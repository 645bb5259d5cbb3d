//! Refinement of a whole change block: pairing its lines and diffing each pair.

use std::ops::Range;

use super::segments::segments_to_utf16;
use super::{pair_lines, refine_pair, RefineLimits, Segment};

/// A deleted line paired with an added line by [`refine_lines`], and where their segments are
/// in [`Refinement::segments`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinePair {
    /// Index of the deleted line in the `deleted` slice given to [`refine_lines`].
    pub deleted: usize,
    /// Index of the added line in the `added` slice.
    pub added: usize,
    /// The deleted line's segments (kinds equal and delete) in [`Refinement::segments`].
    pub deleted_segments: Range<usize>,
    /// The added line's segments (kinds equal and add) in [`Refinement::segments`].
    pub added_segments: Range<usize>,
}

/// The refinement of one block of deleted and added lines: the pairs, each with the
/// character-level segments of both lines.
///
/// Lines in no pair are whole-line changes: too different from every line of the other side,
/// or their pair exceeded the [`RefineLimits`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Refinement {
    /// The refined pairs, strictly increasing in both indices (pairs never cross).
    pub pairs: Vec<LinePair>,
    /// Every pair's segments, referred to by [`LinePair::deleted_segments`] and
    /// [`LinePair::added_segments`]; offsets are bytes into the line.
    pub segments: Vec<Segment>,
}

impl Refinement {
    /// Converts every segment's offsets from bytes to UTF-16 code units (the indices of
    /// JavaScript, C#, Java strings). `deleted` and `added` must be the lines given to
    /// [`refine_lines`].
    pub fn into_utf16(mut self, deleted: &[&str], added: &[&str]) -> Refinement {
        for pair in &self.pairs {
            let sides = [
                (deleted.get(pair.deleted), pair.deleted_segments.clone()),
                (added.get(pair.added), pair.added_segments.clone()),
            ];
            for (line, range) in sides {
                if let (Some(line), Some(segs)) = (line, self.segments.get_mut(range)) {
                    segments_to_utf16(line, segs);
                }
            }
        }
        self
    }

    /// The segments of the deleted line of `pair`.
    pub fn deleted_segments(&self, pair: &LinePair) -> &[Segment] {
        self.segments
            .get(pair.deleted_segments.clone())
            .unwrap_or_default()
    }

    /// The segments of the added line of `pair`.
    pub fn added_segments(&self, pair: &LinePair) -> &[Segment] {
        self.segments
            .get(pair.added_segments.clone())
            .unwrap_or_default()
    }
}

/// Refines a block of deleted lines replaced by added lines — from any line diff, not only a
/// patch's: pairs the lines by similarity ([`pair_lines`]) and diffs each pair at
/// grapheme-cluster boundaries ([`refine_pair`]), within `limits` (the same limits as
/// [`Options::refine_limits`](crate::Options::refine_limits) gives apply, so the segments are
/// the ones apply's structured diff would show for the same block).
///
/// Lines are given without their terminators. The work is bounded by the limits: pairing
/// costs at most `max_pair_lines²` similarity scores (larger blocks are paired by position),
/// each pair at most `max_cost`.
///
/// ```
/// use v4a::{refine_lines, DiffKind, RefineLimits};
/// let r = refine_lines(&["let x = 1;", "fn main() {}"], &["let x = 2;"], &RefineLimits::default());
/// assert_eq!(r.pairs.len(), 1);
/// let pair = &r.pairs[0];
/// assert_eq!((pair.deleted, pair.added), (0, 0));
/// let changed: Vec<_> = r
///     .added_segments(pair)
///     .iter()
///     .filter(|s| s.kind == DiffKind::Add)
///     .map(|s| &"let x = 2;"[s.start..s.end])
///     .collect();
/// assert_eq!(changed, ["2"]);
/// ```
pub fn refine_lines(deleted: &[&str], added: &[&str], limits: &RefineLimits) -> Refinement {
    let mut out = Refinement::default();
    for (d, a) in pair_lines(deleted, added, limits) {
        if let Some((old, new)) = refine_pair(deleted[d], added[a], limits) {
            let s0 = out.segments.len();
            out.segments.extend(old);
            let s1 = out.segments.len();
            out.segments.extend(new);
            out.pairs.push(LinePair {
                deleted: d,
                added: a,
                deleted_segments: s0..s1,
                added_segments: s1..out.segments.len(),
            });
        }
    }
    out
}
