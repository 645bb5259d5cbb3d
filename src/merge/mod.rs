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
//! the same change. A hunk whose lines the current text also has at another place that an
//! alignment about as good gives them is `AMBIGUOUS` ([`align`]): the merge never guesses
//! which copy the model saw.
//!
//! Why not a merge library: `diffy::merge` returns the merged text with conflict markers
//! (no structured conflict to explain to the model) and splits lines at `\n` only, so a
//! lone-CR file would be one line; `imara-diff` and `similar` give the diffs, which is what is
//! used here.

mod align;
mod explain;
mod forced;
mod slide;

use std::ops::Range;

use similar::{capture_diff_slices, Algorithm, DiffOp};

use crate::build::Change;
use crate::error::Error;
use crate::report::{ApplyResult, HunkReport};
use crate::text::{strip_bom, Lines};

pub(crate) use explain::drifted;
use explain::{ambiguous, conflict, OVERLAPS, SAME_SLIDES, SLIDES};
use slide::{can_slide, relocate, sliding_conflict, sliding_insertion};

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

/// The three texts of a merge, without their BOMs: split into lines, and as whole lines (each
/// with its terminator) for comparing.
struct Texts<'a> {
    base: Lines<'a>,
    cur: Lines<'a>,
    new: Lines<'a>,
    base_full: Vec<&'a str>,
    cur_full: Vec<&'a str>,
    new_full: Vec<&'a str>,
}

impl<'a> Texts<'a> {
    /// The base (`patched.source`), the current text and the patched base, split, each
    /// without its BOM; and whether `current` has one.
    fn new(patched: &'a ApplyResult<'_>, current: &'a str) -> (Texts<'a>, bool) {
        let (_, base_body) = strip_bom(&patched.source);
        let (_, new_body) = strip_bom(&patched.text);
        let (bom, cur_body) = strip_bom(current);
        let (base, cur, new) = (
            Lines::split(base_body),
            Lines::split(cur_body),
            Lines::split(new_body),
        );
        let t = Texts {
            base_full: full_lines(&base),
            cur_full: full_lines(&cur),
            new_full: full_lines(&new),
            base,
            cur,
            new,
        };
        (t, bom)
    }
}

/// Merges `patched` (the patch applied to the base: `patched.source` is the base) into
/// `current`. `plain`: the text a plain apply of the same patch to `current` gives, when it
/// succeeded (see [`second_reading`](align::second_reading)).
pub(crate) fn merge<'s>(
    patched: &ApplyResult,
    current: &'s str,
    plain: Option<&str>,
) -> Result<ApplyResult<'s>, Error> {
    let (t, bom) = Texts::new(patched, current);
    let mut theirs = side_edits(&t.base_full, &t.cur_full);
    let mut ours = patch_edits(patched, &t);

    if let Some((o, span)) =
        sliding_conflict(&t.base_full, &theirs, &t.cur_full, &ours, &t.new_full)
    {
        // The current lines of the window, with the insertions at its end.
        let at = |line, end| map_line(&theirs, line, end).min(t.cur.len());
        let cur_range = at(span.start, false)..at(span.end, true).max(at(span.start, false));
        let texts = (&t.base, &t.cur, &t.new);
        return Err(conflict(patched, texts, (&span, &cur_range), &[o], SLIDES));
    }

    // An insertion that could stand at several places (equal lines around them) and touches a
    // change of the other side where it is: moved to a place where it touches none, when every
    // place it could stand gives the same text (nothing of the other side inside its window).
    relocate(
        &t.base_full,
        (&t.new_full, &mut ours),
        (&t.cur_full, &theirs),
    );
    relocate(
        &t.base_full,
        (&t.cur_full, &mut theirs),
        (&t.new_full, &ours),
    );

    let mut text = String::with_capacity(current.len() + patched.text.len() / 8);
    if bom {
        text.push('\u{feff}');
    }
    let changes = weave(patched, &t, &theirs, &ours, &mut text)?;

    one_reading(patched, &t, (&theirs, &ours), plain, &text)?;

    Ok(ApplyResult {
        text,
        source: current.into(),
        path: patched.path.clone(),
        destination: patched.destination.clone(),
        hunks: hunk_reports(patched, &theirs, &changes),
        fuzz: patched.fuzz,
        diff: Vec::new(),
        segments: Vec::new(),
        changes,
        known: Default::default(),
    })
}

