//! Insertions and deletions that could stand at several places (equal lines around them):
//! the conflicts they make when the places give different texts ([`sliding_conflict`]), and
//! moving them off a change of the other side when every place gives the same text
//! ([`relocate`]).

use std::ops::Range;

use super::Edit;

/// How far a pure insertion of `side[e.side]` at base line `e.base.start` can slide over
/// equal lines without changing its side's text: the base lines `lo..hi` it could stand
/// between (`lo == hi` when it cannot slide).
pub(super) fn slide_window(base: &[&str], side: &[&str], e: &Edit) -> Range<usize> {
    let block = &side[e.side.clone()];
    let (p, n) = (e.base.start, block.len());
    if !e.base.is_empty() || n == 0 {
        return e.base.clone();
    }
    let mut down = 0;
    while p + down < base.len() && base[p + down] == block[down % n] {
        down += 1;
    }
    let mut up = 0;
    while up < p && base[p - 1 - up] == block[n - 1 - up % n] {
        up += 1;
    }
    p - up..p + down
}

/// Whether a pure insertion or a pure deletion `e` of one side (`side` its text) could stand
/// at another place, over equal lines, with the same side text.
pub(super) fn can_slide(base: &[&str], side: &[&str], e: &Edit) -> bool {
    let (a, b) = (e.base.start, e.base.end);
    if e.base.is_empty() {
        !e.side.is_empty() && !slide_window(base, side, e).is_empty()
    } else if e.side.is_empty() {
        (a > 0 && base[a - 1] == base[b - 1]) || (b < base.len() && base[a] == base[b])
    } else {
        false
    }
}

/// A pure insertion of the patch that could slide over a change made since (a change of the
/// current text inside the base lines it could stand between, or an insertion there): which
/// side of that change it belongs on is a guess, so it is a conflict (the patch's edit and the
/// base lines it could stand between). Identical insertions are not. A change that only ends
/// where the window starts (or starts where it ends) is no guess: every place in the window
/// gives the same text, and [`relocate`] moves the insertion off it. Likewise a pure deletion
/// made since that could slide over a change of the patch ([`deletion_extent`]): the diff's
/// alignment is one reading, the other places are as good.
pub(super) fn sliding_conflict(
    base: &[&str],
    theirs: &[Edit],
    cur: &[&str],
    ours: &[Edit],
    new: &[&str],
) -> Option<(Edit, Range<usize>)> {
    let same = |t: &Edit, o: &Edit| t.base == o.base && cur[t.side.clone()] == new[o.side.clone()];
    if let Some((k, w, t)) = sliding_insertion(base, theirs, cur, ours, new) {
        let o = &ours[k];
        return Some((o.clone(), w.start.min(t.base.start)..w.end.max(t.base.end)));
    }
    // (The current side's insertions that could slide are left to the diff's alignment here:
    // a hunk's context lines say where they go, and `align` refuses when they do not.)
    for t in theirs.iter().filter(|t| t.side.is_empty()) {
        let w = deletion_extent(base, t);
        if w.len() <= t.base.len() {
            continue;
        }
        let strictly_inside = |o: &&Edit| {
            if o.base.is_empty() {
                w.start < o.base.start && o.base.start < w.end
            } else {
                o.base.start < w.end && o.base.end > w.start
            }
        };
        if let Some(o) = ours.iter().filter(strictly_inside).find(|o| !same(t, o)) {
            return Some((o.clone(), w.start.min(o.base.start)..w.end.max(o.base.end)));
        }
    }
    None
}

/// The first pure insertion of the patch that could slide over a change made since (the
/// "could go before or after" kind of [`sliding_conflict`]): its index in `ours`, its slide
/// window, and the first change of the current text inside that window.
pub(super) fn sliding_insertion<'e>(
    base: &[&str],
    theirs: &'e [Edit],
    cur: &[&str],
    ours: &[Edit],
    new: &[&str],
) -> Option<(usize, Range<usize>, &'e Edit)> {
    let same = |t: &Edit, o: &Edit| t.base == o.base && cur[t.side.clone()] == new[o.side.clone()];
    for (k, o) in ours.iter().enumerate().filter(|(_, o)| o.base.is_empty()) {
        let w = slide_window(base, new, o);
        if !w.is_empty() {
            if let Some(t) = theirs[inside(theirs, &w)].iter().find(|t| !same(t, o)) {
                return Some((k, w, t));
            }
        }
    }
    None
}

/// The base lines a pure deletion `e` could cover at any of its places over equal lines (it
/// moves down a line while the line after it equals its first, up while the line before it
/// equals its last); `e`'s own lines for any other edit.
fn deletion_extent(base: &[&str], e: &Edit) -> Range<usize> {
    let (a, b) = (e.base.start, e.base.end);
    if !e.side.is_empty() || e.base.is_empty() {
        return e.base.clone();
    }
    let (mut up, mut down) = (0, 0);
    while b + down < base.len() && base[a + down] == base[b + down] {
        down += 1;
    }
    while up < a && base[a - 1 - up] == base[b - 1 - up] {
        up += 1;
    }
    a - up..b + down
}

