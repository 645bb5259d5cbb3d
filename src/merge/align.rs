//! Whether the base → current alignment is forced where the patch changes the base (SPEC §3.2:
//! two readings are a refusal, never a guess).
//!
//! The diff of the base and the current text is one reading of the change made since the
//! model read the file. When that change copies base lines, including the lines a hunk quotes,
//! another reading can be as good: the copy is the model's lines and the original is new. The
//! merge would then carry the edit to whichever place the diff happened to pick. So for each
//! hunk, the base lines around its change that the current text kept (its context and changed
//! lines, up to the nearest change made since) are looked for elsewhere in the current text,
//! and each other place is measured: the most base lines an alignment can keep while it puts
//! the hunk's lines there. A place within [`MARGIN`] of the diff's own alignment is a second
//! reading, and the hunk is refused as ambiguous with both places.

use std::collections::HashMap;
use std::ops::Range;

use similar::{capture_diff_slices, Algorithm, DiffOp};

use super::Edit;

/// How many base lines fewer than the diff's alignment an alignment that puts a hunk's lines
/// in lines the change made since added (in the diff's reading) may keep and still be a
/// second reading. One line: a drift that replaced one line with a block that copies base
/// lines (the original then stands after the copy) reads, one line cheaper, as an insertion
/// before it and a copy added after it. Another place made of lines the diff keeps from the
/// base (the hunk's lines shifted inside a run of repeated lines, or another copy the base
/// already had) is a second reading only when it keeps as many lines: moving a kept line
/// costs one without any change made since. So is a place of a hunk's lines that the change
/// made since cut short (it changed lines of the hunk's context): the lines it changed say where
/// the rest is.
const MARGIN: usize = 1;

/// The most other places of one hunk's lines measured (nearest first; each costs two diffs).
/// Places beyond that which could be second readings are counted as second readings: the
/// hunk is refused rather than guessed.
const MAX_PLACES: usize = 16;

/// The most diff work (lines × differences, summed over the places measured) spent on one
/// hunk's places; the places left are counted as second readings (refused, never guessed).
/// Only a large, much-changed file with many copies of a hunk's lines gets near it.
const MAX_WORK: usize = 200_000_000;

/// A second reading: the hunk's base lines `lines` stand at current line `here` (0-based) in
/// the diff's alignment, and could as well stand at each of `there`.
#[derive(Debug)]
pub(super) struct Reading {
    /// The hunk (0-based).
    pub hunk: usize,
    /// The base lines looked for: the hunk's lines around its change that the current text
    /// kept.
    pub lines: Range<usize>,
    /// Where the diff's alignment puts them in the current text.
    pub here: usize,
    /// The other places (current lines) where an alignment as good puts them.
    pub there: Vec<usize>,
}

/// The first hunk whose lines have a second reading, if any. `windows` are the hunks' base
/// lines (context and changed lines, as located in the base); `theirs` the base → current
/// edits (the alignment the merge uses); `ours` the patch's edits. With it, whether the
/// second reading is only a near one (every other place keeps [`MARGIN`] fewer base lines
/// than the diff's alignment): a plain apply of the hunk to the current text may settle
/// that, never an alignment as good as the diff's (two equal readings, or a place not
/// measured).
pub(super) fn second_reading(
    base: &[&str],
    cur: &[&str],
    theirs: &[Edit],
    ours: &[Edit],
    windows: &[Range<usize>],
) -> Option<(Reading, bool)> {
    if theirs.is_empty() {
        return None;
    }
    let (b, c) = intern(base, cur);
    let kept = base.len() - theirs.iter().map(|t| t.base.len()).sum::<usize>();
    // The current lines the diff reads as added since.
    let mut added = vec![false; cur.len()];
    for t in theirs {
        added[t.side.clone()].fill(true);
    }
    let mut seen: Vec<Range<usize>> = Vec::new();
    for o in ours {
        let Some(w) = windows.get(o.hunk) else {
            continue;
        };
        let Some(lines) = kept_run(theirs, w, &o.base) else {
            continue;
        };
        if seen.contains(&lines) {
            continue;
        }
        seen.push(lines.clone());
        let here = (lines.start as isize + shift_before(theirs, lines.start)) as usize;
        // The margin only for a window the change made since left whole: when it changed
        // lines of the window, those lines already say where it is.
        let added = if lines == *w { &added[..] } else { &[][..] };
        let (there, near) = other_places(&b, &c, added, &lines, here, kept);
        if !there.is_empty() {
            let r = Reading {
                hunk: o.hunk,
                lines,
                here,
                there,
            };
            return Some((r, near));
        }
    }
    None
}

