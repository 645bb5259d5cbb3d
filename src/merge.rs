//! The three-way merge behind base-aware apply (SPEC §3.2; [`apply_with_base`] and
//! [`apply_patch_with_bases`]): the hunks are located in the **base** (the text the model saw
//! when it wrote the patch), and the change is carried to the current text by a three-way
//! merge of base → current and base → patched base.
//!
//! [`apply_with_base`]: crate::apply_with_base
//! [`apply_patch_with_bases`]: crate::apply_patch_with_bases
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

    let theirs = side_edits(&base_full, &cur_full);
    let ours: Vec<Edit> = patched
        .changes
        .iter()
        .map(|c| Edit {
            base: c.old_lines(),
            side: c.new_lines(),
            hunk: c.hunk_index(),
        })
        .collect();

    let new_full = full_lines(&new);
    if let Some((o, span)) = sliding_conflict(&base_full, &theirs, &cur_full, &ours, &new_full) {
        let at = |line| map_line(&theirs, line, false).min(cur.len());
        let cur_range = at(span.start)..at(span.end).max(at(span.start));
        return Err(conflict(
            patched,
            &base,
            &cur,
            &new,
            &span,
            &cur_range,
            &[o],
        ));
    }

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
                    return Err(conflict(patched, &base, &cur, &new, &span, &cur_range, o));
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

/// A pure insertion of the patch that could slide up to (or over) a change made since: which
/// side of that change it belongs on is a guess, so it is a conflict (the patch's edit and the
/// base lines it could stand between). Identical insertions are not. (The current side's
/// insertions are taken as the diff aligns them, as a version-control merge does: the longest
/// runs of unchanged lines stay together.)
fn sliding_conflict(
    base: &[&str],
    theirs: &[Edit],
    cur: &[&str],
    ours: &[Edit],
    new: &[&str],
) -> Option<(Edit, Range<usize>)> {
    // The edits of `other` that touch base lines `w` (sorted, non-overlapping: a run).
    let touching = |other: &[Edit], w: &Range<usize>| -> Range<usize> {
        other.partition_point(|e| e.base.end < w.start)
            ..other.partition_point(|e| e.base.start <= w.end)
    };
    let same = |t: &Edit, o: &Edit| t.base == o.base && cur[t.side.clone()] == new[o.side.clone()];
    for o in ours.iter().filter(|o| o.base.is_empty()) {
        let w = slide_window(base, new, o);
        if !w.is_empty() {
            if let Some(t) = theirs[touching(theirs, &w)].iter().find(|t| !same(t, o)) {
                return Some((o.clone(), w.start.min(t.base.start)..w.end.max(t.base.end)));
            }
        }
    }
    None
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

/// The `CONFLICT` error: the three versions of the lines, and how to resend.
fn conflict(
    patched: &ApplyResult,
    base: &Lines<'_>,
    cur: &Lines<'_>,
    new: &Lines<'_>,
    span: &Range<usize>,
    cur_range: &Range<usize>,
    ours: &[Edit],
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
         the lines it changes were also changed in the current file.\n{}{}{}\
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
            hunk: Some(hunk),
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

/// A hunk not found in the base nor in the current text: the engine's error, told that the
/// file changed since the model read it, with the lines that changed.
pub(crate) fn drifted(err: Error, base: &str, current: &str) -> Error {
    let (_, b) = strip_bom(base);
    let (_, c) = strip_bom(current);
    let (bl, cl) = (Lines::split(b), Lines::split(c));
    let edits = side_edits(&full_lines(&bl), &full_lines(&cl));
    let changed: Vec<String> = edits
        .iter()
        .take(5)
        .map(|e| {
            let r = e.side.clone();
            if r.is_empty() {
                format!("removed at line {}", r.start + 1)
            } else {
                range_words(&r)
            }
        })
        .collect();
    let more = if edits.len() > 5 {
        format!(" and {} more", edits.len() - 5)
    } else {
        String::new()
    };
    let message = format!(
        "{}\nThe file changed since the model read it (now {}{more}); the patch was checked \
         against both versions.",
        err.message(),
        changed.join(", ")
    );
    Error::new(err.status(), message, err.diagnostics().clone())
}