/// The edits of `other` (sorted, non-overlapping) that reach inside base window `w`: a change
/// of lines inside it, or an insertion anywhere from its start to its end (a run).
fn inside(other: &[Edit], w: &Range<usize>) -> Range<usize> {
    let reaches = |e: &Edit| {
        if e.base.is_empty() {
            w.start <= e.base.start && e.base.start <= w.end
        } else {
            e.base.start < w.end && e.base.end > w.start
        }
    };
    let first = other.partition_point(|e| e.base.end < w.start);
    let mut last = first;
    while last < other.len() && other[last].base.start <= w.end {
        last += 1;
    }
    let hits: Vec<usize> = (first..last).filter(|&k| reaches(&other[k])).collect();
    match (hits.first(), hits.last()) {
        (Some(&a), Some(&b)) => a..b + 1,
        _ => first..first,
    }
}

/// Whether base position `q` touches an edit of `other` (sorted): one ends or starts there, or
/// contains it.
fn touches(other: &[Edit], q: usize) -> bool {
    let k = other.partition_point(|e| e.base.end < q);
    other.get(k).is_some_and(|e| e.base.start <= q)
}

/// Moves each pure insertion of `edits` (one side: `side` is its text) that touches an edit of
/// `other` (the other side: `other_side` is its text) to the nearest place in its slide window
/// that touches none, when no edit of `other` reaches inside the window, so that every place
/// there gives the same merged text (the window stops at the side's own neighbouring edits).
/// An insertion of `other` reaches inside when it stands there or can slide there: the order
/// of the two insertions would then be a guess. The insertion's lines are then the same lines
/// of the side, counted from the new place.
pub(super) fn relocate(
    base: &[&str],
    (side, edits): (&[&str], &mut [Edit]),
    (other_side, other): (&[&str], &[Edit]),
) {
    let windows: Vec<Range<usize>> = other
        .iter()
        .filter(|o| o.base.is_empty() && !o.side.is_empty())
        .map(|o| slide_window(base, other_side, o))
        .collect();
    let slides_into = |lo: usize, hi: usize| windows.iter().any(|w| w.start < hi && w.end > lo);
    for k in 0..edits.len() {
        let e = &edits[k];
        let p = e.base.start;
        if e.side.is_empty() && !e.base.is_empty() {
            relocate_deletion(base, edits, k, other, &slides_into);
            continue;
        }
        if !e.base.is_empty() || e.side.is_empty() || !touches(other, p) {
            continue;
        }
        let w = slide_window(base, side, e);
        let lo = w
            .start
            .max(k.checked_sub(1).map_or(0, |j| edits[j].base.end));
        let hi = w
            .end
            .min(edits.get(k + 1).map_or(usize::MAX, |n| n.base.start));
        if lo >= hi || !inside(other, &(lo..hi)).is_empty() || slides_into(lo, hi) {
            continue;
        }
        let free = (lo..=hi)
            .filter(|&q| !touches(other, q))
            .min_by_key(|&q| q.abs_diff(p));
        if let Some(q) = free {
            let e = &mut edits[k];
            e.side = if q < p {
                e.side.start - (p - q)..e.side.end - (p - q)
            } else {
                e.side.start + (q - p)..e.side.end + (q - p)
            };
            e.base = q..q;
        }
    }
}

/// [`relocate`] for a pure deletion `edits[k]` that touches an edit of `other`: the deleted
/// lines can shift by `d` lines while the line they stop before (or the first one) repeats
/// them, which leaves the side's text the same. Shifted to the nearest place that touches no
/// edit of `other`, when nothing of `other` reaches inside the lines it could cover (an
/// insertion at either end does not, unless it can slide inside: `slides_into`).
fn relocate_deletion(
    base: &[&str],
    edits: &mut [Edit],
    k: usize,
    other: &[Edit],
    slides_into: &dyn Fn(usize, usize) -> bool,
) {
    let (a, b) = (edits[k].base.start, edits[k].base.end);
    let interacts = |r: &Range<usize>| {
        let i = other.partition_point(|o| o.base.end < r.start);
        other.get(i).is_some_and(|o| o.base.start <= r.end)
    };
    if !interacts(&(a..b)) {
        return;
    }
    let floor = k.checked_sub(1).map_or(0, |j| edits[j].base.end);
    let ceil = edits
        .get(k + 1)
        .map_or(base.len(), |n| n.base.start)
        .min(base.len());
    let mut down = 0;
    while b + down < ceil && base[a + down] == base[b + down] {
        down += 1;
    }
    let mut up = 0;
    while a - up > floor && base[a - 1 - up] == base[b - 1 - up] {
        up += 1;
    }
    if up + down == 0 {
        return;
    }
    let (lo, hi) = (a - up, b + down);
    let first = other.partition_point(|o| o.base.end <= lo);
    let reaches = other[first..]
        .iter()
        .take_while(|o| o.base.start < hi)
        .any(|o| !o.base.is_empty() || o.base.start > lo);
    if reaches || slides_into(lo, hi) {
        return;
    }
    let free = (lo..=a + down)
        .filter(|&start| !interacts(&(start..start + (b - a))))
        .min_by_key(|&start| start.abs_diff(a));
    if let Some(start) = free {
        let e = &mut edits[k];
        let at = if start < a {
            e.side.start - (a - start)
        } else {
            e.side.start + (start - a)
        };
        e.side = at..at;
        e.base = start..start + (b - a);
    }
}
