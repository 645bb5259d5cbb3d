//! The three-way merge behind base-aware apply (SPEC §3.2; [`apply_with_base`] and
//! [`Patch::apply_with_bases`]): the hunks are located in the **base** (the text the model saw
//! when it wrote the patch), and the change is carried to the current text by a three-way
//! merge of base → current and base → patched base.
//!
//! [`apply_with_base`]: crate::apply_with_base
//! [`Patch::apply_with_bases`]: crate::Patch::apply_with_bases
//!
//! The merge is line-based and byte-exact: lines are compared with their terminators, and
//! every line of the result is a line of the current text or of the patched base, copied
//! whole. The base → patched-base side is the engine's own edit script (no second diff); the
//! base → current side is a Myers diff from `similar`. A change of the patch that overlaps or
//! touches a change the current text already has is a [`Status::Conflict`], unless both made
//! the same change.
//!
//! Why not a merge library: `diffy::merge` returns the merged text with conflict markers
//! (no structured conflict to explain to the model) and splits lines at `\n` only, so a
//! lone-CR file would be one line; `imara-diff` and `similar` give the diffs, which is what is
//! used here.

use std::ops::Range;

use similar::{capture_diff_slices, Algorithm, DiffOp};

use crate::build::Change;
use crate::error::{Diagnostics, Error, Status};
use crate::report::{ApplyResult, HunkReport};
use crate::text::{strip_bom, Lines};

/// One side's change to the base: base lines `base` became the side's lines `side`.
#[derive(Clone, Debug)]
struct Edit {
    base: Range<usize>,
    side: Range<usize>,
    /// The hunk that made it (patch side only).
    hunk: usize,
}