/// Carried without a conflict only where the hunks' lines map to one place. A near second
/// reading of the drift (see [`align::second_reading`]: an alignment one line worse than the
/// diff's) is no doubt when the current text, searched by the plain rules (the hunk as
/// written, its anchors, uniqueness), names one place and the edit there gives this very
/// `text`: both ways of locating the hunk agree. But every alignment of the drift as good as
/// the diff's must carry each change of the patch to the same current lines: else the merge
/// would guess (no plain apply overrides this).
fn one_reading(
    patched: &ApplyResult,
    t: &Texts<'_>,
    (theirs, ours): (&[Edit], &[Edit]),
    plain: Option<&str>,
    text: &str,
) -> Result<(), Error> {
    let windows = hunk_windows(patched);
    if let Some((r, near)) =
        align::second_reading(&t.base_full, &t.cur_full, theirs, ours, &windows)
    {
        if !near || plain != Some(text) {
            return Err(ambiguous(patched, &t.base, &t.cur, &r));
        }
    }
    let needs = forced_needs(patched, t);
    if let Some(r) = forced::unforced(&t.base_full, &t.cur_full, theirs, &windows, &needs) {
        return Err(ambiguous(patched, &t.base, &t.cur, &r));
    }
    Ok(())
}

/// Whether `plain` (a plain apply of the patch to `current`) settles a merge refused as "its
/// added lines could go before or after" (one insertion of the patch that could slide over a
/// change made since, and no other conflict): its text is exactly one of the two orderings
/// (the insertion before everything the current text changed in its window, or after it),
/// so the hunk's context in the current text says the order. Only the order: the rest of the
/// patch must merge by itself with one reading of the drift (as any merge, see
/// [`one_reading`]), and the base lines just outside the insertion's window must each stand
/// at one current line in every reading of the drift (else a reading that moves the window's
/// lines, or drops them, puts the insertion at a place neither ordering names).
pub(crate) fn order_settled(patched: &ApplyResult, current: &str, plain: &str) -> bool {
    let (t, _) = Texts::new(patched, current);
    let Some((orders, w)) = orderings(patched, &t, current) else {
        return false;
    };
    if !orders.iter().any(|o| o == plain) {
        return false;
    }
    let theirs = side_edits(&t.base_full, &t.cur_full);
    let ours = patch_edits(patched, &t);
    let windows = hunk_windows(patched);
    if let Some((_, near)) =
        align::second_reading(&t.base_full, &t.cur_full, &theirs, &ours, &windows)
    {
        if !near {
            return false;
        }
    }
    // The insertion's own need is the order, settled here; every other must be forced.
    let mut needs = forced_needs(patched, &t);
    needs.retain(|(_, _, n)| !matches!(*n, forced::Need::Cut(p) if w.start <= p && p <= w.end));
    let bounds: Vec<usize> = [w.start.checked_sub(1), Some(w.end)]
        .into_iter()
        .flatten()
        .filter(|&i| i < t.base_full.len())
        .collect();
    forced::unforced(&t.base_full, &t.cur_full, &theirs, &windows, &needs).is_none()
        && forced::fixed_lines(&t.base_full, &t.cur_full, &theirs, &bounds)
}

