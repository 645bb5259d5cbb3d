//! Already-applied hunks: the old side is nowhere, but the new side is found uniquely where
//! the old side would have been searched, and nothing closer to the old side exists elsewhere
//! (SPEC §3.2). Such a hunk leaves the text unchanged, so that a retried patch is idempotent.
//! A line the hunk removes that is still in the file next to the new side's place means the
//! change is not there (the old side fits with a line the model left out).

use std::ops::Range;

use super::diagnose::{closest_region, similarity};
use super::index::{Budget, LineIndex, Pattern};
use super::search::{candidates, starts_from, starts_until};
use super::{finish, new_side, old_side, Level, Placement, Search};
use crate::error::Error;
use crate::patch::LineKind;

/// The placement of an already-applied hunk, or `None` when it is not (simply) applied.
pub(crate) fn already_applied(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    used: usize,
    budget: &mut Budget,
) -> Result<Option<Placement>, Error> {
    let hunk = s.cx.hunk;
    if !hunk.has_deletions() {
        return Ok(None);
    }
    if hunk.lines[..used]
        .iter()
        .all(|l| l.kind == LineKind::Delete)
    {
        return Ok(None);
    }
    let n = index.len();
    // The old side must be nowhere: where it exists (even overlapping another hunk), the hunk
    // is not applied. Its pattern is freed before the new side's is built.
    let mut old_pattern = Pattern::new(old_side(hunk, used));
    if candidates(index, &mut old_pattern, s.opts, 0..n, budget)?.is_some() {
        return Ok(None);
    }
    drop(old_pattern);
    let Some((range, level, found)) = new_side_found(index, s, used, budget)? else {
        return Ok(None);
    };
    let new_len = s.cx.hunk.lines[..used]
        .iter()
        .filter(|l| l.kind != LineKind::Delete)
        .count();
    let [at] = found[..] else {
        return Ok(None);
    };
    if closer_elsewhere(index, s, used, at, new_len, range)
        || removed_lines_near(index, s, used, at, new_len)
    {
        return Ok(None);
    }
    let p = Placement {
        start: at,
        old_len: new_len,
        used_lines: used,
        level,
        line_levels: Box::default(),
        fuzz: level.fuzz() + s.anchor.map_or(0, |a| a.fuzz),
        candidates: 1,
        // Reported as applied only: where it was found does not matter to the caller.
        out_of_order: false,
        end_of_file: false,
        already_applied: true,
        anchor_ignored: false,
        context_relaxed: false,
        leans_on_order: false,
        bend: None,
    };
    Ok(Some(finish(index, &new_side(hunk, used), p, s.opts)))
}

/// A range searched, the level that found candidates there, and the candidates.
type Found = (Range<usize>, Level, Vec<usize>);

/// Where the new side of the first `used` body lines is found where the old side would have
/// been searched: the anchor's block, else the region, then the whole file. The first range
/// with candidates decides: (that range, the level, the candidates). The search pattern is
/// freed before the checks that follow, which build their own (a long hunk's is megabytes).
fn new_side_found(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    used: usize,
    budget: &mut Budget,
) -> Result<Option<Found>, Error> {
    let n = index.len();
    let new = new_side(s.cx.hunk, used);
    let (first, second) = match s.anchor {
        Some(a) => (
            starts_from(a, new.len())..(starts_until(index, a) + new.len()).min(n),
            None,
        ),
        None if s.region_start > 0 => (s.region_start..n, Some(0..n)),
        None => (0..n, None),
    };
    let mut pattern = Pattern::new(new);
    for range in std::iter::once(first).chain(second) {
        if let Some((level, found)) =
            candidates(index, &mut pattern, s.opts, range.clone(), budget)?
        {
            return Ok(Some((range, level, found)));
        }
    }
    Ok(None)
}

/// True when some place of `range` away from the new side at `at` looks more like the old side
/// than that place does: the old side then most likely means that other place (the change is
/// not applied, its lines are wrong).
fn closer_elsewhere(
    index: &mut LineIndex<'_>,
    s: &Search<'_, '_>,
    used: usize,
    at: usize,
    new_len: usize,
    range: Range<usize>,
) -> bool {
    let old = old_side(s.cx.hunk, used);
    let here = similarity_at(index, s, used, at);
    let mut budget = Budget::new(2_000_000 + 4 * index.len() as u64);
    let exclude = at..at + new_len.max(1);
    let Some(r) = closest_region(index, &old, range, Some(exclude), &mut budget) else {
        return false;
    };
    let lines = index.lines();
    let there = old
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let j = r.start + k;
            if j < lines.len() {
                fine_similarity(lines.get(j), l)
            } else {
                0.0
            }
        })
        .sum::<f64>()
        / old.len().max(1) as f64;
    there > here + 1e-9
}