/// The base lines of window `w` around edit `e` that no edit of `theirs` changes or splits
/// (an insertion at either end stays outside); `None` when one reaches into `e` itself (the
/// merge reports that as a conflict) or nothing is left.
fn kept_run(theirs: &[Edit], w: &Range<usize>, e: &Range<usize>) -> Option<Range<usize>> {
    let (mut lo, mut hi) = (w.start.min(e.start), w.end.max(e.end));
    for t in theirs {
        let (s, end) = (t.base.start, t.base.end);
        // (An insertion at `e`'s start is both before and after an empty `e`: nothing left.)
        let (before, after) = (end <= e.start, s >= e.end);
        if !before && !after {
            return None;
        }
        if before {
            lo = lo.max(end);
        }
        if after {
            hi = hi.min(s);
        }
    }
    (lo < hi).then_some(lo..hi)
}

/// How many lines the edits before base line `line` (ending at or before it) add or remove.
fn shift_before(edits: &[Edit], line: usize) -> isize {
    edits
        .iter()
        .take_while(|e| e.base.end <= line && (e.base.start < line || e.base.is_empty()))
        .map(|e| e.side.len() as isize - e.base.len() as isize)
        .sum()
}

/// The other current lines where base lines `lines` (at `here` in the diff's alignment) could
/// stand in an alignment that keeps nearly as many base lines as the diff's (`kept`): as many,
/// or [`MARGIN`] fewer where the current lines there are all `added` since (none are when
/// `added` is empty). With them, whether each needs the margin (none keeps as many).
fn other_places(
    b: &[u32],
    c: &[u32],
    added: &[bool],
    lines: &Range<usize>,
    here: usize,
    kept: usize,
) -> (Vec<usize>, bool) {
    let len = lines.len();
    let (n, m) = (b.len(), c.len());
    let pattern = &b[lines.clone()];
    if m < len {
        return (Vec::new(), true);
    }
    let margin = |j: usize| {
        if added.len() >= j + len && added[j..j + len].iter().all(|&a| a) {
            MARGIN
        } else {
            0
        }
    };
    // Cheap bound first: an alignment keeps at most min(a, b) lines of two texts of a and b
    // lines, before the place and after it.
    let mut places: Vec<usize> = (0..=m - len)
        .filter(|&j| j != here && c[j..j + len] == *pattern)
        .filter(|&j| {
            lines.start.min(j) + len + (n - lines.end).min(m - j - len) + margin(j) >= kept
        })
        .collect();
    places.sort_by_key(|&j| j.abs_diff(here));
    let mut unmeasured = places.split_off(places.len().min(MAX_PLACES));
    // A Myers diff costs about (lines) × (differences): the two diffs of a place differ by the
    // changes made since and twice the distance to the diff's own place.
    let mut work = 0usize;
    let mut found = Vec::new();
    let mut near = unmeasured.is_empty();
    for (k, &j) in places.iter().enumerate() {
        let differences = (n - kept) + (m - kept) + 2 * j.abs_diff(here) + 1;
        work = work.saturating_add((n + m).saturating_mul(differences));
        if work > MAX_WORK {
            unmeasured.extend_from_slice(&places[k..]);
            near = false;
            break;
        }
        let before = lcs(&b[..lines.start], &c[..j]);
        let after = lcs(&b[lines.end..], &c[j + len..]);
        let kept_there = before + len + after;
        if kept_there + margin(j) >= kept {
            found.push(j);
            near &= kept_there < kept;
        }
    }
    found.extend(unmeasured);
    found.sort_unstable();
    (found, near)
}

/// The lines of both texts as numbers (equal lines, terminators included, get equal numbers),
/// so that the diffs compare numbers.
pub(super) fn intern<'a>(base: &[&'a str], cur: &[&'a str]) -> (Vec<u32>, Vec<u32>) {
    let mut ids: HashMap<&'a str, u32> = HashMap::new();
    let mut id = |l: &'a str| {
        let next = ids.len() as u32;
        *ids.entry(l).or_insert(next)
    };
    let b = base.iter().map(|l| id(l)).collect();
    let c = cur.iter().map(|l| id(l)).collect();
    (b, c)
}

/// The length of a longest common subsequence of `a` and `b` (a minimal Myers diff's equal
/// lines).
fn lcs(a: &[u32], b: &[u32]) -> usize {
    capture_diff_slices(Algorithm::Myers, a, b)
        .iter()
        .map(|op| match op {
            DiffOp::Equal { len, .. } => *len,
            _ => 0,
        })
        .sum()
}