/// The two orderings of [`order_settled`] and the insertion's slide window (base lines), or
/// `None` for any other refusal, or when the rest of the patch does not merge by itself.
fn orderings(
    patched: &ApplyResult,
    t: &Texts<'_>,
    current: &str,
) -> Option<([String; 2], Range<usize>)> {
    let bom = strip_bom(current).0;
    let mut theirs = side_edits(&t.base_full, &t.cur_full);
    let mut ours = patch_edits(patched, t);
    let (k, w, _) = sliding_insertion(&t.base_full, &theirs, &t.cur_full, &ours, &t.new_full)?;
    let o = ours.remove(k);
    // The rest of the patch must merge without a guess of its own, and stay off the window
    // (so the window's lines in the merged text are the current text's).
    if sliding_conflict(&t.base_full, &theirs, &t.cur_full, &ours, &t.new_full).is_some()
        || ours
            .iter()
            .any(|e| e.base.start <= w.end && e.base.end >= w.start)
    {
        return None;
    }
    relocate(
        &t.base_full,
        (&t.new_full, &mut ours),
        (&t.cur_full, &theirs),
    );
    relocate(
        &t.base_full,
        (&t.cur_full, &mut theirs),
        (&t.new_full, &ours),
    );
    if ours
        .iter()
        .any(|e| e.base.start <= w.end && e.base.end >= w.start)
    {
        return None;
    }
    let mut rest = String::new();
    weave(patched, t, &theirs, &ours, &mut rest).ok()?;
    let merged = Lines::split(&rest);
    let shift = delta(
        &ours
            .iter()
            .filter(|e| e.base.end < w.start)
            .cloned()
            .collect::<Vec<_>>(),
    );
    let at = |line: usize| {
        usize::try_from(line as isize + shift)
            .ok()
            .filter(|&l| l <= merged.len())
    };
    // Before everything of the current text in the window, and after it.
    let (before, after) = (
        at(map_line(&theirs, w.start, false))?,
        at(map_line(&theirs, w.end, true))?,
    );
    // The insertion at base place `q` of its window: the same lines of the patched base,
    // counted from there (a block that slides comes out rotated, as `relocate` moves it).
    let p = o.base.start;
    let block = |q: usize| {
        let (s, e) = (o.side.start + q, o.side.end + q);
        (s >= p && e - p <= t.new.len()).then(|| t.new.slice(s - p, e - p))
    };
    let with_block = |l: usize, block: &str| {
        let mut s = String::with_capacity(rest.len() + block.len() + 3);
        if bom {
            s.push('\u{feff}');
        }
        s.push_str(merged.slice(0, l));
        s.push_str(block);
        s.push_str(merged.slice(l, merged.len()));
        s
    };
    let orders = [
        with_block(before, block(w.start)?),
        with_block(after, block(w.end)?),
    ];
    Some((orders, w))
}

/// What [`forced::unforced`] checks for each change of the patch: the base lines it really
/// changes (the lines it removes and adds back at its start and end left out), and their first
/// and last line, or, for a pure insertion, its place.
fn forced_needs(patched: &ApplyResult, t: &Texts<'_>) -> Vec<(usize, Range<usize>, forced::Need)> {
    let mut needs = Vec::new();
    for c in &patched.changes {
        let (o, n) = (c.old_lines(), c.new_lines());
        let (mut s, mut e, mut ns, mut ne) = (o.start, o.end, n.start, n.end);
        while s < e && ns < ne && t.base_full.get(s) == t.new_full.get(ns) {
            s += 1;
            ns += 1;
        }
        while s < e && ns < ne && t.base_full.get(e - 1) == t.new_full.get(ne - 1) {
            e -= 1;
            ne -= 1;
        }
        let hunk = c.hunk_index();
        if s < e {
            needs.push((hunk, s..e, forced::Need::Line(s)));
            if e - 1 > s {
                needs.push((hunk, s..e, forced::Need::Line(e - 1)));
            }
        } else if ns < ne {
            needs.push((hunk, s..s, forced::Need::Cut(s)));
        }
    }
    needs
}

/// The base lines each hunk of `patched` was located on (0-based ranges).
fn hunk_windows(patched: &ApplyResult) -> Vec<Range<usize>> {
    patched
        .hunks
        .iter()
        .map(|h| {
            let start = (h.old_start as usize).saturating_sub(1);
            start..start + h.old_len as usize
        })
        .collect()
}

/// The patch's edits of the base: its runs of `-` and `+` lines, each narrowed to the lines it
/// really changes (a run may remove and re-add equal lines, as diff writers do around blank
/// lines and braces): the merge then claims only those base lines, as a version-control merge
/// would.
fn patch_edits(patched: &ApplyResult, t: &Texts<'_>) -> Vec<Edit> {
    patched
        .changes
        .iter()
        .flat_map(|c| {
            let (old_lines, new_lines) = (c.old_lines(), c.new_lines());
            let old = &t.base_full[old_lines.clone()];
            let new = &t.new_full[new_lines.clone()];
            let hunk = c.hunk_index();
            side_edits(old, new).into_iter().map(move |e| Edit {
                base: e.base.start + old_lines.start..e.base.end + old_lines.start,
                side: e.side.start + new_lines.start..e.side.end + new_lines.start,
                hunk,
            })
        })
        .collect()
}