/// Whether two changes of the base conflict: their ranges overlap or touch. Touching counts,
/// as in git's merge: an insertion next to a change can often slide past the lines around it
/// (its first or last line equal to its neighbour), and then which side of the change it
/// belongs on is a guess (found by the drift benchmark: a test block inserted before the
/// closing line another commit inserted after).
fn interact(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// Merges `patched` (the patch applied to the base: `patched.source` is the base) into
/// `current`.
pub(crate) fn merge(patched: &ApplyResult, current: &str) -> Result<ApplyResult, Error> {
    let (_, base_body) = strip_bom(&patched.source);
    let (_, new_body) = strip_bom(&patched.text);
    let (bom, cur_body) = strip_bom(current);
    let base = Lines::split(base_body);
    let new = Lines::split(new_body);
    let cur = Lines::split(cur_body);
    let (base_full, cur_full) = (full_lines(&base), full_lines(&cur));

    let new_full = full_lines(&new);
    let mut theirs = side_edits(&base_full, &cur_full);
    // The patch's runs of `-` and `+` lines, each narrowed to the lines it really changes (a
    // run may remove and re-add equal lines, as diff writers do around blank lines and braces):
    // the merge then claims only those base lines, as a version-control merge would.
    let mut ours: Vec<Edit> = patched
        .changes
        .iter()
        .flat_map(|c| {
            let (old_lines, new_lines) = (c.old_lines(), c.new_lines());
            let (old, new) = (&base_full[old_lines.clone()], &new_full[new_lines.clone()]);
            let hunk = c.hunk_index();
            side_edits(old, new).into_iter().map(move |e| Edit {
                base: e.base.start + old_lines.start..e.base.end + old_lines.start,
                side: e.side.start + new_lines.start..e.side.end + new_lines.start,
                hunk,
            })
        })
        .collect();

    if let Some((o, span)) = sliding_conflict(&base_full, &theirs, &cur_full, &ours, &new_full) {
        // The current lines of the window, with the insertions at its end.
        let at = |line, end| map_line(&theirs, line, end).min(cur.len());
        let cur_range = at(span.start, false)..at(span.end, true).max(at(span.start, false));
        return Err(conflict(
            patched,
            (&base, &cur, &new),
            (&span, &cur_range),
            &[o],
            SLIDES,
        ));
    }

    // An insertion that could stand at several places (equal lines around it) and touches a
    // change of the other side where it is: moved to a place where it touches none, when every
    // place it could stand gives the same text (nothing of the other side inside its window).
    relocate(&base_full, &new_full, &mut ours, &theirs);
    relocate(&base_full, &cur_full, &mut theirs, &ours);

    let mut text = String::with_capacity(current.len() + patched.text.len() / 8);
    if bom {
        text.push('\u{feff}');
    }
    let mut changes = Vec::new();
    let (mut b, mut out_line) = (0usize, 0usize); // next base line to copy; lines written
    let (mut i, mut j) = (0usize, 0usize);
    while i < theirs.len() || j < ours.len() {
        // The next cluster: edits of both sides that interact, transitively.
        // In base order; at one place, an insertion before a range that starts there.
        let first = match (theirs.get(i), ours.get(j)) {
            (Some(t), Some(o)) if (t.base.start, t.base.end) <= (o.base.start, o.base.end) => {
                t.base.clone()
            }
            (Some(t), None) => t.base.clone(),
            (_, Some(o)) => o.base.clone(),
            (None, None) => break,
        };
        let mut span = first;
        let (i0, j0) = (i, j);
        loop {
            let mut grew = false;
            while let Some(t) = theirs.get(i).filter(|t| interact(&t.base, &span)) {
                span = span.start.min(t.base.start)..span.end.max(t.base.end);
                i += 1;
                grew = true;
            }
            while let Some(o) = ours.get(j).filter(|o| interact(&o.base, &span)) {
                span = span.start.min(o.base.start)..span.end.max(o.base.end);
                j += 1;
                grew = true;
            }
            if !grew {
                break;
            }
        }
        let (t, o) = (&theirs[i0..i], &ours[j0..j]);
        // Unchanged base lines before the cluster, as the current text has them.
        let cur_start = (span.start as isize + delta(&theirs[..i0])) as usize;
        text.push_str(base.slice(b, span.start));
        out_line += span.start - b;
        let cur_range = cur_start..cur_start + (span.len() as isize + delta(t)) as usize;
        if o.is_empty() {
            // Only the current text changed here: keep its lines.
            text.push_str(cur.slice(cur_range.start, cur_range.end));
            out_line += cur_range.len();
        } else {
            let ours_text = rebuild(&base_full, &new, span.clone(), o);
            if !t.is_empty() {
                let theirs_text = rebuild(&base_full, &cur, span.clone(), t);
                if theirs_text != ours_text {
                    return Err(conflict(
                        patched,
                        (&base, &cur, &new),
                        (&span, &cur_range),
                        o,
                        OVERLAPS,
                    ));
                }
            }
            let n = Lines::split(&ours_text).len();
            changes.push(Change::from_indices(
                cur_range.clone(),
                out_line..out_line + n,
                o[0].hunk,
            ));
            text.push_str(&ours_text);
            out_line += n;
        }
        b = span.end;
    }
    text.push_str(base.slice(b, base.len()));

    let hunks = patched
        .hunks
        .iter()
        .map(|h| {
            let start = h.old_start as usize - 1;
            let old_start = map_line(&theirs, start, true);
            let old_end = map_line(&theirs, start + h.old_len as usize, false).max(old_start);
            let new_start = map_line_through(&changes, old_start);
            HunkReport {
                old_start: old_start as u32 + 1,
                old_len: (old_end - old_start) as u32,
                new_start: new_start as u32 + 1,
                merged: true,
                ..h.clone()
            }
        })
        .collect();
    Ok(ApplyResult {
        text,
        source: current.to_string(),
        path: patched.path.clone(),
        destination: patched.destination.clone(),
        hunks,
        fuzz: patched.fuzz,
        diff: Vec::new(),
        segments: Vec::new(),
        changes,
    })
}

/// Every line with its terminator.
fn full_lines<'a>(l: &Lines<'a>) -> Vec<&'a str> {
    (0..l.len()).map(|i| l.slice(i, i + 1)).collect()
}