/// True when a line the hunk removes (one its new side does not keep) is still in the file
/// next to the new side's place at `at`, within the old side's length (and the two lines a
/// gap reading may leave out) on either side: the old side is then there with lines the patch
/// left out or miscopied, so the change is not applied (a pure deletion's new side is only its
/// context, which stays in the file whether or not the line went). Lines are compared with
/// their surrounding whitespace trimmed, through sets: linear in the hunk and the window.
fn removed_lines_near(
    index: &LineIndex<'_>,
    s: &Search<'_, '_>,
    used: usize,
    at: usize,
    new_len: usize,
) -> bool {
    use rustc_hash::FxHashSet;
    let body = &s.cx.hunk.lines[..used];
    let kept: FxHashSet<&str> = body
        .iter()
        .filter(|l| l.kind != LineKind::Delete)
        .map(|l| l.text.trim())
        .collect();
    let m = body.iter().filter(|l| l.kind != LineKind::Add).count() + 2;
    let lines = index.lines();
    let near: FxHashSet<&str> = (at.saturating_sub(m)..(at + new_len + m).min(index.len()))
        .map(|i| lines.get(i).trim())
        .collect();
    body.iter()
        .filter(|l| l.kind == LineKind::Delete)
        .map(|l| l.text.trim())
        .any(|t| !t.is_empty() && !kept.contains(t) && near.contains(t))
}

/// Line similarity that also sees single characters: bigrams alone cannot tell
/// `compute(x)` from `compute(y)` when comparing both to `compute( x )`.
fn fine_similarity(a: &str, b: &str) -> f64 {
    (similarity(a, b) + char_dice(a, b)) / 2.0
}

/// Dice coefficient of the non-space characters of two lines (as multisets).
fn char_dice(a: &str, b: &str) -> f64 {
    let mut x: Vec<char> = a.chars().filter(|c| !c.is_whitespace()).collect();
    let mut y: Vec<char> = b.chars().filter(|c| !c.is_whitespace()).collect();
    if x.is_empty() && y.is_empty() {
        return 1.0;
    }
    x.sort_unstable();
    y.sort_unstable();
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * common as f64 / (x.len() + y.len()) as f64
}

/// How many added lines on each side of a removed line's place in its run [`similarity_at`]
/// compares it with.
const NEAR_ADDED: usize = 8;

/// How much the old side looks like the file at the new side's place: context lines against
/// their file lines, each `-` line against the most similar line its change added near it.
fn similarity_at(index: &LineIndex<'_>, s: &Search<'_, '_>, used: usize, at: usize) -> f64 {
    let lines = index.lines();
    let body = &s.cx.hunk.lines[..used];
    let mut total = 0.0;
    let mut count = 0usize;
    let mut f = at;
    let mut k = 0;
    while k < body.len() {
        if body[k].kind == LineKind::Context {
            total += similarity(
                lines.get(f.min(lines.len().saturating_sub(1))),
                &body[k].text,
            );
            count += 1;
            f += 1;
            k += 1;
            continue;
        }
        // One change: a run of `-` and `+` lines.
        let run_end = (k..body.len())
            .find(|&j| body[j].kind == LineKind::Context)
            .unwrap_or(body.len());
        let n_add = body[k..run_end]
            .iter()
            .filter(|l| l.kind == LineKind::Add)
            .count();
        let added: Vec<usize> = (f..f + n_add).filter(|&j| j < lines.len()).collect();
        let removed: Vec<&str> = body[k..run_end]
            .iter()
            .filter(|l| l.kind == LineKind::Delete)
            .map(|l| l.text.as_str())
            .collect();
        for (i, text) in removed.iter().enumerate() {
            // Each removed line against the added lines near its place in the run (the same
            // share of the way through it): linear in the run, not removed × added.
            let centre = i * added.len() / removed.len().max(1);
            let near =
                centre.saturating_sub(NEAR_ADDED)..(centre + NEAR_ADDED + 1).min(added.len());
            let best = added[near]
                .iter()
                .map(|&j| fine_similarity(lines.get(j), text))
                .fold(0.0, f64::max);
            total += best;
            count += 1;
        }
        f += n_add;
        k = run_end;
    }
    if count == 0 {
        0.0
    } else {
        total / count as f64
    }
}