/// The next cluster of edits from `theirs[*i..]` and `ours[*j..]`: the edits of both sides
/// that interact, transitively, in base order (at one place, an insertion before a range that
/// starts there). Advances `i` and `j` past it and returns its base lines; `None` when both
/// sides are done.
fn next_cluster(
    theirs: &[Edit],
    ours: &[Edit],
    i: &mut usize,
    j: &mut usize,
) -> Option<Range<usize>> {
    let mut span = match (theirs.get(*i), ours.get(*j)) {
        (Some(t), Some(o)) if (t.base.start, t.base.end) <= (o.base.start, o.base.end) => {
            t.base.clone()
        }
        (Some(t), None) => t.base.clone(),
        (_, Some(o)) => o.base.clone(),
        (None, None) => return None,
    };
    loop {
        let mut grew = false;
        for (edits, k) in [(theirs, &mut *i), (ours, &mut *j)] {
            while let Some(e) = edits.get(*k).filter(|e| interact(&e.base, &span)) {
                span = span.start.min(e.base.start)..span.end.max(e.base.end);
                *k += 1;
                grew = true;
            }
        }
        if !grew {
            return Some(span);
        }
    }
}

/// Writes the merged text after `text` (the BOM, if any): the base lines neither side
/// changed, the current text's changes, and the patch's; returns the patch's changes as the
/// result's edit script. A cluster where both sides changed lines differently is a
/// `CONFLICT`.
fn weave(
    patched: &ApplyResult,
    t: &Texts<'_>,
    theirs: &[Edit],
    ours: &[Edit],
    text: &mut String,
) -> Result<Vec<Change>, Error> {
    let mut changes = Vec::new();
    let (mut b, mut out_line) = (0usize, 0usize); // next base line to copy; lines written
    let (mut i, mut j) = (0usize, 0usize);
    loop {
        let (i0, j0) = (i, j);
        let Some(span) = next_cluster(theirs, ours, &mut i, &mut j) else {
            break;
        };
        let (th, o) = (&theirs[i0..i], &ours[j0..j]);
        // Unchanged base lines before the cluster, as the current text has them.
        let cur_start = (span.start as isize + delta(&theirs[..i0])) as usize;
        text.push_str(t.base.slice(b, span.start));
        out_line += span.start - b;
        let cur_range = cur_start..cur_start + (span.len() as isize + delta(th)) as usize;
        if o.is_empty() {
            // Only the current text changed here: keep its lines.
            text.push_str(t.cur.slice(cur_range.start, cur_range.end));
            out_line += cur_range.len();
        } else {
            let ours_text = rebuild(&t.base_full, &t.new, span.clone(), o);
            if !th.is_empty() {
                // Both sides changed these lines: a conflict, unless they made the same change
                // and the current text's change could not as well be at another place (over
                // equal lines, where the patch's would then be a second change).
                let same = rebuild(&t.base_full, &t.cur, span.clone(), th) == ours_text;
                let why = if !same {
                    Some(OVERLAPS)
                } else if th.iter().any(|e| can_slide(&t.base_full, &t.cur_full, e)) {
                    Some(SAME_SLIDES)
                } else {
                    None
                };
                if let Some(why) = why {
                    let texts = (&t.base, &t.cur, &t.new);
                    return Err(conflict(patched, texts, (&span, &cur_range), o, why));
                }
            }
            let n = Lines::split(&ours_text).len();
            let new_lines = out_line..out_line + n;
            changes.push(Change::from_indices(cur_range, new_lines, o[0].hunk));
            text.push_str(&ours_text);
            out_line += n;
        }
        b = span.end;
    }
    text.push_str(t.base.slice(b, t.base.len()));
    Ok(changes)
}

/// The hunk reports of the merged result: each hunk's lines as the current text has them,
/// and where they are in the merged text.
fn hunk_reports(patched: &ApplyResult, theirs: &[Edit], changes: &[Change]) -> Vec<HunkReport> {
    patched
        .hunks
        .iter()
        .map(|h| {
            let start = h.old_start as usize - 1;
            let old_start = map_line(theirs, start, true);
            let old_end = map_line(theirs, start + h.old_len as usize, false).max(old_start);
            let new_start = map_line_through(changes, old_start);
            HunkReport {
                old_start: old_start as u32 + 1,
                old_len: (old_end - old_start) as u32,
                new_start: new_start as u32 + 1,
                merged: true,
                ..h.clone()
            }
        })
        .collect()
}

/// Every line with its terminator.
fn full_lines<'a>(l: &Lines<'a>) -> Vec<&'a str> {
    (0..l.len()).map(|i| l.slice(i, i + 1)).collect()
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