/// How far a pure insertion of `side[e.side]` at base line `e.base.start` can slide over
/// equal lines without changing its side's text: the base lines `lo..hi` it could stand
/// between (`lo == hi` when it cannot slide).
fn slide_window(base: &[&str], side: &[&str], e: &Edit) -> Range<usize> {
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

/// A pure insertion of the patch that could slide over a change made since (a change of the
/// current text inside the base lines it could stand between, or an insertion there): which
/// side of that change it belongs on is a guess, so it is a conflict (the patch's edit and the
/// base lines it could stand between). Identical insertions are not. A change that only ends
/// where the window starts (or starts where it ends) is no guess: every place in the window
/// gives the same text, and [`relocate`] moves the insertion off it. (The current side's
/// insertions are taken as the diff aligns them, as a version-control merge does: the longest
/// runs of unchanged lines stay together.)
fn sliding_conflict(
    base: &[&str],
    theirs: &[Edit],
    cur: &[&str],
    ours: &[Edit],
    new: &[&str],
) -> Option<(Edit, Range<usize>)> {
    let same = |t: &Edit, o: &Edit| t.base == o.base && cur[t.side.clone()] == new[o.side.clone()];
    for o in ours.iter().filter(|o| o.base.is_empty()) {
        let w = slide_window(base, new, o);
        if !w.is_empty() {
            if let Some(t) = theirs[inside(theirs, &w)].iter().find(|t| !same(t, o)) {
                return Some((o.clone(), w.start.min(t.base.start)..w.end.max(t.base.end)));
            }
        }
    }
    None
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
/// `other` to the nearest place in its slide window that touches none, when no edit of
/// `other` reaches inside the window, so that every place there gives the same merged text
/// (the window stops at the side's own neighbouring edits). The insertion's lines are then
/// the same lines of the side, counted from the new place.
fn relocate(base: &[&str], side: &[&str], edits: &mut [Edit], other: &[Edit]) {
    for k in 0..edits.len() {
        let e = &edits[k];
        let p = e.base.start;
        if e.side.is_empty() && !e.base.is_empty() {
            relocate_deletion(base, edits, k, other);
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
        if lo >= hi || !inside(other, &(lo..hi)).is_empty() {
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
/// insertion at either end does not: every place then gives the same merged text).
fn relocate_deletion(base: &[&str], edits: &mut [Edit], k: usize, other: &[Edit]) {
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
    if reaches {
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

/// The base → side edits of a line diff (lines compared with their terminators).
fn side_edits(base: &[&str], side: &[&str]) -> Vec<Edit> {
    let mut edits: Vec<Edit> = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, base, side) {
        let (b, s) = match op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => (old_index..old_index + old_len, new_index..new_index),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (old_index..old_index, new_index..new_index + new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (
                old_index..old_index + old_len,
                new_index..new_index + new_len,
            ),
        };
        // Adjacent operations (a delete next to an insert) are one edit.
        match edits.last_mut() {
            Some(e) if e.base.end == b.start && e.side.end == s.start => {
                e.base.end = b.end;
                e.side.end = s.end;
            }
            _ => edits.push(Edit {
                base: b,
                side: s,
                hunk: 0,
            }),
        }
    }
    edits
}

/// How many lines the edits add (positive) or remove (negative).
fn delta(edits: &[Edit]) -> isize {
    edits
        .iter()
        .map(|e| e.side.len() as isize - e.base.len() as isize)
        .sum()
}

/// The side's line for base line `line`: shifted by the edits before it. An insertion right
/// at `line` counts as before it when `insert_before` (a range's start), not otherwise (its
/// end).
fn map_line(edits: &[Edit], line: usize, insert_before: bool) -> usize {
    let before = edits.partition_point(|e| {
        e.base.end < line || e.base.end == line && (insert_before || e.base.start < line)
    });
    (line as isize + delta(&edits[..before])) as usize
}

/// The merged text's line for current line `line`, shifted by the changes before it.
fn map_line_through(changes: &[Change], line: usize) -> usize {
    let shift: isize = changes
        .iter()
        .filter(|c| c.old_lines().end <= line && c.old_lines().start < line)
        .map(|c| c.new_len as isize - c.old_len as isize)
        .sum();
    (line as isize + shift) as usize
}

/// The text of base lines `span` after one side's `edits` (all inside `span`).
fn rebuild(base: &[&str], side: &Lines<'_>, span: Range<usize>, edits: &[Edit]) -> String {
    let mut s = String::new();
    let mut b = span.start;
    for e in edits {
        for line in &base[b..e.base.start] {
            s.push_str(line);
        }
        s.push_str(side.slice(e.side.start, e.side.end));
        b = e.base.end;
    }
    for line in &base[b..span.end] {
        s.push_str(line);
    }
    s
}

/// Why a hunk conflicts: it changes lines the current text changed too.
const OVERLAPS: &str = "the lines it changes were also changed in the current file";
/// Why a hunk conflicts: its added lines could stand on either side of a change (the lines
/// around them are equal), and the two places give different texts.
const SLIDES: &str = "its added lines could go before or after lines changed in the current \
                      file (the lines around them are equal), and that gives different texts";

/// The `CONFLICT` error: the three versions (base, current, patched base) of the lines (`span`
/// in the base, `cur_range` in the current text), why, and how to resend.
fn conflict(
    patched: &ApplyResult,
    (base, cur, new): (&Lines<'_>, &Lines<'_>, &Lines<'_>),
    (span, cur_range): (&Range<usize>, &Range<usize>),
    ours: &[Edit],
    why: &str,
) -> Error {
    let hunk = ours[0].hunk;
    let file = patched.path.as_deref().unwrap_or("the file");
    let patch_line = patched.hunks.get(hunk).map(|h| h.patch_line);
    let new_range = ours[0].side.start..ours.last().map_or(ours[0].side.end, |o| o.side.end);
    let show = |title: &str, l: &Lines<'_>, r: &Range<usize>| {
        let mut s = format!("{title} ({}):\n", range_words(r));
        if r.is_empty() {
            s.push_str("  (no lines)\n");
        }
        for i in r.clone().filter(|&i| i < l.len()) {
            s.push_str("  |");
            s.push_str(l.get(i));
            s.push('\n');
        }
        s
    };
    let message = format!(
        "hunk {} (patch line {}) conflicts with a change made to {file} since the model read it: \
         {why}.\n{}{}{}\
         Resend the hunk against the current lines shown above.",
        hunk + 1,
        patch_line.unwrap_or(0),
        show("What the model saw", base, span),
        show("What the file has now", cur, cur_range),
        show("What the patch wanted", new, &new_range),
    );
    Error::new(
        Status::Conflict,
        message,
        Diagnostics {
            patch_line,
            hunk: Diagnostics::hunk_number(hunk),
            path: patched.path.clone(),
            candidates: vec![cur_range.start as u32 + 1],
            ..Diagnostics::default()
        },
    )
}

fn range_words(r: &Range<usize>) -> String {
    match r.len() {
        0 => format!("before line {}", r.start + 1),
        1 => format!("line {}", r.start + 1),
        _ => format!("lines {}-{}", r.start + 1, r.end),
    }
}

/// The most changes, and lines per change, [`drifted`] lists.
const DRIFT_CHANGES: usize = 5;
const DRIFT_LINES: usize = 4;

/// A hunk found neither in the base nor in the current text: the current text's error `err`
/// (its closest region and corrected hunk are the lines the model must resend against), told
/// that the file changed since the model read it, which lines changed, and what they are now.
pub(crate) fn drifted(err: Error, base: &str, current: &str) -> Error {
    let (_, b) = strip_bom(base);
    let (_, c) = strip_bom(current);
    let (bl, cl) = (Lines::split(b), Lines::split(c));
    let edits = side_edits(&full_lines(&bl), &full_lines(&cl));
    let mut message = format!(
        "{}\nThe file changed since the model read it; the patch was checked against both \
         versions. What changed since (the current lines):\n",
        err.message()
    );
    for e in edits.iter().take(DRIFT_CHANGES) {
        let (r, was) = (&e.side, e.base.len());
        let was = match was {
            0 => "added".to_string(),
            1 => "was 1 line".to_string(),
            n => format!("was {n} lines"),
        };
        if r.is_empty() {
            let n = e.base.len();
            let lines = if n == 1 { "line" } else { "lines" };
            message.push_str(&format!(
                "  {n} {lines} removed before line {}\n",
                r.start + 1
            ));
            continue;
        }
        message.push_str(&format!("  {} ({was}):\n", range_words(r)));
        for i in r.clone().take(DRIFT_LINES) {
            message.push_str("  |");
            message.push_str(cl.get(i));
            message.push('\n');
        }
        if r.len() > DRIFT_LINES {
            message.push_str(&format!("  ({} more lines)\n", r.len() - DRIFT_LINES));
        }
    }
    if edits.len() > DRIFT_CHANGES {
        message.push_str(&format!(
            "  and {} more changes\n",
            edits.len() - DRIFT_CHANGES
        ));
    }
    message.pop();
    Error::new(err.status(), message, err.diagnostics().clone())
}
